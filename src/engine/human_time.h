// Outpost — how long a robot at a casual level takes over a move, as a person would
// (issue 10, "The robot thinks like a person at casual levels").
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Pure and deterministic: the position's features and the clock in, a number of
// milliseconds out, with the randomness from the caller's seeded generator. The time
// is the whole answer time (the search runs inside it; the server holds the move back
// for the rest):
//   - drawn from the clock and the level (issue 28, item 3: at 5+3 the robot took
//     7-10 s a move, a slow human's pace). The reasoning, from the clock's own numbers:
//     a game lasts about 40 moves a side, so a player who used the whole clock would
//     spend (time left + increment x moves left) / moves left a move, 10.5 s at 5+3 from
//     the start. Blitz players, weak and strong, finish with much of their clock and
//     play the opening fast; a weak player weighs fewer candidate moves. We take a
//     share of that pace: 12% at level 1 rising to 30% at level 10 (times the
//     position's factor below), which gives the medians of bench/robot-tempo: at 5+3
//     level 1 about 2 s a move, level 10 about 4.5 s, "a few seconds", the pace of
//     club blitz; at 3+2 1.4 to 2.8 s. Moves left: 40 less the moves played, at least
//     20 (a long game does not make every late move slower). Without a clock, a fixed
//     base (scaled by the same share);
//   - scaled by the position (0.1 to 1.3): quick in the opening (the first moves are known), very
//     quick on a forced move (one legal move), longer with many moves and captures
//     to weigh, a little quicker in check (few replies);
//   - times a random factor 0.7..1.3, so that no two moves take the same time;
//   - never instant (at least MinMs), never longer than MaxMs, and never more than
//     an eighth of the clock (less a safety margin): every move leaves at least 7/8 of
//     the time, so a game of any length cannot be lost on time by thinking.
#pragma once

#include <cstdint>
#include <random>

#include "chess/clock.h"
#include "chess/position.h"

namespace outpost::engine {

struct HumanTimeInput {
    int ply = 0;           // plies played before this move (0: the first move of the game)
    int legal_moves = 20;  // of the side to move
    int captures = 0;      // legal captures among them
    bool in_check = false;
    Millis my_time = -1;   // the mover's clock; -1: no clock
    Millis my_inc = 0;
    int level = 5;         // the robot's level, 1-10 (an Elo request: the nearest level)
};

struct HumanTimePolicy {
    Millis min_ms = 400;       // never instant
    Millis max_ms = 10'000;    // a casual opponent does not sit for minutes
    Millis no_clock_ms = 2'500;  // the base without a clock
    double share_level_1 = 0.12;   // the share of the whole-clock pace a move takes at level 1 …
    double share_level_10 = 0.30;  // … and at level 10 (linear between)
    int moves_per_game = 40;       // a side's moves in a typical game
    int min_moves_left = 20;
    int max_share = 8;         // never more than time left / max_share
    Millis safety_ms = 300;    // kept back from the clock before max_share applies
};

HumanTimeInput human_time_input(const Position& pos, int ply, Millis my_time, Millis my_inc);

// The answer time for a move; `rng` is advanced by one draw.
Millis human_move_time(const HumanTimeInput& in, std::mt19937_64& rng, const HumanTimePolicy& policy = {});

}  // namespace outpost::engine
