// Outpost — dead positions and mating ability: the static proofs and the front door.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Two static proofs that a side can never mate, both cheap enough to run at every
// node of the helpmate search (helpmate.cpp), which they prune:
//  1. Material (Position::has_insufficient_material): the per-side rule.
//  2. A frozen pawn structure. When no pawn can ever move (each is blocked by a pawn
//     that is itself blocked) and no pawn can ever capture or be captured, the pawns
//     are walls for good. Every other piece then moves inside a region that we can
//     flood-fill through the walls; if some region touches a square where a pawn
//     could take it, or lets a piece take a pawn, the pawns are not permanent and the
//     proof gives up. Otherwise the winner can mate only if one of its pieces can
//     some day attack a square of the losing king's region; if none can, the winner
//     can never even give check. This covers bishops locked to one colour by a chain
//     of pawns on the other colour, rooks and knights shut behind their own pawns,
//     and kings on either side of a blocked chain.
#include "chess/dead_position.h"

#include "chess/helpmate.h"
#include "chess/movegen.h"

namespace outpost {
namespace {

Bitboard king_step(Bitboard b) {
    const Bitboard h = b | shift<EAST>(b) | shift<WEST>(b);
    return h | shift<NORTH>(h) | shift<SOUTH>(h);
}

Bitboard knight_step(Bitboard b) {
    Bitboard out = 0;
    while (b) out |= knight_attacks(pop_lsb(b));
    return out;
}

Bitboard slider_step(PieceType pt, Bitboard from, Bitboard walls) {
    Bitboard out = 0;
    while (from) out |= attacks_bb(pt, pop_lsb(from), walls);
    return out;
}

// Pawns that can never move forward: the square ahead holds a pawn that can never
// move either (an enemy pawn blocked by this one, or a frozen pawn of either colour).
Bitboard frozen_pawns(const Position& pos) {
    const Bitboard wp = pos.pieces(WHITE, PAWN), bp = pos.pieces(BLACK, PAWN);
    Bitboard frozen = wp | bp;
    for (;;) {
        const Bitboard next = (wp & frozen & shift<SOUTH>(frozen)) | (bp & frozen & shift<NORTH>(frozen));
        if (next == frozen) return frozen;
        frozen = next;
    }
}

bool frozen_structure_cannot_mate(const Position& pos, Color side) {
    const Bitboard pawns = pos.pieces(PAWN);
    if (!pawns || frozen_pawns(pos) != pawns) return false;
    const Bitboard wp = pos.pieces(WHITE, PAWN), bp = pos.pieces(BLACK, PAWN);
    const Bitboard pawn_attacks_of[COLOR_NB] = {pawn_attacks_bb<WHITE>(wp), pawn_attacks_bb<BLACK>(bp)};
    if ((pawn_attacks_of[WHITE] & bp) || (pawn_attacks_of[BLACK] & wp)) return false;  // a pawn can take a pawn
    if (pos.ep_square() != SQ_NONE) return false;

    Bitboard winner_reach = 0;  // squares the winner's pieces may ever attack
    Bitboard loser_king_region = 0;
    for (Color c : {WHITE, BLACK}) {
        const Bitboard danger = pawn_attacks_of[~c];  // where an enemy pawn could take
        const Bitboard enemy_pawns = pos.pieces(~c, PAWN);
        Bitboard pieces = pos.pieces(c) & ~pos.pieces(c, PAWN);
        while (pieces) {
            const Square s = pop_lsb(pieces);
            const PieceType pt = type_of(pos.piece_on(s));
            Bitboard region = square_bb(s);
            if (pt == KING) {
                // A king never enters a square a pawn attacks; it may take a pawn
                // that no other pawn defends.
                for (Bitboard grown = region;; region = grown) {
                    grown = region | (king_step(region) & ~pawns & ~danger);
                    if (grown == region) break;
                }
                if (king_step(region) & enemy_pawns & ~danger) return false;
                if (c != side) loser_king_region = region;
                continue;
            }
            Bitboard reach;
            for (;;) {
                reach = pt == KNIGHT ? knight_step(region) : slider_step(pt, region, pawns);
                const Bitboard grown = region | (reach & ~pawns);
                if (grown == region) break;
                region = grown;
            }
            if ((region & danger) || (reach & enemy_pawns)) return false;
            if (c == side) winner_reach |= reach;
        }
    }
    return !(winner_reach & loser_king_region);
}

}  // namespace

bool statically_cannot_mate(const Position& pos, Color side) {
    return pos.has_insufficient_material(side) || frozen_structure_cannot_mate(pos, side);
}

MateAnswer can_checkmate(const Position& pos, Color side, const MateBudget& budget) {
    if (pos.side_to_move() == ~side && pos.is_checkmate()) return {MateAbility::CAN_MATE, {}, 0};  // mated already
    if (statically_cannot_mate(pos, side)) return {MateAbility::CANNOT_MATE, {}, 0};
    return detail::helpmate_search(pos, side, budget);
}

Unwinnability analyse_unwinnability(const Position& pos, const MateBudget& budget) {
    return {can_checkmate(pos, WHITE, budget), can_checkmate(pos, BLACK, budget)};
}

Deadness dead_position(const Position& pos, const MateBudget& budget) {
    // Statics for both sides first: most live positions are settled by the search
    // for the first side, most dead ones by statics alone.
    const bool white_cannot = statically_cannot_mate(pos, WHITE);
    const bool black_cannot = statically_cannot_mate(pos, BLACK);
    if (white_cannot && black_cannot) return Deadness::DEAD;
    bool unknown = false;
    // The side to move's opponent first: a mate right after the mover's move is the
    // commonest short helpmate in a real game.
    for (Color c : {~pos.side_to_move(), pos.side_to_move()}) {
        if (c == WHITE ? white_cannot : black_cannot) continue;
        const MateAnswer a = can_checkmate(pos, c, budget);
        if (a.ability == MateAbility::CAN_MATE) return Deadness::ALIVE;
        if (a.ability == MateAbility::UNKNOWN) unknown = true;
    }
    return unknown ? Deadness::UNKNOWN : Deadness::DEAD;
}

Deadness dead_position_after_move(const Position& pos, std::uint64_t budget) {
    // Few enough moves that the positions reachable in a few plies stay within a
    // small budget; measured on the published vectors and self-play games.
    constexpr std::uint64_t MaxMovesForSearch = 8;
    if (statically_cannot_mate(pos, WHITE) && statically_cannot_mate(pos, BLACK)) return Deadness::DEAD;
    if (count_legal_moves(pos) > MaxMovesForSearch) return Deadness::UNKNOWN;
    return dead_position(pos, {budget, {}});
}

bool uscf_insufficient_material_to_win(const Position& pos, Color side) {
    if (pos.pieces(side, PAWN) || pos.pieces(side, ROOK) || pos.pieces(side, QUEEN)) return false;
    const int knights = popcount(pos.pieces(side, KNIGHT)), bishops = popcount(pos.pieces(side, BISHOP));
    if (knights + bishops <= 1) return true;
    return bishops == 0 && knights == 2 && pos.pieces(~side) == pos.pieces(~side, KING);
}

}  // namespace outpost
