// P17: fonts for the scripts a bare machine may lack (Thai, Devanagari, CJK), from
// Fontsource's Noto packages (OFL-1.1), loaded only for the UI language: each CSS
// file is its own chunk, fetched when that language is chosen (src/fonts/*.css,
// written by scripts/make-font-css.mjs). English and Finnish need none.
const loaders: Record<string, () => Promise<unknown>> = {
  th: () => import('./fonts/th.css'),
  mr: () => import('./fonts/mr.css'),
  zh: () => import('./fonts/zh.css'),
  ja: () => import('./fonts/ja.css'),
};

const loaded = new Set<string>();

export async function loadFonts(lang: string): Promise<void> {
  const load = loaders[lang];
  if (!load || loaded.has(lang)) return;
  loaded.add(lang);
  try { await load(); } catch { loaded.delete(lang); /* the system's fonts, then */ }
}
