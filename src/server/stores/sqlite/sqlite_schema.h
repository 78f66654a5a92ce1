// Outpost — every table of the SQLite database and how it got there: one ordered list
// of migrations, the version in PRAGMA user_version. Every SQLite store opens through
// Connection::open_store, which brings the database up to date first.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <span>

#include "server/stores/sqlite/sqlite_db.h"

namespace outpost::server::sqlite_schema {

struct Migration {
    int version;       // 1, 2, … in order: the user_version once it is applied
    const char* what;  // for `outpost db status`
    Result<bool> (*apply)(Connection& c);  // inside the migration's transaction
};

std::span<const Migration> migrations();
int program_version();
// The database's version (PRAGMA user_version).
Result<int> database_version(Connection& c);
// In one transaction (BEGIN IMMEDIATE: two stores opening at once take turns): every
// migration above the database's version, then its new version. An error, changing
// nothing, when the database is newer than the program.
Result<bool> migrate(Connection& c, const std::string& path);

}  // namespace outpost::server::sqlite_schema
