// Outpost — every table of the PostgreSQL database and how it got there: one ordered
// list of migrations, numbered as SQLite's (sqlite_schema.h: the same version means the
// same tables, which `outpost db copy` relies on), the version in the table
// outpost_schema. Every PostgreSQL store opens through Connection::open_store, which
// brings the database up to date first.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <span>

#include "server/stores/postgres/pg_db.h"

namespace outpost::server::pg_schema {

struct Migration {
    int version;       // 1, 2, … in order: the database's version once it is applied
    const char* what;  // for `outpost db status`
    const char* sql;   // run inside the migration's transaction
};

std::span<const Migration> migrations();
int program_version();
// The database's version (0: no outpost_schema table: a new database).
Result<int> database_version(pg::Connection& c);
// In one transaction, under an advisory lock (two stores opening at once take turns):
// every migration above the database's version, then its new version. An error,
// changing nothing, when the database is newer than the program.
Result<bool> migrate(pg::Connection& c);

}  // namespace outpost::server::pg_schema
