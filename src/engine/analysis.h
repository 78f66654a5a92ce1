// Outpost — analysing a finished game with our engine (SPEC E4): an evaluation after
// every move, the engine's best move and line, marks and accuracy.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// No I/O: the caller (`outpost pgn analyse`, the server's analysis pool) brings an
// Engine, the game and a progress callback. One Engine analyses the whole game and its
// transposition table is kept from ply to ply. The positions are searched from the
// last one back to the first: what the search learnt about the later positions is in
// the table when the earlier ones are searched, so a refutation found at ply n+1 is
// seen at ply n and the evaluations before and after a move agree better than when
// searching forwards (the same reason GUIs analyse backwards). The formulas for marks
// and accuracy are in judgement.h.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "chess/opening.h"
#include "chess/pgn.h"
#include "chess/position.h"
#include "chess/result.h"
#include "engine/judgement.h"

namespace outpost::engine {

class Engine;

// Per position exactly one limit: nodes, depth or movetime. The default, a fixed node
// count on one thread, gives the same analysis on every run and machine and takes a
// 40-move game (81 positions) through in about 7 s of one core (bench/analysis
// measures it; --threads 2 halves the wall time, at the price of reproducibility).
inline constexpr std::uint64_t DefaultAnalysisNodes = 80'000;
inline constexpr int MaxAnalysisThreads = 64;

struct AnalysisSettings {
    std::uint64_t nodes = DefaultAnalysisNodes;
    int depth = 0;
    int movetime_ms = 0;
    int threads = 1;
    int hash_mb = 64;
    // Plies of the engine's line kept per position (the PGN writes it as a variation
    // for marked moves).
    int line_plies = 8;

    // Exactly one limit, each in range; errors name the setting.
    Result<bool> validate() const;
    // "nodes 100000", "depth 12", "movetime 200 ms" (for the PGN Annotator).
    std::string describe() const;
};

// What the search said about one position of the game.
struct PositionAnalysis {
    Eval eval;               // White's point of view; Eval::mated or 0.00 when the game is over there
    Move best;               // none when the game is over there
    std::vector<Move> line;  // the engine's line from here, starting with best
    int depth = 0;
    std::uint64_t nodes = 0;
};

// One move of the game, judged.
struct MoveAnalysis {
    Move move;
    Color mover = WHITE;
    Mark mark = Mark::NONE;
    double accuracy = 100;  // move_accuracy() of this move
    Eval eval_before;       // best play in the position before (= positions[ply].eval)
    Eval eval_after;        // after this move (= positions[ply + 1].eval)
    Move best;              // the engine's move in the position before
    bool was_best = false;  // the move played is the engine's move
};

struct GameAnalysis {
    std::vector<PositionAnalysis> positions;  // the start and after every move: moves + 1
    std::vector<MoveAnalysis> moves;
    std::array<double, COLOR_NB> accuracy{};                            // NaN for a side without moves
    std::array<std::array<int, int(Mark::MARK_NB)>, COLOR_NB> marks{};  // counts by Mark
    std::optional<Opening> opening;
    std::uint64_t nodes = 0;
    std::int64_t time_ms = 0;
};

// Called after each position with (positions done, positions in all); returning false
// cancels the analysis (checked between positions; Engine::stop() from another thread
// ends the current search early).
using AnalysisProgress = std::function<bool(int done, int total)>;

// Analyses the game from `start` with the legal `moves` (checked; an illegal move, or
// a move after an automatic ending, is an error that names it). The engine is set up
// for analysis (full strength, MultiPV 1, the settings' threads and hash, a fresh
// table) and its info handler is used during the call. Errors: bad settings, illegal
// moves, cancelled.
Result<GameAnalysis> analyse_game(Engine& engine, const Position& start, std::span<const Move> moves,
                                  const AnalysisSettings& settings, const AnalysisProgress& progress = {});

// "87.3", or "-" for NaN (a side without moves).
std::string format_accuracy(double accuracy);

// Writes the analysis into a PGN game of the same moves: after every move a
// {[%eval …]} comment (replacing any earlier one), the mark as NAG $6/$2/$4 (replacing
// the move assessments $1-$6 that were there), for a marked move a comment with the
// engine's better move and its line as a variation; the tags ECO, Opening,
// WhiteAccuracy, BlackAccuracy and Annotator, and a summary comment before the moves.
// An error when the moves differ.
Result<bool> annotate_pgn(PgnGame& pgn, const GameAnalysis& analysis, const AnalysisSettings& settings);

}  // namespace outpost::engine
