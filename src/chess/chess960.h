// Outpost — Chess960 start positions (R16) in the standard numbering 0-959
// (518 is the classical start position).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>

#include "chess/position.h"

namespace outpost {

// The start position with number n (0 <= n < 960); castling rights on both rooks.
// The Position is in Chess960 mode.
Result<Position> chess960_position(int n);
// The number of a Chess960 start position: the back ranks mirror each other, the
// pawns stand on their ranks, and nothing else is on the board. nullopt otherwise.
std::optional<int> chess960_number(const Position& pos);

}  // namespace outpost
