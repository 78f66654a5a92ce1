// P17: UI strings by language. English is complete; the others fall back to it
// key by key. Piece letters follow FIDE Laws Appendix C.3 where the language has them.
import en, { type Key } from './i18n/en';
import fi from './i18n/fi';
import th from './i18n/th';
import zh from './i18n/zh';
import ja from './i18n/ja';
import mr from './i18n/mr';
import { settings } from './settings';
import type { GameState } from './types';

export type { Key };
type Dict = Partial<Record<Key, string>>;

export const LANGUAGES: Array<{ code: string; name: string; dict: Dict; letters?: Record<string, string> }> = [
  { code: 'en', name: 'English', dict: en },
  { code: 'fi', name: 'Suomi', dict: fi, letters: { K: 'K', Q: 'D', R: 'T', B: 'L', N: 'R' } },
  { code: 'th', name: 'ไทย', dict: th },
  { code: 'zh', name: '中文', dict: zh },
  { code: 'ja', name: '日本語', dict: ja },
  { code: 'mr', name: 'मराठी', dict: mr },
];

export function currentLang(): string {
  if (settings.lang && LANGUAGES.some((l) => l.code === settings.lang)) return settings.lang;
  for (const l of navigator.languages ?? [navigator.language]) {
    const code = l.slice(0, 2).toLowerCase();
    if (LANGUAGES.some((x) => x.code === code)) return code;
  }
  return 'en';
}

export function t(key: Key, params?: Record<string, string | number>): string {
  const lang = LANGUAGES.find((l) => l.code === currentLang());
  let s = lang?.dict[key] ?? en[key] ?? key;
  if (params) for (const [k, v] of Object.entries(params)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

export function pieceLetters(): Record<string, string> | undefined {
  return LANGUAGES.find((l) => l.code === currentLang())?.letters;
}

// P6: the end of a game in words, in the UI's language; the server's English
// `end` text when the status is one we do not know.
export function endText(s: GameState): string {
  const key = `end_${s.status}` as Key;
  if (!(key in en)) return s.end || s.status;
  const winner = s.winner ? t(s.winner) : '';
  const loser = s.winner ? t(s.winner === 'white' ? 'black' : 'white') : '';
  return t(key, { winner, loser });
}
