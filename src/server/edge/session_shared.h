// Outpost — what the network layer's sessions share (edge/server.cpp, ws_session.h):
// the limits and constants of the edge, the services a session reaches, the clocks.
// Included by the network layer's own files only.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "server/edge/net.h"  // first: see net.h

#include <boost/asio/ssl.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include <atomic>
#include <cmath>
#include <chrono>
#include <deque>
#include <iostream>
#include <limits>
#include <optional>
#include <mutex>
#include <random>
#include <unordered_map>

#include "server/admin/admin_service.h"
#include "server/bus/in_process_bus.h"
#include "server/common/client_address.h"
#include "server/common/guards.h"
#include "server/common/https.h"
#include "server/common/shared_limits.h"
#include "server/common/work_pool.h"
#include "server/events/simul_on_bus.h"
#include "server/players/lobby_on_bus.h"
#include "server/players/account_service.h"
#include "server/events/events.h"
#include "server/analysis/analysis_service.h"
#include "server/training/puzzle_import.h"
#include "server/training/puzzle_miner.h"
#include "server/training/puzzle_service.h"
#include "server/play/hub.h"
#include "server/players/lobby.h"
#include "server/accounts/ratings.h"
#include "server/events/simul.h"

#include <nlohmann/json.hpp>
#include "server/accounts/identity.h"
#include "server/common/random.h"
#include "server/play/robot.h"
#include "server/edge/account_sockets.h"
#include "server/edge/domain_pulse.h"
#include "server/edge/game_timers.h"
#include "server/edge/access_log.h"
#include "server/edge/graceful_stop.h"
#include "server/edge/metrics_listener.h"
#include "server/edge/serve_gauges.h"
#include "server/observe/log.h"
#include "server/observe/metrics.h"
#include "server/edge/session_sweep.h"
#include "server/edge/https_redirect.h"
#include "server/edge/tls.h"
#include "server/edge/transport.h"
#include "server/edge/router.h"
#include "server/stores/game_store.h"

namespace outpost::server::net {

using asio::awaitable;
using asio::use_awaitable;
using namespace std::chrono_literals;

constexpr size_t MaxHttpBody = 64 * 1024;
constexpr size_t MaxWsMessage = 4096;
// A message over MaxWsMessage is read in pieces and thrown away, then answered with
// bad_request (docs/protocol.md); one over this is not read at all: the connection
// closes (1009), as reading it would be the flood.
constexpr size_t MaxWsDiscarded = 1 << 20;

using TlsStream = beast::ssl_stream<beast::tcp_stream>;
template <class Stream>
constexpr bool IsTls = std::is_same_v<Stream, TlsStream>;

inline Millis monotonic_now() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
inline std::int64_t wall_now() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// What every session shares: the hub, the web files, and the edge's limits.
// Issue 26: on every answer, the name of the node that gave it (--node).
inline constexpr char NodeHeader[] = "X-Outpost-Node";

struct Edge {
    EdgeLimits limits;
    std::vector<std::string> allowed_origins;
    std::vector<std::string> host_names;  // issue 25: the names of --host-name (guards.h host_allowed)
    int max_connections = 0;              // in all (issue 25)
    RateLimiter http{limits.http_per_second, limits.http_burst};
    RateLimiter post{limits.post_per_second, limits.post_burst};
    MessageLimiter ws{limits};  // issue 25: per connection, per account, a ceiling per address
    ConnectionCounter connections;
    TrustedProxies trusted;  // --trust-proxy: whose forwarding headers are believed
    std::string node = "local";  // issue 26: this node's name, on every answer (NodeHeader)
    SharedLimits* shared = nullptr;  // issue 26: the limits every node counts (null: one node alone)
    Edge(EdgeLimits l, std::vector<std::string> origins, TrustedProxies proxies)
        : limits(l), allowed_origins(std::move(origins)), http(l.http_per_second, l.http_burst),
          post(l.post_per_second, l.post_burst), ws(l), trusted(std::move(proxies)) {}
};

struct Shared {
    Hub* hub;
    Bus* bus;  // the WebSocket sessions' way to the hub, the lobby and the simuls
    const StaticFiles* files;
    AnalysisService* analysis;
    Edge* edge;
    AccountStore* accounts;  // P21: sessions and accounts (never null in `outpost serve`)
    AccountService* account_service;  // P21: the account routes and their hashing pool
    Lobby* lobby = nullptr;
    EventService* events = nullptr;  // issue 13: /api/v1/events
    SimulService* simuls = nullptr;  // P18
    AccountSockets* sockets = nullptr;  // issue 25: the WebSockets, closed when their session ends
    AdminService* admin = nullptr;      // SPEC D9: /api/v1/admin, /api/v1/reports
    TlsCertificate* tls = nullptr;   // --tls-cert: every connection speaks TLS
    PuzzleService* puzzles = nullptr;   // issue 29: /api/v1/puzzles, /api/v1/games/ID/mistakes
    // Issue 25: nothing slow on the network threads. The API's routes run on `work`
    // (bounded, sized from the machine); the lobby's and simuls' WebSocket messages on
    // `domains` (one thread: in the order they came).
    WorkPool* work = nullptr;
    WorkPool* domains = nullptr;
};

// C5: the lag the server measured on a connection, from its own WebSocket pings: half
// the round trip, smoothed over the last samples, never more than MaxMeasuredLag (the
// hub caps the credit at its own max_lag_credit_ms too, and the clock's quota bounds
// what a player can collect over many moves).
constexpr Millis PingEveryMs = 5000;
constexpr Millis MaxMeasuredLag = 300;

inline std::string_view sv(beast::string_view s) { return {s.data(), s.size()}; }

// The account of a request's session cookie (identity.h): the one call for HTTP
// requests and WebSocket upgrades alike.
inline Identity identify_request(const http::request<http::string_body>& req, const Shared& shared) {
    return identify(shared.accounts, sv(req[http::field::cookie]), wall_now());
}

}  // namespace outpost::server::net
