// Outpost — test helper: a copy of a SQLite database as a kill -9 would leave it.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <string>

namespace outpost::test {

// Writes to `copy` the database at `path` with every commit made and nothing else
// (VACUUM INTO), as a process stopped at this moment leaves it on disk.
inline void crash_copy_of(const std::string& path, const std::string& copy) {
    std::filesystem::remove(copy);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    const std::string sql = "VACUUM INTO '" + copy + "'";
    char* err = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
    sqlite3_free(err);
    sqlite3_close(db);
}

}  // namespace outpost::test
