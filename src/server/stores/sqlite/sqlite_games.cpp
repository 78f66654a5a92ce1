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
#include "server/stores/game_store.h"
#include "server/stores/sqlite/sqlite_db.h"
#include "server/stores/sqlite/sqlite_ratings.h"
#include "server/stores/sqlite/sqlite_schema.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>
#include <unordered_map>

#include <sqlite3.h>

namespace outpost::server {
namespace {

constexpr const char* GameColumns =
    "id, created_ms, updated_ms, white_token, black_token, white_kind, black_kind, white_name, black_name, "
    "robot_level, robot_elo, time_control, variant, chess960, initial_fen, casual, status, result, draw_offer, "
    "takeback_request, offer_plies, white_ms, black_ms, running, turn_started_ms, rematch_of, rematch_game, "
    "rematch_white_token, rematch_black_token, client, white_account, black_account, adjournable, adjournment, "
    "deadline_ms, arbiter_resume_ms, first_move";
constexpr int GameColumnCount = 37;

// Checkpoints (copying the WAL back into the database; each syncs the WAL and the
// database file, two disk flushes of ~10 ms here, up to ~70 ms on a busy disk):
// - the checkpointer thread copies what the WAL holds every CheckpointEveryMs, PASSIVE:
//   it never waits for the writer nor makes it wait;
// - SQLite starts the WAL over (writes from its beginning again) only when a
//   checkpoint has copied all of it. Under steady writes the checkpointer never quite
//   catches up (the writer commits while it copies), so once the WAL holds
//   WalRestartBytes (32 MB) the writer thread copies the rest itself, between two batches
//   (after the first one's acknowledgements left): the next batch waits for that
//   one checkpoint, the hub never.
// - The WAL file is not cut back at each restart (journal_size_limit above the
//   restart size): truncating and growing it again made the file system allocate
//   (and with `discard`, trim) its blocks over and over.
// A blocking TRUNCATE checkpoint is used only at WalEmergencyBytes (the checkpointer
// starved for seconds) and when the store closes.
constexpr int CheckpointEveryMs = 100;
// (10,000 games at ~4,800 moves/s write ~14 MB of WAL a second with 1 KiB pages, ~47 MB
// with 4 KiB ones: the writer catches up every ~2.4 s (every ~0.7 s), 15-75 ms each
// time on this machine's disk.)
constexpr int WalRestartBytes = 32 << 20;
constexpr int WalEmergencyBytes = 128 << 20;
constexpr const char* JournalSizeLimit = "PRAGMA journal_size_limit=41943040;";

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
    g.client = s.text(c++);
    g.white_account = s.integer(c++);  // NULL reads as 0
    g.black_account = s.integer(c++);
    g.adjournable = s.integer(c++) != 0;
    g.adjournment = s.text(c++);
    g.deadline_ms = s.integer(c++);
    g.arbiter_resume_ms = s.integer(c++);
    g.first_move = s.text(c++);
    return g;
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
        // (without it the file keeps its largest size forever); see WalRestartBytes.
        // cache_size: the games and moves a batch touches are spread over the whole file
        // (SQLite's default cache of 2 MB read them back from the OS at every batch).
        for (const char* sql : {"PRAGMA journal_mode=WAL;", "PRAGMA wal_autocheckpoint=0;", JournalSizeLimit, "PRAGMA cache_size=-65536;",
                                sync_full ? "PRAGMA synchronous=FULL;" : "PRAGMA synchronous=NORMAL;"}) {
            if (auto r = writer_.exec(sql); !r) return r;
        }
        // After the pragmas: wal_autocheckpoint replaces any WAL hook.
        sqlite3_wal_hook(
            writer_.db,
            [](void* self, sqlite3*, const char*, int frames) {
                static_cast<SqliteStorage*>(self)->wal_frames_ = frames;
                ++static_cast<SqliteStorage*>(self)->commits_;
                return SQLITE_OK;
            },
            this);
        // The tables, as every store makes them: one list of migrations (sqlite_schema.h).
        if (auto r = sqlite_schema::migrate(writer_, path_); !r) return r;
        {
            // The WAL's frames are pages: the thresholds in bytes become frames of the
            // page size this database was made with (1 KiB new, 4 KiB older files).
            Statement ps(writer_.db, "PRAGMA page_size;");
            const std::int64_t page = ps.step() == SQLITE_ROW ? std::max<std::int64_t>(512, ps.integer(0)) : 4096;
            wal_restart_frames_ = int(WalRestartBytes / page);
        }
        if (path_ == ":memory:") {
            in_memory_ = true;
            reads_.lend(writer_);
            return true;
        }
        if (auto r = reads_.open(path_, ReadPool::for_machine()); !r) return r;
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
        return done;
    }

    // Between two batches, on the writer's thread (see WalRestartBytes).
    void after_batch() override {
        if (in_memory_ || wal_frames_ < wal_restart_frames_) return;
        std::lock_guard lock(writer_.mutex);
        const bool emergency = wal_frames_ >= wal_restart_frames_ * (WalEmergencyBytes / WalRestartBytes);
        const auto t0 = std::chrono::steady_clock::now();
        int log = -1, copied = -1;
        // PASSIVE: refused at once while the checkpointer copies (then the next batch
        // tries again); the checkpointer has copied most of the WAL, this copies the rest.
        const int rc = sqlite3_wal_checkpoint_v2(writer_.db, nullptr, emergency ? SQLITE_CHECKPOINT_TRUNCATE : SQLITE_CHECKPOINT_PASSIVE,
                                                 &log, &copied);
        if (rc == SQLITE_OK && log == copied) wal_frames_ = 0;  // the next commit starts the WAL over
        trace("writer", emergency ? "truncate" : "passive", rc, log, copied, t0);
    }

    Result<std::optional<StoredGame>> load_game(const std::string& id) override {
        static const std::string Sql = std::string("SELECT ") + GameColumns + " FROM games WHERE id=?1";
        auto games = read_games(Sql.c_str(), {id}, true);
        if (!games) return games.error();
        if (games->empty()) return std::optional<StoredGame>{};
        auto fence = read_fence(id);
        if (!fence) return fence.error();
        games->front().fence = *fence;
        if (games->front().status != "ongoing") {  // P23: what the game did to the ratings
            auto lease = reads_.take();
            auto rating = sqlite_ratings::of_game(*lease, id);
            if (!rating) return rating.error();
            games->front().rating = std::move(*rating);
        }
        return std::optional<StoredGame>{std::move(games->front())};
    }

    Result<std::vector<StoredGame>> load_live_games() override {
        static const std::string Sql = std::string("SELECT ") + GameColumns + " FROM games WHERE status='ongoing'";
        return read_games(Sql.c_str(), {}, true);
    }

    Result<std::vector<std::string>> finished_standard_game_ids() override {
        static constexpr const char* Sql =
            "SELECT id FROM games WHERE status<>'ongoing' AND result<>'*' AND variant='standard' "
            "ORDER BY updated_ms, id";
        std::vector<std::string> out;
        auto lease = reads_.take();
        Connection& c = *lease;
        Statement s(c.cached(Sql));
        if (!s.ok()) return db_error(c.db, "read finished games");
        int rc;
        while ((rc = s.step()) == SQLITE_ROW) out.push_back(s.text(0));
        if (rc != SQLITE_DONE) return db_error(c.db, "read finished games");
        return out;
    }

    Result<std::vector<StoredSummary>> games_for_tokens(const std::vector<std::string>& tokens, int limit) override {
        static const std::string Sql = std::string("SELECT ") + GameColumns +
                                       ", (SELECT count(*) FROM moves WHERE game_id=games.id) FROM games "
                                       "WHERE white_token=?1 OR black_token=?1 ORDER BY updated_ms DESC LIMIT 20";
        std::vector<StoredSummary> out;
        auto lease = reads_.take();
        Connection& c = *lease;
        for (const std::string& t : tokens) {
            if (int(out.size()) >= limit) break;
            if (t.empty()) continue;  // a robot's seat has no token; "" finds nothing
            Statement s(c.cached(Sql.c_str()));
            if (!s.ok()) return db_error(c.db, "read games");
            s.bind(1, t);
            int rc;
            while ((rc = s.step()) == SQLITE_ROW) {
                StoredSummary g{read_game_row(s), int(s.integer(GameColumnCount))};
                bool dup = false;
                for (const StoredSummary& o : out) dup = dup || o.game.id == g.game.id;
                if (!dup) out.push_back(std::move(g));
            }
            if (rc != SQLITE_DONE) return db_error(c.db, "read games");
        }
        return out;
    }

    Result<std::vector<StoredSummary>> games_of_account(std::int64_t account_id, int limit) override {
        static const std::string Sql = std::string("SELECT ") + GameColumns +
                                       ", (SELECT count(*) FROM moves WHERE game_id=games.id) FROM games "
                                       "WHERE white_account=?1 OR black_account=?1 ORDER BY updated_ms DESC LIMIT ?2";
        std::vector<StoredSummary> out;
        auto lease = reads_.take();
        Connection& c = *lease;
        Statement s(c.cached(Sql.c_str()));
        if (!s.ok()) return db_error(c.db, "read games");
        s.bind(1, account_id).bind(2, std::int64_t(limit));
        int rc;
        while ((rc = s.step()) == SQLITE_ROW) out.push_back(StoredSummary{read_game_row(s), int(s.integer(GameColumnCount))});
        if (rc != SQLITE_DONE) return db_error(c.db, "read games");
        return out;
    }

    // Analyses (issue 10): the table is made by the migrations (sqlite_schema.cpp).
    // Written on the analysis worker's thread through the writer connection (its mutex
    // orders it with the hub's batches).
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
        auto lease = reads_.take();
        Connection& c = *lease;
        Statement s(c.cached(Sql));
        if (!s.ok()) return db_error(c.db, "read analysis");
        s.bind(1, game_id);
        const int rc = s.step();
        if (rc == SQLITE_DONE) return std::optional<StoredAnalysis>{};
        if (rc != SQLITE_ROW) return db_error(c.db, "read the analysis of game " + game_id);
        return std::optional<StoredAnalysis>{StoredAnalysis{game_id, s.text(0), s.text(1), s.integer(2)}};
    }

    // R18: the arbiter's resumption time (`outpost game resume`). Only this writes the
    // column; the server's row writes leave it alone.
    Result<bool> set_arbiter_resume(const std::string& id, std::int64_t at_ms) override {
        static const char* const Sql = "UPDATE games SET arbiter_resume_ms=?2 WHERE id=?1 AND adjournment<>''";
        std::lock_guard lock(writer_.mutex);
        return writer_.transaction([&]() -> Result<bool> {
            Statement s(writer_.cached(Sql));
            s.bind(1, id).bind(2, at_ms);
            if (s.step() != SQLITE_DONE) return db_error(writer_.db, "set the resumption of game " + id);
            if (sqlite3_changes(writer_.db) == 0) return make_error("no adjourned game with id '" + id + "'");
            return true;
        });
    }

    Result<std::int64_t> arbiter_resume_at(const std::string& id) override {
        static const char* const Sql = "SELECT arbiter_resume_ms FROM games WHERE id=?1";
        auto lease = reads_.take();
        Connection& c = *lease;
        Statement s(c.cached(Sql));
        if (!s.ok()) return db_error(c.db, "read the resumption time");
        s.bind(1, id);
        const int rc = s.step();
        if (rc == SQLITE_DONE) return std::int64_t(0);
        if (rc != SQLITE_ROW) return db_error(c.db, "read the resumption time of game " + id);
        return s.integer(0);
    }

    Result<std::vector<StoredRating>> ratings_of(std::int64_t account) override {
        auto lease = reads_.take();
        Connection& c = *lease;
        return sqlite_ratings::of_account(c, account);
    }

    Result<std::vector<RatingPoint>> rating_history(std::int64_t account, int limit) override {
        auto lease = reads_.take();
        Connection& c = *lease;
        return sqlite_ratings::history(c, account, limit);
    }

    Result<std::vector<std::int64_t>> rated_games_between(std::int64_t a, std::int64_t b, std::int64_t since_ms) override {
        auto lease = reads_.take();
        return sqlite_ratings::between(*lease, a, b, since_ms);
    }

    std::int64_t log_bytes() const override {
        std::error_code ec;
        const auto n = std::filesystem::file_size(path_ + "-wal", ec);
        return ec ? 0 : std::int64_t(n);
    }

private:

    // INSERT a new row, UPDATE every column that can change, or after a move that did
    // not end the game only what a move changes (MOVE): fewer bytes, and the status
    // index is left alone (SQLite rewrites an index entry whenever its column is SET).
    enum class Row : std::uint8_t { INSERT, UPDATE, MOVE };
    Result<bool> write_row(const StoredGame& g, Row kind) {
        static const std::string Insert = std::string("INSERT INTO games (") + GameColumns +
                                          ") VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,?17,?18,?19,?20,"
                                          "?21,?22,?23,?24,?25,?26,?27,?28,?29,?30,?31,?32,?33,?34,?35,?36,?37)";
        static const std::string Update =
            "UPDATE games SET updated_ms=?3, white_name=?8, black_name=?9, status=?17, "
            "result=?18, draw_offer=?19, takeback_request=?20, offer_plies=?21, white_ms=?22, "
            "black_ms=?23, running=?24, turn_started_ms=?25, rematch_game=?27, rematch_white_token=?28, "
            "rematch_black_token=?29, client=?30, white_account=?31, black_account=?32, adjournment=?34, deadline_ms=?35 "
            "WHERE id=?1";
        static const std::string AfterMove =
            "UPDATE games SET updated_ms=?3, draw_offer=?19, takeback_request=?20, offer_plies=?21, white_ms=?22, "
            "black_ms=?23, running=?24, turn_started_ms=?25, adjournment=?34, deadline_ms=?35 WHERE id=?1";
        const bool insert = kind == Row::INSERT;
        Statement s(writer_.cached(insert ? Insert.c_str() : kind == Row::UPDATE ? Update.c_str() : AfterMove.c_str()));
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
        bind(g.rematch_black_token), bind(g.client);
        for (std::int64_t account : {g.white_account, g.black_account}) {
            if (account) s.bind(i++, account);
            else s.bind_null(i++);
        }
        bind(g.adjournable), bind(g.adjournment), bind(g.deadline_ms), bind(g.arbiter_resume_ms);
        bind(g.first_move);
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

    // Issue 26: a write under a lease (fence > 0) is refused when a higher token has
    // written the game; otherwise the game's token becomes this one.
    Result<bool> check_fence(const StoredGame& g) {
        if (g.fence <= 0) return true;
        static const char* const Sql = "UPDATE games SET fence=?2 WHERE id=?1 AND fence<=?2";
        Statement s(writer_.cached(Sql));
        s.bind(1, g.id).bind(2, g.fence);
        if (s.step() != SQLITE_DONE) return db_error(writer_.db, "fence game " + g.id);
        if (sqlite3_changes(writer_.db) == 0) return make_error(fenced_message(g));
        return true;
    }

    Result<std::int64_t> read_fence(const std::string& id) {
        static const char* const Sql = "SELECT fence FROM games WHERE id=?1";
        auto lease = reads_.take();
        Connection& c = *lease;
        Statement s(c.cached(Sql));
        s.bind(1, id);
        const int rc = s.step();
        if (rc == SQLITE_DONE) return std::int64_t(0);
        if (rc != SQLITE_ROW) return db_error(c.db, "read the fencing token of game " + id);
        return s.integer(0);
    }

    Result<bool> apply(const GameWrite& w) {
        if (w.kind != GameWrite::INSERT_GAME)
            if (auto r = check_fence(w.game); !r) return r;
        if (auto r = apply_row(w); !r) return r;
        if (w.kind == GameWrite::INSERT_GAME)
            if (auto r = check_fence(w.game); !r) return r;
        // P23: a finished rated game's ratings, in the same transaction as its row.
        if (w.game.rating && w.game.status != "ongoing")
            return sqlite_ratings::store(writer_, w.game.id, w.game.updated_ms, *w.game.rating);
        return true;
    }

    Result<bool> apply_row(const GameWrite& w) {
        switch (w.kind) {
        case GameWrite::INSERT_GAME:
            if (auto r = write_row(w.game, Row::INSERT); !r) return r;
            for (const StoredMove& m : w.game.moves)
                if (auto r = insert_move(w.game.id, m); !r) return r;
            return true;
        case GameWrite::APPEND_MOVE:
            if (auto r = insert_move(w.game.id, w.move); !r) return r;
            return write_row(w.game, w.game.status == "ongoing" ? Row::MOVE : Row::UPDATE);
        case GameWrite::TRUNCATE_MOVES: {
            static const char* const Sql = "DELETE FROM moves WHERE game_id=?1 AND ply>?2";
            Statement s(writer_.cached(Sql));
            s.bind(1, w.game.id).bind(2, std::int64_t(w.ply));
            if (s.step() != SQLITE_DONE) return db_error(writer_.db, "delete moves of game " + w.game.id);
            return write_row(w.game, Row::UPDATE);
        }
        case GameWrite::UPDATE_GAME: return write_row(w.game, Row::UPDATE);
        }
        return make_error("unknown write");
    }

    Result<std::vector<StoredGame>> read_games(const char* sql, const std::vector<std::string>& params, bool with_moves) {
        static const char* const MovesSql =
            "SELECT ply, uci, white_ms, black_ms, at_ms, clock_ms FROM moves WHERE game_id=?1 ORDER BY ply";
        auto lease = reads_.take();
        Connection& c = *lease;
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
        // Never wait: a checkpointer that waited for the writer would hold the checkpoint
        // lock meanwhile, and the writer's own checkpoint (after_batch) would be refused.
        sqlite3_busy_timeout(c.db, 0);
        std::unique_lock lock(stop_mutex_);
        long copied_all_at = -1;  // commits_ when a checkpoint last copied the whole WAL
        for (;;) {
            stop_cv_.wait_for(lock, std::chrono::milliseconds(CheckpointEveryMs), [this] { return stopping_; });
            const bool last = stopping_;
            lock.unlock();
            (void)c.exec("SELECT count(*) FROM games WHERE rowid=1;");
            // At the end, or when nothing was written since everything was copied (the
            // writer is idle): TRUNCATE leaves an empty WAL file behind.
            const long commits = commits_;
            const bool truncate = last || copied_all_at == commits;
            if (last) sqlite3_busy_timeout(c.db, 2000);
            const auto t0 = std::chrono::steady_clock::now();
            int log = -1, copied = -1;
            const int rc = sqlite3_wal_checkpoint_v2(c.db, nullptr, truncate ? SQLITE_CHECKPOINT_TRUNCATE : SQLITE_CHECKPOINT_PASSIVE,
                                                     &log, &copied);
            trace("checkpointer", truncate ? "truncate" : "passive", rc, log, copied, t0);
            copied_all_at = rc == SQLITE_OK && !truncate && log > 0 && log == copied ? commits : -1;
            lock.lock();
            if (last) break;
        }
    }

    // OUTPOST_TRACE_STORAGE=1: every checkpoint, with when it began (the monotonic clock,
    // as bench/serve-load prints it), the frames in the WAL and copied, and how long.
    void trace(const char* who, const char* mode, int rc, int log, int copied, std::chrono::steady_clock::time_point t0) const {
        static const bool on = std::getenv("OUTPOST_TRACE_STORAGE") != nullptr;
        if (!on || log <= 0) return;
        const auto t1 = std::chrono::steady_clock::now();
        std::fprintf(stderr, "storage %.3f %s checkpoint %s: rc %d, %d frames in the WAL, %d copied, %.1f ms\n",
                     std::chrono::duration<double>(t0.time_since_epoch()).count(), who, mode, rc, log, copied,
                     std::chrono::duration<double, std::milli>(t1 - t0).count());
    }

    std::string path_;
    bool in_memory_ = false;
    int wal_restart_frames_ = WalRestartBytes / 4096;
    std::atomic<int> wal_frames_{0};  // frames in the WAL after the writer's last commit (wal hook)
    std::atomic<long> commits_{0};    // commits so far (wal hook)
    Connection writer_;
    ReadPool reads_;  // issue 25: several readers (the writer's connection in memory)
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
