// Outpost — the admin page's store (SPEC D9): the audit log of every admin action, the
// reports players send, and the arbiters' decisions. An interface, as every store is
// (docs/architecture.md); SQLite implements it in stores/sqlite/sqlite_admin.cpp.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "chess/result.h"

namespace outpost::server {

// One admin action: who did what to what, when, and the state before and after (short
// JSON texts of the admin room, e.g. {"disabled":false} and {"disabled":true}).
struct AuditEntry {
    std::int64_t id = 0;  // given by the store
    std::int64_t at_ms = 0;
    std::int64_t admin_account = 0;
    std::string admin_name;
    std::string action;  // "disable", "enable", "sign_out", "arbiter", "close_event", "close_simul", "resolve_report", …
    std::string target;  // what it was done to: "account:NAME", "game:ID", "event:ID", "simul:ID", "report:ID"
    std::string before, after;
};

// A player's report of a game or a profile, and what became of it.
struct PlayerReport {
    std::int64_t id = 0;  // given by the store
    std::int64_t at_ms = 0;
    std::int64_t reporter_account = 0;
    std::string reporter_name;
    std::string kind;    // "game" or "player"
    std::string target;  // the game's id or the player's name
    std::string reason;
    std::string state = "open";  // "open" or "resolved"
    std::int64_t resolved_ms = 0;
    std::string resolved_by;  // the admin's name
};

class AdminStore {
public:
    // Opens (creating if needed) the admin tables of the SQLite database at path (the
    // same file as the games; ":memory:" for tests).
    static Result<std::unique_ptr<AdminStore>> open(const std::string& path, bool sync_full = false);
    virtual ~AdminStore() = default;

    // The audit log: appended to, never changed. Returns the entry's id.
    virtual Result<std::int64_t> audit(const AuditEntry& e) = 0;
    // The newest entries first, at most `limit`, with ids below `before_id` (0: from the newest).
    virtual Result<std::vector<AuditEntry>> audit_log(int limit, std::int64_t before_id = 0) = 0;

    // Reports: a new one (its id), the newest first in a state ("": every state), one
    // by id, its state changed (false: no such report), and how many an account sent
    // since a time (the routes' limit).
    virtual Result<std::int64_t> add_report(const PlayerReport& r) = 0;
    virtual Result<std::vector<PlayerReport>> reports(const std::string& state, int limit) = 0;
    virtual Result<std::optional<PlayerReport>> report(std::int64_t id) = 0;
    virtual Result<bool> set_report_state(std::int64_t id, const std::string& state, const std::string& by,
                                          std::int64_t at_ms) = 0;
    virtual Result<int> reports_since(std::int64_t reporter_account, std::int64_t since_ms) = 0;

    // FIDE 12.9: the arbiter's reason for ending a game (the hub shows it and writes it
    // into the PGN); "" when the game has none.
    virtual Result<bool> set_arbiter_reason(const std::string& game_id, const std::string& reason) = 0;
    virtual Result<std::string> arbiter_reason(const std::string& game_id) = 0;
};

}  // namespace outpost::server
