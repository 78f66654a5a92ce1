// Outpost — the domains' fencing token in SQLite (stores/domains_fence.h): the check
// each fenced write makes inside its own transaction, and the claim of a new holder.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "server/stores/domains_fence.h"
#include "server/stores/sqlite/sqlite_db.h"

namespace outpost::server {

// Raises the stored token to `token` when it is not above it: the rows it changed.
inline Result<int> sqlite_raise_fence(Connection& c, std::int64_t token) {
    Statement s(c.db, "INSERT INTO fences(name, token) VALUES (?1, ?2) ON CONFLICT(name) DO UPDATE "
                      "SET token = excluded.token WHERE fences.token <= excluded.token");
    s.bind(1, std::string(DomainsFenceName)).bind(2, token);
    if (!s.ok() || s.step() != SQLITE_DONE) return db_error(c.db, "the domains fence");
    return sqlite3_changes(c.db);
}

// Inside a write's transaction: refused unless `token` (if any) is the highest written.
inline Result<bool> sqlite_check_fence(Connection& c, const FenceToken& token) {
    return check_domains_fence(token, [&c](std::int64_t t) { return sqlite_raise_fence(c, t); });
}

inline Result<std::int64_t> sqlite_claim_fence(Connection& c, std::int64_t token) {
    std::int64_t stored = 0;
    auto done = c.transaction([&]() -> Result<bool> {
        if (auto r = sqlite_raise_fence(c, token); !r) return r.error();
        Statement s(c.db, "SELECT token FROM fences WHERE name = ?1");
        s.bind(1, std::string(DomainsFenceName));
        if (!s.ok() || s.step() != SQLITE_ROW) return db_error(c.db, "the domains fence");
        stored = s.integer(0);
        return true;
    });
    if (!done) return done.error();
    return stored;
}

}  // namespace outpost::server
