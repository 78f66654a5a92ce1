// Outpost — the database's schema version as the operator sees it (`outpost db status`,
// `outpost db migrate`): the version a database holds, the program's, and the
// migrations between them. Backend-neutral; SQLite implements it in
// stores/sqlite/sqlite_schema.cpp (PRAGMA user_version and one ordered list).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

#include "chess/result.h"

namespace outpost::server {

struct SchemaStatus {
    int database = 0;  // the version the database holds (0: made before schema versions, or new)
    int program = 0;   // the version this program writes
    std::vector<std::string> pending;  // "N: what it does", oldest first
    bool newer() const { return database > program; }
};

// The status of the database at path, without changing it (a missing file: version 0).
Result<SchemaStatus> schema_status(const std::string& path);
// Applies the pending migrations (each store also does when it opens); refuses a
// database newer than the program. Answers the status after.
Result<SchemaStatus> migrate_schema(const std::string& path);

}  // namespace outpost::server
