// Outpost — the ratings' store (SPEC P23), its read side: an account's rating in each
// class and its history. Written only with the game that changes them (game_store.h:
// GameWrite carries a GameRating, stored in the same transaction as the game's row), so
// the game store implements this interface too (SQLite: stores/sqlite/sqlite_games.cpp
// over sqlite_ratings.cpp); a reader that needs only ratings takes a RatingStore.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "chess/result.h"

namespace outpost::server {

// An account's rating in one class (P23; accounts/ratings.h): Glicko-2's three numbers,
// the rated games counted and when the last one ended (wall clock, ms).
struct StoredRating {
    std::string rating_class;  // "bullet", …, "chess960" (club::rating_class_name)
    double rating = 0, deviation = 0, volatility = 0;
    int games = 0;
    std::int64_t last_ms = 0;
};

// One point of an account's rating history: after the game `game_id` ended.
struct RatingPoint {
    std::string rating_class, game_id;
    std::int64_t at_ms = 0;
    double rating = 0, deviation = 0;
    int diff = 0;
};

class RatingStore {
public:
    virtual ~RatingStore() = default;
    // An account's ratings, one per class it has played rated games in.
    virtual Result<std::vector<StoredRating>> ratings_of(std::int64_t account) = 0;
    // Its rating history, oldest first, the last `limit` points.
    virtual Result<std::vector<RatingPoint>> rating_history(std::int64_t account, int limit) = 0;
    // Issue 25 (rating farming): when the rated games between accounts `a` and `b` (either
    // colour) that changed their ratings ended, from `since_ms` on (wall ms), oldest first.
    // Both stores answer it (the contract tests); a store that keeps no ratings (a test's
    // fake) says so, and the hub then counts only the games it rated itself.
    virtual Result<std::vector<std::int64_t>> rated_games_between(std::int64_t, std::int64_t, std::int64_t) {
        return make_error("this store keeps no ratings");
    }
};

}  // namespace outpost::server
