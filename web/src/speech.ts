// P16: moves in words, for the aria-live region and optional speech synthesis.
// Plain: "White knight g1 to f3", "Black pawn e5 takes d4", "White castles kingside".
// FIDE phonetic (Laws, Appendix for visually impaired players): "Springer Gustav eins – Felix drei".
import { settings } from './settings';
import { currentLang, t } from './i18n';

const FILES = ['Anna', 'Bella', 'Cesar', 'David', 'Eva', 'Felix', 'Gustav', 'Hector'];
const RANKS = ['eins', 'zwei', 'drei', 'vier', 'fuenf', 'sechs', 'sieben', 'acht'];
const PH_PIECE: Record<string, string> = { K: 'Koenig', Q: 'Dame', R: 'Turm', B: 'Laeufer', N: 'Springer', P: 'Bauer' };
export type PieceRole = 'king' | 'queen' | 'rook' | 'bishop' | 'knight' | 'pawn';
const ROLE: Record<string, PieceRole> = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn' };

// "white knight" for a FEN letter (N), "black pawn" (p); '' for anything else.
export function pieceWords(fenLetter: string): string {
  const role = ROLE[fenLetter.toUpperCase()];
  if (!role) return '';
  return `${t(fenLetter === fenLetter.toUpperCase() ? 'white' : 'black')} ${t(`piece_${role}`)}`;
}

// The role of a FEN letter in words (a screen reader's "knight").
export function roleWord(fenLetter: string): string {
  const role = ROLE[fenLetter.toUpperCase()];
  return role ? t(`piece_${role}`) : '';
}

const phSquare = (sq: string) => `${FILES[sq.charCodeAt(0) - 97]} ${RANKS[parseInt(sq[1], 10) - 1]}`;

// A file, a rank and a square as announced: "e", "4", "e4", or with the FIDE
// phonetic setting "Eva", "vier", "Eva vier".
export const fileWord = (f: string) => (settings.phonetic ? FILES[f.charCodeAt(0) - 97] ?? f : f);
export const rankWord = (r: number) => (settings.phonetic ? RANKS[r - 1] ?? String(r) : String(r));
export const squareWords = (sq: string) => (settings.phonetic && /^[a-h][1-8]$/.test(sq) ? phSquare(sq) : sq);

export function describeMove(uci: string, san: string, whiteMoved: boolean): string {
  const from = uci.slice(0, 2); const to = uci.slice(2, 4);
  const letter = /^[KQRBN]/.test(san) ? san[0] : san.startsWith('O-O') ? 'K' : 'P';
  const promoMatch = /=?([QRBN])/.exec(san.replace(/^[KQRBN]/, ''));
  const promo = letter === 'P' && promoMatch ? promoMatch[1] : '';
  const capture = san.includes('x');
  const mate = san.includes('#'); const check = !mate && san.includes('+');
  if (settings.phonetic) {
    let s: string;
    if (san.startsWith('O-O-O')) s = 'Lange Rochade';
    else if (san.startsWith('O-O')) s = 'Kurze Rochade';
    else {
      s = `${PH_PIECE[letter]} ${phSquare(from)} ${capture ? 'schlaegt' : '–'} ${phSquare(to)}`;
      if (promo) s += ` ${PH_PIECE[promo]}`;
    }
    if (mate) s += ' Matt'; else if (check) s += ' Schach';
    return s;
  }
  const side = t(whiteMoved ? 'white' : 'black');
  let s: string;
  if (san.startsWith('O-O-O')) s = t('sayCastleLong', { side });
  else if (san.startsWith('O-O')) s = t('sayCastleShort', { side });
  else {
    s = t(capture ? 'sayCapture' : 'sayMove', { side, piece: t(`piece_${ROLE[letter]}`), from, to });
    if (promo) s += ', ' + t('sayPromote', { piece: t(`piece_${ROLE[promo]}`) });
  }
  if (mate) s += ', ' + t('sayMate'); else if (check) s += ', ' + t('sayCheck');
  return s;
}

let live: HTMLElement | null = null;
// Announces to screen readers (aria-live) and, if chosen, by speech synthesis.
export function announce(text: string) {
  if (!live) {
    live = document.createElement('div');
    live.id = 'announcer';
    live.className = 'sr-only';
    live.setAttribute('aria-live', 'polite');
    live.setAttribute('role', 'status');
    document.body.append(live);
  }
  live.textContent = text;
  if (settings.speak) speak(text);
}

// ---- speech synthesis (Web Speech API), feature-detected -------------------

const speechApi = (): SpeechSynthesis | null =>
  typeof window !== 'undefined' && 'speechSynthesis' in window && typeof window.SpeechSynthesisUtterance === 'function'
    ? window.speechSynthesis : null;

// The browser's voice for a language ("fi": fi-FI or fi), or null. Chromium fills
// its list after the page loads; getVoices() is asked each time.
export function voiceFor(lang: string): SpeechSynthesisVoice | null {
  const api = speechApi();
  if (!api) return null;
  let voices: SpeechSynthesisVoice[] = [];
  try { voices = api.getVoices() ?? []; } catch { return null; }
  const base = (l: string) => l.toLowerCase().split(/[-_]/)[0];
  return voices.find((v) => v.lang.toLowerCase() === lang.toLowerCase())
    ?? voices.find((v) => base(v.lang) === base(lang)) ?? null;
}

// The voice announcements are spoken with: the UI language's. The FIDE phonetic
// words are German (the Laws' appendix), so where the UI language has no voice, a
// German one reads them. Null: nothing is spoken (the aria-live text still is there).
export function announcementVoice(): SpeechSynthesisVoice | null {
  return voiceFor(currentLang()) ?? (settings.phonetic ? voiceFor('de') : null);
}

export function speechAvailable(): boolean {
  return announcementVoice() !== null;
}

function speak(text: string) {
  const api = speechApi();
  const voice = announcementVoice();
  if (!api || !voice) return;
  try {
    const u = new SpeechSynthesisUtterance(text);
    u.voice = voice;
    u.lang = voice.lang;
    api.cancel();
    api.speak(u);
  } catch { /* a browser that refuses to speak: the aria-live text is there */ }
}
