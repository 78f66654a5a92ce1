// R17, P14, P17 (FIDE Laws Appendix C.3): piece letters by language, for the move
// list (English SAN → the language's letters) and for the move box (what a player
// types → English SAN, which the server understands). Pure: no DOM, no settings.
//
// A language's letters can collide with English ones (Finnish R is the knight,
// ratsu; English R is the rook). What is typed is read first in the language's
// letters, then in English letters; `resolveTyped` keeps the first reading that is a
// legal move in the position (from the legal destinations the server sends).
export type Role = 'K' | 'Q' | 'R' | 'B' | 'N';
export type Letters = Record<Role, string>;

const ROLES: Role[] = ['K', 'Q', 'R', 'B', 'N'];
export const ENGLISH: Letters = { K: 'K', Q: 'Q', R: 'R', B: 'B', N: 'N' };

// What each language writes. Sources are in the language files' headers (web/src/i18n/).
// Finnish: kuningas, daami, torni, lähetti, ratsu. Thai, Marathi, Chinese and
// Japanese chess texts write the English letters (or figurines).
export const PIECE_LETTERS: Record<string, Letters> = {
  en: ENGLISH,
  fi: { K: 'K', Q: 'D', R: 'T', B: 'L', N: 'R' },
  th: ENGLISH,
  mr: ENGLISH,
  zh: ENGLISH,
  ja: ENGLISH,
};

// Further piece signs accepted when typed (never written): Chinese books also name
// the pieces by character: 王 K, 后 Q, 车 R, 象 B, 马 N (traditional 車, 馬).
export const INPUT_ALIASES: Record<string, Record<string, Role>> = {
  zh: { 王: 'K', 后: 'Q', 车: 'R', 車: 'R', 象: 'B', 马: 'N', 馬: 'N' },
};

const FIGURINES: Record<string, Role> = {
  '♔': 'K', '♕': 'Q', '♖': 'R', '♗': 'B', '♘': 'N',
  '♚': 'K', '♛': 'Q', '♜': 'R', '♝': 'B', '♞': 'N',
};
const FIG_WHITE: Letters = { K: '♔', Q: '♕', R: '♖', B: '♗', N: '♘' };
const FIG_BLACK: Letters = { K: '♚', Q: '♛', R: '♜', B: '♝', N: '♞' };

export function lettersFor(lang: string): Letters {
  return PIECE_LETTERS[lang] ?? ENGLISH;
}

// English SAN → SAN in the given letters. Uppercase letters in SAN are piece letters
// or the O of castling; only the former change.
export function toLocalSan(san: string, letters: Letters): string {
  return san.replace(/[KQRBN]/g, (c) => letters[c as Role]);
}

export function toFigurineSan(san: string, white: boolean): string {
  const fig = white ? FIG_WHITE : FIG_BLACK;
  return san.replace(/[KQRBN]/g, (c) => fig[c as Role]);
}

const SAN_RE = /^([KQRBN])?([a-h])?([1-8])?(x)?([a-h][1-8])(?:=?([QRBN]))?([+#])?$/;
const CASTLE_RE = /^O-O(-O)?([+#])?$/;

export function looksLikeSan(s: string): boolean {
  return CASTLE_RE.test(s) || SAN_RE.test(s);
}

// Figurines, aliases, zeros for castling, annotation marks and spaces away.
function normalise(text: string, lang: string): string {
  let s = text.trim().replace(/\s+/g, '').replace(/[!?]+$/, '');
  s = s.replace(/^[0oO]-[0oO]-[0oO]/, 'O-O-O').replace(/^[0oO]-[0oO]/, 'O-O');
  const aliases = INPUT_ALIASES[lang] ?? {};
  s = [...s].map((c) => FIGURINES[c] ?? aliases[c] ?? c).join('');
  return s.replace(/ep$|e\.p\.$/, '');
}

// The English-SAN readings of what was typed, the language's own first. Readings
// that are not SAN at all are left out; the list may be empty.
export function sanCandidates(text: string, lang: string): string[] {
  const s = normalise(text, lang);
  const letters = lettersFor(lang);
  const back = new Map<string, Role>(ROLES.map((r) => [letters[r], r]));
  const local = s.startsWith('O-O') ? s : s.replace(/[A-Z]/g, (c) => back.get(c) ?? c);
  const out: string[] = [];
  for (const c of [local, s]) if (looksLikeSan(c) && !out.includes(c)) out.push(c);
  return out;
}

// Board placement from a FEN: "e4" -> "N" (FEN letters, uppercase white).
function placement(fen: string): Map<string, string> {
  const m = new Map<string, string>();
  (fen.split(' ')[0] ?? '').split('/').forEach((row, i) => {
    let f = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) f += Number(ch);
      else { m.set(`${'abcdefgh'[f]}${8 - i}`, ch); f++; }
    }
  });
  return m;
}

// The UCI move that one English SAN stands for in this position, or null when it
// matches no legal move or more than one. `legal`: from-square -> destinations, as
// the server sends them. Castling is returned without a UCI (the server reads
// "O-O" in standard chess and Chess960 alike) when the king has a legal move.
export function matchSan(san: string, fen: string, legal: Record<string, string[]>): { san: string; uci?: string } | null {
  const white = fen.split(' ')[1] !== 'b';
  const board = placement(fen);
  if (CASTLE_RE.test(san)) {
    const king = [...board].find(([, p]) => p === (white ? 'K' : 'k'));
    return king && (legal[king[0]] ?? []).length ? { san } : null;
  }
  const m = SAN_RE.exec(san);
  if (!m) return null;
  const [, piece = 'P', fromFile, fromRank, , to, promo] = m;
  const want = white ? piece : piece.toLowerCase();
  const found: string[] = [];
  for (const [from, dests] of Object.entries(legal)) {
    if (board.get(from) !== want || !dests.includes(to)) continue;
    if (fromFile && from[0] !== fromFile) continue;
    if (fromRank && from[1] !== fromRank) continue;
    const last = to[1] === (white ? '8' : '1');
    if (piece === 'P' && last !== !!promo) continue;
    if (piece !== 'P' && promo) continue;
    if (piece === 'P' && !fromFile && from[0] !== to[0]) continue; // a capture names its file
    found.push(`${from}${to}${promo ? promo.toLowerCase() : ''}`);
  }
  return found.length === 1 ? { san, uci: found[0] } : null;
}

// What the move box sends for typed text: the first reading that is one legal move
// (with its UCI), else the first reading (the server then says why it is not
// legal), else the text itself.
export function resolveTyped(text: string, lang: string, fen: string, legal: Record<string, string[]> | null | undefined): { san: string; uci?: string } {
  const readings = sanCandidates(text, lang);
  for (const r of readings) {
    const hit = legal ? matchSan(r, fen, legal) : null;
    if (hit) return hit;
  }
  return { san: readings[0] ?? text.trim() };
}
