// Outpost tests — looking into a database file from outside the stores: run SQL on it
// (an old schema, a newer user_version, a checkpoint) and read one game's moves as the
// rows hold them. For the backup, restore and migration tests.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>
#include <vector>

namespace outpost::test {

// Runs `sql` on the database at path; a failure fails the test with SQLite's words.
inline void sqlite_exec(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* msg = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &msg);
    const std::string error = msg ? msg : "";
    sqlite3_free(msg);
    sqlite3_close(db);
    ASSERT_EQ(rc, SQLITE_OK) << error;
}

// The moves of one game in the database at path, in order (none if unreadable).
inline std::vector<std::string> stored_moves(const std::string& path, const std::string& game) {
    std::vector<std::string> out;
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db, "SELECT uci FROM moves WHERE game_id=?1 ORDER BY ply", -1, &s, nullptr);
    sqlite3_bind_text(s, 1, game.c_str(), -1, SQLITE_TRANSIENT);
    while (sqlite3_step(s) == SQLITE_ROW) out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(s, 0)));
    sqlite3_finalize(s);
    sqlite3_close(db);
    return out;
}

}  // namespace outpost::test
