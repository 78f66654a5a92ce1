// Outpost — the simuls' table in SQLite (simul.h): one row per simul beside the games.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Its own connection to the database file, as the accounts have: a simul changes at a
// join, a start and a board's result, seldom beside the games' moves.
#include "server/stores/simul_store.h"
#include "server/stores/sqlite/sqlite_db.h"
#include "server/stores/sqlite/sqlite_fence.h"

namespace outpost::server {
namespace {


class SqliteSimulStore final : public SimulStore {
public:
    Result<bool> open(const std::string& path, bool sync_full) {
        return c_.open_store(path, sync_full);
    }

    Result<bool> save(const std::string& id, std::int64_t host_account, const std::string& status, std::int64_t updated_ms,
                      const std::string& body) override {
        std::lock_guard lock(c_.mutex);
        return c_.transaction([&]() -> Result<bool> {
            if (auto f = sqlite_check_fence(c_, fence_); !f) return f;
            Statement s(c_.db, "INSERT INTO simuls(id, host_account, status, updated_ms, body) VALUES (?1, ?2, ?3, ?4, ?5) "
                               "ON CONFLICT(id) DO UPDATE SET status = ?3, updated_ms = ?4, body = ?5");
            s.bind(1, id).bind(2, host_account).bind(3, status).bind(4, updated_ms).bind(5, body);
            if (!s.ok() || s.step() != SQLITE_DONE) return db_error(c_.db, "save simul");
            return true;
        });
    }

    void fence_with(FenceToken token) override {
        std::lock_guard lock(c_.mutex);
        fence_ = std::move(token);
    }

    Result<std::vector<std::string>> load_recent(int finished) override {
        std::lock_guard lock(c_.mutex);
        std::vector<std::string> out;
        {
            Statement s(c_.db, "SELECT body FROM simuls WHERE status NOT IN ('finished', 'cancelled')");
            if (!s.ok()) return db_error(c_.db, "load simuls");
            while (s.step() == SQLITE_ROW) out.push_back(s.text(0));
        }
        Statement s(c_.db, "SELECT body FROM simuls WHERE status IN ('finished', 'cancelled') ORDER BY updated_ms DESC LIMIT ?1");
        if (!s.ok()) return db_error(c_.db, "load simuls");
        s.bind(1, std::int64_t(finished));
        while (s.step() == SQLITE_ROW) out.push_back(s.text(0));
        return out;
    }

    Result<std::optional<std::string>> load(const std::string& id) override {
        std::lock_guard lock(c_.mutex);
        Statement s(c_.db, "SELECT body FROM simuls WHERE id = ?1");
        if (!s.ok()) return db_error(c_.db, "load simul");
        s.bind(1, id);
        const int rc = s.step();
        if (rc == SQLITE_ROW) return std::optional<std::string>(s.text(0));
        if (rc != SQLITE_DONE) return db_error(c_.db, "load simul");
        return std::optional<std::string>();
    }

private:
    Connection c_;
    FenceToken fence_;  // under c_.mutex
};

}  // namespace

Result<std::unique_ptr<SimulStore>> SimulStore::open(const std::string& path, bool sync_full) {
    auto store = std::make_unique<SqliteSimulStore>();
    if (auto r = store->open(path, sync_full); !r) return r.error();
    return std::unique_ptr<SimulStore>(std::move(store));
}

}  // namespace outpost::server
