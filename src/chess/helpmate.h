// Outpost — the cooperative mate search behind can_checkmate (internal header).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "chess/dead_position.h"

namespace outpost::detail {

// Searches for a helpmate by `winner` from `root` (the static proofs of
// dead_position.cpp have already failed at the root). See helpmate.cpp.
MateAnswer helpmate_search(const Position& root, Color winner, const MateBudget& budget);

}  // namespace outpost::detail
