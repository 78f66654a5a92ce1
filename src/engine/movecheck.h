// Outpost — cheap move tests the search needs before making a move.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The generators of the rules core give legal moves only, so generated moves need
// no test. Moves that come from elsewhere — the transposition table (which another
// thread may have torn or another position may have written), killer and counter
// moves remembered from sibling positions — must be checked before the move picker
// hands them out. Generating every move to check one would cost more than it saves,
// hence a direct test here.
#pragma once

#include "chess/position.h"

namespace outpost::engine {

// Whether m is a legal move in pos. Exact for every kind of move.
bool is_legal_move(const Position& pos, Move m);

// Whether the legal move m gives check, without making it (the quick cases; the
// rare special moves are made on a copy).
bool gives_check(const Position& pos, Move m);

// Pieces of either colour that stand alone between the king of king_color and an
// enemy slider (pinned pieces and discovered-check candidates).
Bitboard blockers_for_king(const Position& pos, Color king_color);

}  // namespace outpost::engine
