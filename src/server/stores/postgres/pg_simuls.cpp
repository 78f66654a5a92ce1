// Outpost — the simuls' table in PostgreSQL (stores/simul_store.h): one row per simul,
// as SQLite's (sqlite_simuls.cpp).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Its own connection, as the accounts have: a simul changes at a join, a start and a
// board's result, seldom beside the games' moves.
#include "server/stores/postgres/pg_db.h"
#include "server/stores/postgres/pg_fence.h"
#include "server/stores/postgres/pg_stores.h"

namespace outpost::server {
// In a namespace of their own: the unity build puts these files beside SQLite's.
namespace pg {
namespace {

class PgSimulStore final : public SimulStore {
public:
    Result<bool> open(const std::string& url) { return c_.open_store(url); }

    Result<bool> save(const std::string& id, std::int64_t host_account, const std::string& status, std::int64_t updated_ms,
                      const std::string& body) override {
        static const char* const Sql =
            "INSERT INTO simuls (id, host_account, status, updated_ms, body) VALUES ($1,$2,$3,$4,$5) "
            "ON CONFLICT (id) DO UPDATE SET status=EXCLUDED.status, updated_ms=EXCLUDED.updated_ms, body=EXCLUDED.body";
        std::lock_guard lock(c_.mutex);
        auto done = c_.transaction([&]() -> Result<bool> {
            if (auto f = pg::check_fence(c_, fence_); !f) return f;
            if (auto r = c_.run(Sql, pg::Params()(id)(host_account)(status)(updated_ms)(body)); !r) return r.error();
            return true;
        });
        if (!done) return make_error("save simul: " + done.error().message);
        return true;
    }

    void fence_with(FenceToken token) override {
        std::lock_guard lock(c_.mutex);
        fence_ = std::move(token);
    }

    Result<std::vector<std::string>> load_recent(int finished) override {
        static const char* const Open = "SELECT body FROM simuls WHERE status NOT IN ('finished', 'cancelled')";
        static const char* const Done =
            "SELECT body FROM simuls WHERE status IN ('finished', 'cancelled') ORDER BY updated_ms DESC LIMIT $1";
        std::lock_guard lock(c_.mutex);
        std::vector<std::string> out;
        auto open = c_.run(Open);
        if (!open) return make_error("load simuls: " + open.error().message);
        for (int i = 0; i < open->size(); ++i) out.push_back(open->text(i, 0));
        auto done = c_.run(Done, pg::Params()(finished));
        if (!done) return make_error("load simuls: " + done.error().message);
        for (int i = 0; i < done->size(); ++i) out.push_back(done->text(i, 0));
        return out;
    }

    Result<std::optional<std::string>> load(const std::string& id) override {
        static const char* const Sql = "SELECT body FROM simuls WHERE id=$1";
        std::lock_guard lock(c_.mutex);
        auto r = c_.run(Sql, pg::Params()(id));
        if (!r) return make_error("load simul: " + r.error().message);
        if (r->empty()) return std::optional<std::string>();
        return std::optional<std::string>(r->text(0, 0));
    }

private:
    pg::Connection c_;
    FenceToken fence_;  // under c_.mutex
};

}  // namespace
}  // namespace pg

Result<std::unique_ptr<SimulStore>> postgres::open_simuls(const std::string& url) {
    auto store = std::make_unique<pg::PgSimulStore>();
    if (auto r = store->open(url); !r) return r.error();
    return std::unique_ptr<SimulStore>(std::move(store));
}

}  // namespace outpost::server
