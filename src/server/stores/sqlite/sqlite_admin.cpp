// Outpost — the admin page's tables in SQLite (stores/admin_store.h): the audit log,
// the players' reports and the arbiters' decisions, beside the games.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Its own connection to the database file, as the accounts have: admin actions and
// reports are rare, never on the path of a move.
#include "server/stores/admin_store.h"
#include "server/stores/sqlite/sqlite_db.h"

namespace outpost::server {
namespace {

constexpr const char* ReportColumns =
    "id, at_ms, reporter_account, reporter_name, kind, target, reason, state, resolved_ms, resolved_by";

PlayerReport read_report(const Statement& s) {
    PlayerReport r;
    r.id = s.integer(0);
    r.at_ms = s.integer(1);
    r.reporter_account = s.integer(2);
    r.reporter_name = s.text(3);
    r.kind = s.text(4);
    r.target = s.text(5);
    r.reason = s.text(6);
    r.state = s.text(7);
    r.resolved_ms = s.integer(8);
    r.resolved_by = s.text(9);
    return r;
}

class SqliteAdminStore final : public AdminStore {
public:
    Result<bool> open(const std::string& path, bool sync_full) { return c_.open_store(path, sync_full); }

    Result<std::int64_t> audit(const AuditEntry& e) override {
        std::lock_guard lock(c_.mutex);
        Statement s(c_.db, "INSERT INTO admin_audit(at_ms, admin_account, admin_name, action, target, before, after) "
                           "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
        s.bind(1, e.at_ms).bind(2, e.admin_account).bind(3, e.admin_name).bind(4, e.action).bind(5, e.target);
        s.bind(6, e.before).bind(7, e.after);
        if (!s.ok() || s.step() != SQLITE_DONE) return db_error(c_.db, "write the audit log");
        return std::int64_t(sqlite3_last_insert_rowid(c_.db));
    }

    Result<std::vector<AuditEntry>> audit_log(int limit, std::int64_t before_id) override {
        std::lock_guard lock(c_.mutex);
        Statement s(c_.db, "SELECT id, at_ms, admin_account, admin_name, action, target, before, after FROM admin_audit "
                           "WHERE ?1 = 0 OR id < ?1 ORDER BY id DESC LIMIT ?2");
        if (!s.ok()) return db_error(c_.db, "read the audit log");
        s.bind(1, before_id).bind(2, std::int64_t(limit));
        std::vector<AuditEntry> out;
        int rc;
        while ((rc = s.step()) == SQLITE_ROW)
            out.push_back(AuditEntry{s.integer(0), s.integer(1), s.integer(2), s.text(3), s.text(4), s.text(5),
                                     s.text(6), s.text(7)});
        if (rc != SQLITE_DONE) return db_error(c_.db, "read the audit log");
        return out;
    }

    Result<std::int64_t> add_report(const PlayerReport& r) override {
        std::lock_guard lock(c_.mutex);
        Statement s(c_.db, "INSERT INTO reports(at_ms, reporter_account, reporter_name, kind, target, reason, state) "
                           "VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'open')");
        s.bind(1, r.at_ms).bind(2, r.reporter_account).bind(3, r.reporter_name).bind(4, r.kind).bind(5, r.target);
        s.bind(6, r.reason);
        if (!s.ok() || s.step() != SQLITE_DONE) return db_error(c_.db, "store the report");
        return std::int64_t(sqlite3_last_insert_rowid(c_.db));
    }

    Result<std::vector<PlayerReport>> reports(const std::string& state, int limit) override {
        std::lock_guard lock(c_.mutex);
        Statement s(c_.db, (std::string("SELECT ") + ReportColumns +
                            " FROM reports WHERE ?1 = '' OR state = ?1 ORDER BY id DESC LIMIT ?2")
                               .c_str());
        if (!s.ok()) return db_error(c_.db, "read the reports");
        s.bind(1, state).bind(2, std::int64_t(limit));
        std::vector<PlayerReport> out;
        int rc;
        while ((rc = s.step()) == SQLITE_ROW) out.push_back(read_report(s));
        if (rc != SQLITE_DONE) return db_error(c_.db, "read the reports");
        return out;
    }

    Result<std::optional<PlayerReport>> report(std::int64_t id) override {
        std::lock_guard lock(c_.mutex);
        Statement s(c_.db, (std::string("SELECT ") + ReportColumns + " FROM reports WHERE id = ?1").c_str());
        if (!s.ok()) return db_error(c_.db, "read the report");
        s.bind(1, id);
        const int rc = s.step();
        if (rc == SQLITE_ROW) return std::optional<PlayerReport>(read_report(s));
        if (rc != SQLITE_DONE) return db_error(c_.db, "read the report");
        return std::optional<PlayerReport>();
    }

    Result<bool> set_report_state(std::int64_t id, const std::string& state, const std::string& by,
                                  std::int64_t at_ms) override {
        std::lock_guard lock(c_.mutex);
        Statement s(c_.db, "UPDATE reports SET state = ?2, resolved_by = ?3, resolved_ms = ?4 WHERE id = ?1");
        s.bind(1, id).bind(2, state).bind(3, by).bind(4, at_ms);
        if (!s.ok() || s.step() != SQLITE_DONE) return db_error(c_.db, "change the report");
        return sqlite3_changes(c_.db) > 0;
    }

    Result<int> reports_since(std::int64_t reporter_account, std::int64_t since_ms) override {
        std::lock_guard lock(c_.mutex);
        Statement s(c_.db, "SELECT count(*) FROM reports WHERE reporter_account = ?1 AND at_ms >= ?2");
        if (!s.ok()) return db_error(c_.db, "count reports");
        s.bind(1, reporter_account).bind(2, since_ms);
        if (s.step() != SQLITE_ROW) return db_error(c_.db, "count reports");
        return int(s.integer(0));
    }

    Result<bool> set_arbiter_reason(const std::string& game_id, const std::string& reason) override {
        std::lock_guard lock(c_.mutex);
        Statement s(c_.db, "INSERT INTO arbiter_decisions(game_id, reason) VALUES (?1, ?2) "
                           "ON CONFLICT(game_id) DO UPDATE SET reason = ?2");
        s.bind(1, game_id).bind(2, reason);
        if (!s.ok() || s.step() != SQLITE_DONE) return db_error(c_.db, "store the arbiter's decision");
        return true;
    }

    Result<std::string> arbiter_reason(const std::string& game_id) override {
        std::lock_guard lock(c_.mutex);
        Statement s(c_.db, "SELECT reason FROM arbiter_decisions WHERE game_id = ?1");
        if (!s.ok()) return db_error(c_.db, "read the arbiter's decision");
        s.bind(1, game_id);
        const int rc = s.step();
        if (rc == SQLITE_ROW) return s.text(0);
        if (rc != SQLITE_DONE) return db_error(c_.db, "read the arbiter's decision");
        return std::string();
    }

private:
    Connection c_;
};

}  // namespace

Result<std::unique_ptr<AdminStore>> AdminStore::open(const std::string& path, bool sync_full) {
    auto store = std::make_unique<SqliteAdminStore>();
    if (auto r = store->open(path, sync_full); !r) return r.error();
    return std::unique_ptr<AdminStore>(std::move(store));
}

}  // namespace outpost::server
