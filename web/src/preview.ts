// The position a new game would start from, for the home board's preview (P13):
// a pasted FEN, the position at the end of a pasted PGN, or a Chess960 start by its
// number (R16). The server decides what it accepts; this only shows what was typed.
import { makeFen, parseFen } from 'chessops/fen';
import { parsePgn, startingPosition } from 'chessops/pgn';
import { parseSan } from 'chessops/san';

export const STANDARD_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

// Chess960 start number 0-959 to its back rank (Scharnagl's numbering, 518 = RNBQKBNR):
// light bishop, dark bishop, queen, then the two knights by a table of the ten ways to
// place them on the five free squares; the king between the rooks on the last three.
const KNIGHTS: Array<[number, number]> = [[0, 1], [0, 2], [0, 3], [0, 4], [1, 2], [1, 3], [1, 4], [2, 3], [2, 4], [3, 4]];

export function chess960Rank(n: number): string | null {
  if (!Number.isInteger(n) || n < 0 || n > 959) return null;
  const rank: string[] = Array(8).fill('');
  rank[(n % 4) * 2 + 1] = 'B'; n = Math.floor(n / 4);
  rank[(n % 4) * 2] = 'B'; n = Math.floor(n / 4);
  const free = () => rank.flatMap((p, i) => (p ? [] : [i]));
  rank[free()[n % 6]] = 'Q'; n = Math.floor(n / 6);
  const [a, b] = KNIGHTS[n];
  const f = free();
  rank[f[a]] = 'N'; rank[f[b]] = 'N';
  const [r1, k, r2] = free();
  rank[r1] = 'R'; rank[k] = 'K'; rank[r2] = 'R';
  return rank.join('');
}

export function chess960Fen(n: number): string | null {
  const r = chess960Rank(n);
  return r ? `${r.toLowerCase()}/pppppppp/8/8/8/8/PPPPPPPP/${r} w KQkq - 0 1` : null;
}

const looksLikeFen = (s: string) => /^[pnbrqkPNBRQK1-8]+(\/[pnbrqkPNBRQK1-8]+){7}(\s|$)/.test(s);

// The FEN of a pasted start (FEN, or the end of a PGN's main line), or null when it
// cannot be read.
export function startFen(text: string): string | null {
  const s = text.trim();
  if (!s) return null;
  if (looksLikeFen(s)) return parseFen(s).isOk ? s : null;
  const game = parsePgn(s)[0];
  if (!game) return null;
  const start = startingPosition(game.headers);
  if (start.isErr) return null;
  const pos = start.value;
  for (const node of game.moves.mainline()) {
    const move = parseSan(pos, node.san);
    if (!move) return null;
    pos.play(move);
  }
  return makeFen(pos.toSetup());
}

export { looksLikeFen };

// What the home board shows for the choices: the pasted start first, else the chosen
// Chess960 number, else the standard position.
export function previewFen(start: string, variant: 'standard' | 'chess960', chess960: string): string {
  const pasted = startFen(start);
  if (pasted) return pasted;
  if (variant === 'chess960' && chess960.trim() !== '') return chess960Fen(Number(chess960)) ?? STANDARD_FEN;
  return STANDARD_FEN;
}
