// Outpost — the listener of the public port: each connection it accepts is counted
// against its address and served by an HTTP session (edge/http_session.cpp), which
// becomes a WebSocket session on an upgrade.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "server/edge/session_shared.h"

namespace outpost::server::net {

// Accepts connections until the acceptor is closed; each on a strand of its own.
awaitable<void> listen_http(tcp::acceptor& acceptor, Shared shared);

}  // namespace outpost::server::net
