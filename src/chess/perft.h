// Outpost — perft: the number of leaf nodes of the legal move tree, the
// correctness backbone of the move generator.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "chess/position.h"

namespace outpost {

// Single-threaded, no hash table; the last ply is bulk-counted.
std::uint64_t perft(const Position& pos, int depth);
// The count below each root move, in generation order.
std::vector<std::pair<Move, std::uint64_t>> perft_divide(const Position& pos, int depth);

}  // namespace outpost
