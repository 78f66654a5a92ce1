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
