// Outpost — static exchange evaluation (swap list).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/see.h"

#include <algorithm>

namespace outpost::engine {

Value see(const Position& pos, Move m) {
    if (m.kind() == Move::CASTLING) return 0;
    const Square from = m.from(), to = m.to();
    Color stm = pos.side_to_move();

    Bitboard occupied = pos.pieces() ^ square_bb(from);
    Value gain[40];
    int d = 0;
    if (m.kind() == Move::EN_PASSANT) {
        occupied ^= square_bb(Square(int(to) - int(pawn_push(stm))));
        gain[0] = SeeValue[PAWN];
    } else {
        gain[0] = pos.empty(to) ? 0 : SeeValue[type_of(pos.piece_on(to))];
    }
    // The value standing on the square, which the next capture wins.
    Value on_square = SeeValue[pos.moved_piece_type(m)];
    if (m.kind() == Move::PROMOTION) {
        gain[0] += SeeValue[m.promotion()] - SeeValue[PAWN];
        on_square = SeeValue[m.promotion()];
    }

    const Bitboard diagonal = pos.pieces(BISHOP) | pos.pieces(QUEEN);
    const Bitboard straight = pos.pieces(ROOK) | pos.pieces(QUEEN);
    Bitboard attackers = pos.attackers_to(to, occupied) & occupied;
    stm = ~stm;

    while (d < 38) {
        const Bitboard mine = attackers & pos.pieces(stm);
        if (!mine) break;
        PieceType pt = PAWN;
        Bitboard candidates = 0;
        for (; pt <= KING; pt = PieceType(pt + 1))
            if ((candidates = mine & pos.pieces(pt))) break;
        // The king may only take last: it cannot capture into a defended square.
        if (pt == KING && (attackers & pos.pieces(~stm))) break;

        ++d;
        gain[d] = on_square - gain[d - 1];
        on_square = SeeValue[pt];
        occupied ^= square_bb(lsb(candidates));
        // Sliders behind the capturer now see the square.
        if (pt == PAWN || pt == BISHOP || pt == QUEEN) attackers |= bishop_attacks(to, occupied) & diagonal;
        if (pt == ROOK || pt == QUEEN) attackers |= rook_attacks(to, occupied) & straight;
        attackers &= occupied;
        stm = ~stm;
    }
    // Each side may decline to continue the exchange when that is better for it.
    while (d > 0) {
        gain[d - 1] = -std::max(-gain[d - 1], gain[d]);
        --d;
    }
    return gain[0];
}

}  // namespace outpost::engine
