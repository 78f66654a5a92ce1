// The move box (P14, P16): moves typed as SAN or coordinates ("Nf3", "g1f3",
// "0-0"), and commands that announce the position: /board (by piece), /ranks,
// /files, /clock, /last, /moves, a square (/e4) or a piece letter (/N, /n). The
// screen-reader mode (nvui.ts) gives the same texts one key each.
import { t } from '../i18n';
import { typedMove } from '../notation';
import { makePiece, parseBoardFen } from 'chessops/fen';
import { makeSquare } from 'chessops/util';
import { describeMove, fileWord, pieceWords, rankWord, roleWord, squareWords } from '../speech';
import type { Color, GameState, MoveText } from '../types';

export type Typed = { kind: 'command'; text: string } | { kind: 'move'; move: MoveText } | null;

// A move that is not coordinates is read by typedMove (R17, P14, P17): the UI
// language's piece letters, English letters, figurines, kept when one legal move.
export function readTyped(raw: string, fen: string, legal: Record<string, string[]> | null | undefined): Typed {
  const text = raw.trim();
  if (!text) return null;
  if (text.startsWith('/')) return { kind: 'command', text: text.slice(1).trim() };
  const compact = text.replace(/[-\s]/g, '').toLowerCase();
  if (/^[a-h][1-8][a-h][1-8][qrbn]?$/.test(compact)) return { kind: 'move', move: { uci: compact } };
  const m = typedMove(text.replace(/^0-0-0/, 'O-O-O').replace(/^0-0/, 'O-O'), fen, legal ?? null);
  return { kind: 'move', move: m.uci ? { uci: m.uci } : { san: m.san } };
}

// Square -> FEN letter of the piece on it, from a FEN's placement.
export function placement(fen: string): Map<string, string> {
  const out = new Map<string, string>();
  const board = parseBoardFen(fen.split(' ')[0]);
  if (board.isErr) return out;
  for (const [sq, piece] of board.value) out.set(makeSquare(sq), makePiece(piece));
  return out;
}

const ORDER = 'KQRBNP';

export interface CommandContext {
  state: GameState;
  remaining(c: Color): number;
  sideOfPly(i: number): Color;
  orientation?: Color; // ranks and files are read from the far side of the board as seen
  moveNumber?(i: number): number; // the move number of ply i (a game from a FEN need not start at 1)
}

// "e4 white knight, f4 black pawn" for the squares given, or "empty".
function occupants(squares: string[], pieces: Map<string, string>): string {
  const list = squares.filter((sq) => pieces.has(sq)).map((sq) => t('saySquarePiece', { square: squareWords(sq), piece: pieceWords(pieces.get(sq)!).toLocaleLowerCase() }));
  return list.join(', ') || t('emptySquare');
}

// The position rank by rank, from the far side as the board is seen (P16, NVUI).
export function positionByRank(fen: string, orientation: Color = 'white'): string {
  const pieces = placement(fen);
  const ranks = orientation === 'white' ? [8, 7, 6, 5, 4, 3, 2, 1] : [1, 2, 3, 4, 5, 6, 7, 8];
  const files = orientation === 'white' ? [...'abcdefgh'] : [...'hgfedcba'];
  return ranks.map((r) => t('sayRank', { rank: rankWord(r), pieces: occupants(files.map((f) => `${f}${r}`), pieces) })).join('. ');
}

// The position file by file, from the player's left.
export function positionByFile(fen: string, orientation: Color = 'white'): string {
  const pieces = placement(fen);
  const files = orientation === 'white' ? [...'abcdefgh'] : [...'hgfedcba'];
  const ranks = orientation === 'white' ? [1, 2, 3, 4, 5, 6, 7, 8] : [8, 7, 6, 5, 4, 3, 2, 1];
  return files.map((f) => t('sayFile', { file: fileWord(f), pieces: occupants(ranks.map((r) => `${f}${r}`), pieces) })).join('. ');
}

// The position piece by piece, each side's king first: "White: king g1, rook a1. Black: …".
export function positionByPiece(fen: string): string {
  const pieces = placement(fen);
  return (['white', 'black'] as const).map((color) => {
    const list = [...pieces].filter(([, p]) => (p === p.toUpperCase()) === (color === 'white'))
      .sort((a, b) => ORDER.indexOf(a[1].toUpperCase()) - ORDER.indexOf(b[1].toUpperCase()))
      .map(([sq, p]) => `${roleWord(p)} ${squareWords(sq)}`);
    return `${t(color)}: ${list.join(', ')}`;
  }).join('. ');
}

// The words to announce for a command, or null when the command is unknown.
export function commandText(c: string, ctx: CommandContext): string | null {
  const s = ctx.state;
  const pieces = placement(s.fen);
  if (/^clocks?$/i.test(c)) {
    if (!s.clock || !s.clock.time_control || s.clock.time_control === '-') return t('unlimited');
    return (['white', 'black'] as const).map((side) => {
      const ms = Math.max(0, ctx.remaining(side));
      return t('sayClockOf', { side: t(side), min: Math.floor(ms / 60000), sec: Math.floor((ms % 60000) / 1000) });
    }).join(', ');
  }
  if (/^last(move)?$/i.test(c)) { // /last: the last four plies; the screen-reader key: the last one
    const n = s.san.length;
    const from = Math.max(0, n - (/move$/i.test(c) ? 1 : 4));
    return s.san.slice(from).map((san, k) => describeMove(s.moves[from + k], san, ctx.sideOfPly(from + k) === 'white')).join('. ') || t('noMoves');
  }
  if (/^ranks?$/i.test(c)) return positionByRank(s.fen, ctx.orientation);
  if (/^files?$/i.test(c)) return positionByFile(s.fen, ctx.orientation);
  if (/^moves$/i.test(c)) {
    if (!s.san.length) return t('noMoves');
    return s.san.map((san, i) => {
      const white = ctx.sideOfPly(i) === 'white';
      const words = describeMove(s.moves[i], san, white);
      return i === 0 || white ? `${ctx.moveNumber ? ctx.moveNumber(i) : Math.floor(i / 2) + 1}. ${words}` : words;
    }).join('; ');
  }
  if (/^(board|position|pieces)$/i.test(c)) return positionByPiece(s.fen);
  if (/^[a-h][1-8]$/i.test(c)) {
    const p = pieces.get(c.toLowerCase());
    return `${squareWords(c.toLowerCase())}: ${p ? pieceWords(p) : t('emptySquare')}`;
  }
  if (/^[KQRBNPkqrbnp]$/.test(c)) {
    const sqs = [...pieces].filter(([, p]) => p === c).map(([sq]) => sq);
    return `${pieceWords(c)}: ${sqs.map(squareWords).join(', ') || t('none')}`;
  }
  return null;
}
