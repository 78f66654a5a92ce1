// Outpost — the account store in PostgreSQL (account_store.h): accounts and sessions,
// the same rows as SQLite's (sqlite_accounts.cpp).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Its own connection (accounts change seldom; a password hash is computed before the
// connection is taken).
#include <sodium.h>

#include <mutex>

#include "server/accounts/accounts.h"
#include "server/common/random.h"
#include "server/stores/postgres/pg_db.h"
#include "server/stores/postgres/pg_stores.h"

namespace outpost::server {
// In a namespace of their own: the unity build puts these files beside SQLite's.
namespace pg {
namespace {

#define ACCOUNT_COLUMNS "id, name, admin, disabled, created_ms"

// The hash a session token is stored under (BLAKE2b-256, hex), as SQLite's: a copy of
// the database does not hold the tokens themselves (and `outpost db copy` keeps them).
std::string token_hash(std::string_view token) {
    unsigned char digest[32];
    crypto_generichash(digest, sizeof digest, reinterpret_cast<const unsigned char*>(token.data()), token.size(),
                       nullptr, 0);
    char hex[2 * sizeof digest + 1];
    sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
    return hex;
}

Account read_account(const pg::Rows& r, int i) {
    return Account{r.integer(i, 0), r.text(i, 1), r.integer(i, 2) != 0, r.integer(i, 3) != 0, r.integer(i, 4)};
}

class PgAccountStore final : public AccountStore {
public:
    explicit PgAccountStore(PasswordCost cost) : cost_(cost) {}

    Result<bool> open(const std::string& url) { return c_.open_store(url); }

    Result<Account> create(std::string_view name, std::string_view password, bool admin, std::int64_t now_ms) override {
        if (auto ok = check_username(name); !ok) return ok.error();
        if (auto ok = check_password(password, name); !ok) return ok.error();
        auto hash = hash_password(password, cost_);  // before the lock: it takes a while
        if (!hash) return hash.error();
        static const char* const Sql =
            "INSERT INTO accounts (name, name_key, password_hash, admin, created_ms) VALUES ($1,$2,$3,$4,$5) "
            "ON CONFLICT (name_key) DO NOTHING RETURNING id";
        std::lock_guard lock(c_.mutex);
        auto r = c_.run(Sql, pg::Params()(name)(username_key(name))(*hash)(admin)(now_ms));
        if (!r) return make_error("create account: " + r.error().message);
        if (r->empty()) return make_error("the username '" + std::string(name) + "' is taken");
        return Account{r->integer(0, 0), std::string(name), admin, false, now_ms};
    }

    Result<std::optional<Account>> find(std::string_view name) override {
        std::lock_guard lock(c_.mutex);
        auto row = account_row(name);
        if (!row) return row.error();
        if (!*row) return std::optional<Account>{};
        return std::optional<Account>{row->value().first};
    }

    Result<std::vector<Account>> list() override {
        static const char* const Sql = "SELECT " ACCOUNT_COLUMNS " FROM accounts ORDER BY name_key";
        std::lock_guard lock(c_.mutex);
        auto r = c_.run(Sql);
        if (!r) return make_error("list accounts: " + r.error().message);
        std::vector<Account> out;
        for (int i = 0; i < r->size(); ++i) out.push_back(read_account(*r, i));
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
        static const char* const Purge = "DELETE FROM sessions WHERE expires_ms <= $1";
        // The oldest beyond the limit make room for the new one.
        static const char* const Trim =
            "DELETE FROM sessions WHERE token_hash IN (SELECT token_hash FROM sessions WHERE account_id=$1 "
            "ORDER BY created_ms DESC LIMIT ALL OFFSET $2)";
        static const char* const Add =
            "INSERT INTO sessions (token_hash, account_id, created_ms, expires_ms) VALUES ($1,$2,$3,$4)";
        const std::string token = secure_token(SessionTokenLength);
        std::lock_guard lock(c_.mutex);
        auto done = c_.transaction([&]() -> Result<bool> {
            if (auto r = c_.run(Purge, pg::Params()(now_ms)); !r) return r.error();
            if (auto r = c_.run(Trim, pg::Params()(account_id)(MaxSessionsPerAccount - 1)); !r) return r.error();
            if (auto r = c_.run(Add, pg::Params()(token_hash(token))(account_id)(now_ms)(now_ms + SessionLifetimeMs)); !r)
                return r.error();
            return true;
        });
        if (!done) return make_error("start session: " + done.error().message);
        return token;
    }

    Result<std::optional<Account>> session_account(std::string_view token, std::int64_t now_ms) override {
        static const char* const Sql =
            "SELECT a.id, a.name, a.admin, a.disabled, a.created_ms, s.expires_ms FROM sessions s "
            "JOIN accounts a ON a.id = s.account_id WHERE s.token_hash=$1";
        static const char* const Touch = "UPDATE sessions SET expires_ms=$2 WHERE token_hash=$1";
        if (token.size() != size_t(SessionTokenLength)) return std::optional<Account>{};
        const std::string key = token_hash(token);
        std::lock_guard lock(c_.mutex);
        auto r = c_.run(Sql, pg::Params()(key));
        if (!r) return make_error("read session: " + r.error().message);
        if (r->empty()) return std::optional<Account>{};
        Account a = read_account(*r, 0);
        const std::int64_t expires = r->integer(0, 5);
        if (expires <= now_ms || a.disabled) return std::optional<Account>{};
        // Sliding expiry, written at most once an hour per session.
        if (expires - now_ms < SessionLifetimeMs - 3600 * 1000)
            if (auto t = c_.run(Touch, pg::Params()(key)(now_ms + SessionLifetimeMs)); !t) return t.error();
        return std::optional<Account>{std::move(a)};
    }

    Result<bool> end_session(std::string_view token) override {
        static const char* const Sql = "DELETE FROM sessions WHERE token_hash=$1";
        std::lock_guard lock(c_.mutex);
        auto r = c_.run(Sql, pg::Params()(token_hash(token)));
        if (!r) return r.error();
        return r->changed() > 0;
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
            static const char* const Sql = "SELECT " ACCOUNT_COLUMNS ", password_hash FROM accounts WHERE id=$1";
            auto row = one_row(c_.run(Sql, pg::Params()(account_id)));
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
        static const char* const Sql = "UPDATE accounts SET disabled=$2 WHERE id=$1";
        std::lock_guard lock(c_.mutex);
        auto row = account_row(name);
        if (!row) return row.error();
        if (!*row) return make_error("no account is named '" + std::string(name) + "'");
        const std::int64_t id = (*row)->first.id;
        return c_.transaction([&]() -> Result<bool> {
            if (auto r = c_.run(Sql, pg::Params()(id)(disabled)); !r) return r.error();
            if (disabled)
                if (auto r = end_sessions_except(id, ""); !r) return r.error();
            return true;
        });
    }

private:
    using Row = std::optional<std::pair<Account, std::string>>;
    // Under c_.mutex: the account and its password hash.
    Result<Row> account_row(std::string_view name) {
        static const char* const Sql = "SELECT " ACCOUNT_COLUMNS ", password_hash FROM accounts WHERE name_key=$1";
        return one_row(c_.run(Sql, pg::Params()(username_key(name))));
    }
    static Result<Row> one_row(const Result<pg::Rows>& r) {
        if (!r) return make_error("read account: " + r.error().message);
        if (r->empty()) return Row{};
        return Row{std::pair{read_account(*r, 0), r->text(0, 5)}};
    }
    // Under c_.mutex.
    Result<int> end_sessions_except(std::int64_t account_id, const std::string& keep_hash) {
        static const char* const Sql = "DELETE FROM sessions WHERE account_id=$1 AND token_hash<>$2";
        auto r = c_.run(Sql, pg::Params()(account_id)(keep_hash));
        if (!r) return make_error("end sessions: " + r.error().message);
        return int(r->changed());
    }

    Result<bool> set_password(const Account& a, std::string_view password, const std::string& keep_hash) {
        static const char* const Sql = "UPDATE accounts SET password_hash=$2 WHERE id=$1";
        if (auto ok = check_password(password, a.name); !ok) return ok.error();
        auto hash = hash_password(password, cost_);
        if (!hash) return hash.error();
        std::lock_guard lock(c_.mutex);
        return c_.transaction([&]() -> Result<bool> {
            if (auto r = c_.run(Sql, pg::Params()(a.id)(*hash)); !r) return r.error();
            if (auto r = end_sessions_except(a.id, keep_hash); !r) return r.error();
            return true;
        });
    }


    PasswordCost cost_;
    pg::Connection c_;
    SignInCheck sign_in_{cost_};
};

}  // namespace
}  // namespace pg
#undef ACCOUNT_COLUMNS

Result<std::unique_ptr<AccountStore>> postgres::open_accounts(const std::string& url, PasswordCost cost) {
    auto store = std::make_unique<pg::PgAccountStore>(cost);
    if (auto r = store->open(url); !r) return r.error();
    return std::unique_ptr<AccountStore>(std::move(store));
}

}  // namespace outpost::server
