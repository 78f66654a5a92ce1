// Outpost — the ratings tables in PostgreSQL (pg_ratings.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/stores/postgres/pg_ratings.h"

namespace outpost::server::pg_ratings {

// The tables (ratings, rating_history) are made by the migrations (pg_schema.cpp).

Result<bool> store(pg::Connection& c, const std::string& game_id, std::int64_t at_ms, const GameRating& g) {
    static const char* const Done = "SELECT 1 FROM rating_history WHERE game_id=$1 LIMIT 1";
    auto done = c.run(Done, pg::Params()(game_id));
    if (!done) return done.error();
    if (!done->empty()) return true;  // rated already (a later write of the same game)
    static const char* const Upsert =
        "INSERT INTO ratings (account_id, class, rating, deviation, volatility, games, last_ms) "
        "VALUES ($1,$2,$3,$4,$5,$6,$7) ON CONFLICT (account_id, class) DO UPDATE SET rating=EXCLUDED.rating, "
        "deviation=EXCLUDED.deviation, volatility=EXCLUDED.volatility, games=EXCLUDED.games, last_ms=EXCLUDED.last_ms";
    static const char* const History =
        "INSERT INTO rating_history (game_id, color, account_id, class, at_ms, before, provisional, diff, rating, deviation, "
        "volatility, games) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)";
    for (int side = 0; side < 2; ++side) {
        const GameRating::Side& s = g.side[side];
        auto up = c.run(Upsert, pg::Params()(s.account)(g.rating_class)(s.after.rating)(s.after.deviation)(
                                    s.after.volatility)(s.after.games)(s.after.last_ms));
        if (!up) return up.error();
        auto h = c.run(History, pg::Params()(game_id)(side == 0 ? "white" : "black")(s.account)(g.rating_class)(at_ms)(
                                    s.before)(s.provisional)(s.diff)(s.after.rating)(s.after.deviation)(s.after.volatility)(
                                    s.after.games));
        if (!h) return h.error();
    }
    return true;
}

Result<std::optional<GameRating>> of_game(pg::Connection& c, const std::string& game_id) {
    static const char* const Sql =
        "SELECT color, account_id, class, at_ms, before, provisional, diff, rating, deviation, volatility, games "
        "FROM rating_history WHERE game_id=$1";
    auto rows = c.run(Sql, pg::Params()(game_id));
    if (!rows) return rows.error();
    GameRating g;
    int found = 0;
    for (int i = 0; i < rows->size(); ++i) {
        GameRating::Side& side = g.side[rows->text(i, 0) == "white" ? 0 : 1];
        g.rating_class = rows->text(i, 2);
        side.account = rows->integer(i, 1);
        side.before = int(rows->integer(i, 4));
        side.provisional = rows->integer(i, 5) != 0;
        side.diff = int(rows->integer(i, 6));
        side.after = StoredRating{g.rating_class, rows->real(i, 7), rows->real(i, 8), rows->real(i, 9),
                                  int(rows->integer(i, 10)), rows->integer(i, 3)};
        ++found;
    }
    if (found != 2) return std::optional<GameRating>{};
    return std::optional<GameRating>{std::move(g)};
}

Result<std::vector<StoredRating>> of_account(pg::Connection& c, std::int64_t account) {
    static const char* const Sql =
        "SELECT class, rating, deviation, volatility, games, last_ms FROM ratings WHERE account_id=$1 ORDER BY class";
    auto rows = c.run(Sql, pg::Params()(account));
    if (!rows) return rows.error();
    std::vector<StoredRating> out;
    for (int i = 0; i < rows->size(); ++i)
        out.push_back(StoredRating{rows->text(i, 0), rows->real(i, 1), rows->real(i, 2), rows->real(i, 3),
                                   int(rows->integer(i, 4)), rows->integer(i, 5)});
    return out;
}

Result<std::vector<RatingPoint>> history(pg::Connection& c, std::int64_t account, int limit) {
    static const char* const Sql =
        "SELECT class, game_id, at_ms, rating, deviation, diff FROM "
        "(SELECT * FROM rating_history WHERE account_id=$1 ORDER BY at_ms DESC LIMIT $2) AS last ORDER BY at_ms";
    auto rows = c.run(Sql, pg::Params()(account)(limit));
    if (!rows) return rows.error();
    std::vector<RatingPoint> out;
    for (int i = 0; i < rows->size(); ++i)
        out.push_back(RatingPoint{rows->text(i, 0), rows->text(i, 1), rows->integer(i, 2), rows->real(i, 3),
                                  rows->real(i, 4), int(rows->integer(i, 5))});
    return out;
}

Result<std::vector<std::int64_t>> between(pg::Connection& c, std::int64_t a, std::int64_t b, std::int64_t since_ms) {
    static const char* const Sql =
        "SELECT x.at_ms FROM rating_history x JOIN rating_history y ON y.game_id=x.game_id AND y.account_id=$2 AND "
        "y.color<>x.color WHERE x.account_id=$1 AND x.at_ms>=$3 ORDER BY x.at_ms";
    auto rows = c.run(Sql, pg::Params()(a)(b)(since_ms));
    if (!rows) return rows.error();
    std::vector<std::int64_t> out;
    for (int i = 0; i < rows->size(); ++i) out.push_back(rows->integer(i, 0));
    return out;
}

}  // namespace outpost::server::pg_ratings
