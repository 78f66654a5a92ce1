// P17: UI strings by language. Every language has every key (tsc checks it through
// `Dict`; web/tests/i18n.spec.mjs checks keys and {placeholders}). Messages use the
// ICU subset of locale/format.ts (plurals through Intl.PluralRules); numbers and
// dates go through Intl in the UI's language. Piece letters follow FIDE Laws
// Appendix C.3 (locale/san.ts).
import en, { type Dict, type Key } from './i18n/en';
import fi from './i18n/fi';
import th from './i18n/th';
import zh from './i18n/zh';
import ja from './i18n/ja';
import mr from './i18n/mr';
import { formatMessage, formatNumber, type Params } from './locale/format';
import { PIECE_LETTERS, ENGLISH, type Letters } from './locale/san';
import { setSetting, settings } from './settings';
import type { GameState } from './types';

export type { Key };

// `latin`: the name in Latin letters, shown beside it in the language picker, where
// a machine without that script's fonts would show only boxes (a <select>'s list is
// drawn with the system's fonts).
export interface Language { code: string; name: string; latin: string; dict: Dict }
export const LANGUAGES: Language[] = [
  { code: 'en', name: 'English', latin: 'English', dict: en },
  { code: 'fi', name: 'Suomi', latin: 'Finnish', dict: fi },
  { code: 'th', name: 'ไทย', latin: 'Thai', dict: th },
  { code: 'zh', name: '中文', latin: 'Chinese', dict: zh },
  { code: 'ja', name: '日本語', latin: 'Japanese', dict: ja },
  { code: 'mr', name: 'मराठी', latin: 'Marathi', dict: mr },
];

const known = (code: string | null | undefined): string | null => {
  const c = (code ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return LANGUAGES.some((l) => l.code === c) ? c : null;
};

// `?lang=xx` in the address (before or after the #), remembered in the settings.
// Returns the language it chose, or null when the address names none we have.
export function langFromAddress(loc: { search: string; hash: string } = location): string | null {
  const fromSearch = new URLSearchParams(loc.search).get('lang');
  const hashQuery = loc.hash.includes('?') ? loc.hash.slice(loc.hash.indexOf('?') + 1) : '';
  const code = known(fromSearch) ?? known(new URLSearchParams(hashQuery).get('lang'));
  if (code && settings.lang !== code) setSetting('lang', code);
  return code;
}

// The settings' language, else the browser's first language we have, else English.
export function currentLang(): string {
  const chosen = known(settings.lang);
  if (chosen) return chosen;
  const prefs = typeof navigator === 'undefined' ? [] : (navigator.languages?.length ? navigator.languages : [navigator.language]);
  for (const l of prefs) {
    const code = known(l);
    if (code) return code;
  }
  return 'en';
}

function dict(): Dict {
  return LANGUAGES.find((l) => l.code === currentLang())?.dict ?? en;
}

export function t(key: Key, params?: Params): string {
  return formatMessage(dict()[key] ?? en[key] ?? key, params, currentLang());
}

// Every string of the UI language, for loading the fonts that draw them.
export function allText(): string {
  return Object.values(dict()).join('');
}

export function hasKey(key: string): key is Key {
  return key in en;
}

export function num(n: number): string {
  return formatNumber(n, currentLang());
}

// A date (and time) in the UI language's format.
export function dateTime(d: Date): string {
  return new Intl.DateTimeFormat(currentLang(), { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

export function pieceLetters(): Letters {
  return PIECE_LETTERS[currentLang()] ?? ENGLISH;
}

// Player names as the server stores them for PGN (src/server/hub.cpp: "Anonymous",
// "Outpost level N"), in the UI's language; any other name as it is.
export function playerName(name: string | null | undefined): string {
  if (!name || name === 'Anonymous') return t('anonymous');
  const robot = /^Outpost level (\d+)$/.exec(name);
  return robot ? t('robotPlayerName', { level: Number(robot[1]) }) : name;
}

// A server error (docs/protocol.md: each carries a `code`) in the UI's language;
// the server's English message only for a code we do not know.
// A `bad_request` says precisely what is wrong (which field, which limit): its message
// is shown, in the server's words, after a word of the UI language.
export function errorText(code: string | undefined, message?: string): string {
  if (code === 'bad_request' && message) return t('err_bad_request_msg', { message });
  const key = `err_${code ?? ''}`;
  if (code && hasKey(key)) return t(key);
  return message || t('err_unknown', { code: code ?? '?' });
}

// P6: the end of a game in words, in the UI's language; the server's English
// `end` text when the status is one we do not know.
// A forfeit is one of two reasons, and the server's `end` says which: a first move
// not made (R14) or, later, a player who left the game (an abandonment claim).
export function endText(s: Pick<GameState, 'status' | 'winner' | 'end'>): string {
  // SPEC D9: the arbiter's decision, a win or a draw, and the arbiter's words.
  if (s.status === 'arbiter-decision') {
    const said = s.winner ? t('end_arbiter-decision', { winner: t(s.winner) }) : t('endArbiterDraw');
    const reason = (s as { arbiter_reason?: string }).arbiter_reason;
    return reason ? `${said}. ${t('endArbiterReason', { reason })}` : said;
  }
  const key = s.status === 'forfeit' && /left the game/.test(s.end) ? 'end_abandoned' : `end_${s.status}`;
  if (!hasKey(key)) return s.end || s.status;
  const winner = s.winner ? t(s.winner) : '';
  const loser = s.winner ? t(s.winner === 'white' ? 'black' : 'white') : '';
  return t(key, { winner, loser });
}
