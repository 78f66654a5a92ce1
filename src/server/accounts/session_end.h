// Outpost — sessions that end (issue 25): when sessions of an account end (signing out
// everywhere, a password change, an administrator disabling the account or signing it
// out), the connections opened under them are closed at once, not only the cookie.
// The account routes and the admin page say what ended; the network layer
// (edge/account_sockets.h) closes the WebSockets.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace outpost::server {

struct SessionsEnded {
    std::int64_t account_id = 0;  // every connection of this account (0: only `token`'s)
    std::string token;            // only the connections opened under this session ("": all)
    std::string keep_token;       // except those of this session (a password change keeps the caller's)
    std::string reason;           // the close frame's reason, in words (at most 120 bytes)
};

// Closes the connections; returns how many it closed. Unset: nothing to close.
using EndSessions = std::function<int(const SessionsEnded&)>;

// The close code of a connection whose session ended: 4001 (of the range 4000-4999
// that RFC 6455 leaves to applications), so that a page knows not to reconnect as
// the account it was (docs/protocol.md, "Sessions that end").
constexpr std::uint16_t SessionEndedCloseCode = 4001;

}  // namespace outpost::server
