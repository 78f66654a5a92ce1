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
// The accounts' store is an interface (stores/account_store.h), implemented for
// SQLite in stores/sqlite/sqlite_accounts.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chess/result.h"
#include "server/stores/account_store.h"

namespace outpost::server {

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

// The sign-in rule of every account store (AccountStore::authenticate; SQLite and
// PostgreSQL alike): `found` is the account a name has, with its password hash (none:
// no such name). An unknown name is "wrong username or password" after as long as a
// wrong password takes (a hash of the same cost is checked), so the time does not tell
// which names exist; "account disabled" only after the right password.
class SignInCheck {
public:
    explicit SignInCheck(PasswordCost cost) : cost_(cost) {}
    Result<Account> check(const std::optional<std::pair<Account, std::string>>& found, std::string_view password);

private:
    const std::string& dummy_hash();
    PasswordCost cost_;
    std::once_flag dummy_once_;
    std::string dummy_;
};

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

}  // namespace outpost::server
