// Outpost — the rules of solving a puzzle on the server (issue 29 item 3), without I/O:
// a puzzle as the store keeps it, the solver's moves checked against the solution, the
// hints, and what an attempt does to the ratings (Glicko-2, as lichess rates puzzles:
// the attempt is a game between the player and the puzzle, won by the one who is right).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "chess/result.h"
#include "server/common/protocol.h"
#include "server/stores/puzzle_store.h"
#include "training/puzzle.h"

namespace outpost::server {

// A puzzle of the CSV as the store keeps it (its rating's volatility: lichess's 0.09),
// and back.
PuzzleRecord to_record(const training::Puzzle& p);
training::Puzzle from_record(const PuzzleRecord& r);

// The solver's moves tried so far, checked against the solution. A move is right when
// it is the solution's move, or, on the solver's last step, any move that mates
// (lichess accepts any mate there). The first wrong move ends the attempt.
struct AttemptCheck {
    enum Status { CONTINUE, SOLVED, FAILED } status = CONTINUE;
    std::string reply;  // CONTINUE: the opponent's answer to the last move (UCI)
    int wrong_step = -1;  // FAILED: which of the tried moves was wrong (0-based)
};
// An error (code illegal_move or bad_request, for the route's answer) when a tried move
// is not a legal move where it is played, or there are more moves than steps.
Answer<AttemptCheck> check_attempt(const training::Puzzle& p, const std::vector<std::string>& tried);

// The solver's next move after the right moves `tried` (the hint): its from and to squares.
struct PuzzleHint {
    std::string from, to;
};
Answer<PuzzleHint> hint(const training::Puzzle& p, const std::vector<std::string>& tried);

// The solver's colour: the side to move after the opponent's move ("white" / "black").
std::string solver_color(const training::Puzzle& p);

// A new account's puzzle rating: lichess's 1500 / 500 / 0.09.
StoredPuzzleRating initial_puzzle_rating();
// What an attempt does: the player's rating widened for the time since its last rated
// attempt (as P23 does for games, 0.21436 rating periods a day), then both rated against
// the other's pre-attempt rating, the player scoring 1 when solved, the puzzle 1 when not.
PuzzleRatingChange rate_attempt(const StoredPuzzleRating& player, const PuzzleGlicko& puzzle, bool solved,
                                std::int64_t now_ms);

}  // namespace outpost::server
