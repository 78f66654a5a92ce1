// Outpost — how `outpost serve` is reached (transport.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/edge/transport.h"

#include <iostream>

namespace outpost::server {

namespace {

// The request's lines of one header, joined as one list.
template <class Name>
std::string joined_header(const http::request<http::string_body>& req, Name name) {
    std::string all;
    for (auto [it, end] = req.equal_range(name); it != end; ++it) {
        if (!all.empty()) all += ", ";
        all.append(it->value().data(), it->value().size());
    }
    return all;
}

// A listening socket on host:port.
Result<tcp::acceptor> listen_on(asio::io_context& ioc, const std::string& host, unsigned short port,
                                const char* option) {
    beast::error_code ec;
    const auto address = asio::ip::make_address(host, ec);
    if (ec) return make_error("--host '" + host + "' is not an IP address: " + ec.message());
    tcp::acceptor acceptor(ioc);
    const tcp::endpoint endpoint{address, port};
    acceptor.open(endpoint.protocol(), ec);
    if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor.bind(endpoint, ec);
    if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
    if (ec)
        return make_error("cannot listen on " + host + ":" + std::to_string(port) + " (" + option + "): " + ec.message());
    return acceptor;
}

}  // namespace

Result<Transport> load_transport(const ServerConfig& config) {
    Transport t;
    auto proxies = TrustedProxies::parse(config.trusted_proxies);
    if (!proxies) return make_error("--trust-proxy " + proxies.error().message);
    t.proxies = std::move(*proxies);
    if (config.tls_cert.empty() != config.tls_key.empty())
        return make_error(std::string("--tls-cert and --tls-key go together: ") +
                          (config.tls_cert.empty() ? "--tls-key" : "--tls-cert") + " is given without the other");
    if (config.http_redirect_port && config.tls_cert.empty())
        return make_error("--http-redirect-port sends browsers to https://, which needs --tls-cert and --tls-key");
    if (!config.tls_cert.empty()) {
        auto tls = TlsCertificate::load(config.tls_cert, config.tls_key);
        if (!tls) return tls.error();
        t.tls = std::move(*tls);
    }
    return t;
}

Result<Listeners> open_listeners(asio::io_context& ioc, const ServerConfig& config) {
    auto main = listen_on(ioc, config.host, config.port, "--port");
    if (!main) return main.error();
    Listeners l{std::move(*main), std::nullopt};
    if (config.http_redirect_port) {
        auto redirect = listen_on(ioc, config.host, *config.http_redirect_port, "--http-redirect-port");
        if (!redirect) return redirect.error();
        l.redirect.emplace(std::move(*redirect));
    }
    return l;
}

void reload_on_hangup(asio::signal_set& hangup, TlsCertificate* tls) {
    hangup.async_wait([&hangup, tls](beast::error_code e, int) {
        if (e) return;
        if (!tls) std::cerr << "outpost serve: SIGHUP: nothing to reload (no --tls-cert)" << std::endl;
        else if (auto r = tls->reload())
            std::cerr << "outpost serve: SIGHUP: new connections get the certificate " << *r << std::endl;
        else std::cerr << "outpost serve: SIGHUP: the certificate in use is kept: " << r.error().message << std::endl;
        reload_on_hangup(hangup, tls);
    });
}

ClientView client_of(const http::request<http::string_body>& req, const std::string& peer,
                     const TrustedProxies& trusted) {
    if (!trusted.trusts(peer)) return {peer, false, false};
    const std::string xff = joined_header(req, "X-Forwarded-For"), proto = joined_header(req, "X-Forwarded-Proto"),
                      forwarded = joined_header(req, http::field::forwarded);
    return real_client(peer, {xff, proto, forwarded}, trusted);
}

}  // namespace outpost::server
