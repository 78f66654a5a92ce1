// Outpost — SQLite storage.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/storage.h"

#include <chrono>

#include <sqlite3.h>

namespace outpost::server {
namespace {

constexpr const char* Schema = R"sql(
CREATE TABLE IF NOT EXISTS games (
  id TEXT PRIMARY KEY,
  created_ms INTEGER NOT NULL, updated_ms INTEGER NOT NULL,
  white_token TEXT NOT NULL, black_token TEXT NOT NULL,
  white_kind TEXT NOT NULL, black_kind TEXT NOT NULL,
  white_name TEXT NOT NULL, black_name TEXT NOT NULL,
  robot_level INTEGER NOT NULL, robot_elo INTEGER NOT NULL,
  time_control TEXT NOT NULL, variant TEXT NOT NULL, chess960 INTEGER NOT NULL,
  initial_fen TEXT NOT NULL, casual INTEGER NOT NULL,
  status TEXT NOT NULL, result TEXT NOT NULL,
  draw_offer TEXT NOT NULL, takeback_request TEXT NOT NULL, offer_plies TEXT NOT NULL,
  white_ms INTEGER NOT NULL, black_ms INTEGER NOT NULL,
  running TEXT NOT NULL, turn_started_ms INTEGER NOT NULL,
  rematch_of TEXT NOT NULL, rematch_game TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_status ON games(status);
CREATE INDEX IF NOT EXISTS games_white_token ON games(white_token);
CREATE INDEX IF NOT EXISTS games_black_token ON games(black_token);
CREATE TABLE IF NOT EXISTS moves (
  game_id TEXT NOT NULL, ply INTEGER NOT NULL, uci TEXT NOT NULL,
  white_ms INTEGER NOT NULL, black_ms INTEGER NOT NULL, at_ms INTEGER NOT NULL,
  PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
)sql";

constexpr const char* GameColumns =
    "id, created_ms, updated_ms, white_token, black_token, white_kind, black_kind, white_name, black_name, "
    "robot_level, robot_elo, time_control, variant, chess960, initial_fen, casual, status, result, draw_offer, "
    "takeback_request, offer_plies, white_ms, black_ms, running, turn_started_ms, rematch_of, rematch_game";

// A prepared statement: owned (finalized at the end) or borrowed from the cache of
// the hot statements (reset for the next use).
class Statement {
public:
    Statement(sqlite3* db, const char* sql) { rc_ = sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr); }
    explicit Statement(sqlite3_stmt* cached) : stmt_(cached), rc_(cached ? SQLITE_OK : SQLITE_ERROR), owned_(false) {}
    ~Statement() {
        if (owned_) {
            sqlite3_finalize(stmt_);
        } else if (stmt_) {
            sqlite3_reset(stmt_);
            sqlite3_clear_bindings(stmt_);
        }
    }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    bool ok() const { return rc_ == SQLITE_OK; }
    Statement& bind(int i, const std::string& s) {
        sqlite3_bind_text(stmt_, i, s.data(), int(s.size()), SQLITE_TRANSIENT);
        return *this;
    }
    Statement& bind(int i, std::int64_t v) {
        sqlite3_bind_int64(stmt_, i, v);
        return *this;
    }
    int step() { return sqlite3_step(stmt_); }
    std::string text(int col) const {
        const unsigned char* t = sqlite3_column_text(stmt_, col);
        return t ? std::string(reinterpret_cast<const char*>(t), size_t(sqlite3_column_bytes(stmt_, col))) : "";
    }
    std::int64_t integer(int col) const { return sqlite3_column_int64(stmt_, col); }

private:
    sqlite3_stmt* stmt_ = nullptr;
    int rc_ = SQLITE_ERROR;
    bool owned_ = true;
};

Error db_error(sqlite3* db, const std::string& what) { return make_error(what + ": " + sqlite3_errmsg(db)); }

StoredGame read_game_row(const Statement& s) {
    StoredGame g;
    int c = 0;
    g.id = s.text(c++);
    g.created_ms = s.integer(c++);
    g.updated_ms = s.integer(c++);
    g.white_token = s.text(c++);
    g.black_token = s.text(c++);
    g.white_kind = s.text(c++);
    g.black_kind = s.text(c++);
    g.white_name = s.text(c++);
    g.black_name = s.text(c++);
    g.robot_level = int(s.integer(c++));
    g.robot_elo = int(s.integer(c++));
    g.time_control = s.text(c++);
    g.variant = s.text(c++);
    g.chess960 = int(s.integer(c++));
    g.initial_fen = s.text(c++);
    g.casual = s.integer(c++) != 0;
    g.status = s.text(c++);
    g.result = s.text(c++);
    g.draw_offer = s.text(c++);
    g.takeback_request = s.text(c++);
    g.offer_plies = s.text(c++);
    g.white_ms = s.integer(c++);
    g.black_ms = s.integer(c++);
    g.running = s.text(c++);
    g.turn_started_ms = s.integer(c++);
    g.rematch_of = s.text(c++);
    g.rematch_game = s.text(c++);
    return g;
}

}  // namespace

Result<std::unique_ptr<Storage>> Storage::open(const std::string& path, bool sync_full) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nullptr) !=
        SQLITE_OK) {
        Error e = make_error("cannot open database " + path + ": " + (db ? sqlite3_errmsg(db) : "out of memory"));
        sqlite3_close(db);
        return e;
    }
    std::unique_ptr<Storage> s(new Storage(db));
    sqlite3_busy_timeout(db, 5000);
    // wal_autocheckpoint=0: the checkpointer thread below does it instead.
    for (const char* sql : {"PRAGMA journal_mode=WAL;", "PRAGMA wal_autocheckpoint=0;", sync_full ? "PRAGMA synchronous=FULL;" : "PRAGMA synchronous=NORMAL;",
                            "PRAGMA foreign_keys=ON;", Schema}) {
        if (auto r = s->exec(sql); !r) return r.error();
    }
    s->checkpointer_ = std::thread(&Storage::checkpoint_loop, s.get(), path);
    return s;
}

void Storage::checkpoint_loop(std::string path) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        return;  // then the WAL only grows; commits still work
    }
    sqlite3_busy_timeout(db, 100);
    std::unique_lock lock(stop_mutex_);
    for (;;) {
        stop_cv_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stopping_; });
        const bool last = stopping_;
        lock.unlock();
        // PASSIVE: copies what it can without waiting for or blocking the writer; the
        // writer starts the WAL over once a checkpoint has caught up.
        (void)sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
        lock.lock();
        if (last) break;
    }
    sqlite3_close(db);
}

Storage::~Storage() {
    {
        std::lock_guard lock(stop_mutex_);
        stopping_ = true;
    }
    stop_cv_.notify_all();
    if (checkpointer_.joinable()) checkpointer_.join();
    for (auto& [sql, stmt] : cache_) sqlite3_finalize(stmt);
    sqlite3_close(db_);
}

sqlite3_stmt* Storage::cached(const char* sql) {
    auto it = cache_.find(sql);
    if (it != cache_.end()) return it->second;
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, sql, -1, &stmt, nullptr) != SQLITE_OK) return nullptr;
    cache_[sql] = stmt;
    return stmt;
}

Result<bool> Storage::exec(const char* sql) {
    // The transaction statements are prepared once and reused.
    if (std::string_view(sql).rfind("BEGIN", 0) == 0 || std::string_view(sql).rfind("COMMIT", 0) == 0 ||
        std::string_view(sql).rfind("ROLLBACK", 0) == 0) {
        Statement st(cached(sql));
        if (st.ok() && st.step() == SQLITE_DONE) return true;
        return db_error(db_, std::string("database: ") + sql);
    }
    char* msg = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &msg) != SQLITE_OK) {
        Error e = make_error(std::string("database: ") + (msg ? msg : "error"));
        sqlite3_free(msg);
        return e;
    }
    return true;
}

Result<bool> Storage::write_game_row(const StoredGame& g, bool insert) {
    static const std::string Insert = std::string("INSERT INTO games (") + GameColumns +
                                      ") VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20,"
                                      "?21,?22,?23,?24,?25,?26,?27)";
    static const std::string Update =
        "UPDATE games SET updated_ms=?3, white_name=?8, black_name=?9, status=?17, "
        "result=?18, draw_offer=?19, takeback_request=?20, offer_plies=?21, white_ms=?22, "
        "black_ms=?23, running=?24, turn_started_ms=?25, rematch_game=?27 WHERE id=?1";
    Statement s(cached(insert ? Insert.c_str() : Update.c_str()));
    if (!s.ok()) return db_error(db_, "prepare game row");
    int i = 1;
    const auto bind = [&](const auto& v) {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::string>) s.bind(i++, v);
        else s.bind(i++, std::int64_t(v));
    };
    bind(g.id), bind(g.created_ms), bind(g.updated_ms), bind(g.white_token), bind(g.black_token);
    bind(g.white_kind), bind(g.black_kind), bind(g.white_name), bind(g.black_name);
    bind(g.robot_level), bind(g.robot_elo), bind(g.time_control), bind(g.variant), bind(g.chess960);
    bind(g.initial_fen), bind(g.casual), bind(g.status), bind(g.result), bind(g.draw_offer);
    bind(g.takeback_request), bind(g.offer_plies), bind(g.white_ms), bind(g.black_ms), bind(g.running);
    bind(g.turn_started_ms), bind(g.rematch_of), bind(g.rematch_game);
    if (s.step() != SQLITE_DONE) return db_error(db_, insert ? "insert game" : "update game");
    return true;
}

Result<bool> Storage::insert_game(const StoredGame& g) {
    if (auto r = exec("BEGIN IMMEDIATE;"); !r) return r;
    auto r = write_game_row(g, true);
    for (size_t i = 0; r && i < g.moves.size(); ++i) {
        Statement s(db_, "INSERT INTO moves (game_id, ply, uci, white_ms, black_ms, at_ms) VALUES (?1,?2,?3,?4,?5,?6)");
        const StoredMove& m = g.moves[i];
        s.bind(1, g.id).bind(2, std::int64_t(m.ply)).bind(3, m.uci).bind(4, m.white_ms).bind(5, m.black_ms).bind(6, m.at_ms);
        if (s.step() != SQLITE_DONE) r = db_error(db_, "insert move");
    }
    if (!r) {
        (void)exec("ROLLBACK;");
        return r;
    }
    return exec("COMMIT;");
}

Result<bool> Storage::update_game(const StoredGame& g) { return write_game_row(g, false); }

Result<bool> Storage::append_move(const StoredGame& g, const StoredMove& m) {
    if (auto r = exec("BEGIN IMMEDIATE;"); !r) return r;
    Statement s(cached("INSERT OR REPLACE INTO moves (game_id, ply, uci, white_ms, black_ms, at_ms) VALUES (?1,?2,?3,?4,?5,?6)"));
    s.bind(1, g.id).bind(2, std::int64_t(m.ply)).bind(3, m.uci).bind(4, m.white_ms).bind(5, m.black_ms).bind(6, m.at_ms);
    Result<bool> r = s.step() == SQLITE_DONE ? Result<bool>(true) : Result<bool>(db_error(db_, "insert move"));
    if (r) r = write_game_row(g, false);
    if (!r) {
        (void)exec("ROLLBACK;");
        return r;
    }
    return exec("COMMIT;");
}

Result<bool> Storage::truncate_moves(const StoredGame& g, int ply) {
    if (auto r = exec("BEGIN IMMEDIATE;"); !r) return r;
    Statement s(db_, "DELETE FROM moves WHERE game_id=?1 AND ply>?2");
    s.bind(1, g.id).bind(2, std::int64_t(ply));
    Result<bool> r = s.step() == SQLITE_DONE ? Result<bool>(true) : Result<bool>(db_error(db_, "delete moves"));
    if (r) r = write_game_row(g, false);
    if (!r) {
        (void)exec("ROLLBACK;");
        return r;
    }
    return exec("COMMIT;");
}

std::vector<StoredGame> Storage::read_games(const char* sql, const std::vector<std::string>& params, bool with_moves) {
    std::vector<StoredGame> out;
    {
        Statement s(db_, sql);
        if (!s.ok()) return out;
        for (size_t i = 0; i < params.size(); ++i) s.bind(int(i + 1), params[i]);
        while (s.step() == SQLITE_ROW) out.push_back(read_game_row(s));
    }
    if (with_moves) {
        for (StoredGame& g : out) {
            Statement m(db_, "SELECT ply, uci, white_ms, black_ms, at_ms FROM moves WHERE game_id=?1 ORDER BY ply");
            m.bind(1, g.id);
            while (m.step() == SQLITE_ROW)
                g.moves.push_back(StoredMove{int(m.integer(0)), m.text(1), m.integer(2), m.integer(3), m.integer(4)});
        }
    }
    return out;
}

Result<std::optional<StoredGame>> Storage::load_game(const std::string& id) {
    const std::string sql = std::string("SELECT ") + GameColumns + " FROM games WHERE id=?1";
    auto games = read_games(sql.c_str(), {id}, true);
    if (games.empty()) return std::optional<StoredGame>{};
    return std::optional<StoredGame>{std::move(games.front())};
}

Result<std::vector<StoredGame>> Storage::load_live_games() {
    const std::string sql = std::string("SELECT ") + GameColumns + " FROM games WHERE status='ongoing'";
    return read_games(sql.c_str(), {}, true);
}

Result<std::vector<StoredGame>> Storage::games_for_tokens(const std::vector<std::string>& tokens, int limit) {
    std::vector<StoredGame> out;
    for (const std::string& t : tokens) {
        if (int(out.size()) >= limit) break;
        const std::string sql = std::string("SELECT ") + GameColumns +
                                " FROM games WHERE white_token=?1 OR black_token=?1 ORDER BY updated_ms DESC LIMIT 20";
        for (StoredGame& g : read_games(sql.c_str(), {t}, false)) {
            bool dup = false;
            for (const StoredGame& o : out) dup = dup || o.id == g.id;
            if (!dup) out.push_back(std::move(g));
        }
    }
    return out;
}

}  // namespace outpost::server
