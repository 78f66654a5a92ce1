// Outpost — static exchange evaluation.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "chess/position.h"
#include "engine/score.h"

namespace outpost::engine {

// Piece values for exchanges only (the evaluation has its own, tuned ones): round
// numbers keep SEE results readable in tests and stable across tuning.
constexpr Value SeeValue[PIECE_TYPE_NB] = {100, 320, 330, 500, 950, 20000};

// The material balance, for the side making move m, of the sequence of captures on
// m's destination in which each side captures with its least valuable piece and may
// stop when continuing would lose. X-ray attackers behind the capturers join in.
// Pins are ignored. Castling is 0.
Value see(const Position& pos, Move m);
inline bool see_ge(const Position& pos, Move m, Value threshold) { return see(pos, m) >= threshold; }

}  // namespace outpost::engine
