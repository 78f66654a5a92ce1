// Outpost — who is asking (identity.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/accounts/identity.h"

#include <algorithm>
#include <cctype>

namespace outpost::server {

Identity identify(AccountStore* store, std::string_view cookie_header, std::int64_t now_ms) {
    Identity who;
    if (!store || cookie_header.empty()) return who;
    auto token = session_token_from_cookies(cookie_header);
    if (!token) return who;
    auto account = store->session_account(*token, now_ms);
    if (!account || !account->has_value()) return who;
    who.account = std::move(**account);
    who.token = std::move(*token);
    return who;
}

namespace {
std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}
}  // namespace

bool request_is_secure(bool https, std::string_view origin) {
    return https || lower(origin.substr(0, 8)) == "https://";
}

}  // namespace outpost::server
