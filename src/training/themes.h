// Outpost — the themes and the first rating of a puzzle (issue 29), in lichess's
// theme names. Both are computed from the puzzle's FEN and moves alone, so that they
// can be derived again from a CSV file without searching (docs/puzzles.md).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

#include "chess/position.h"
#include "training/puzzle.h"

namespace outpost::training {

// mateIn1..mateIn5 (the real length: the last solver move mates), mate, fork, pin,
// skewer, discoveredAttack, hangingPiece, backRankMate, promotion, sacrifice,
// opening/middlegame/endgame, the endgame kind (rookEndgame, pawnEndgame,
// queenEndgame, bishopEndgame, knightEndgame, queenRookEndgame), oneMove/short/long/
// veryLong, and crushing or advantage by the material won. Sorted, no repeats. The
// puzzle's moves must be legal (check_puzzle).
std::vector<std::string> puzzle_themes(const Puzzle& p);

// The first estimate of a puzzle's rating, before anyone played it (the server then
// rates it with Glicko-2 from the plays, starting at RatingDeviation 500).
int estimate_rating(const Puzzle& p);

// Material in pawn units (P 1, N 3, B 3, R 5, Q 9) of c, and c's minus the other's.
int material(const Position& pos, Color c);
inline int balance(const Position& pos, Color c) { return material(pos, c) - material(pos, ~c); }

}  // namespace outpost::training
