// Outpost — who is asking (SPEC P21): the one place where the server turns a request's
// session cookie into an account, for HTTP requests and at the WebSocket upgrade.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "server/accounts/accounts.h"

namespace outpost::server {

struct Identity {
    std::optional<Account> account;  // none: anonymous
    std::string token;               // the session's token when it is valid, else ""
};

// The account of the session named by a Cookie header, if the session is valid at
// now_ms (extending it, accounts.h) and its account is not disabled. No store, no
// cookie, a token of the wrong form, an unknown or ended session, a database error:
// anonymous (a broken session never stops anyone from playing anonymously).
Identity identify(AccountStore* store, std::string_view cookie_header, std::int64_t now_ms);

// Whether a request reached the server over HTTPS: `https` when it came over the
// server's own TLS (--tls-cert) or a trusted proxy says so (client_address.h: the
// forwarding headers of anyone else are not believed), or when the page's origin is
// https. A client that lies in its Origin only gets cookies marked Secure, which its
// own browser then keeps off plain HTTP: no gain for it.
bool request_is_secure(bool https, std::string_view origin);

}  // namespace outpost::server
