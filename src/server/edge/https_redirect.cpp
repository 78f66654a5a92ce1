// Outpost — the plain-HTTP listener of --http-redirect-port (https_redirect.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/edge/https_redirect.h"

#include <chrono>
#include <memory>
#include <string>

#include "server/common/client_address.h"
#include "server/common/https.h"

namespace outpost::server {

namespace {

using namespace std::chrono_literals;

asio::awaitable<void> redirect_one(tcp::socket socket, unsigned short https_port, ConnectionCounter* connections,
                                   std::string ip, std::shared_ptr<const std::string> node) {
    struct Uncount {
        ConnectionCounter* connections;
        std::string ip;
        ~Uncount() {
            if (connections) connections->remove(ip);
        }
    } uncount{connections, ip};
    beast::tcp_stream stream(std::move(socket));
    beast::flat_buffer buffer;
    beast::error_code ec;
    stream.expires_after(10s);
    http::request_parser<http::empty_body> parser;
    parser.header_limit(8 * 1024);
    co_await http::async_read_header(stream, buffer, parser, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) co_return;
    const auto& req = parser.get();
    const auto location = https_location({req[http::field::host].data(), req[http::field::host].size()},
                                         {req.target().data(), req.target().size()}, https_port);
    http::response<http::string_body> res{location ? http::status::permanent_redirect : http::status::bad_request,
                                          req.version()};
    res.set(http::field::server, "Outpost");
    for (const auto& [k, v] : security_headers()) res.set(k, v);
    res.set("X-Outpost-Node", *node);  // session_shared.h's NodeHeader
    res.set(http::field::content_type, "text/plain; charset=utf-8");
    if (location) {
        res.set(http::field::location, *location);
        res.body() = "This server answers on " + *location + "\n";
    } else {
        res.body() = "This server answers on https:// only; this request has no Host header to send it there.\n";
    }
    res.keep_alive(false);
    res.prepare_payload();
    co_await http::async_write(stream, res, asio::redirect_error(asio::use_awaitable, ec));
    stream.socket().shutdown(tcp::socket::shutdown_send, ec);
}

}  // namespace

asio::awaitable<void> https_redirect_listener(tcp::acceptor acceptor, unsigned short https_port,
                                              ConnectionCounter* connections, int cap, std::string node) {
    const auto name = std::make_shared<const std::string>(std::move(node));
    for (;;) {
        beast::error_code ec;
        tcp::socket socket(asio::make_strand(acceptor.get_executor()));
        co_await acceptor.async_accept(socket, asio::redirect_error(asio::use_awaitable, ec));
        if (ec) {
            if (ec == asio::error::operation_aborted) co_return;
            asio::steady_timer t(acceptor.get_executor(), 50ms);  // out of descriptors: wait a little
            co_await t.async_wait(asio::redirect_error(asio::use_awaitable, ec));
            continue;
        }
        const auto peer = socket.remote_endpoint(ec);
        if (ec) continue;
        std::string ip = canonical_ip(peer.address().to_string());
        if (connections && !connections->try_add(ip, cap)) {
            socket.close(ec);
            continue;
        }
        auto ex = socket.get_executor();
        asio::co_spawn(ex, redirect_one(std::move(socket), https_port, connections, std::move(ip), name), asio::detached);
    }
}

}  // namespace outpost::server
