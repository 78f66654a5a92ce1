// Outpost — a casual robot's answer time.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/human_time.h"

#include <algorithm>

#include "chess/movegen.h"

namespace outpost::engine {

HumanTimeInput human_time_input(const Position& pos, int ply, Millis my_time, Millis my_inc) {
    HumanTimeInput in;
    in.ply = ply;
    const MoveList legal = legal_moves(pos);
    in.legal_moves = int(legal.size());
    for (Move m : legal) in.captures += pos.is_capture(m);
    in.in_check = pos.in_check();
    in.my_time = my_time;
    in.my_inc = my_inc;
    return in;
}

Millis human_move_time(const HumanTimeInput& in, std::mt19937_64& rng, const HumanTimePolicy& p) {
    // One draw, turned into [0, 1) by hand: the standard distributions may differ
    // between library versions, this does not.
    const double u = double(rng() >> 11) * (1.0 / 9007199254740992.0);
    const bool clock = in.my_time >= 0;
    const int level = std::clamp(in.level, 1, 10);
    const double share = p.share_level_1 + (p.share_level_10 - p.share_level_1) * (level - 1) / 9.0;
    const int moves_left = std::max(p.min_moves_left, p.moves_per_game - in.ply / 2);
    const double pace = (double(in.my_time) + double(in.my_inc) * moves_left) / moves_left;
    const double base = clock ? share * pace : double(p.no_clock_ms) * share / p.share_level_10;

    double factor;
    if (in.legal_moves <= 1) {
        factor = 0.1;  // nothing to choose
    } else if (in.ply < 8) {
        factor = 0.2 + 0.05 * in.ply;  // the opening: moves a player knows
    } else {
        // Many moves and captures to weigh: longer; check leaves few replies: shorter.
        factor = 0.7 + std::clamp((in.legal_moves - 10) / 40.0, 0.0, 0.4) + 0.05 * std::min(in.captures, 4);
        if (in.in_check) factor -= 0.2;
        if (in.legal_moves <= 3) factor = std::min(factor, 0.4);
    }
    double t = base * factor * (0.7 + 0.6 * u);

    Millis ceiling = p.max_ms;
    if (clock) ceiling = std::min<Millis>(ceiling, std::max<Millis>(0, in.my_time - p.safety_ms) / p.max_share);
    const Millis floor = std::min(p.min_ms, ceiling);
    return std::clamp<Millis>(Millis(t), floor, ceiling);
}

}  // namespace outpost::engine
