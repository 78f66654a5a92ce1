// Outpost — player accounts (SPEC P21): optional usernames with passwords, and the
// sessions that a browser holds as a cookie.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Passwords are stored only as Argon2id hashes (libsodium's crypto_pwhash_str, a
// memory-hard function: a stolen database costs an attacker 64 MiB and ~0.1 s per
// guess at the server's cost). A session token is 256 bits from the operating
// system's random source (random.h); the database keeps only its BLAKE2b hash, so a
// copy of the database opens no session. No e-mail: an administrator resets a
// password or disables an account from the command line (`outpost user`).
//
// AccountStore is an interface, as Storage is (storage.h): SQLite implements it in
// sqlite_accounts.cpp; a PostgreSQL store can later implement the same calls.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chess/result.h"

namespace outpost::server {

struct Account {
    std::int64_t id = 0;
    std::string name;  // as the player wrote it; unique without regard to case
    bool admin = false;
    bool disabled = false;
    std::int64_t created_ms = 0;
};

// The cost of one password hash. The server uses interactive() (libsodium's
// OPSLIMIT/MEMLIMIT_INTERACTIVE: 2 passes over 64 MiB); tests use cheapest().
struct PasswordCost {
    unsigned long long ops = 0;
    std::size_t memory = 0;
    static PasswordCost interactive();
    static PasswordCost cheapest();
};

// A username: 3 to 20 characters of A-Z, a-z, 0-9, '_' and '-', beginning and ending
// with a letter or digit, without two of '_' and '-' in a row; not one of the
// reserved names ("anonymous", "robot", …). The error says what is wrong.
Result<bool> check_username(std::string_view name);
// The key a username is unique under (ASCII lower case).
std::string username_key(std::string_view name);
// A password: 8 to 1024 bytes, not the username (in any case). No rules on its
// characters (NIST SP 800-63B): length is what makes it strong.
Result<bool> check_password(std::string_view password, std::string_view name);

// Argon2id hash in libsodium's string form ("$argon2id$v=19$m=…"); verify_password
// takes any hash that crypto_pwhash_str wrote, whatever its cost.
Result<std::string> hash_password(std::string_view password, const PasswordCost& cost);
bool verify_password(const std::string& hash, std::string_view password);

// Sessions last this long after their last use (sliding), and an account keeps at most
// MaxSessionsPerAccount (signing in once more ends the oldest).
constexpr std::int64_t SessionLifetimeMs = 30LL * 24 * 3600 * 1000;
constexpr int MaxSessionsPerAccount = 20;
constexpr int SessionTokenLength = 43;  // characters of [A-Za-z0-9]: 256 bits

// The session cookie: HttpOnly (no script reads it), SameSite=Lax (not sent with
// another site's requests, except top-level navigation), Path=/, Secure when the
// server is reached over HTTPS.
constexpr std::string_view SessionCookieName = "outpost_session";
std::string session_cookie(const std::string& token, bool secure);
std::string expired_session_cookie(bool secure);
// The session token in a Cookie header, if there is one of the right form.
std::optional<std::string> session_token_from_cookies(std::string_view cookie_header);

class AccountStore {
public:
    // Opens (creating if needed) the accounts tables of the SQLite database at path
    // (the same file as the games; ":memory:" for tests).
    static Result<std::unique_ptr<AccountStore>> open(const std::string& path,
                                                      PasswordCost cost = PasswordCost::interactive());
    virtual ~AccountStore() = default;

    // A new account; errors: a bad username or password, a name that is taken.
    virtual Result<Account> create(std::string_view name, std::string_view password, bool admin,
                                   std::int64_t now_ms) = 0;
    virtual Result<std::optional<Account>> find(std::string_view name) = 0;
    virtual Result<std::vector<Account>> list() = 0;

    // The account for a name and password. Errors say "wrong username or password"
    // for both an unknown name and a wrong password (and take as long), and "account
    // disabled" only after a right password.
    virtual Result<Account> authenticate(std::string_view name, std::string_view password) = 0;

    // A new session for the account: its token (to be sent as the cookie, never stored).
    virtual Result<std::string> start_session(std::int64_t account_id, std::int64_t now_ms) = 0;
    // The account of a session that is valid at now_ms (extending it), or none.
    virtual Result<std::optional<Account>> session_account(std::string_view token, std::int64_t now_ms) = 0;
    virtual Result<bool> end_session(std::string_view token) = 0;
    // "Log out everywhere": ends every session of the account; returns how many.
    virtual Result<int> end_all_sessions(std::int64_t account_id) = 0;

    // The player's own change: the old password must be right; every other session
    // of the account ends (the one given by keep_token stays).
    virtual Result<bool> change_password(std::int64_t account_id, std::string_view old_password,
                                         std::string_view new_password, std::string_view keep_token) = 0;
    // The administrator's reset (`outpost user password NAME`): ends every session.
    virtual Result<bool> reset_password(std::string_view name, std::string_view new_password) = 0;
    // Disabling ends every session and refuses sign-in until enabled again.
    virtual Result<bool> set_disabled(std::string_view name, bool disabled) = 0;
};

}  // namespace outpost::server
