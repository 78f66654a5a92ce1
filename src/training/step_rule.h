// Outpost — the rule every solver step of a puzzle obeys (issue 29, as lichess's
// puzzle generator has it), shared by the generator and its tests. The outside check
// (bench/puzzles/check, Stockfish) applies the same rule with margin 0.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>

namespace outpost::training {

// A search score from the solver's point of view: mate in `mate` moves (> 0 the
// solver mates, < 0 the solver is mated), else centipawns.
struct LineScore {
    int cp = 0;
    int mate = 0;
};

// The solver must stand at least this well after the opponent's mistake.
inline constexpr int WinningCp = 200;
// The rule's numbers: another move within this of the best is a second solution...
inline constexpr int UniqueGapCp = 150;
// ...and so is another move that still leaves the solver this well off.
inline constexpr int StillWinningCp = 300;
// A line without mate stops once the solver has won this much material (pawn units)
// and keeps it.
inline constexpr int DecisiveGain = 2;

// The best move is the only solution: when it mates, no other move mates (unless the
// best mates at once: on the last step any mate is accepted); when it does not, the
// second is at least UniqueGapCp worse and below StillWinningCp. The generator asks
// for more, so that a stronger engine agrees: a gap of UniqueGapCp + margin, the
// second below StillWinningCp - 2 * margin (a stronger engine's scores run larger),
// and after a mate the second below StillWinningCp + 2 * margin.
inline bool step_is_unique(const LineScore& best, const std::optional<LineScore>& second, int margin = 0) {
    if (!second) return true;  // the only legal move
    if (best.mate > 0) {
        if (best.mate == 1) return true;
        if (second->mate > 0) return false;
        return margin == 0 || second->mate < 0 || second->cp < StillWinningCp + 2 * margin;
    }
    if (best.mate < 0) return false;
    if (second->mate > 0) return false;
    if (second->mate < 0) return true;
    return best.cp - second->cp >= UniqueGapCp + margin && second->cp < StillWinningCp - 2 * margin;
}

}  // namespace outpost::training
