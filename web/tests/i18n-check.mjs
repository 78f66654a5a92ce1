// What a page shows that is still in English (P17), for the browser tests of each
// language: every visible text, aria-label, title and placeholder, and the English
// strings among them that the language has its own words for.
// SPDX-License-Identifier: GPL-3.0-or-later
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importTs } from './ts-import.mjs';

const WEB = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
export const LANGS = ['en', 'fi', 'th', 'mr', 'zh', 'ja'];
export const dicts = Object.fromEntries(await Promise.all(LANGS.map(async (l) =>
  [l, (await importTs(path.join(WEB, 'src', 'i18n', `${l}.ts`))).default])));

// Every visible text, aria-label, title and placeholder under `root`.
export async function texts(page, root) {
  return page.locator(root).first().evaluate((el) => {
    const out = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const p = n.parentElement;
      if (p && p.closest('[hidden]')) continue;
      const s = n.textContent.trim();
      if (s) out.push(s);
    }
    for (const e of el.querySelectorAll('[aria-label],[title],[placeholder]')) {
      for (const a of ['aria-label', 'title', 'placeholder']) { const v = e.getAttribute(a); if (v) out.push(v.trim()); }
    }
    return out;
  });
}

// English texts on the page that the language has its own words for (and any
// message left unformatted, with its braces).
export function leftInEnglish(found, lang) {
  const raw = found.filter((x) => /\{[^}]*\}/.test(x));
  if (raw.length) return raw;
  const en = dicts.en; const d = dicts[lang];
  const english = new Set(Object.keys(en).filter((k) => d[k] !== en[k] && !/[{}]/.test(en[k])).map((k) => en[k]));
  return found.filter((s) => english.has(s));
}
