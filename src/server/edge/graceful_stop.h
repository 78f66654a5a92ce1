// Outpost — how `outpost serve` stops (issue 27 item 5): on SIGTERM (or SIGINT) it stops
// accepting connections, closes every WebSocket with 1012 ("service restart") after
// the messages already queued for it (pages reconnect), waits for the sessions to
// close, at most `grace`, and stops the network threads. What is queued for the
// database is then written as the hub's writer stops (stores/writer.h): a move was
// acknowledged only once durable (D3), so none is lost. A second signal stops at once.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>

#include "server/edge/account_sockets.h"
#include "server/edge/net.h"

namespace outpost::server {

void stop_on_signals(asio::io_context& ioc, asio::signal_set& signals, tcp::acceptor& acceptor, AccountSockets& sessions,
                     std::chrono::milliseconds grace);

}  // namespace outpost::server
