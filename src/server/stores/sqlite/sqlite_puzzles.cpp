// Outpost — the puzzles' tables in SQLite (stores/puzzle_store.h): puzzles and their
// themes, puzzle ratings, attempts, and the games the generator has read.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Its own connection to the database file, as the accounts have: a puzzle's attempt
// is never on the path of a move. Lists (moves, themes, tags) are stored as the CSV
// writes them, space-separated; each theme also has a row of puzzle_themes, the index
// of the theme filter and of the counts.
#include "server/stores/puzzle_store.h"
#include "server/stores/sqlite/sqlite_db.h"

#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

namespace outpost::server {
namespace {

constexpr const char* PzColumns =
    "id, fen, moves, themes, game_url, opening_tags, position_key, rating, deviation, volatility, popularity, plays";

std::string pz_join_words(const std::vector<std::string>& words) {
    std::string out;
    for (const std::string& w : words) {
        if (!out.empty()) out += ' ';
        out += w;
    }
    return out;
}

std::vector<std::string> pz_split_words(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

PuzzleRecord pz_read_puzzle(const Statement& s) {
    PuzzleRecord p;
    p.id = s.text(0);
    p.fen = s.text(1);
    p.moves = pz_split_words(s.text(2));
    p.themes = pz_split_words(s.text(3));
    p.game_url = s.text(4);
    p.opening_tags = pz_split_words(s.text(5));
    p.position_key = s.text(6);
    p.glicko = PuzzleGlicko{s.real(7), s.real(8), s.real(9)};
    p.popularity = int(s.integer(10));
    p.plays = int(s.integer(11));
    return p;
}

PuzzleAttempt pz_read_attempt(const Statement& s) {
    PuzzleAttempt a;
    a.id = s.integer(0);
    a.account = s.integer(1);
    a.puzzle = s.text(2);
    a.at_ms = s.integer(3);
    a.solved = s.integer(4) != 0;
    a.rated = s.integer(5) != 0;
    a.moves = s.text(6);
    a.rating_before = s.real(7);
    a.rating_after = s.real(8);
    a.puzzle_rating = int(s.integer(9));
    return a;
}

class SqlitePuzzleStore final : public PuzzleStore {
public:
    Result<bool> open(const std::string& path, bool sync_full) { return c_.open_store(path, sync_full); }

    Result<PuzzleAddCounts> add(const std::vector<PuzzleRecord>& puzzles) override {
        std::lock_guard lock(c_.mutex);
        PuzzleAddCounts counts;
        auto r = c_.transaction([&]() -> Result<bool> {
            for (const PuzzleRecord& p : puzzles) {
                Statement s(c_.cached("INSERT INTO puzzles(id, fen, moves, themes, game_url, opening_tags, position_key, "
                                      "rating, deviation, volatility, popularity, plays) "
                                      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12) ON CONFLICT DO NOTHING"));
                s.bind(1, p.id).bind(2, p.fen).bind(3, pz_join_words(p.moves)).bind(4, pz_join_words(p.themes)).bind(5, p.game_url);
                s.bind(6, pz_join_words(p.opening_tags)).bind(7, p.position_key).bind_real(8, p.glicko.rating);
                s.bind_real(9, p.glicko.deviation).bind_real(10, p.glicko.volatility);
                s.bind(11, std::int64_t(p.popularity)).bind(12, std::int64_t(p.plays));
                if (!s.ok() || s.step() != SQLITE_DONE) return db_error(c_.db, "store a puzzle");
                if (sqlite3_changes(c_.db) == 0) {
                    ++counts.duplicates;
                    continue;
                }
                ++counts.added;
                for (const std::string& theme : std::set<std::string>(p.themes.begin(), p.themes.end())) {
                    Statement t(c_.cached("INSERT OR IGNORE INTO puzzle_themes(puzzle, theme) VALUES (?1, ?2)"));
                    t.bind(1, p.id).bind(2, theme);
                    if (!t.ok() || t.step() != SQLITE_DONE) return db_error(c_.db, "store a puzzle's theme");
                }
            }
            return true;
        });
        if (!r) return r.error();
        return counts;
    }

    Result<std::int64_t> count() override {
        std::lock_guard lock(c_.mutex);
        Statement s(c_.db, "SELECT count(*) FROM puzzles");
        if (!s.ok() || s.step() != SQLITE_ROW) return db_error(c_.db, "count the puzzles");
        return s.integer(0);
    }

    Result<std::optional<PuzzleRecord>> puzzle(const std::string& id) override {
        std::lock_guard lock(c_.mutex);
        Statement s(c_.db, (std::string("SELECT ") + PzColumns + " FROM puzzles WHERE id = ?1").c_str());
        if (!s.ok()) return db_error(c_.db, "read a puzzle");
        s.bind(1, id);
        const int rc = s.step();
        if (rc == SQLITE_ROW) return std::optional<PuzzleRecord>(pz_read_puzzle(s));
        if (rc != SQLITE_DONE) return db_error(c_.db, "read a puzzle");
        return std::optional<PuzzleRecord>();
    }

    Result<std::optional<PuzzleRecord>> next(const PuzzleQuery& q) override {
        std::lock_guard lock(c_.mutex);
        const std::string skip = nlohmann::json(q.skip).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        // Up from the rating asked for by the rating's index, then down: the first
        // puzzle that passes the filters is the nearest on that side.
        for (const char* side : {"p.rating >= ?1 ORDER BY p.rating ASC", "p.rating < ?1 ORDER BY p.rating DESC"}) {
            const std::string sql =
                std::string("SELECT ") + PzColumns +
                " FROM puzzles p WHERE (?2 = '' OR EXISTS (SELECT 1 FROM puzzle_themes t WHERE t.puzzle = p.id AND "
                "t.theme = ?2)) AND (?3 = 0 OR NOT EXISTS (SELECT 1 FROM puzzle_attempts a WHERE a.account = ?3 AND "
                "a.puzzle = p.id)) AND p.id NOT IN (SELECT value FROM json_each(?4)) AND " +
                side + " LIMIT 1";
            Statement s(c_.db, sql.c_str());
            if (!s.ok()) return db_error(c_.db, "find a puzzle");
            s.bind_real(1, q.from_rating).bind(2, q.theme).bind(3, q.account).bind(4, skip);
            const int rc = s.step();
            if (rc == SQLITE_ROW) return std::optional<PuzzleRecord>(pz_read_puzzle(s));
            if (rc != SQLITE_DONE) return db_error(c_.db, "find a puzzle");
        }
        return std::optional<PuzzleRecord>();
    }

    Result<std::vector<std::pair<std::string, std::int64_t>>> themes() override {
        std::lock_guard lock(c_.mutex);
        Statement s(c_.db, "SELECT theme, count(*) FROM puzzle_themes GROUP BY theme ORDER BY theme");
        if (!s.ok()) return db_error(c_.db, "count the themes");
        std::vector<std::pair<std::string, std::int64_t>> out;
        int rc;
        while ((rc = s.step()) == SQLITE_ROW) out.emplace_back(s.text(0), s.integer(1));
        if (rc != SQLITE_DONE) return db_error(c_.db, "count the themes");
        return out;
    }

    Result<std::optional<StoredPuzzleRating>> rating(std::int64_t account) override {
        std::lock_guard lock(c_.mutex);
        Statement s(c_.db, "SELECT rating, deviation, volatility, last_ms, attempts FROM puzzle_ratings WHERE account = ?1");
        if (!s.ok()) return db_error(c_.db, "read a puzzle rating");
        s.bind(1, account);
        const int rc = s.step();
        if (rc == SQLITE_ROW)
            return std::optional<StoredPuzzleRating>(
                StoredPuzzleRating{PuzzleGlicko{s.real(0), s.real(1), s.real(2)}, s.integer(3), int(s.integer(4))});
        if (rc != SQLITE_DONE) return db_error(c_.db, "read a puzzle rating");
        return std::optional<StoredPuzzleRating>();
    }

    Result<bool> attempted(std::int64_t account, const std::string& puzzle) override {
        std::lock_guard lock(c_.mutex);
        Statement s(c_.db, "SELECT 1 FROM puzzle_attempts WHERE account = ?1 AND puzzle = ?2 LIMIT 1");
        if (!s.ok()) return db_error(c_.db, "read the attempts");
        s.bind(1, account).bind(2, puzzle);
        const int rc = s.step();
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) return db_error(c_.db, "read the attempts");
        return rc == SQLITE_ROW;
    }

    Result<std::int64_t> record(const PuzzleAttempt& a, const std::optional<PuzzleRatingChange>& change) override {
        std::lock_guard lock(c_.mutex);
        std::int64_t id = 0;
        auto r = c_.transaction([&]() -> Result<bool> {
            Statement s(c_.db, "INSERT INTO puzzle_attempts(account, puzzle, at_ms, solved, rated, moves, rating_before, "
                               "rating_after, puzzle_rating) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
            s.bind(1, a.account).bind(2, a.puzzle).bind(3, a.at_ms).bind(4, std::int64_t(a.solved));
            s.bind(5, std::int64_t(change.has_value())).bind(6, a.moves).bind_real(7, a.rating_before);
            s.bind_real(8, a.rating_after).bind(9, std::int64_t(a.puzzle_rating));
            if (!s.ok() || s.step() != SQLITE_DONE) return db_error(c_.db, "store the attempt");
            id = sqlite3_last_insert_rowid(c_.db);
            if (!change) return true;
            const PuzzleGlicko& g = change->account.glicko;
            Statement u(c_.db, "INSERT INTO puzzle_ratings(account, rating, deviation, volatility, last_ms, attempts) "
                               "VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT(account) DO UPDATE SET rating = ?2, "
                               "deviation = ?3, volatility = ?4, last_ms = ?5, attempts = ?6");
            u.bind(1, a.account).bind_real(2, g.rating).bind_real(3, g.deviation).bind_real(4, g.volatility);
            u.bind(5, change->account.last_ms).bind(6, std::int64_t(change->account.attempts));
            if (!u.ok() || u.step() != SQLITE_DONE) return db_error(c_.db, "store the puzzle rating");
            Statement p(c_.db, "UPDATE puzzles SET rating = ?2, deviation = ?3, volatility = ?4, plays = plays + 1 "
                               "WHERE id = ?1");
            p.bind(1, a.puzzle).bind_real(2, change->puzzle.rating).bind_real(3, change->puzzle.deviation);
            p.bind_real(4, change->puzzle.volatility);
            if (!p.ok() || p.step() != SQLITE_DONE) return db_error(c_.db, "store the puzzle's rating");
            return true;
        });
        if (!r) return r.error();
        return id;
    }

    Result<std::vector<PuzzleAttempt>> history(std::int64_t account, int limit, std::int64_t before_id) override {
        std::lock_guard lock(c_.mutex);
        Statement s(c_.db, "SELECT id, account, puzzle, at_ms, solved, rated, moves, rating_before, rating_after, "
                           "puzzle_rating FROM puzzle_attempts WHERE account = ?1 AND (?2 = 0 OR id < ?2) "
                           "ORDER BY id DESC LIMIT ?3");
        if (!s.ok()) return db_error(c_.db, "read the attempts");
        s.bind(1, account).bind(2, before_id).bind(3, std::int64_t(limit));
        std::vector<PuzzleAttempt> out;
        int rc;
        while ((rc = s.step()) == SQLITE_ROW) out.push_back(pz_read_attempt(s));
        if (rc != SQLITE_DONE) return db_error(c_.db, "read the attempts");
        return out;
    }

    Result<std::vector<std::string>> games_to_scan(int limit) override {
        std::lock_guard lock(c_.mutex);
        Statement s(c_.db, "SELECT g.id FROM games g WHERE g.status NOT IN ('ongoing', 'aborted') AND "
                           "g.variant = 'standard' AND NOT EXISTS (SELECT 1 FROM puzzle_scanned_games s "
                           "WHERE s.game_id = g.id) ORDER BY g.updated_ms, g.id LIMIT ?1");
        if (!s.ok()) return db_error(c_.db, "find the games to read");
        s.bind(1, std::int64_t(limit));
        std::vector<std::string> out;
        int rc;
        while ((rc = s.step()) == SQLITE_ROW) out.push_back(s.text(0));
        if (rc != SQLITE_DONE) return db_error(c_.db, "find the games to read");
        return out;
    }

    Result<bool> mark_game_scanned(const std::string& game_id, int puzzles_found) override {
        std::lock_guard lock(c_.mutex);
        Statement s(c_.db, "INSERT INTO puzzle_scanned_games(game_id, puzzles) VALUES (?1, ?2) "
                           "ON CONFLICT(game_id) DO UPDATE SET puzzles = ?2");
        s.bind(1, game_id).bind(2, std::int64_t(puzzles_found));
        if (!s.ok() || s.step() != SQLITE_DONE) return db_error(c_.db, "mark a game read");
        return true;
    }

    Result<bool> game_scanned(const std::string& game_id) override {
        std::lock_guard lock(c_.mutex);
        Statement s(c_.db, "SELECT 1 FROM puzzle_scanned_games WHERE game_id = ?1");
        if (!s.ok()) return db_error(c_.db, "read the games read");
        s.bind(1, game_id);
        const int rc = s.step();
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) return db_error(c_.db, "read the games read");
        return rc == SQLITE_ROW;
    }

private:
    Connection c_;
};

}  // namespace

Result<std::unique_ptr<PuzzleStore>> PuzzleStore::open(const std::string& path, bool sync_full) {
    auto store = std::make_unique<SqlitePuzzleStore>();
    if (auto r = store->open(path, sync_full); !r) return r.error();
    return std::unique_ptr<PuzzleStore>(std::move(store));
}

}  // namespace outpost::server
