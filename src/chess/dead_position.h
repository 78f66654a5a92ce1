// Outpost — who can still win: dead positions (R7, FIDE 5.2.2) and flag fall (R11,
// FIDE 6.9).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Both Laws ask the same question of a side: can it checkmate the opponent by some
// series of legal moves, the opponent helping (a helpmate)? can_checkmate answers it
// in three ways:
//   CAN_MATE     with the helpmate line found (so the answer can be replayed),
//   CANNOT_MATE  proved (a static proof, or a search that saw every position it
//                could reach without a mate by that side),
//   UNKNOWN      only when the caller's budget ran out first.
// It is sound: never CANNOT_MATE where a helpmate exists. The proofs and the search
// are described in dead_position.cpp and helpmate.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "chess/position.h"

namespace outpost {

enum class MateAbility : std::uint8_t { CAN_MATE, CANNOT_MATE, UNKNOWN };

// What the caller allows. The rules core reads no clock: a caller that wants a time
// limit passes `out_of_time`, which the search asks every few hundred positions.
struct MateBudget {
    std::uint64_t nodes = 200000;        // positions the search may visit
    std::function<bool()> out_of_time;   // empty: no time limit
};

struct MateAnswer {
    MateAbility ability = MateAbility::UNKNOWN;
    std::vector<Move> line;      // CAN_MATE: legal moves from the position ending in mate
    std::uint64_t nodes = 0;     // positions visited
};

// Can `side` checkmate the opponent by any series of legal moves from `pos`?
MateAnswer can_checkmate(const Position& pos, Color side, const MateBudget& budget = {});

// Both sides at once (the labels of the published test vectors: "WB", "W-", "-B",
// "--"). The budget holds for each side separately.
struct Unwinnability {
    MateAnswer white, black;
    const MateAnswer& of(Color c) const { return c == WHITE ? white : black; }
};
Unwinnability analyse_unwinnability(const Position& pos, const MateBudget& budget = {});

enum class Deadness : std::uint8_t { ALIVE, DEAD, UNKNOWN };
// R7: dead when neither side can mate. Stops at the first side found able to mate.
Deadness dead_position(const Position& pos, const MateBudget& budget = {});
// The Laws' default where the budget runs out: not dead, the game goes on.
inline bool is_dead_position(const Position& pos, const MateBudget& budget = {}) {
    return dead_position(pos, budget) == Deadness::DEAD;
}

// The test a game runs after every move (R7): the static proofs for both sides, and
// the search only where the side to move has few legal moves (forced play, where a
// small budget can see every reachable position); elsewhere a small budget could only
// run out, so it is not spent. UNKNOWN means "not proved dead": the game goes on.
Deadness dead_position_after_move(const Position& pos, std::uint64_t budget);

// The deeper test, for a worker off the move path (the server's, see
// server/play/dead_watch.h): the full search with a budget no move could wait for.
// Measured on the 763 dead positions of the CHA set in which the side to move has a
// move (tests/slow/dead_position_game_test.cpp): the test after each move proves 643,
// this one 737 (96.6%); 2,000,000 positions a side would prove 752 at ten times the
// time. About 0.1 s on average a position of real games, a few seconds at worst.
constexpr std::uint64_t DeepDeadPositionBudget = 200000;
Deadness dead_position_deep(const Position& pos);

// A cheap static proof only (no search): true means `side` can never mate. Used to
// prune the search; exposed for tests.
bool statically_cannot_mate(const Position& pos, Color side);

// US Chess rule 14E: the opponent of the player whose flag fell has "insufficient
// material to win" (a lone king; king and bishop or king and knight; king and two
// knights against a lone king), so the flag fall is a draw.
bool uscf_insufficient_material_to_win(const Position& pos, Color side);

}  // namespace outpost
