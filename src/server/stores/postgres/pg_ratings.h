// Outpost — the ratings tables in PostgreSQL (SPEC P23): used by the game store
// (pg_games.cpp) on its own connections, so that a rated game's ratings are written in
// the same transaction as the row that ends it.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "server/stores/game_store.h"
#include "server/stores/postgres/pg_db.h"

namespace outpost::server::pg_ratings {

// Inside a transaction: the game's ratings, unless that game's are stored already
// (then nothing: a game is rated once, whatever is written again).
Result<bool> store(pg::Connection& c, const std::string& game_id, std::int64_t at_ms, const GameRating& g);
// The ratings a game changed, if any.
Result<std::optional<GameRating>> of_game(pg::Connection& c, const std::string& game_id);
Result<std::vector<StoredRating>> of_account(pg::Connection& c, std::int64_t account);
// Oldest first, the last `limit` points.
Result<std::vector<RatingPoint>> history(pg::Connection& c, std::int64_t account, int limit);
// RatingStore::rated_games_between.
Result<std::vector<std::int64_t>> between(pg::Connection& c, std::int64_t a, std::int64_t b, std::int64_t since_ms);

}  // namespace outpost::server::pg_ratings
