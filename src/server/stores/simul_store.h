// Outpost — the simuls' store (SPEC P18): one record per simul, its whole state as
// JSON. An interface; SQLite implements it in stores/sqlite/sqlite_simuls.cpp.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "chess/result.h"
#include "server/stores/domains_fence.h"

namespace outpost::server {

// Where simuls are kept: one row per simul, its whole state as JSON (the seat tokens
// of its games too, as the games' own rows keep theirs).
class SimulStore {
public:
    static Result<std::unique_ptr<SimulStore>> open(const std::string& path, bool sync_full = false);  // SQLite; ":memory:" for tests
    virtual ~SimulStore() = default;
    virtual Result<bool> save(const std::string& id, std::int64_t host_account, const std::string& status,
                              std::int64_t updated_ms, const std::string& body) = 0;
    // The simuls not finished, and the most recent `finished` others.
    virtual Result<std::vector<std::string>> load_recent(int finished) = 0;
    virtual Result<std::optional<std::string>> load(const std::string& id) = 0;
    // Several nodes (domains_fence.h): every save from now on is fenced by `token`.
    virtual void fence_with(FenceToken token) = 0;
};

}  // namespace outpost::server
