// Outpost — search values and tapered evaluation scores.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace outpost::engine {

// A search value in centipawns, from the side to move's point of view. Mate scores
// sit at the top of the range: VALUE_MATE - n means "mate in n plies from the root".
using Value = int;

constexpr int MAX_PLY = 128;

constexpr Value VALUE_ZERO = 0;
constexpr Value VALUE_DRAW = 0;
constexpr Value VALUE_MATE = 32000;
constexpr Value VALUE_INFINITE = 32001;
constexpr Value VALUE_NONE = 32002;
constexpr Value VALUE_MATE_IN_MAX_PLY = VALUE_MATE - MAX_PLY;
constexpr Value VALUE_MATED_IN_MAX_PLY = -VALUE_MATE_IN_MAX_PLY;
// No static evaluation may reach into the mate range.
constexpr Value VALUE_EVAL_MAX = 20000;

constexpr Value mate_in(int ply) { return VALUE_MATE - ply; }
constexpr Value mated_in(int ply) { return -VALUE_MATE + ply; }
constexpr bool is_mate_score(Value v) { return v >= VALUE_MATE_IN_MAX_PLY || v <= VALUE_MATED_IN_MAX_PLY; }

// Mate scores are stored in the transposition table relative to the node that
// stores them ("mate in n from here") and converted back relative to the root when
// read, because the same position can be reached at different plies.
constexpr Value value_to_tt(Value v, int ply) {
    if (v == VALUE_NONE) return v;
    if (v >= VALUE_MATE_IN_MAX_PLY) return v + ply;
    if (v <= VALUE_MATED_IN_MAX_PLY) return v - ply;
    return v;
}
constexpr Value value_from_tt(Value v, int ply) {
    if (v == VALUE_NONE) return v;
    if (v >= VALUE_MATE_IN_MAX_PLY) return v - ply;
    if (v <= VALUE_MATED_IN_MAX_PLY) return v + ply;
    return v;
}

// A middlegame/endgame pair, interpolated by game phase at the end of evaluation.
struct Score {
    int mg = 0;
    int eg = 0;

    constexpr Score() = default;
    constexpr Score(int m, int e) : mg(m), eg(e) {}
    constexpr Score operator+(Score o) const { return {mg + o.mg, eg + o.eg}; }
    constexpr Score operator-(Score o) const { return {mg - o.mg, eg - o.eg}; }
    constexpr Score operator-() const { return {-mg, -eg}; }
    constexpr Score operator*(int k) const { return {mg * k, eg * k}; }
    constexpr Score& operator+=(Score o) { return *this = *this + o; }
    constexpr Score& operator-=(Score o) { return *this = *this - o; }
    constexpr bool operator==(const Score&) const = default;
};

constexpr Score S(int mg, int eg) { return Score(mg, eg); }

}  // namespace outpost::engine
