// Outpost — backups of the server's database as the operator sees them (SPEC D7):
// `outpost backup` (one consistent copy while the server serves), `outpost restore`
// and `outpost db check`. Backend-neutral; SQLite implements it in
// stores/sqlite/sqlite_backup.cpp.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "chess/result.h"

namespace outpost::server {

struct BackupReport {
    std::string path;           // the backup written
    std::uint64_t bytes = 0;    // its size
    int schema_version = 0;     // the schema version it holds
    int steps = 0;              // chunks the copy took
    double seconds = 0;         // from the snapshot's start to the rename
};

struct RestoreReport {
    std::string path;           // the database written
    std::uint64_t bytes = 0;
    int schema_version = 0;
};

// What `outpost db check` found: ok, or the problems in words (one a line).
struct CheckReport {
    int schema_version = 0;     // the database's (PRAGMA user_version)
    int program_version = 0;    // this program's
    std::vector<std::string> problems;
    bool ok() const { return problems.empty(); }
};

struct BackupOptions {
    bool force = false;         // replace an existing `out`
    int pages_per_step = 4096;  // pages copied per chunk
    int pause_ms = 1;           // between two chunks: the server's disk is not ours alone
    // Asked between two chunks (e.g. set by SIGINT): true stops the copy, leaving nothing.
    std::function<bool()> cancelled;
};

// Copies the database at `db` (which a server may be writing) into `out`: one snapshot,
// written to a temporary file beside `out`, checked (integrity and schema), then
// renamed. Refuses an existing `out` (unless force), a folder it cannot write in, a
// source that is not an Outpost database. On any error nothing is left at `out`.
Result<BackupReport> backup_database(const std::string& db, const std::string& out, const BackupOptions& options = {});
// Puts the backup at `backup` in place as the database `db`: refuses an existing `db`
// unless force, a `db` a running server has open, and a `backup` that is not an
// Outpost database this program can run (not SQLite, damaged, no Outpost tables, a
// newer schema). Atomic: a temporary copy beside `db`, checked, the stale -wal and -shm
// of `db` removed, then renamed.
Result<RestoreReport> restore_database(const std::string& backup, const std::string& db, bool force);
// Integrity and schema version of the database at `db`, without changing it. An error
// only when it cannot be read at all (missing); a damaged file is a report with problems.
Result<CheckReport> check_database(const std::string& db);

}  // namespace outpost::server
