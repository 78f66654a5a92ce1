// Outpost — the puzzles' tables in PostgreSQL (stores/puzzle_store.h): puzzles and
// their themes, puzzle ratings, attempts, and the games the generator has read; the
// same tables and semantics as SQLite's (sqlite_puzzles.cpp).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Its own connection, as the accounts have: a puzzle's attempt is never on the path of
// a move. Lists (moves, themes, tags) are stored space-separated, as SQLite stores
// them; each theme also has a row of puzzle_themes, the index of the theme filter and
// of the counts. Parameters whose type the SQL alone does not fix are cast.
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "server/stores/postgres/pg_db.h"
#include "server/stores/postgres/pg_stores.h"

namespace outpost::server {
// In a namespace of their own: the unity build puts these files beside SQLite's.
namespace pg {
namespace {

#define PG_PUZZLE_COLUMNS \
    "id, fen, moves, themes, game_url, opening_tags, position_key, rating, deviation, volatility, popularity, plays"

std::string join_words(const std::vector<std::string>& words) {
    std::string out;
    for (const std::string& w : words) {
        if (!out.empty()) out += ' ';
        out += w;
    }
    return out;
}

std::vector<std::string> split_words(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

PuzzleRecord read_puzzle(const Rows& r, int i) {
    PuzzleRecord p;
    p.id = r.text(i, 0);
    p.fen = r.text(i, 1);
    p.moves = split_words(r.text(i, 2));
    p.themes = split_words(r.text(i, 3));
    p.game_url = r.text(i, 4);
    p.opening_tags = split_words(r.text(i, 5));
    p.position_key = r.text(i, 6);
    p.glicko = PuzzleGlicko{r.real(i, 7), r.real(i, 8), r.real(i, 9)};
    p.popularity = int(r.integer(i, 10));
    p.plays = int(r.integer(i, 11));
    return p;
}

PuzzleAttempt read_attempt(const Rows& r, int i) {
    PuzzleAttempt a;
    a.id = r.integer(i, 0);
    a.account = r.integer(i, 1);
    a.puzzle = r.text(i, 2);
    a.at_ms = r.integer(i, 3);
    a.solved = r.integer(i, 4) != 0;
    a.rated = r.integer(i, 5) != 0;
    a.moves = r.text(i, 6);
    a.rating_before = r.real(i, 7);
    a.rating_after = r.real(i, 8);
    a.puzzle_rating = int(r.integer(i, 9));
    return a;
}

class PgPuzzleStore final : public PuzzleStore {
public:
    Result<bool> open(const std::string& url) { return c_.open_store(url); }

    Result<PuzzleAddCounts> add(const std::vector<PuzzleRecord>& puzzles) override {
        static const char* const Puzzle =
            "INSERT INTO puzzles (" PG_PUZZLE_COLUMNS ") VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12) "
            "ON CONFLICT DO NOTHING";
        static const char* const Theme = "INSERT INTO puzzle_themes (puzzle, theme) VALUES ($1,$2) ON CONFLICT DO NOTHING";
        std::lock_guard lock(c_.mutex);
        PuzzleAddCounts counts;
        auto done = c_.transaction([&]() -> Result<bool> {
            for (const PuzzleRecord& p : puzzles) {
                auto r = c_.run(Puzzle, Params()(p.id)(p.fen)(join_words(p.moves))(join_words(p.themes))(p.game_url)(
                                            join_words(p.opening_tags))(p.position_key)(p.glicko.rating)(
                                            p.glicko.deviation)(p.glicko.volatility)(p.popularity)(p.plays));
                if (!r) return make_error("store a puzzle: " + r.error().message);
                if (r->changed() == 0) {
                    ++counts.duplicates;
                    continue;
                }
                ++counts.added;
                for (const std::string& theme : std::set<std::string>(p.themes.begin(), p.themes.end())) {
                    auto t = c_.run(Theme, Params()(p.id)(theme));
                    if (!t) return make_error("store a puzzle's theme: " + t.error().message);
                }
            }
            return true;
        });
        if (!done) return done.error();
        return counts;
    }

    Result<std::int64_t> count() override {
        std::lock_guard lock(c_.mutex);
        auto r = c_.run("SELECT count(*) FROM puzzles");
        if (!r) return make_error("count the puzzles: " + r.error().message);
        return r->integer(0, 0);
    }

    Result<std::optional<PuzzleRecord>> puzzle(const std::string& id) override {
        static const char* const Sql = "SELECT " PG_PUZZLE_COLUMNS " FROM puzzles WHERE id=$1";
        std::lock_guard lock(c_.mutex);
        auto r = c_.run(Sql, Params()(id));
        if (!r) return make_error("read a puzzle: " + r.error().message);
        if (r->empty()) return std::optional<PuzzleRecord>();
        return std::optional<PuzzleRecord>(read_puzzle(*r, 0));
    }

    Result<std::optional<PuzzleRecord>> next(const PuzzleQuery& q) override {
        // Up from the rating asked for by the rating's index, then down: the first
        // puzzle that passes the filters is the nearest on that side. The ids to skip
        // come as one JSON array.
#define PG_PUZZLE_NEXT(side)                                                                                         \
    "SELECT " PG_PUZZLE_COLUMNS                                                                                      \
    " FROM puzzles p WHERE ($2::text = '' OR EXISTS (SELECT 1 FROM puzzle_themes t WHERE t.puzzle = p.id AND "       \
    "t.theme = $2::text)) AND ($3::bigint = 0 OR NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE "                  \
    "a.account = $3::bigint AND a.puzzle = p.id)) AND p.id NOT IN (SELECT jsonb_array_elements_text($4::jsonb)) AND " \
    side " LIMIT 1"
        static const char* const Above = PG_PUZZLE_NEXT("p.rating >= $1::float8 ORDER BY p.rating ASC");
        static const char* const Below = PG_PUZZLE_NEXT("p.rating < $1::float8 ORDER BY p.rating DESC");
#undef PG_PUZZLE_NEXT
        const std::string skip = nlohmann::json(q.skip).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        std::lock_guard lock(c_.mutex);
        for (const char* sql : {Above, Below}) {
            auto r = c_.run(sql, Params()(q.from_rating)(q.theme)(q.account)(skip));
            if (!r) return make_error("find a puzzle: " + r.error().message);
            if (!r->empty()) return std::optional<PuzzleRecord>(read_puzzle(*r, 0));
        }
        return std::optional<PuzzleRecord>();
    }

    Result<std::vector<std::pair<std::string, std::int64_t>>> themes() override {
        std::lock_guard lock(c_.mutex);
        // COLLATE "C": by bytes, as SQLite orders text.
        auto r = c_.run("SELECT theme, count(*) FROM puzzle_themes GROUP BY theme ORDER BY theme COLLATE \"C\"");
        if (!r) return make_error("count the themes: " + r.error().message);
        std::vector<std::pair<std::string, std::int64_t>> out;
        for (int i = 0; i < r->size(); ++i) out.emplace_back(r->text(i, 0), r->integer(i, 1));
        return out;
    }

    Result<std::optional<StoredPuzzleRating>> rating(std::int64_t account) override {
        static const char* const Sql =
            "SELECT rating, deviation, volatility, last_ms, attempts FROM puzzle_ratings WHERE account=$1";
        std::lock_guard lock(c_.mutex);
        auto r = c_.run(Sql, Params()(account));
        if (!r) return make_error("read a puzzle rating: " + r.error().message);
        if (r->empty()) return std::optional<StoredPuzzleRating>();
        return std::optional<StoredPuzzleRating>(StoredPuzzleRating{
            PuzzleGlicko{r->real(0, 0), r->real(0, 1), r->real(0, 2)}, r->integer(0, 3), int(r->integer(0, 4))});
    }

    Result<bool> attempted(std::int64_t account, const std::string& puzzle) override {
        static const char* const Sql = "SELECT 1 FROM puzzle_attempts WHERE account=$1 AND puzzle=$2 LIMIT 1";
        std::lock_guard lock(c_.mutex);
        auto r = c_.run(Sql, Params()(account)(puzzle));
        if (!r) return make_error("read the attempts: " + r.error().message);
        return !r->empty();
    }

    Result<std::int64_t> record(const PuzzleAttempt& a, const std::optional<PuzzleRatingChange>& change) override {
        static const char* const Attempt =
            "INSERT INTO puzzle_attempts (account, puzzle, at_ms, solved, rated, moves, rating_before, rating_after, "
            "puzzle_rating) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9) RETURNING id";
        static const char* const Rating =
            "INSERT INTO puzzle_ratings (account, rating, deviation, volatility, last_ms, attempts) "
            "VALUES ($1,$2,$3,$4,$5,$6) ON CONFLICT (account) DO UPDATE SET rating=EXCLUDED.rating, "
            "deviation=EXCLUDED.deviation, volatility=EXCLUDED.volatility, last_ms=EXCLUDED.last_ms, "
            "attempts=EXCLUDED.attempts";
        static const char* const Puzzle =
            "UPDATE puzzles SET rating=$2, deviation=$3, volatility=$4, plays=plays+1 WHERE id=$1";
        std::lock_guard lock(c_.mutex);
        std::int64_t id = 0;
        auto done = c_.transaction([&]() -> Result<bool> {
            auto r = c_.run(Attempt, Params()(a.account)(a.puzzle)(a.at_ms)(a.solved)(change.has_value())(a.moves)(
                                         a.rating_before)(a.rating_after)(a.puzzle_rating));
            if (!r) return make_error("store the attempt: " + r.error().message);
            id = r->integer(0, 0);
            if (!change) return true;
            const PuzzleGlicko& g = change->account.glicko;
            auto u = c_.run(Rating, Params()(a.account)(g.rating)(g.deviation)(g.volatility)(change->account.last_ms)(
                                        change->account.attempts));
            if (!u) return make_error("store the puzzle rating: " + u.error().message);
            const PuzzleGlicko& p = change->puzzle;
            auto s = c_.run(Puzzle, Params()(a.puzzle)(p.rating)(p.deviation)(p.volatility));
            if (!s) return make_error("store the puzzle's rating: " + s.error().message);
            return true;
        });
        if (!done) return done.error();
        return id;
    }

    Result<std::vector<PuzzleAttempt>> history(std::int64_t account, int limit, std::int64_t before_id) override {
        static const char* const Sql =
            "SELECT id, account, puzzle, at_ms, solved, rated, moves, rating_before, rating_after, puzzle_rating "
            "FROM puzzle_attempts WHERE account=$1 AND ($2::bigint = 0 OR id < $2::bigint) ORDER BY id DESC LIMIT $3";
        std::lock_guard lock(c_.mutex);
        // A negative limit is no limit in SQLite's LIMIT; PostgreSQL refuses it.
        auto r = limit < 0 ? c_.run(Sql, Params()(account)(before_id).null())
                           : c_.run(Sql, Params()(account)(before_id)(limit));
        if (!r) return make_error("read the attempts: " + r.error().message);
        std::vector<PuzzleAttempt> out;
        for (int i = 0; i < r->size(); ++i) out.push_back(read_attempt(*r, i));
        return out;
    }

    Result<std::vector<std::string>> games_to_scan(int limit) override {
        static const char* const Sql =
            "SELECT g.id FROM games g WHERE g.status NOT IN ('ongoing', 'aborted') AND g.variant = 'standard' AND "
            "NOT EXISTS (SELECT 1 FROM puzzle_scanned_games s WHERE s.game_id = g.id) "
            "ORDER BY g.updated_ms, g.id COLLATE \"C\" LIMIT $1";
        std::lock_guard lock(c_.mutex);
        auto r = limit < 0 ? c_.run(Sql, Params().null()) : c_.run(Sql, Params()(limit));
        if (!r) return make_error("find the games to read: " + r.error().message);
        std::vector<std::string> out;
        for (int i = 0; i < r->size(); ++i) out.push_back(r->text(i, 0));
        return out;
    }

    Result<bool> mark_game_scanned(const std::string& game_id, int puzzles_found) override {
        static const char* const Sql =
            "INSERT INTO puzzle_scanned_games (game_id, puzzles) VALUES ($1,$2) "
            "ON CONFLICT (game_id) DO UPDATE SET puzzles=EXCLUDED.puzzles";
        std::lock_guard lock(c_.mutex);
        auto r = c_.run(Sql, Params()(game_id)(puzzles_found));
        if (!r) return make_error("mark a game read: " + r.error().message);
        return true;
    }

    Result<bool> game_scanned(const std::string& game_id) override {
        static const char* const Sql = "SELECT 1 FROM puzzle_scanned_games WHERE game_id=$1";
        std::lock_guard lock(c_.mutex);
        auto r = c_.run(Sql, Params()(game_id));
        if (!r) return make_error("read the games read: " + r.error().message);
        return !r->empty();
    }

private:
    Connection c_;
};

#undef PG_PUZZLE_COLUMNS

}  // namespace
}  // namespace pg

Result<std::unique_ptr<PuzzleStore>> postgres::open_puzzles(const std::string& url) {
    auto store = std::make_unique<pg::PgPuzzleStore>();
    if (auto r = store->open(url); !r) return r.error();
    return std::unique_ptr<PuzzleStore>(std::move(store));
}

}  // namespace outpost::server
