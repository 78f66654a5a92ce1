// Outpost — the accounts' store (SPEC P21): accounts, their password hashes and their
// sessions. An interface, as every store is (docs/architecture.md); SQLite implements
// it in stores/sqlite/sqlite_accounts.cpp. The rules of names, passwords and session
// cookies are the accounts room's (accounts/accounts.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
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

class AccountStore {
public:
    // Opens (creating if needed) the accounts tables of the SQLite database at path
    // (the same file as the games; ":memory:" for tests).
    // `sync_full`: as Storage::open's.
    static Result<std::unique_ptr<AccountStore>> open(const std::string& path,
                                                      PasswordCost cost = PasswordCost::interactive(),
                                                      bool sync_full = false);
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
