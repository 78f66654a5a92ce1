// Premoves (P7) in queue mode: several moves made while the opponent thinks, drawn
// on the board at once (each starts from where the previous one left the pieces)
// and sent one by one when the turn comes. In single mode chessground keeps its one
// premove itself and this queue stays empty.
import type { Key, Piece, PiecesDiff } from '@lichess-org/chessground/types';
import type { Board, BoardMove } from '../board';
import { castlingSquares, moveUci } from '../castling';
import { isLastRank } from './promotion';

export interface QueuedMove { from: Key; to: Key; uci: string }

export class PremoveQueue {
  private moves: QueuedMove[] = [];

  constructor(private board: Board, private variant: () => 'standard' | 'chess960') {}

  get length(): number { return this.moves.length; }

  // A premove set on the board joins the queue; pawns reaching the last rank become
  // queens (the chooser would interrupt the opponent's time, not ours).
  push(m: BoardMove) {
    const pieces = this.board.cg.state.pieces;
    const piece = pieces.get(m.from);
    const promo = piece?.role === 'pawn' && isLastRank(m.to) ? 'q' : undefined;
    this.moves.push({ from: m.from, to: m.to, uci: moveUci(this.variant(), pieces, m.from, m.to, promo) });
    this.board.cg.cancelPremove();
  }

  clear(): boolean {
    const had = this.moves.length > 0;
    this.moves = [];
    return had;
  }

  // The next move to send, if the server's legal moves still allow it; an illegal
  // one drops the whole queue (the rest was planned from a position that is gone).
  next(legal: Record<string, string[]> | undefined): QueuedMove | null {
    const m = this.moves.shift();
    if (!m) return null;
    if (!(legal?.[m.from] ?? []).includes(m.uci.slice(2, 4))) { this.moves = []; return null; }
    return m;
  }

  // Draws the queue over the position `fen` (the server's) with highlights.
  draw(fen: string) {
    if (!this.moves.length) return;
    this.board.set({ fen });
    const custom = new Map<Key, string>();
    for (const m of this.moves) {
      const pieces = this.board.cg.state.pieces;
      const piece = pieces.get(m.from);
      if (!piece) break;
      const castle = castlingSquares(pieces, m.uci);
      const diff: PiecesDiff = new Map<Key, Piece | undefined>();
      if (castle) {
        const rook = pieces.get(castle.rook[0] as Key);
        diff.set(castle.king[0] as Key, undefined).set(castle.rook[0] as Key, undefined);
        diff.set(castle.king[1] as Key, piece).set(castle.rook[1] as Key, rook);
      } else {
        const promo: Piece | null = m.uci.length > 4 ? { role: 'queen', color: piece.color } : null;
        diff.set(m.from, undefined).set(m.to, promo ?? piece);
      }
      this.board.cg.setPieces(diff);
      custom.set(m.from, 'current-premove');
      custom.set(m.to, 'current-premove');
    }
    this.board.set({ highlight: { custom } });
  }
}
