// Outpost — the puzzles' store (SPEC T1-T4, issue 29): the puzzles, each player's
// puzzle rating (Glicko-2, the player and the puzzle rated as a game between them, as
// lichess rates puzzles) and the history of attempts. An interface, as every store is
// (docs/architecture.md); SQLite implements it in stores/sqlite/sqlite_puzzles.cpp,
// PostgreSQL in stores/postgres/pg_puzzles.cpp (postgres::open_puzzles).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The records hold the fields of a training::Puzzle as plain strings (this room knows
// no puzzles: server/training turns one into the other). "The same position" is the
// caller's position_key: a puzzle whose key is stored already is a duplicate, kept once.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "chess/result.h"

namespace outpost::server {

// A Glicko-2 rating as stored: rating, deviation, volatility.
struct PuzzleGlicko {
    double rating = 1500, deviation = 500, volatility = 0.09;
};

struct PuzzleRecord {
    std::string id;                         // 1-32 of A-Z a-z 0-9 _ -
    std::string fen;                        // before the opponent's move
    std::vector<std::string> moves;         // UCI: the opponent's move, then solver, reply, ...
    std::vector<std::string> themes;
    std::string game_url;
    std::vector<std::string> opening_tags;
    std::string position_key;               // training::position_key(fen): one puzzle per position
    PuzzleGlicko glicko;
    int popularity = 0;
    int plays = 0;                           // attempts that changed its rating
};

// One attempt at a puzzle.
struct PuzzleAttempt {
    std::int64_t id = 0;  // given by the store
    std::int64_t account = 0;
    std::string puzzle;
    std::int64_t at_ms = 0;
    bool solved = false;
    bool rated = false;                       // changed the ratings (the account's first attempt at it)
    std::string moves;                        // the solver's moves tried, UCI, space-separated
    double rating_before = 0, rating_after = 0;  // the account's puzzle rating (equal when not rated)
    int puzzle_rating = 0;                     // the puzzle's rating when attempted
};

// An account's puzzle rating.
struct StoredPuzzleRating {
    PuzzleGlicko glicko;
    std::int64_t last_ms = 0;  // the last rated attempt (0: never)
    int attempts = 0;          // rated attempts
};

// What an attempt does to the ratings (PuzzleStore::record): the account's and the
// puzzle's new ratings.
struct PuzzleRatingChange {
    StoredPuzzleRating account;
    PuzzleGlicko puzzle;
};

// The next puzzle: the stored one nearest to `from_rating` among those with the theme
// ("": any) that the account (0: a guest) has not attempted, the rating's neighbours
// above first, then below. `skip`: ids not to give (a guest's recent ones).
struct PuzzleQuery {
    std::int64_t account = 0;
    std::string theme;
    double from_rating = 1500;
    std::vector<std::string> skip;
};

struct PuzzleAddCounts {
    std::int64_t added = 0, duplicates = 0;
};

class PuzzleStore {
public:
    // Opens (creating if needed) the puzzle tables of the SQLite database at path (the
    // same file as the games; ":memory:" for tests).
    static Result<std::unique_ptr<PuzzleStore>> open(const std::string& path, bool sync_full = false);
    virtual ~PuzzleStore() = default;

    // Adds puzzles in one transaction; one whose id or position_key is stored already
    // (or comes earlier in the same batch) is a duplicate and changes nothing.
    virtual Result<PuzzleAddCounts> add(const std::vector<PuzzleRecord>& puzzles) = 0;
    virtual Result<std::int64_t> count() = 0;
    virtual Result<std::optional<PuzzleRecord>> puzzle(const std::string& id) = 0;
    virtual Result<std::optional<PuzzleRecord>> next(const PuzzleQuery& q) = 0;
    // Every theme with how many puzzles have it, by name.
    virtual Result<std::vector<std::pair<std::string, std::int64_t>>> themes() = 0;

    // The account's rating (nullopt: none yet).
    virtual Result<std::optional<StoredPuzzleRating>> rating(std::int64_t account) = 0;
    // Whether the account has attempted the puzzle (only a first attempt is rated).
    virtual Result<bool> attempted(std::int64_t account, const std::string& puzzle) = 0;
    // Records an attempt, and with `change` the new ratings of the account and the
    // puzzle (and one more play of the puzzle), all in one transaction. Returns its id.
    virtual Result<std::int64_t> record(const PuzzleAttempt& a, const std::optional<PuzzleRatingChange>& change) = 0;
    // The account's attempts, newest first, at most `limit`, with ids below before_id (0: from the newest).
    virtual Result<std::vector<PuzzleAttempt>> history(std::int64_t account, int limit, std::int64_t before_id = 0) = 0;

    // The background generator (issue 29): which finished games it has looked at, and
    // the finished standard games (not aborted) it has not, oldest first, at most `limit`.
    virtual Result<std::vector<std::string>> games_to_scan(int limit) = 0;
    virtual Result<bool> mark_game_scanned(const std::string& game_id, int puzzles_found) = 0;
    virtual Result<bool> game_scanned(const std::string& game_id) = 0;
};

}  // namespace outpost::server
