// Outpost — legal move generation.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Every generator returns legal moves only: pins and checks are resolved while
// generating (pin rays, a check mask, the squares the enemy attacks with our king
// lifted off the board), so no move has to be tried and taken back.
#pragma once

#include <cstdint>

#include "chess/position.h"

namespace outpost {

enum class GenType : std::uint8_t {
    ALL,        // every legal move
    CAPTURES,   // captures (en passant included) and all promotions
    QUIETS,     // the rest: non-capturing, non-promoting moves, castling
    EVASIONS,   // every legal move of a side in check (the position must be in check)
};

void generate(GenType type, const Position& pos, MoveList& list);
inline MoveList legal_moves(const Position& pos) {
    MoveList list;
    generate(GenType::ALL, pos, list);
    return list;
}
// The number of legal moves, counted without listing them (perft's last ply).
std::uint64_t count_legal_moves(const Position& pos);

}  // namespace outpost
