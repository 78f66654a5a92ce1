// Outpost — the ratings tables in SQLite (sqlite_ratings.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/stores/sqlite/sqlite_ratings.h"

namespace outpost::server::sqlite_ratings {

// The tables (ratings, rating_history) are made by the migrations (sqlite_schema.cpp).

Result<bool> store(Connection& c, const std::string& game_id, std::int64_t at_ms, const GameRating& g) {
    {
        Statement done(c.cached("SELECT 1 FROM rating_history WHERE game_id=?1 LIMIT 1"));
        if (!done.ok()) return db_error(c.db, "read ratings");
        done.bind(1, game_id);
        const int rc = done.step();
        if (rc == SQLITE_ROW) return true;  // rated already (a later write of the same game)
        if (rc != SQLITE_DONE) return db_error(c.db, "read the ratings of game " + game_id);
    }
    static const char* const Upsert =
        "INSERT INTO ratings (account_id, class, rating, deviation, volatility, games, last_ms) VALUES (?1,?2,?3,?4,?5,?6,?7) "
        "ON CONFLICT(account_id, class) DO UPDATE SET rating=?3, deviation=?4, volatility=?5, games=?6, last_ms=?7";
    static const char* const History =
        "INSERT INTO rating_history (game_id, color, account_id, class, at_ms, before, provisional, diff, rating, deviation, "
        "volatility, games) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12)";
    for (int side = 0; side < 2; ++side) {
        const GameRating::Side& s = g.side[side];
        Statement up(c.cached(Upsert));
        up.bind(1, s.account).bind(2, g.rating_class).bind_real(3, s.after.rating).bind_real(4, s.after.deviation);
        up.bind_real(5, s.after.volatility).bind(6, std::int64_t(s.after.games)).bind(7, s.after.last_ms);
        if (!up.ok() || up.step() != SQLITE_DONE) return db_error(c.db, "store a rating of game " + game_id);
        Statement h(c.cached(History));
        h.bind(1, game_id).bind(2, std::string(side == 0 ? "white" : "black")).bind(3, s.account).bind(4, g.rating_class);
        h.bind(5, at_ms).bind(6, std::int64_t(s.before)).bind(7, std::int64_t(s.provisional)).bind(8, std::int64_t(s.diff));
        h.bind_real(9, s.after.rating).bind_real(10, s.after.deviation).bind_real(11, s.after.volatility);
        h.bind(12, std::int64_t(s.after.games));
        if (!h.ok() || h.step() != SQLITE_DONE) return db_error(c.db, "store the rating history of game " + game_id);
    }
    return true;
}

Result<std::optional<GameRating>> of_game(Connection& c, const std::string& game_id) {
    Statement s(c.cached("SELECT color, account_id, class, at_ms, before, provisional, diff, rating, deviation, volatility, games "
                         "FROM rating_history WHERE game_id=?1"));
    if (!s.ok()) return db_error(c.db, "read ratings");
    s.bind(1, game_id);
    GameRating g;
    int found = 0, rc;
    while ((rc = s.step()) == SQLITE_ROW) {
        GameRating::Side& side = g.side[s.text(0) == "white" ? 0 : 1];
        g.rating_class = s.text(2);
        side.account = s.integer(1);
        side.before = int(s.integer(4));
        side.provisional = s.integer(5) != 0;
        side.diff = int(s.integer(6));
        side.after = StoredRating{g.rating_class, s.real(7), s.real(8), s.real(9), int(s.integer(10)), s.integer(3)};
        ++found;
    }
    if (rc != SQLITE_DONE) return db_error(c.db, "read the ratings of game " + game_id);
    if (found != 2) return std::optional<GameRating>{};
    return std::optional<GameRating>{std::move(g)};
}

Result<std::vector<StoredRating>> of_account(Connection& c, std::int64_t account) {
    Statement s(c.cached("SELECT class, rating, deviation, volatility, games, last_ms FROM ratings WHERE account_id=?1"));
    if (!s.ok()) return db_error(c.db, "read ratings");
    s.bind(1, account);
    std::vector<StoredRating> out;
    int rc;
    while ((rc = s.step()) == SQLITE_ROW)
        out.push_back(StoredRating{s.text(0), s.real(1), s.real(2), s.real(3), int(s.integer(4)), s.integer(5)});
    if (rc != SQLITE_DONE) return db_error(c.db, "read ratings");
    return out;
}

Result<std::vector<RatingPoint>> history(Connection& c, std::int64_t account, int limit) {
    Statement s(c.cached("SELECT class, game_id, at_ms, rating, deviation, diff FROM "
                         "(SELECT * FROM rating_history WHERE account_id=?1 ORDER BY at_ms DESC LIMIT ?2) ORDER BY at_ms"));
    if (!s.ok()) return db_error(c.db, "read the rating history");
    s.bind(1, account).bind(2, std::int64_t(limit));
    std::vector<RatingPoint> out;
    int rc;
    while ((rc = s.step()) == SQLITE_ROW)
        out.push_back(RatingPoint{s.text(0), s.text(1), s.integer(2), s.real(3), s.real(4), int(s.integer(5))});
    if (rc != SQLITE_DONE) return db_error(c.db, "read the rating history");
    return out;
}

// A game's two rows of rating_history: one of `a` since then (the index on account_id,
// at_ms), the other of `b` (the key's game_id).
Result<std::vector<std::int64_t>> between(Connection& c, std::int64_t a, std::int64_t b, std::int64_t since_ms) {
    Statement s(c.cached("SELECT x.at_ms FROM rating_history x JOIN rating_history y ON y.game_id=x.game_id AND "
                         "y.account_id=?2 AND y.color<>x.color WHERE x.account_id=?1 AND x.at_ms>=?3 ORDER BY x.at_ms"));
    if (!s.ok()) return db_error(c.db, "read ratings");
    s.bind(1, a).bind(2, b).bind(3, since_ms);
    std::vector<std::int64_t> out;
    int rc;
    while ((rc = s.step()) == SQLITE_ROW) out.push_back(s.integer(0));
    if (rc != SQLITE_DONE) return db_error(c.db, "read the rated games of two accounts");
    return out;
}

}  // namespace outpost::server::sqlite_ratings
