// Outpost — how long to think.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/timeman.h"

#include <algorithm>

#include "engine/search.h"

namespace outpost::engine {

void TimeManager::init(const Limits& limits, Color us, int game_ply, TimePoint move_overhead) {
    enabled_ = false;
    if (limits.movetime > 0) {
        enabled_ = true;
        optimum_ = maximum_ = std::max<TimePoint>(1, limits.movetime - move_overhead);
        return;
    }
    if (limits.time[us] < 0) return;
    enabled_ = true;

    const TimePoint time = limits.time[us];
    const TimePoint inc = limits.inc[us];
    // Sudden death: assume the game lasts about 40 more moves early on and fewer
    // later, never fewer than 20: time saved now is spent in the endgame.
    const int moves_to_go = limits.movestogo > 0 ? std::min(limits.movestogo, 50)
                                                 : std::clamp(50 - game_ply / 4, 20, 50);
    // What we can spend over those moves, keeping the overhead of each move in reserve.
    const TimePoint usable = std::max<TimePoint>(
        1, time + inc * (moves_to_go - 1) - move_overhead * (2 + std::min(moves_to_go, 40)));
    optimum_ = usable / moves_to_go;
    // Never plan to use more than what is on the clock less a safety margin, and
    // do not let one move eat much more than its share.
    const TimePoint hard_cap = std::max<TimePoint>(1, std::min(time * 8 / 10, time - move_overhead));
    maximum_ = std::min<TimePoint>(hard_cap, limits.movestogo == 1 ? hard_cap : optimum_ * 5);
    optimum_ = std::clamp<TimePoint>(optimum_, 1, maximum_);
}

}  // namespace outpost::engine
