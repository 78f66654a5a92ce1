// Outpost — the PostgreSQL implementation of every store interface (issue 26), as the
// executable and the tests open it: each store on its own connection(s) to the
// database of a libpq URL (postgresql://USER@HOST[:PORT]/DB, or the Unix-socket form
// postgresql:///DB?host=/run/postgresql). The same records and the same semantics as
// SQLite's (the contract suites of tests/unit run on both).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "chess/result.h"
#include "server/stores/account_store.h"
#include "server/stores/admin_store.h"
#include "server/stores/event_store.h"
#include "server/stores/game_store.h"
#include "server/stores/puzzle_store.h"
#include "server/stores/schema.h"
#include "server/stores/simul_store.h"
#include "server/stores/table_source.h"

namespace outpost::server::postgres {

// A database location that is PostgreSQL's (postgresql:// or postgres://).
bool is_url(std::string_view location);
// The URL as a log line or an error shows it: without its password.
std::string shown_url(std::string_view url);

Result<std::unique_ptr<Storage>> open_games(const std::string& url);  // also the RatingStore
Result<std::unique_ptr<AccountStore>> open_accounts(const std::string& url, PasswordCost cost = PasswordCost::interactive());
Result<std::unique_ptr<EventStore>> open_events(const std::string& url);
Result<std::unique_ptr<SimulStore>> open_simuls(const std::string& url);
Result<std::unique_ptr<AdminStore>> open_admin(const std::string& url);
Result<std::unique_ptr<PuzzleStore>> open_puzzles(const std::string& url);  // issue 29

// `outpost db status|migrate --database URL` (stores/schema.h's, on PostgreSQL).
Result<SchemaStatus> schema_status(const std::string& url);
Result<SchemaStatus> migrate_schema(const std::string& url);
// Connects once and reads the schema version: `outpost serve` asks before it listens,
// so that an unreachable (or newer) database is one line and an exit.
Result<bool> check_reachable(const std::string& url);

// `outpost db copy`: every table of the source into the empty database at `url` (made
// up to date first), in one transaction; each table's rows counted on both sides, and
// nothing kept when a count differs. Refuses a target that holds any row, and a source
// at another schema version than the program's.
Result<std::vector<CopiedTable>> copy_into(TableSource& source, const std::string& url);

}  // namespace outpost::server::postgres
