// Outpost — how `outpost serve` is reached (issue 27, "TLS and proxies"): its
// listening sockets, its own TLS (edge/tls.h) and its reload on SIGHUP, and the
// client of a request that came through a trusted proxy (common/client_address.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "server/edge/net.h"

#include <memory>
#include <optional>
#include <string>

#include "chess/result.h"
#include "server/common/client_address.h"
#include "server/edge/server.h"
#include "server/edge/tls.h"

namespace outpost::server {

// What a connection speaks (--tls-cert, --tls-key, --http-redirect-port) and whom
// forwarding headers are believed from (--trust-proxy).
struct Transport {
    std::shared_ptr<TlsCertificate> tls;  // none: plain HTTP
    TrustedProxies proxies;
};

// Checked before anything starts; refused in one line naming the option, the file and
// what is wrong with it.
Result<Transport> load_transport(const ServerConfig& config);

// The listening sockets of --host and --port, and of --http-redirect-port if given;
// refused in words naming the option ("cannot listen on 127.0.0.1:8080 (--port):
// Address already in use").
struct Listeners {
    tcp::acceptor main;
    std::optional<tcp::acceptor> redirect;
};
Result<Listeners> open_listeners(asio::io_context& ioc, const ServerConfig& config);

// On every SIGHUP of `hangup`: the certificate read again; a bad one leaves the one in
// use, and a line on standard error says which happened.
void reload_on_hangup(asio::signal_set& hangup, TlsCertificate* tls);

// The client of a request that came from `peer` (canonical_ip): the peer, or when it
// is a trusted proxy, the client its forwarding headers name.
ClientView client_of(const http::request<http::string_body>& req, const std::string& peer,
                     const TrustedProxies& trusted);

}  // namespace outpost::server
