// Outpost — the domains' fencing token in PostgreSQL (stores/domains_fence.h), as
// SQLite's (sqlite/sqlite_fence.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "server/stores/domains_fence.h"
#include "server/stores/postgres/pg_db.h"

namespace outpost::server::pg {

// Raises the stored token to `token` when it is not above it: the rows it changed.
inline Result<std::int64_t> raise_fence(Connection& c, std::int64_t token) {
    static const char* const Sql =
        "INSERT INTO fences (name, token) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE "
        "SET token = EXCLUDED.token WHERE fences.token <= EXCLUDED.token";
    auto r = c.run(Sql, Params()(std::string(DomainsFenceName))(token));
    if (!r) return r.error();
    return r->changed();
}

// Inside a write's transaction: refused unless `token` (if any) is the highest written.
inline Result<bool> check_fence(Connection& c, const FenceToken& token) {
    return check_domains_fence(token, [&c](std::int64_t t) { return raise_fence(c, t); });
}

inline Result<std::int64_t> claim_fence(Connection& c, std::int64_t token) {
    std::int64_t stored = 0;
    auto done = c.transaction([&]() -> Result<bool> {
        if (auto r = raise_fence(c, token); !r) return r.error();
        auto row = c.run("SELECT token FROM fences WHERE name=$1", Params()(std::string(DomainsFenceName)));
        if (!row) return row.error();
        if (row->empty()) return make_error("the domains fence: no row");
        stored = row->integer(0, 0);
        return true;
    });
    if (!done) return done.error();
    return stored;
}

}  // namespace outpost::server::pg
