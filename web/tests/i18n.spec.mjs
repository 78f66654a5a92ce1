// P17: every language has every key that English has, keeps each {placeholder}
// English uses, formats without leftovers; every server error code
// (docs/protocol.md) and every game status (src/chess/game.cpp) has words.
// No browser and no server: the dictionaries are read through tests/ts-import.mjs.
// SPDX-License-Identifier: GPL-3.0-or-later
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importTs } from './ts-import.mjs';

const WEB = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = path.join(WEB, '..');
const LANGS = ['en', 'fi', 'th', 'mr', 'zh', 'ja'];
const dicts = Object.fromEntries(await Promise.all(LANGS.map(async (l) =>
  [l, (await importTs(path.join(WEB, 'src', 'i18n', `${l}.ts`))).default])));
const { formatMessage, placeholders } = await importTs(path.join(WEB, 'src', 'locale', 'format.ts'));
const en = dicts.en;

test('P17: the language list in i18n.ts is the one tested here', () => {
  const src = fs.readFileSync(path.join(WEB, 'src', 'i18n.ts'), 'utf8');
  const codes = [...src.matchAll(/\{ code: '(\w+)'/g)].map((m) => m[1]);
  assert.deepEqual([...codes].sort(), [...LANGS].sort());
});

for (const lang of LANGS.filter((l) => l !== 'en')) {
  test(`P17: ${lang} has every English key, and no other`, () => {
    const missing = Object.keys(en).filter((k) => typeof dicts[lang][k] !== 'string' || !dicts[lang][k].trim());
    const extra = Object.keys(dicts[lang]).filter((k) => !(k in en));
    assert.deepEqual(missing, [], `${lang} lacks: ${missing.join(', ')}`);
    assert.deepEqual(extra, [], `${lang} has keys English has not: ${extra.join(', ')}`);
  });

  test(`P17: ${lang} keeps every {placeholder} of the English text`, () => {
    const bad = [];
    for (const [k, text] of Object.entries(en)) {
      const want = [...placeholders(text)].sort();
      const got = [...placeholders(dicts[lang][k] ?? '')].sort();
      if (want.join() !== got.join()) bad.push(`${k}: {${want}} vs {${got}}`);
    }
    assert.deepEqual(bad, []);
  });
}

test('P17: every message of every language formats with its parameters, leaving no braces', () => {
  for (const lang of LANGS) {
    for (const [k, text] of Object.entries(dicts[lang])) {
      const params = Object.fromEntries([...placeholders(en[k])].map((p) => [p, 7]));
      const out = formatMessage(text, params, lang);
      assert.ok(!/[{}]/.test(out), `${lang}.${k}: "${out}"`);
    }
  }
});

test('P17: plurals follow Intl.PluralRules; numbers in the locale\'s format', () => {
  assert.equal(formatMessage(en.movesN, { n: 1 }, 'en'), '1 move');
  assert.equal(formatMessage(en.movesN, { n: 2 }, 'en'), '2 moves');
  assert.equal(formatMessage(dicts.fi.movesN, { n: 1 }, 'fi'), '1 siirto');
  assert.equal(formatMessage(dicts.fi.movesN, { n: 40 }, 'fi'), '40 siirtoa');
  assert.equal(formatMessage(en.daysN, { n: 3 }, 'en'), '3 days');
  assert.equal(formatMessage('{n, plural, =0 {none} other {#}}', { n: 0 }, 'en'), 'none');
  assert.equal(formatMessage('{n}', { n: 12345 }, 'fi'), '12\u00a0345');
  assert.equal(formatMessage('{n}', { n: 1500 }, 'en'), '1500'); // Elo: no grouping under five digits
  // A malformed template comes back as text rather than throwing.
  assert.equal(formatMessage('{n, plural, one {x}', { n: 1 }, 'en'), '{n, plural, one {x}');
  assert.equal(formatMessage('{missing}', {}, 'en'), '{missing}');
});

test('P17: every error code of docs/protocol.md is worded', () => {
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'protocol.md'), 'utf8');
  // The table that follows the paragraph beginning "Codes", one code per row.
  const table = /^Codes[^\n]*(?:\n[^|\n][^\n]*)*\n+((?:\|[^\n]*\n)+)/m.exec(doc);
  assert.ok(table, 'docs/protocol.md has a table of error codes after "Codes"');
  const codes = [...table[1].matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
  assert.ok(codes.length >= 9, `codes: ${codes}`);
  for (const c of codes) assert.ok(`err_${c}` in en, `no err_${c}`);
});

test('P6, P17: every game status id of src/chess/game.cpp has an end-of-game sentence', () => {
  const src = fs.readFileSync(path.join(ROOT, 'src', 'chess', 'game.cpp'), 'utf8');
  const list = /"ongoing",([\s\S]*?)\};/.exec(src);
  assert.ok(list, 'status id table found in game.cpp');
  const ids = [...list[1].matchAll(/"([a-z-]+)"/g)].map((m) => m[1]);
  assert.ok(ids.length >= 15, `ids: ${ids}`);
  for (const id of ids) assert.ok(`end_${id}` in en, `no end_${id}`);
});
