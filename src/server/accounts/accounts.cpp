// Outpost — accounts: names, passwords, hashes and the session cookie (accounts.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/accounts/accounts.h"

#include <sodium.h>

#include <array>
#include <cctype>

namespace outpost::server {
namespace {

bool sodium_ready() {
    static const bool ready = sodium_init() >= 0;
    return ready;
}

bool is_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

constexpr std::array<std::string_view, 8> ReservedNames = {"anonymous", "robot",  "outpost", "admin",
                                                            "administrator", "system", "arbiter", "guest"};

}  // namespace

PasswordCost PasswordCost::interactive() {
    return {crypto_pwhash_OPSLIMIT_INTERACTIVE, crypto_pwhash_MEMLIMIT_INTERACTIVE};
}
PasswordCost PasswordCost::cheapest() { return {crypto_pwhash_OPSLIMIT_MIN, crypto_pwhash_MEMLIMIT_MIN}; }

std::string username_key(std::string_view name) {
    std::string key(name);
    for (char& c : key) c = char(std::tolower(static_cast<unsigned char>(c)));
    return key;
}

Result<bool> check_username(std::string_view name) {
    if (name.size() < 3) return make_error("a username has at least 3 characters");
    if (name.size() > 20) return make_error("a username has at most 20 characters");
    for (size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (is_alnum(c)) continue;
        if (c != '_' && c != '-')
            return make_error("character " + std::to_string(i + 1) +
                              " of the username: only letters A-Z, digits, '_' and '-' are allowed");
        if (i == 0 || i + 1 == name.size()) return make_error("a username begins and ends with a letter or digit");
        if (!is_alnum(name[i - 1])) return make_error("a username has no two of '_' and '-' in a row");
    }
    const std::string key = username_key(name);
    for (std::string_view reserved : ReservedNames)
        if (key == reserved) return make_error("the username '" + std::string(name) + "' is reserved");
    return true;
}

Result<bool> check_password(std::string_view password, std::string_view name) {
    if (password.size() < 8) return make_error("a password has at least 8 characters");
    if (password.size() > 1024) return make_error("a password has at most 1024 bytes");
    if (!name.empty() && username_key(password) == username_key(name))
        return make_error("the password must not be the username");
    return true;
}

Result<std::string> hash_password(std::string_view password, const PasswordCost& cost) {
    if (!sodium_ready()) return make_error("the cryptography library (libsodium) failed to start");
    char out[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str(out, password.data(), password.size(), cost.ops, cost.memory) != 0)
        return make_error("out of memory while hashing a password");
    return std::string(out);
}

bool verify_password(const std::string& hash, std::string_view password) {
    if (!sodium_ready() || hash.empty() || hash.size() >= crypto_pwhash_STRBYTES) return false;
    char str[crypto_pwhash_STRBYTES] = {};
    hash.copy(str, hash.size());
    return crypto_pwhash_str_verify(str, password.data(), password.size()) == 0;
}

std::string session_cookie(const std::string& token, bool secure) {
    return std::string(SessionCookieName) + "=" + token + "; Path=/; Max-Age=" +
           std::to_string(SessionLifetimeMs / 1000) + "; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "");
}

std::string expired_session_cookie(bool secure) {
    return std::string(SessionCookieName) + "=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "");
}

std::optional<std::string> session_token_from_cookies(std::string_view header) {
    // Cookie: a=1; outpost_session=TOKEN; b=2
    size_t pos = 0;
    while (pos < header.size()) {
        size_t end = header.find(';', pos);
        if (end == std::string_view::npos) end = header.size();
        std::string_view pair = header.substr(pos, end - pos);
        while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
        while (!pair.empty() && pair.back() == ' ') pair.remove_suffix(1);
        const size_t eq = pair.find('=');
        if (eq != std::string_view::npos && pair.substr(0, eq) == SessionCookieName) {
            std::string_view value = pair.substr(eq + 1);
            if (value.size() != size_t(SessionTokenLength)) return std::nullopt;
            for (char c : value)
                if (!is_alnum(c)) return std::nullopt;
            return std::string(value);
        }
        pos = end + 1;
    }
    return std::nullopt;
}

Result<Account> SignInCheck::check(const std::optional<std::pair<Account, std::string>>& found,
                                   std::string_view password) {
    if (!found) {
        (void)verify_password(dummy_hash(), password);
        return make_error("wrong username or password");
    }
    if (!verify_password(found->second, password)) return make_error("wrong username or password");
    if (found->first.disabled) return make_error("account disabled");
    return found->first;
}

const std::string& SignInCheck::dummy_hash() {
    std::call_once(dummy_once_, [this] {
        auto h = hash_password("not a password of anyone", cost_);
        dummy_ = h ? *h : std::string();
    });
    return dummy_;
}

}  // namespace outpost::server
