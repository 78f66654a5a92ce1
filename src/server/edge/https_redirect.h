// Outpost — the plain-HTTP listener of --http-redirect-port: every request is answered
// 308 to the same path on https:// (common/https.h), and the connection closed.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "server/edge/net.h"

#include "server/common/guards.h"

namespace outpost::server {

// Runs until the acceptor is closed. A connection counts against its address's cap
// (`connections`, `cap`; no cap when `connections` is null), like one of the TLS port.
// Every answer names the node (issue 26: X-Outpost-Node, as the TLS port's answers).
asio::awaitable<void> https_redirect_listener(tcp::acceptor acceptor, unsigned short https_port,
                                              ConnectionCounter* connections, int cap, std::string node);

}  // namespace outpost::server
