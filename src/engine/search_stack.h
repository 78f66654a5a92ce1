// Outpost — the search's stack of per-ply frames (Worker::Stack), shared by the
// tree search (search.cpp) and the root and iterative deepening (search_root.cpp).
// Internal to src/engine.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine/search.h"

namespace outpost::engine {

struct Worker::Stack {
    int ply = 0;
    Move current_move;
    Move excluded;
    Move killers[2];
    Value static_eval = VALUE_NONE;
    int stat_score = 0;
    int move_count = 0;
    int plies_from_null = 0;
    bool in_check = false;
    bool tt_pv = false;
    PieceToHistory* cont_hist = nullptr;
};

}  // namespace outpost::engine
