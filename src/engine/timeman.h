// Outpost — how long to think.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>
#include <cstdint>

#include "chess/types.h"

namespace outpost::engine {

using TimePoint = std::int64_t;  // milliseconds

inline TimePoint now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

struct Limits;

// Two budgets: `optimum`, after which no new iteration starts (scaled by how
// unsettled the search is), and `maximum`, at which the search stops at once.
class TimeManager {
public:
    void init(const Limits& limits, Color us, int game_ply, TimePoint move_overhead);
    bool enabled() const { return enabled_; }
    TimePoint optimum() const { return optimum_; }
    TimePoint maximum() const { return maximum_; }

private:
    bool enabled_ = false;
    TimePoint optimum_ = 0;
    TimePoint maximum_ = 0;
};

}  // namespace outpost::engine
