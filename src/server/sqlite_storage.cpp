// Outpost — the game store in SQLite (SPEC D1, D3).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A game row and one row per move, in WAL mode with synchronous=NORMAL: a transaction
// is durable against a kill -9 of the server once it returns (an operating-system
// crash may lose the last moments; --sync-full closes that too at some cost).
//
// Two connections: one that writes (only the StorageWriter's thread uses it, in
// batches) and one that reads, so that a game read from storage does not wait for a
// batch's fsync. A third, on its own thread, checkpoints the WAL into the database.
#include "server/storage.h"

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>
#include <unordered_map>

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
  rematch_of TEXT NOT NULL, rematch_game TEXT NOT NULL,
  rematch_white_token TEXT NOT NULL DEFAULT '', rematch_black_token TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS games_status ON games(status);
CREATE INDEX IF NOT EXISTS games_white_token ON games(white_token);
CREATE INDEX IF NOT EXISTS games_black_token ON games(black_token);
CREATE TABLE IF NOT EXISTS moves (
  game_id TEXT NOT NULL, ply INTEGER NOT NULL, uci TEXT NOT NULL,
  white_ms INTEGER NOT NULL, black_ms INTEGER NOT NULL, at_ms INTEGER NOT NULL,
  clock_ms INTEGER NOT NULL DEFAULT -2,
  PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS analyses (
  game_id TEXT PRIMARY KEY, settings TEXT NOT NULL, json TEXT NOT NULL, created_ms INTEGER NOT NULL
);
)sql";

constexpr const char* GameColumns =
    "id, created_ms, updated_ms, white_token, black_token, white_kind, black_kind, white_name, black_name, "
    "robot_level, robot_elo, time_control, variant, chess960, initial_fen, casual, status, result, draw_offer, "
    "takeback_request, offer_plies, white_ms, black_ms, running, turn_started_ms, rematch_of, rematch_game, "
    "rematch_white_token, rematch_black_token";

// Columns added after the first release, for databases made before them.
constexpr std::pair<const char*, const char*> AddedColumns[] = {
    {"games", "rematch_white_token TEXT NOT NULL DEFAULT ''"},
    {"games", "rematch_black_token TEXT NOT NULL DEFAULT ''"},
    {"moves", "clock_ms INTEGER NOT NULL DEFAULT -2"},
};

// A WAL beyond this is copied back with a TRUNCATE checkpoint, which waits for the
// writer for a moment; below it, PASSIVE checkpoints never make anyone wait.
constexpr std::int64_t WalTruncateBytes = 8 << 20;
// A WAL beyond this (the checkpointer fell behind: a starved thread, a writer that
// never pauses) is copied back by the writer itself before its next batch: the bound
// holds whatever the scheduling.
constexpr int WalWriterCheckpointFrames = (24 << 20) / 4096;

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
    g.rematch_white_token = s.text(c++);
    g.rematch_black_token = s.text(c++);
    return g;
}


// One SQLite connection with its prepared statements, used by one thread at a time.
struct Connection {
    sqlite3* db = nullptr;
    std::unordered_map<const char*, sqlite3_stmt*> cache;  // keyed by the SQL text's address
    std::mutex mutex;

    ~Connection() {
        for (auto& [sql, stmt] : cache) sqlite3_finalize(stmt);
        sqlite3_close(db);
    }
    // `sql` must live as long as the program (a literal or a static string).
    sqlite3_stmt* cached(const char* sql) {
        auto it = cache.find(sql);
        if (it != cache.end()) return it->second;
        sqlite3_stmt* stmt = nullptr;
        if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) != SQLITE_OK) return nullptr;
        cache[sql] = stmt;
        return stmt;
    }
    Result<bool> exec(const char* sql) {
        char* msg = nullptr;
        if (sqlite3_exec(db, sql, nullptr, nullptr, &msg) != SQLITE_OK) {
            Error e = make_error(std::string("database: ") + (msg ? msg : "error") + " (in " + std::string(sql).substr(0, 60) + ")");
            sqlite3_free(msg);
            return e;
        }
        return true;
    }
    // The one transaction wrapper: BEGIN IMMEDIATE, the body, COMMIT; ROLLBACK on error.
    template <class Body>
    Result<bool> transaction(Body&& body) {
        if (auto r = step_cached("BEGIN IMMEDIATE;"); !r) return r;
        Result<bool> r = body();
        if (r) r = step_cached("COMMIT;");
        if (!r) (void)step_cached("ROLLBACK;");
        return r;
    }
    Result<bool> step_cached(const char* sql) {
        Statement st(cached(sql));
        if (st.ok() && st.step() == SQLITE_DONE) return true;
        return db_error(db, std::string("database: ") + sql);
    }
};

Result<sqlite3*> open_connection(const std::string& path, int flags) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
        Error e = make_error("cannot open database " + path + ": " + (db ? sqlite3_errmsg(db) : "out of memory"));
        sqlite3_close(db);
        return e;
    }
    sqlite3_busy_timeout(db, 5000);
    return db;
}

class SqliteStorage final : public Storage {
public:
    SqliteStorage(std::string path) : path_(std::move(path)) {}
    ~SqliteStorage() override {
        {
            std::lock_guard lock(stop_mutex_);
            stopping_ = true;
        }
        stop_cv_.notify_all();
        if (checkpointer_.joinable()) checkpointer_.join();
    }

    Result<bool> open(bool sync_full) {
        auto w = open_connection(path_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
        if (!w) return w.error();
        writer_.db = *w;
        // wal_autocheckpoint=0: the checkpointer thread does it, off the write path.
        // journal_size_limit: a WAL that was started over is cut back to this size
        // (without it the file keeps its largest size forever).
        for (const char* sql : {"PRAGMA journal_mode=WAL;", "PRAGMA wal_autocheckpoint=0;", "PRAGMA journal_size_limit=1048576;",
                                sync_full ? "PRAGMA synchronous=FULL;" : "PRAGMA synchronous=NORMAL;", Schema}) {
            if (auto r = writer_.exec(sql); !r) return r;
        }
        // After the pragmas: wal_autocheckpoint replaces any WAL hook.
        sqlite3_wal_hook(
            writer_.db,
            [](void* self, sqlite3*, const char*, int frames) {
                static_cast<SqliteStorage*>(self)->wal_frames_ = frames;
                return SQLITE_OK;
            },
            this);
        for (const auto& [table, column] : AddedColumns) {
            const std::string name = std::string(column).substr(0, std::string(column).find(' '));
            Statement info(writer_.db, (std::string("SELECT 1 FROM pragma_table_info('") + table + "') WHERE name=?1").c_str());
            info.bind(1, name);
            if (info.step() == SQLITE_ROW) continue;
            const std::string alter = std::string("ALTER TABLE ") + table + " ADD COLUMN " + column;
            if (auto r = writer_.exec(alter.c_str()); !r) return r;
        }
        if (path_ == ":memory:") {
            in_memory_ = true;
            return true;
        }
        auto rd = open_connection(path_, SQLITE_OPEN_READONLY);
        if (!rd) return rd.error();
        reader_.db = *rd;
        checkpointer_ = std::thread(&SqliteStorage::checkpoint_loop, this);
        return true;
    }

    Result<bool> write(const std::vector<GameWrite>& batch) override {
        std::lock_guard lock(writer_.mutex);
        auto done = writer_.transaction([&]() -> Result<bool> {
            for (const GameWrite& w : batch)
                if (auto r = apply(w); !r) return r;
            return true;
        });
        // (While the checkpointer is copying, this one is refused at once: then the
        // next batch tries again.)
        if (wal_frames_ > WalWriterCheckpointFrames &&
            sqlite3_wal_checkpoint_v2(writer_.db, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr) == SQLITE_OK)
            wal_frames_ = 0;
        return done;
    }

    Result<std::optional<StoredGame>> load_game(const std::string& id) override {
        static const std::string Sql = std::string("SELECT ") + GameColumns + " FROM games WHERE id=?1";
        auto games = read_games(Sql.c_str(), {id}, true);
        if (!games) return games.error();
        if (games->empty()) return std::optional<StoredGame>{};
        return std::optional<StoredGame>{std::move(games->front())};
    }

    Result<std::vector<StoredGame>> load_live_games() override {
        static const std::string Sql = std::string("SELECT ") + GameColumns + " FROM games WHERE status='ongoing'";
        return read_games(Sql.c_str(), {}, true);
    }

    Result<std::vector<StoredSummary>> games_for_tokens(const std::vector<std::string>& tokens, int limit) override {
        static const std::string Sql = std::string("SELECT ") + GameColumns +
                                       ", (SELECT count(*) FROM moves WHERE game_id=games.id) FROM games "
                                       "WHERE white_token=?1 OR black_token=?1 ORDER BY updated_ms DESC LIMIT 20";
        std::vector<StoredSummary> out;
        Connection& c = reads();
        std::lock_guard lock(c.mutex);
        for (const std::string& t : tokens) {
            if (int(out.size()) >= limit) break;
            if (t.empty()) continue;  // a robot's seat has no token; "" finds nothing
            Statement s(c.cached(Sql.c_str()));
            if (!s.ok()) return db_error(c.db, "read games");
            s.bind(1, t);
            int rc;
            while ((rc = s.step()) == SQLITE_ROW) {
                StoredSummary g{read_game_row(s), int(s.integer(29))};
                bool dup = false;
                for (const StoredSummary& o : out) dup = dup || o.game.id == g.game.id;
                if (!dup) out.push_back(std::move(g));
            }
            if (rc != SQLITE_DONE) return db_error(c.db, "read games");
        }
        return out;
    }

    // Analyses (issue 10): the table is made by Schema's CREATE TABLE IF NOT EXISTS, on
    // an older database too. Written on the analysis worker's thread through the
    // writer connection (its mutex orders it with the hub's batches).
    Result<bool> store_analysis(const StoredAnalysis& a) override {
        static const char* const Sql =
            "INSERT OR REPLACE INTO analyses (game_id, settings, json, created_ms) VALUES (?1,?2,?3,?4)";
        std::lock_guard lock(writer_.mutex);
        return writer_.transaction([&]() -> Result<bool> {
            Statement s(writer_.cached(Sql));
            s.bind(1, a.game_id).bind(2, a.settings).bind(3, a.json).bind(4, a.created_ms);
            if (s.step() != SQLITE_DONE) return db_error(writer_.db, "store the analysis of game " + a.game_id);
            return true;
        });
    }

    Result<std::optional<StoredAnalysis>> load_analysis(const std::string& game_id) override {
        static const char* const Sql = "SELECT settings, json, created_ms FROM analyses WHERE game_id=?1";
        Connection& c = reads();
        std::lock_guard lock(c.mutex);
        Statement s(c.cached(Sql));
        if (!s.ok()) return db_error(c.db, "read analysis");
        s.bind(1, game_id);
        const int rc = s.step();
        if (rc == SQLITE_DONE) return std::optional<StoredAnalysis>{};
        if (rc != SQLITE_ROW) return db_error(c.db, "read the analysis of game " + game_id);
        return std::optional<StoredAnalysis>{StoredAnalysis{game_id, s.text(0), s.text(1), s.integer(2)}};
    }

    std::int64_t log_bytes() const override {
        std::error_code ec;
        const auto n = std::filesystem::file_size(path_ + "-wal", ec);
        return ec ? 0 : std::int64_t(n);
    }

private:
    Connection& reads() { return in_memory_ ? writer_ : reader_; }

    Result<bool> write_row(const StoredGame& g, bool insert) {
        static const std::string Insert = std::string("INSERT INTO games (") + GameColumns +
                                          ") VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20,"
                                          "?21,?22,?23,?24,?25,?26,?27,?28,?29)";
        static const std::string Update =
            "UPDATE games SET updated_ms=?3, white_name=?8, black_name=?9, status=?17, "
            "result=?18, draw_offer=?19, takeback_request=?20, offer_plies=?21, white_ms=?22, "
            "black_ms=?23, running=?24, turn_started_ms=?25, rematch_game=?27, rematch_white_token=?28, "
            "rematch_black_token=?29 WHERE id=?1";
        Statement s(writer_.cached(insert ? Insert.c_str() : Update.c_str()));
        if (!s.ok()) return db_error(writer_.db, "prepare game row");
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
        bind(g.turn_started_ms), bind(g.rematch_of), bind(g.rematch_game), bind(g.rematch_white_token);
        bind(g.rematch_black_token);
        if (s.step() != SQLITE_DONE) return db_error(writer_.db, insert ? "insert game " + g.id : "update game " + g.id);
        return true;
    }

    Result<bool> insert_move(const std::string& id, const StoredMove& m) {
        static const char* const Sql =
            "INSERT OR REPLACE INTO moves (game_id, ply, uci, white_ms, black_ms, at_ms, clock_ms) VALUES (?1,?2,?3,?4,?5,?6,?7)";
        Statement s(writer_.cached(Sql));
        s.bind(1, id).bind(2, std::int64_t(m.ply)).bind(3, m.uci).bind(4, m.white_ms).bind(5, m.black_ms).bind(6, m.at_ms);
        s.bind(7, m.clock_after);
        if (s.step() != SQLITE_DONE) return db_error(writer_.db, "insert move " + std::to_string(m.ply) + " of game " + id);
        return true;
    }

    Result<bool> apply(const GameWrite& w) {
        switch (w.kind) {
        case GameWrite::INSERT_GAME:
            if (auto r = write_row(w.game, true); !r) return r;
            for (const StoredMove& m : w.game.moves)
                if (auto r = insert_move(w.game.id, m); !r) return r;
            return true;
        case GameWrite::APPEND_MOVE:
            if (auto r = insert_move(w.game.id, w.move); !r) return r;
            return write_row(w.game, false);
        case GameWrite::TRUNCATE_MOVES: {
            static const char* const Sql = "DELETE FROM moves WHERE game_id=?1 AND ply>?2";
            Statement s(writer_.cached(Sql));
            s.bind(1, w.game.id).bind(2, std::int64_t(w.ply));
            if (s.step() != SQLITE_DONE) return db_error(writer_.db, "delete moves of game " + w.game.id);
            return write_row(w.game, false);
        }
        case GameWrite::UPDATE_GAME: return write_row(w.game, false);
        }
        return make_error("unknown write");
    }

    Result<std::vector<StoredGame>> read_games(const char* sql, const std::vector<std::string>& params, bool with_moves) {
        static const char* const MovesSql =
            "SELECT ply, uci, white_ms, black_ms, at_ms, clock_ms FROM moves WHERE game_id=?1 ORDER BY ply";
        Connection& c = reads();
        std::lock_guard lock(c.mutex);
        std::vector<StoredGame> out;
        {
            Statement s(c.cached(sql));
            if (!s.ok()) return db_error(c.db, "read games");
            for (size_t i = 0; i < params.size(); ++i) s.bind(int(i + 1), params[i]);
            int rc;
            while ((rc = s.step()) == SQLITE_ROW) out.push_back(read_game_row(s));
            if (rc != SQLITE_DONE) return db_error(c.db, "read games");
        }
        if (with_moves) {
            for (StoredGame& g : out) {
                Statement m(c.cached(MovesSql));
                if (!m.ok()) return db_error(c.db, "read moves");
                m.bind(1, g.id);
                int rc;
                while ((rc = m.step()) == SQLITE_ROW)
                    g.moves.push_back(StoredMove{int(m.integer(0)), m.text(1), m.integer(2), m.integer(3), m.integer(4), m.integer(5)});
                if (rc != SQLITE_DONE) return db_error(c.db, "read moves of game " + g.id);
            }
        }
        return out;
    }

    // STYLE.md's pitfall: a checkpoint from a connection that has never read the
    // database does nothing (it does not know the WAL). So the checkpointer reads
    // first, every time, and then measures the WAL file rather than trusting codes.
    void checkpoint_loop() {
        auto opened = open_connection(path_, SQLITE_OPEN_READWRITE);
        if (!opened) return;  // then the WAL only grows; commits still work
        Connection c;
        c.db = *opened;
        // Never wait: a checkpointer that waits for the writer holds the checkpoint lock
        // meanwhile, and the writer's own checkpoint (above) would be refused.
        sqlite3_busy_timeout(c.db, 0);
        std::unique_lock lock(stop_mutex_);
        for (;;) {
            stop_cv_.wait_for(lock, std::chrono::milliseconds(200), [this] { return stopping_; });
            const bool last = stopping_;
            lock.unlock();
            (void)c.exec("SELECT count(*) FROM games WHERE rowid=1;");
            // PASSIVE copies what it can without waiting for or blocking the writer; the
            // writer starts the WAL over once a checkpoint has caught up. Under steady
            // writes it may never quite catch up: then TRUNCATE, tried between two of
            // the writer's batches (it fails at once if a batch is being written).
            const int mode = log_bytes() > WalTruncateBytes || last ? SQLITE_CHECKPOINT_TRUNCATE : SQLITE_CHECKPOINT_PASSIVE;
            (void)sqlite3_wal_checkpoint_v2(c.db, nullptr, mode, nullptr, nullptr);
            lock.lock();
            if (last) break;
        }
    }

    std::string path_;
    bool in_memory_ = false;
    int wal_frames_ = 0;  // frames in the WAL after the writer's last commit (wal hook)
    Connection writer_, reader_;
    std::thread checkpointer_;
    std::mutex stop_mutex_;
    std::condition_variable stop_cv_;
    bool stopping_ = false;
};

}  // namespace

Result<std::unique_ptr<Storage>> Storage::open(const std::string& path, bool sync_full) {
    auto s = std::make_unique<SqliteStorage>(path);
    if (auto r = s->open(sync_full); !r) return r.error();
    return std::unique_ptr<Storage>(std::move(s));
}

}  // namespace outpost::server
