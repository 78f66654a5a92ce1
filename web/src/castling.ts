// Castling as the board shows it and as the server takes it (R4, R16, N2): the one
// place in the UI that knows the castling forms.
//
// The server's `legal` map (docs/protocol.md) lists, for the king, the square of its
// own rook as a destination in both variants, and in standard chess the classical
// destination (g1/c1) too. A king dropped on its own rook therefore means castling:
//   standard chess: the UCI move the server writes, king to g- or c-file (e1h1 -> e1g1);
//   Chess960:       king takes rook, as UCI writes Chess960 castling (b1a1 stays b1a1).
import { parseBoardFen } from 'chessops/fen';
import { makeSquare } from 'chessops/util';
import type { Color } from './types';

export interface BoardPiece { role: string; color: Color }

export function moveUci(variant: 'standard' | 'chess960', pieces: ReadonlyMap<string, BoardPiece>,
  from: string, to: string, promo?: string): string {
  const king = pieces.get(from);
  const target = pieces.get(to);
  const onOwnRook = king?.role === 'king' && target?.role === 'rook' && target.color === king.color && from[1] === to[1];
  if (onOwnRook && variant === 'standard') to = `${to > from ? 'g' : 'c'}${from[1]}`;
  return `${from}${to}${promo ?? ''}`;
}

// The pieces of a FEN's placement by square, as chessground names them.
export function piecesOf(fen: string): Map<string, BoardPiece> {
  const out = new Map<string, BoardPiece>();
  const board = parseBoardFen(fen.split(' ')[0]);
  if (board.isOk) for (const [sq, p] of board.value) out.set(makeSquare(sq), { role: p.role, color: p.color });
  return out;
}

// Where king and rook stand after a castling move in either UCI form, or null when the
// move is not castling: the king's and rook's squares before and after (R4, R16).
export function castlingSquares(pieces: ReadonlyMap<string, BoardPiece>, uci: string):
  { king: [string, string]; rook: [string, string] } | null {
  const from = uci.slice(0, 2); const to = uci.slice(2, 4);
  const king = pieces.get(from);
  if (king?.role !== 'king' || from[1] !== to[1]) return null;
  const target = pieces.get(to);
  const rank = from[1];
  let rookFrom: string | undefined;
  if (target?.role === 'rook' && target.color === king.color) rookFrom = to; // king takes rook
  else if (Math.abs(to.charCodeAt(0) - from.charCodeAt(0)) === 2) {
    // e1g1 / e1c1: the outermost own rook on that side.
    const files = to > from ? 'hgf' : 'abc';
    rookFrom = [...files].map((f) => `${f}${rank}`).find((sq) => pieces.get(sq)?.role === 'rook' && pieces.get(sq)?.color === king.color);
  }
  if (!rookFrom) return null;
  const short = rookFrom > from;
  return { king: [from, `${short ? 'g' : 'c'}${rank}`], rook: [rookFrom, `${short ? 'f' : 'd'}${rank}`] };
}
