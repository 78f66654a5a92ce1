// Outpost — the ratings tables in SQLite (SPEC P23): used by the game store
// (stores/sqlite/sqlite_games.cpp) on its own connections, so that a rated game's ratings are
// written in the same transaction as the row that ends it.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "server/stores/sqlite/sqlite_db.h"
#include "server/stores/game_store.h"

namespace outpost::server::sqlite_ratings {

// Inside a transaction: the game's ratings, unless that game's are stored already
// (then nothing: a game is rated once, whatever is written again).
Result<bool> store(Connection& c, const std::string& game_id, std::int64_t at_ms, const GameRating& g);
// The ratings a game changed, if any.
Result<std::optional<GameRating>> of_game(Connection& c, const std::string& game_id);
Result<std::vector<StoredRating>> of_account(Connection& c, std::int64_t account);
// Oldest first, the last `limit` points.
Result<std::vector<RatingPoint>> history(Connection& c, std::int64_t account, int limit);
// RatingStore::rated_games_between.
Result<std::vector<std::int64_t>> between(Connection& c, std::int64_t a, std::int64_t b, std::int64_t since_ms);

}  // namespace outpost::server::sqlite_ratings
