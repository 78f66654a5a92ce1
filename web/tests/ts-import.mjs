// Imports TypeScript modules of web/src into node tests without a bundler: each
// file and the relative modules it imports are transpiled with TypeScript's own
// transpileModule (types dropped, nothing checked: `npm run build` runs tsc) into a
// temporary folder as .mjs, then imported. Only for pure modules (no DOM, no CSS).
// SPDX-License-Identifier: GPL-3.0-or-later
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const OUT = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-ts-'));
process.on('exit', () => fs.rmSync(OUT, { recursive: true, force: true }));
const done = new Map();

function compile(file) {
  if (done.has(file)) return done.get(file);
  const rel = path.relative(path.join(path.dirname(file), '..', '..'), file);
  const target = path.join(OUT, rel.replace(/[\\/]/g, '__').replace(/\.ts$/, '.mjs'));
  done.set(file, target);
  const source = fs.readFileSync(file, 'utf8');
  let js = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false },
    fileName: file,
  }).outputText;
  js = js.replace(/(from\s+|import\s*\(\s*)(['"])(\.{1,2}\/[^'"]+)\2/g, (m, pre, q, spec) => {
    const dep = path.resolve(path.dirname(file), spec.endsWith('.ts') ? spec : `${spec}.ts`);
    if (!fs.existsSync(dep)) throw new Error(`${file}: cannot resolve ${spec}`);
    return `${pre}${q}./${path.basename(compile(dep))}${q}`;
  });
  fs.writeFileSync(target, js);
  return target;
}

export async function importTs(file) {
  return import(pathToFileURL(compile(path.resolve(file))).href);
}
