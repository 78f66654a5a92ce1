// Outpost — the account store in SQLite (accounts.h): two tables beside the games.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Its own connection to the database file (accounts change seldom; the games' writer
// thread is not held up by a password hash, which is computed before the transaction).
#include <sodium.h>

#include <mutex>

#include "server/accounts/accounts.h"
#include "server/common/random.h"
#include "server/stores/sqlite/sqlite_db.h"

namespace outpost::server {
namespace {


constexpr const char* AccountColumns = "id, name, admin, disabled, created_ms";

// The hash a session token is stored under (BLAKE2b-256, hex): a copy of the database
// does not hold the tokens themselves.
std::string token_hash(std::string_view token) {
    unsigned char digest[32];
    crypto_generichash(digest, sizeof digest, reinterpret_cast<const unsigned char*>(token.data()), token.size(),
                       nullptr, 0);
    char hex[2 * sizeof digest + 1];
    sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
    return hex;
}

Account read_account(const Statement& s) {
    return Account{s.integer(0), s.text(1), s.integer(2) != 0, s.integer(3) != 0, s.integer(4)};
}

class SqliteAccountStore final : public AccountStore {
public:
    explicit SqliteAccountStore(PasswordCost cost) : cost_(cost) {}

    Result<bool> open(const std::string& path, bool sync_full) {
        return c_.open_store(path, sync_full);
    }

    Result<Account> create(std::string_view name, std::string_view password, bool admin, std::int64_t now_ms) override {
        if (auto ok = check_username(name); !ok) return ok.error();
        if (auto ok = check_password(password, name); !ok) return ok.error();
        auto hash = hash_password(password, cost_);  // before the lock: it takes a while
        if (!hash) return hash.error();
        std::lock_guard lock(c_.mutex);
        Statement s(c_.db, "INSERT INTO accounts(name, name_key, password_hash, admin, created_ms) "
                           "VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT(name_key) DO NOTHING");
        s.bind(1, std::string(name)).bind(2, username_key(name)).bind(3, *hash).bind(4, std::int64_t(admin)).bind(5, now_ms);
        if (!s.ok() || s.step() != SQLITE_DONE) return db_error(c_.db, "create account");
        if (sqlite3_changes(c_.db) == 0) return make_error("the username '" + std::string(name) + "' is taken");
        return Account{sqlite3_last_insert_rowid(c_.db), std::string(name), admin, false, now_ms};
    }

    Result<std::optional<Account>> find(std::string_view name) override {
        std::lock_guard lock(c_.mutex);
        auto row = account_row(name);
        if (!row) return row.error();
        if (!*row) return std::optional<Account>{};
        return std::optional<Account>{row->value().first};
    }

    Result<std::vector<Account>> list() override {
        std::lock_guard lock(c_.mutex);
        Statement s(c_.db, (std::string("SELECT ") + AccountColumns + " FROM accounts ORDER BY name_key").c_str());
        if (!s.ok()) return db_error(c_.db, "list accounts");
        std::vector<Account> out;
        int rc;
        while ((rc = s.step()) == SQLITE_ROW) out.push_back(read_account(s));
        if (rc != SQLITE_DONE) return db_error(c_.db, "list accounts");
        return out;
    }

    Result<Account> authenticate(std::string_view name, std::string_view password) override {
        std::optional<std::pair<Account, std::string>> found;
        {
            std::lock_guard lock(c_.mutex);
            auto row = account_row(name);
            if (!row) return row.error();
            found = std::move(*row);
        }
        return sign_in_.check(found, password);  // the one rule of every store (accounts.h)
    }

    Result<std::string> start_session(std::int64_t account_id, std::int64_t now_ms) override {
        const std::string token = secure_token(SessionTokenLength);
        std::lock_guard lock(c_.mutex);
        auto done = c_.transaction([&]() -> Result<bool> {
            Statement purge(c_.db, "DELETE FROM sessions WHERE expires_ms <= ?1");
            purge.bind(1, now_ms);
            if (!purge.ok() || purge.step() != SQLITE_DONE) return db_error(c_.db, "end expired sessions");
            // The oldest beyond the limit make room for the new one.
            Statement trim(c_.db, "DELETE FROM sessions WHERE token_hash IN (SELECT token_hash FROM sessions "
                                  "WHERE account_id=?1 ORDER BY created_ms DESC LIMIT -1 OFFSET ?2)");
            trim.bind(1, account_id).bind(2, std::int64_t(MaxSessionsPerAccount - 1));
            if (!trim.ok() || trim.step() != SQLITE_DONE) return db_error(c_.db, "end old sessions");
            Statement add(c_.db, "INSERT INTO sessions(token_hash, account_id, created_ms, expires_ms) VALUES (?1, ?2, ?3, ?4)");
            add.bind(1, token_hash(token)).bind(2, account_id).bind(3, now_ms).bind(4, now_ms + SessionLifetimeMs);
            if (!add.ok() || add.step() != SQLITE_DONE) return db_error(c_.db, "start session");
            return true;
        });
        if (!done) return done.error();
        return token;
    }

    Result<std::optional<Account>> session_account(std::string_view token, std::int64_t now_ms) override {
        if (token.size() != size_t(SessionTokenLength)) return std::optional<Account>{};
        const std::string key = token_hash(token);
        std::lock_guard lock(c_.mutex);
        Statement s(c_.db, "SELECT a.id, a.name, a.admin, a.disabled, a.created_ms, s.expires_ms FROM sessions s "
                           "JOIN accounts a ON a.id = s.account_id WHERE s.token_hash=?1");
        s.bind(1, key);
        if (!s.ok()) return db_error(c_.db, "read session");
        const int rc = s.step();
        if (rc == SQLITE_DONE) return std::optional<Account>{};
        if (rc != SQLITE_ROW) return db_error(c_.db, "read session");
        Account a = read_account(s);
        const std::int64_t expires = s.integer(5);
        if (expires <= now_ms || a.disabled) return std::optional<Account>{};
        // Sliding expiry, written at most once an hour per session.
        if (expires - now_ms < SessionLifetimeMs - 3600 * 1000) {
            Statement touch(c_.db, "UPDATE sessions SET expires_ms=?2 WHERE token_hash=?1");
            touch.bind(1, key).bind(2, now_ms + SessionLifetimeMs);
            if (!touch.ok() || touch.step() != SQLITE_DONE) return db_error(c_.db, "extend session");
        }
        return std::optional<Account>{std::move(a)};
    }

    Result<bool> end_session(std::string_view token) override {
        std::lock_guard lock(c_.mutex);
        Statement s(c_.db, "DELETE FROM sessions WHERE token_hash=?1");
        s.bind(1, token_hash(token));
        if (!s.ok() || s.step() != SQLITE_DONE) return db_error(c_.db, "end session");
        return sqlite3_changes(c_.db) > 0;
    }

    Result<int> end_all_sessions(std::int64_t account_id) override {
        std::lock_guard lock(c_.mutex);
        return end_sessions_except(account_id, "");
    }

    Result<bool> change_password(std::int64_t account_id, std::string_view old_password, std::string_view new_password,
                                 std::string_view keep_token) override {
        std::optional<std::pair<Account, std::string>> found;
        {
            std::lock_guard lock(c_.mutex);
            auto row = account_row_by_id(account_id);
            if (!row) return row.error();
            found = std::move(*row);
        }
        if (!found) return make_error("no such account");
        if (!verify_password(found->second, old_password)) return make_error("the current password is wrong");
        return set_password(found->first, new_password, keep_token.empty() ? "" : token_hash(keep_token));
    }

    Result<bool> reset_password(std::string_view name, std::string_view new_password) override {
        auto a = find(name);
        if (!a) return a.error();
        if (!*a) return make_error("no account is named '" + std::string(name) + "'");
        return set_password(**a, new_password, "");
    }

    Result<bool> set_disabled(std::string_view name, bool disabled) override {
        std::lock_guard lock(c_.mutex);
        auto row = account_row(name);
        if (!row) return row.error();
        if (!*row) return make_error("no account is named '" + std::string(name) + "'");
        const std::int64_t id = (*row)->first.id;
        auto done = c_.transaction([&]() -> Result<bool> {
            Statement s(c_.db, "UPDATE accounts SET disabled=?2 WHERE id=?1");
            s.bind(1, id).bind(2, std::int64_t(disabled));
            if (!s.ok() || s.step() != SQLITE_DONE) return db_error(c_.db, "disable account");
            if (disabled)
                if (auto r = end_sessions_except(id, ""); !r) return r.error();
            return true;
        });
        return done;
    }

private:
    // Under c_.mutex: the account and its password hash.
    Result<std::optional<std::pair<Account, std::string>>> account_row(std::string_view name) {
        Statement s(c_.db, (std::string("SELECT ") + AccountColumns + ", password_hash FROM accounts WHERE name_key=?1").c_str());
        s.bind(1, username_key(name));
        return one_row(s);
    }
    Result<std::optional<std::pair<Account, std::string>>> account_row_by_id(std::int64_t id) {
        Statement s(c_.db, (std::string("SELECT ") + AccountColumns + ", password_hash FROM accounts WHERE id=?1").c_str());
        s.bind(1, id);
        return one_row(s);
    }
    Result<std::optional<std::pair<Account, std::string>>> one_row(Statement& s) {
        using Row = std::optional<std::pair<Account, std::string>>;
        if (!s.ok()) return db_error(c_.db, "read account");
        const int rc = s.step();
        if (rc == SQLITE_DONE) return Row{};
        if (rc != SQLITE_ROW) return db_error(c_.db, "read account");
        return Row{std::pair{read_account(s), s.text(5)}};
    }
    // Under c_.mutex.
    Result<int> end_sessions_except(std::int64_t account_id, const std::string& keep_hash) {
        Statement s(c_.db, "DELETE FROM sessions WHERE account_id=?1 AND token_hash<>?2");
        s.bind(1, account_id).bind(2, keep_hash);
        if (!s.ok() || s.step() != SQLITE_DONE) return db_error(c_.db, "end sessions");
        return sqlite3_changes(c_.db);
    }

    Result<bool> set_password(const Account& a, std::string_view password, const std::string& keep_hash) {
        if (auto ok = check_password(password, a.name); !ok) return ok.error();
        auto hash = hash_password(password, cost_);
        if (!hash) return hash.error();
        std::lock_guard lock(c_.mutex);
        return c_.transaction([&]() -> Result<bool> {
            Statement s(c_.db, "UPDATE accounts SET password_hash=?2 WHERE id=?1");
            s.bind(1, a.id).bind(2, *hash);
            if (!s.ok() || s.step() != SQLITE_DONE) return db_error(c_.db, "change password");
            if (auto r = end_sessions_except(a.id, keep_hash); !r) return r.error();
            return true;
        });
    }


    PasswordCost cost_;
    Connection c_;
    SignInCheck sign_in_{cost_};
};

}  // namespace

Result<std::unique_ptr<AccountStore>> AccountStore::open(const std::string& path, PasswordCost cost, bool sync_full) {
    auto store = std::make_unique<SqliteAccountStore>(cost);
    if (auto r = store->open(path, sync_full); !r) return r.error();
    return std::unique_ptr<AccountStore>(std::move(store));
}

}  // namespace outpost::server
