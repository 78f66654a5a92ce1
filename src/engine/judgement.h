// Outpost — judging moves after a game (SPEC E4): evaluations from White's point of
// view, winning chances, the marks inaccuracy / mistake / blunder, and accuracy.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Pure functions, no engine and no I/O: the formulas and every threshold live here
// and only here. docs/analysis.md writes them out; they follow what lichess publishes
// (the same logistic curve and thresholds), so a player sees the marks they know.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "chess/types.h"
#include "engine/score.h"

namespace outpost::engine {

// An evaluation from White's point of view: centipawns, or a forced mate.
struct Eval {
    int cp = 0;    // centipawns (when mate == 0)
    int mate = 0;  // moves to mate: > 0 White mates, < 0 Black mates, 0 no mate found
    // The side to move has been checkmated (the game is over): no moves to count.
    bool checkmated = false;

    bool is_mate() const { return mate != 0 || checkmated; }
    bool operator==(const Eval&) const = default;

    static Eval centipawns(int white_cp) { return {white_cp, 0, false}; }
    static Eval mate_in(int white_moves) { return {0, white_moves, false}; }
    // A search value (side to move's view, VALUE_MATE - plies for a mate) made absolute.
    static Eval from_search(Value v, Color side_to_move);
    // The final position of a game: `loser` is checkmated.
    static Eval mated(Color loser);
    // The mover's point of view in centipawns, with every mate at ±MateCp.
    int cp_for(Color c) const;
    // The side that has the forced mate, if any.
    std::optional<Color> mating_side() const;
};

// As the PGN comment [%eval …] writes it: "0.35", "-1.20", "#3", "#-2"; nullopt after
// checkmate (the game is over and there is nothing to evaluate).
std::optional<std::string> eval_to_pgn(const Eval& e);

// Mates count as this many centipawns in winning chances and accuracy, and
// centipawns are clamped to ±MateCp before the curve.
inline constexpr int MateCp = 1000;
// The slope of the logistic curve from centipawns to winning chances.
inline constexpr double WinSlope = 0.00368208;

// Winning chances of `c` in percent (0..100): 50 + 50 * (2 / (1 + exp(-WinSlope * cp)) - 1).
double win_percent(const Eval& e, Color c);

enum class Mark : std::uint8_t { NONE, INACCURACY, MISTAKE, BLUNDER, MARK_NB };
// PGN NAGs: $6 (?!), $2 (?), $4 (??); 0 for NONE.
int mark_nag(Mark m);
std::string_view mark_name(Mark m);  // "Inaccuracy", "Mistake", "Blunder", ""

// The drop in the mover's winning chances (percentage points) from which a move is marked.
inline constexpr double InaccuracyDrop = 5.0;
inline constexpr double MistakeDrop = 10.0;
inline constexpr double BlunderDrop = 15.0;
// When a mate appears or vanishes, the centipawns on the other side decide the mark:
// at least MateBarelyCp off the mate: inaccuracy; at least MateMistakeCp: mistake; else blunder.
inline constexpr int MateBarelyCp = 1000;
inline constexpr int MateMistakeCp = 700;

// The mark for a move by `mover` that took the evaluation from `before` (the
// position before the move, best play) to `after`:
//   - the mover had a forced mate and now has none: a blunder, unless a large
//     advantage remains (MateBarelyCp / MateMistakeCp);
//   - the opponent had no mate and now has one: a blunder, unless the mover was
//     already lost by that much;
//   - otherwise by the drop in the mover's winning chances (the Drop thresholds).
// A longer or shorter mate for the same side is not marked.
Mark judge_move(const Eval& before, const Eval& after, Color mover);

// Accuracy of one move in percent, from the mover's winning chances before and
// after it: 103.1668 * exp(-0.04354 * drop) - 3.1669, plus 1 for the analysis'
// own uncertainty, clamped to 0..100; 100 when the chances did not drop.
double move_accuracy(double win_before, double win_after);

// Each side's accuracy over a game: `evals` holds the evaluation before the first
// move and after every move (size plies + 1), `first_mover` moved first. The mean of a
// volatility-weighted mean and a harmonic mean of the move accuracies (docs/analysis.md).
// NaN for a side that made no move.
std::array<double, COLOR_NB> game_accuracy(std::span<const Eval> evals, Color first_mover);

}  // namespace outpost::engine
