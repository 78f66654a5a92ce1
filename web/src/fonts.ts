// P17: fonts for the scripts a bare machine may lack (Thai, Devanagari, CJK), from
// Fontsource's Noto packages (OFL-1.1), loaded only for the UI language: each CSS
// file is its own chunk, fetched when that language is chosen (src/fonts/*.css,
// written by scripts/make-font-css.mjs). English and Finnish need none.
//
// The page waits (up to WAIT_MS) for the faces before it first renders, with every
// string of the language as the sample: Chromium was seen to keep the system's
// fallback (boxes) in nowrap boxes laid out before their font or CJK slice had
// arrived, even after it had loaded (tests/i18n-browser.spec.mjs checks each text
// node's font). The UI's own strings need 16 slices of Noto Sans SC (~470 KiB) and
// 33 of Noto Sans JP (~340 KiB); other characters come in slices as they appear.
const FONTS: Record<string, { css: () => Promise<unknown>; family: string; weights: number[] }> = {
  th: { css: () => import('./fonts/th.css'), family: 'Noto Sans Thai', weights: [400, 700] },
  mr: { css: () => import('./fonts/mr.css'), family: 'Noto Sans Devanagari', weights: [400, 700] },
  zh: { css: () => import('./fonts/zh.css'), family: 'Noto Sans SC', weights: [400] },
  ja: { css: () => import('./fonts/ja.css'), family: 'Noto Sans JP', weights: [400] },
};
const WAIT_MS = 3000;
const loaded = new Set<string>();

export async function loadFonts(lang: string, sample: string): Promise<void> {
  const f = FONTS[lang];
  if (!f || loaded.has(lang)) return;
  const work = (async () => {
    await f.css();
    await Promise.all(f.weights.map((w) => document.fonts.load(`${w} 16px "${f.family}"`, sample)));
    loaded.add(lang);
  })().catch(() => { /* the system's fonts, then */ });
  await Promise.race([work, new Promise((r) => setTimeout(r, WAIT_MS))]);
}
