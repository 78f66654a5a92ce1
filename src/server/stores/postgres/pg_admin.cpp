// Outpost — the admin page's tables in PostgreSQL (stores/admin_store.h): the audit
// log, the players' reports and the arbiters' decisions, as SQLite's (sqlite_admin.cpp).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Its own connection, as the accounts have: admin actions and reports are rare, never
// on the path of a move.
#include "server/stores/postgres/pg_db.h"
#include "server/stores/postgres/pg_stores.h"

namespace outpost::server {
// In a namespace of their own: the unity build puts these files beside SQLite's.
namespace pg {
namespace {

#define REPORT_COLUMNS "id, at_ms, reporter_account, reporter_name, kind, target, reason, state, resolved_ms, resolved_by"

PlayerReport read_report(const pg::Rows& r, int i) {
    PlayerReport p;
    p.id = r.integer(i, 0);
    p.at_ms = r.integer(i, 1);
    p.reporter_account = r.integer(i, 2);
    p.reporter_name = r.text(i, 3);
    p.kind = r.text(i, 4);
    p.target = r.text(i, 5);
    p.reason = r.text(i, 6);
    p.state = r.text(i, 7);
    p.resolved_ms = r.integer(i, 8);
    p.resolved_by = r.text(i, 9);
    return p;
}

class PgAdminStore final : public AdminStore {
public:
    Result<bool> open(const std::string& url) { return c_.open_store(url); }

    Result<std::int64_t> audit(const AuditEntry& e) override {
        static const char* const Sql =
            "INSERT INTO admin_audit (at_ms, admin_account, admin_name, action, target, before, after) "
            "VALUES ($1,$2,$3,$4,$5,$6,$7) RETURNING id";
        std::lock_guard lock(c_.mutex);
        auto r = c_.run(Sql, pg::Params()(e.at_ms)(e.admin_account)(e.admin_name)(e.action)(e.target)(e.before)(e.after));
        if (!r) return make_error("write the audit log: " + r.error().message);
        return r->integer(0, 0);
    }

    Result<std::vector<AuditEntry>> audit_log(int limit, std::int64_t before_id) override {
        static const char* const Sql =
            "SELECT id, at_ms, admin_account, admin_name, action, target, before, after FROM admin_audit "
            "WHERE $1::bigint = 0 OR id < $1::bigint ORDER BY id DESC LIMIT $2";
        std::lock_guard lock(c_.mutex);
        auto r = c_.run(Sql, pg::Params()(before_id)(limit));
        if (!r) return make_error("read the audit log: " + r.error().message);
        std::vector<AuditEntry> out;
        for (int i = 0; i < r->size(); ++i)
            out.push_back(AuditEntry{r->integer(i, 0), r->integer(i, 1), r->integer(i, 2), r->text(i, 3), r->text(i, 4),
                                     r->text(i, 5), r->text(i, 6), r->text(i, 7)});
        return out;
    }

    Result<std::int64_t> add_report(const PlayerReport& p) override {
        static const char* const Sql =
            "INSERT INTO reports (at_ms, reporter_account, reporter_name, kind, target, reason, state) "
            "VALUES ($1,$2,$3,$4,$5,$6,'open') RETURNING id";
        std::lock_guard lock(c_.mutex);
        auto r = c_.run(Sql, pg::Params()(p.at_ms)(p.reporter_account)(p.reporter_name)(p.kind)(p.target)(p.reason));
        if (!r) return make_error("store the report: " + r.error().message);
        return r->integer(0, 0);
    }

    Result<std::vector<PlayerReport>> reports(const std::string& state, int limit) override {
        static const char* const Sql =
            "SELECT " REPORT_COLUMNS " FROM reports WHERE $1::text = '' OR state = $1::text ORDER BY id DESC LIMIT $2";
        std::lock_guard lock(c_.mutex);
        auto r = c_.run(Sql, pg::Params()(state)(limit));
        if (!r) return make_error("read the reports: " + r.error().message);
        std::vector<PlayerReport> out;
        for (int i = 0; i < r->size(); ++i) out.push_back(read_report(*r, i));
        return out;
    }

    Result<std::optional<PlayerReport>> report(std::int64_t id) override {
        static const char* const Sql = "SELECT " REPORT_COLUMNS " FROM reports WHERE id=$1";
        std::lock_guard lock(c_.mutex);
        auto r = c_.run(Sql, pg::Params()(id));
        if (!r) return make_error("read the report: " + r.error().message);
        if (r->empty()) return std::optional<PlayerReport>();
        return std::optional<PlayerReport>(read_report(*r, 0));
    }

    Result<bool> set_report_state(std::int64_t id, const std::string& state, const std::string& by,
                                  std::int64_t at_ms) override {
        static const char* const Sql = "UPDATE reports SET state=$2, resolved_by=$3, resolved_ms=$4 WHERE id=$1";
        std::lock_guard lock(c_.mutex);
        auto r = c_.run(Sql, pg::Params()(id)(state)(by)(at_ms));
        if (!r) return make_error("change the report: " + r.error().message);
        return r->changed() > 0;
    }

    Result<int> reports_since(std::int64_t reporter_account, std::int64_t since_ms) override {
        static const char* const Sql = "SELECT count(*) FROM reports WHERE reporter_account=$1 AND at_ms >= $2";
        std::lock_guard lock(c_.mutex);
        auto r = c_.run(Sql, pg::Params()(reporter_account)(since_ms));
        if (!r) return make_error("count reports: " + r.error().message);
        return int(r->integer(0, 0));
    }

    Result<bool> set_arbiter_reason(const std::string& game_id, const std::string& reason) override {
        static const char* const Sql =
            "INSERT INTO arbiter_decisions (game_id, reason) VALUES ($1,$2) ON CONFLICT (game_id) DO UPDATE SET reason=EXCLUDED.reason";
        std::lock_guard lock(c_.mutex);
        auto r = c_.run(Sql, pg::Params()(game_id)(reason));
        if (!r) return make_error("store the arbiter's decision: " + r.error().message);
        return true;
    }

    Result<std::string> arbiter_reason(const std::string& game_id) override {
        static const char* const Sql = "SELECT reason FROM arbiter_decisions WHERE game_id=$1";
        std::lock_guard lock(c_.mutex);
        auto r = c_.run(Sql, pg::Params()(game_id));
        if (!r) return make_error("read the arbiter's decision: " + r.error().message);
        return r->empty() ? std::string() : r->text(0, 0);
    }

private:
    pg::Connection c_;
};

}  // namespace
}  // namespace pg
#undef REPORT_COLUMNS

Result<std::unique_ptr<AdminStore>> postgres::open_admin(const std::string& url) {
    auto store = std::make_unique<pg::PgAdminStore>();
    if (auto r = store->open(url); !r) return r.error();
    return std::unique_ptr<AdminStore>(std::move(store));
}

}  // namespace outpost::server
