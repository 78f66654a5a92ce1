// Outpost — SQLite access shared by the server's stores (games, accounts, …): a
// prepared statement, one connection with its statement cache and the one
// transaction wrapper, and how a connection is opened.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <sqlite3.h>

#include "chess/result.h"
#include "server/stores/connection_pool.h"

namespace outpost::server {

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
    Statement& bind_null(int i) {
        sqlite3_bind_null(stmt_, i);
        return *this;
    }
    Statement& bind(int i, std::int64_t v) {
        sqlite3_bind_int64(stmt_, i, v);
        return *this;
    }
    Statement& bind_real(int i, double v) {
        sqlite3_bind_double(stmt_, i, v);
        return *this;
    }
    int step() { return sqlite3_step(stmt_); }
    double real(int col) const { return sqlite3_column_double(stmt_, col); }
    std::string text(int col) const {
        const unsigned char* t = sqlite3_column_text(stmt_, col);
        return t ? std::string(reinterpret_cast<const char*>(t), size_t(sqlite3_column_bytes(stmt_, col))) : "";
    }
    std::int64_t integer(int col) const { return sqlite3_column_int64(stmt_, col); }
    int type(int col) const { return sqlite3_column_type(stmt_, col); }

private:
    sqlite3_stmt* stmt_ = nullptr;
    int rc_ = SQLITE_ERROR;
    bool owned_ = true;
};

inline Error db_error(sqlite3* db, const std::string& what) { return make_error(what + ": " + sqlite3_errmsg(db)); }

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
    // Opens a store's own connection to the database file: WAL (except in memory), then
    // brings the schema up to date (sqlite_schema.h). The accounts, events and simuls
    // open so.
    // In WAL mode at synchronous=NORMAL (as the game store: durable when the process
    // dies, the last moments lost only with the machine), or FULL with `sync_full`
    // (`outpost serve --sync-full`); in sqlite_schema.cpp.
    Result<bool> open_store(const std::string& path, bool sync_full = false);
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

// Opens a connection (flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE or
// SQLITE_OPEN_READONLY) that waits up to 5 s for a lock held by another.
inline Result<sqlite3*> open_connection(const std::string& path, int flags) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
        Error e = make_error("cannot open database " + path + ": " + (db ? sqlite3_errmsg(db) : "out of memory"));
        sqlite3_close(db);
        return e;
    }
    sqlite3_busy_timeout(db, 5000);
    // A new database gets 1 KiB pages (SQLite's default is 4 KiB; an existing file keeps
    // the size it was made with). A move changes one row of ~60 bytes in the moves table
    // and one of the games table, each on its own page, and the write-ahead log holds
    // whole pages: 1 KiB pages make it a quarter of the bytes to log, to checkpoint and
    // to flush (issue 9: the checkpoints are what the 99th percentile of a move waits for).
    if (flags & SQLITE_OPEN_CREATE) sqlite3_exec(db, "PRAGMA page_size=1024;", nullptr, nullptr, nullptr);
    return db;
}

// Issue 25: a store's read connections (connection_pool.h). In WAL mode readers wait
// neither for each other nor for the writer. A store in memory (":memory:" is one
// database per connection) reads through its writer instead: lend() makes every lease
// that one connection.
class ReadPool : public ConnectionPool<Connection> {
public:
    Result<bool> open(const std::string& path, int connections) {
        for (int i = 0; i < std::max(1, connections); ++i) {
            auto db = open_connection(path, SQLITE_OPEN_READONLY);
            if (!db) return db.error();
            auto c = std::make_unique<Connection>();
            c->db = *db;
            add(std::move(c));
        }
        return true;
    }
};

}  // namespace outpost::server
