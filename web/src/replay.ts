// Earlier positions of a game, for reviewing the move list (P8). The moves come
// from the server, already validated; chessops replays them (castling in both UCI
// forms, en passant, promotion) so that this file holds no rules of its own.
import { Chess, normalizeMove } from 'chessops/chess';
import { makeFen, parseFen } from 'chessops/fen';
import { parseUci } from 'chessops/util';

export interface Replayed { fen: string; check: boolean; turn: 'white' | 'black' }

// The position after the first `ply` moves (fewer if a move does not apply, which
// only a server disagreeing with itself could cause: review then stops there).
export function positionAt(initialFen: string, moves: readonly string[], ply: number): Replayed | null {
  const setup = parseFen(initialFen);
  if (setup.isErr) return null;
  const start = Chess.fromSetup(setup.value);
  if (start.isErr) return null;
  const pos = start.value;
  for (let i = 0; i < ply && i < moves.length; i++) {
    const m = parseUci(moves[i]);
    if (!m) break;
    const move = normalizeMove(pos, m); // e1g1 -> the king-takes-rook form chessops plays
    if (!pos.isLegal(move)) break;
    pos.play(move);
  }
  return { fen: makeFen(pos.toSetup()), check: pos.isCheck(), turn: pos.turn };
}
