// Outpost — cheap move tests.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/movecheck.h"

#include "chess/movegen.h"

namespace outpost::engine {

Bitboard blockers_for_king(const Position& pos, Color king_color) {
    const Square ksq = pos.king_square(king_color);
    const Color them = ~king_color;
    Bitboard snipers = (rook_attacks(ksq, 0) & pos.pieces(them, ROOK, QUEEN)) |
                       (bishop_attacks(ksq, 0) & pos.pieces(them, BISHOP, QUEEN));
    Bitboard result = 0;
    const Bitboard occupied = pos.pieces();
    while (snipers) {
        const Square s = pop_lsb(snipers);
        const Bitboard between = between_bb(ksq, s) & occupied & ~square_bb(s);
        if (between && !more_than_one(between)) result |= between;
    }
    return result;
}

bool is_legal_move(const Position& pos, Move m) {
    if (!m.is_ok()) return false;
    const Color us = pos.side_to_move();
    const Square from = m.from(), to = m.to();
    const Piece pc = pos.piece_on(from);
    if (pc == NO_PIECE || color_of(pc) != us) return false;

    // Castling and en passant are rare: compare against the generator.
    if (m.kind() == Move::CASTLING || m.kind() == Move::EN_PASSANT) {
        MoveList list;
        generate(m.kind() == Move::CASTLING ? GenType::QUIETS : GenType::CAPTURES, pos, list);
        return list.contains(m);
    }
    if (pos.pieces(us) & square_bb(to)) return false;

    const PieceType pt = type_of(pc);
    const Bitboard occupied = pos.pieces();
    const bool last_rank = relative_rank(us, rank_of(to)) == RANK_8;
    if (m.kind() == Move::PROMOTION && (pt != PAWN || !last_rank)) return false;

    if (pt == PAWN) {
        if (m.kind() == Move::NORMAL && last_rank) return false;
        const int up = int(pawn_push(us));
        const bool capture = pawn_attacks(us, from) & pos.pieces(~us) & square_bb(to);
        const bool push1 = int(to) == int(from) + up && pos.empty(to);
        const bool push2 = int(to) == int(from) + 2 * up && relative_rank(us, rank_of(from)) == RANK_2 &&
                           pos.empty(to) && pos.empty(Square(int(from) + up));
        if (!capture && !push1 && !push2) return false;
    } else if (!(attacks_bb(pt, from, occupied) & square_bb(to))) {
        return false;
    }

    if (pt == KING) return !(pos.attackers_to(to, occupied ^ square_bb(from)) & pos.pieces(~us));

    const Square ksq = pos.king_square(us);
    const Bitboard checkers = pos.checkers();
    if (checkers) {
        if (more_than_one(checkers)) return false;
        // between_bb includes the checker itself: block or capture.
        if (!(between_bb(ksq, lsb(checkers)) & square_bb(to))) return false;
    }
    if ((pos.pinned(us) & square_bb(from)) && !aligned(ksq, from, to)) return false;
    return true;
}

bool gives_check(const Position& pos, Move m) {
    if (m.kind() != Move::NORMAL) return pos.gives_check(m);
    const Color us = pos.side_to_move();
    const Square from = m.from(), to = m.to();
    const Square ksq = pos.king_square(~us);
    const PieceType pt = type_of(pos.piece_on(from));
    const Bitboard occupied = (pos.pieces() ^ square_bb(from)) | square_bb(to);

    // Direct check.
    if (pt == PAWN) {
        if (pawn_attacks(us, to) & square_bb(ksq)) return true;
    } else if (pt != KING && (attacks_bb(pt, to, occupied) & square_bb(ksq))) {
        return true;
    }
    // Discovered check: a slider of ours sees the king once `from` is vacated.
    const Bitboard sliders = (bishop_attacks(ksq, occupied) & pos.pieces(us, BISHOP, QUEEN)) |
                             (rook_attacks(ksq, occupied) & pos.pieces(us, ROOK, QUEEN));
    return sliders & ~square_bb(to) & ~square_bb(from);
}

}  // namespace outpost::engine
