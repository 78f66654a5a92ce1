// Outpost — the puzzle generator (SPEC T1, issue 29): cuts puzzles out of a finished
// game with our engine. The rules and thresholds, and why, are in docs/puzzles.md.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Two passes over a game. A cheap scan (scan_nodes per position, MultiPV 1) finds the
// moves after which the evaluation swings to the other side: the opponent's mistakes.
// At each position after such a mistake a deep search (nodes per step, MultiPV 2)
// must find exactly one winning move for the side to move (the solver); the line
// goes on with the opponent's best reply while the solver's move stays the only one,
// and ends on a solver move once the win is clear (mate, or a decisive gain).
//
// No I/O. One Engine per thread: find_puzzles uses the engine it is given (options,
// table and info handler) for the length of the call.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "chess/position.h"
#include "chess/result.h"
#include "training/puzzle.h"

namespace outpost::engine {
class Engine;
}

namespace outpost::training {

struct GeneratorSettings {
    std::uint64_t scan_nodes = 20'000;  // per position of the game, the cheap pass
    std::uint64_t nodes = 400'000;      // per solver step (and per opponent reply), MultiPV 2
    int hash_mb = 32;
    int max_solver_moves = 8;           // a line longer is cut there (a mate that long: no puzzle)
    int margin_cp = 100;                // asked beyond the rule (step_rule.h), for the outside check

    // Each value in range; errors name the setting.
    Result<bool> validate() const;
};

// What one call did (the bench reports puzzles per CPU minute from these).
struct GeneratorStats {
    int games = 0;
    int games_skipped = 0;     // Chess960 or too short
    int positions = 0;         // scanned
    int candidates = 0;        // positions after a swing, searched deeply
    int puzzles = 0;
    std::uint64_t nodes = 0;   // all searches
    GeneratorStats& operator+=(const GeneratorStats& o);
};

// The puzzles of one game, from `start` with the legal `moves` (checked: an illegal
// move is an error naming it). A Chess960 start gives no puzzles (not an error).
// Each puzzle's GameUrl is game_url_prefix followed by the ply of the opponent's move
// (1-based: the board after that many half-moves is the one the solver sees), e.g.
// "/#/game/42?ply=" or "games.pgn#3:". Ids come from the position (puzzle_id), so a
// re-run gives the same ids; a position met twice in one game gives one puzzle.
Result<std::vector<Puzzle>> find_puzzles(engine::Engine& engine, const Position& start, std::span<const Move> moves,
                                         const GeneratorSettings& settings, const std::string& game_url_prefix,
                                         GeneratorStats* stats = nullptr);

// The deterministic id of a puzzle: 8 characters of base62 from a hash of
// position_key(fen), so that the same position always has the same id.
std::string puzzle_id(std::string_view fen);

// Keeps the first puzzle of each position (position_key of its FEN), in order.
void drop_duplicates(std::vector<Puzzle>& puzzles);

}  // namespace outpost::training
