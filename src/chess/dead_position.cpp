// Outpost — dead positions and mating ability.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "chess/dead_position.h"

#include <deque>
#include <unordered_set>

#include "chess/movegen.h"

namespace outpost {
namespace {

constexpr Bitboard DarkSquares = 0xAA55AA55AA55AA55ULL;

Bitboard king_step(Bitboard b) {
    Bitboard h = b | shift<EAST>(b) | shift<WEST>(b);
    return h | shift<NORTH>(h) | shift<SOUTH>(h);
}

// Kings and pawns only, every pawn frozen: each one's front square holds a pawn
// and no capture is possible now. Then pawns can only change if a king takes one.
// A king can reach only squares free of pawns and of enemy pawn attacks; if no
// king's region touches an enemy pawn that no other enemy pawn protects, nothing
// can ever change, no piece can ever give check, and the position is dead.
bool frozen_pawns_dead(const Position& pos) {
    const Bitboard pawns = pos.pieces(PAWN);
    if (pos.pieces() != (pawns | pos.pieces(KING)) || pos.in_check()) return false;
    const Bitboard wp = pos.pieces(WHITE, PAWN), bp = pos.pieces(BLACK, PAWN);
    if ((shift<NORTH>(wp) & ~pawns) || (shift<SOUTH>(bp) & ~pawns)) return false;  // a pawn can advance
    const Bitboard w_att = pawn_attacks_bb<WHITE>(wp), b_att = pawn_attacks_bb<BLACK>(bp);
    if ((w_att & pos.pieces(BLACK)) || (b_att & pos.pieces(WHITE))) return false;  // a pawn can capture

    for (Color c : {WHITE, BLACK}) {
        const Bitboard enemy_attacks = c == WHITE ? b_att : w_att;
        const Bitboard allowed = ~pawns & ~enemy_attacks;
        Bitboard region = pos.pieces(c, KING), grown = region;
        do {
            region = grown;
            grown = region | (king_step(region) & allowed);
        } while (grown != region);
        const Bitboard takeable = pos.pieces(~c, PAWN) & ~enemy_attacks;  // enemy pawns no enemy pawn protects
        if (king_step(region) & takeable) return false;
    }
    return true;
}

bool only_king(const Position& pos, Color c) { return pos.pieces(c) == pos.pieces(c, KING); }

// Material with which `side` can never mate, whatever the opponent has.
bool side_material_cannot_mate(const Position& pos, Color side) {
    if (only_king(pos, side)) return true;
    const Color o = ~side;
    if (pos.pieces(side, PAWN) || pos.pieces(side, ROOK) || pos.pieces(side, QUEEN)) return false;
    const Bitboard knights = pos.pieces(side, KNIGHT), bishops = pos.pieces(side, BISHOP);
    // A single minor piece against a bare king.
    if (popcount(knights | bishops) == 1 && only_king(pos, o)) return true;
    // Bishops only, and every bishop on the board on squares of one colour, the
    // opponent having nothing but bishops: no square of the other colour can ever be
    // attacked by a piece other than a king.
    if (!knights) {
        const Bitboard all_bishops = pos.pieces(BISHOP);
        const bool one_colour = !(all_bishops & DarkSquares) || !(all_bishops & ~DarkSquares);
        if (one_colour && pos.pieces(o) == (pos.pieces(o, KING) | pos.pieces(o, BISHOP))) return true;
    }
    return false;
}

}  // namespace

bool is_dead_position(const Position& pos) {
    if (pos.is_insufficient_material()) return true;
    if (side_material_cannot_mate(pos, WHITE) && side_material_cannot_mate(pos, BLACK)) return true;
    return frozen_pawns_dead(pos);
}

MateAbility can_checkmate(const Position& pos, Color side, std::uint64_t node_budget) {
    if (side_material_cannot_mate(pos, side) || is_dead_position(pos)) return MateAbility::CANNOT_MATE;
    // A pawn, rook or queen that is not frozen can always be part of some mate; a
    // search there would only burn the budget to reach the same answer.
    if (pos.pieces(side, PAWN) || pos.pieces(side, ROOK) || pos.pieces(side, QUEEN)) return MateAbility::CAN_MATE;

    // Breadth-first over every position reachable from here, both sides choosing
    // the moves. Finding one where the opponent is mated proves CAN_MATE; visiting
    // them all without one proves CANNOT_MATE. Positions where the game would have
    // ended (mate, stalemate, dead position) are not expanded.
    std::unordered_set<Key> seen;
    std::deque<Position> queue;
    seen.insert(pos.repetition_key());
    queue.push_back(pos);
    std::uint64_t nodes = 0;
    while (!queue.empty()) {
        if (++nodes > node_budget) return MateAbility::CAN_MATE;
        const Position cur = queue.front();
        queue.pop_front();
        const MoveList moves = legal_moves(cur);
        if (moves.empty()) {
            if (cur.in_check() && cur.side_to_move() == ~side) return MateAbility::CAN_MATE;
            continue;
        }
        if (cur.is_insufficient_material()) continue;
        for (Move m : moves) {
            Position next = cur.after(m);
            if (seen.insert(next.repetition_key()).second) queue.push_back(next);
        }
    }
    return MateAbility::CANNOT_MATE;
}

bool uscf_insufficient_material_to_win(const Position& pos, Color side) {
    if (pos.pieces(side, PAWN) || pos.pieces(side, ROOK) || pos.pieces(side, QUEEN)) return false;
    const int knights = popcount(pos.pieces(side, KNIGHT)), bishops = popcount(pos.pieces(side, BISHOP));
    if (knights + bishops <= 1) return true;
    return bishops == 0 && knights == 2 && only_king(pos, ~side);
}

}  // namespace outpost
