// Outpost — the metrics listener: a small HTTP server of one route.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/edge/metrics_listener.h"

#include <atomic>
#include <memory>

namespace outpost::server {
namespace {

using asio::awaitable;
using asio::use_awaitable;
using namespace std::chrono_literals;

constexpr int MaxConnections = 16;  // a scraper or two, and a person with curl

struct State {
    std::function<std::string()> render;
    std::atomic<int> open{0};
};

awaitable<void> metrics_session(tcp::socket socket, std::shared_ptr<State> state) {
    beast::tcp_stream stream(std::move(socket));
    beast::flat_buffer buffer;
    beast::error_code ec;
    for (;;) {
        stream.expires_after(30s);
        http::request_parser<http::string_body> parser;  // a body is read and ignored
        parser.header_limit(8 * 1024);
        parser.body_limit(4096);
        co_await http::async_read(stream, buffer, parser, asio::redirect_error(use_awaitable, ec));
        if (ec) break;
        const auto& req = parser.get();
        http::response<http::string_body> res{http::status::ok, req.version()};
        res.set(http::field::server, "Outpost");
        const std::string_view target(req.target().data(), req.target().size());
        const std::string_view path = target.substr(0, target.find('?'));
        if (req.method() != http::verb::get && req.method() != http::verb::head) {
            res.result(http::status::method_not_allowed);
            res.set(http::field::allow, "GET, HEAD");
            res.set(http::field::content_type, "text/plain; charset=utf-8");
            res.body() = "use GET\n";
        } else if (path != "/metrics") {
            res.result(http::status::not_found);
            res.set(http::field::content_type, "text/plain; charset=utf-8");
            res.body() = "only /metrics here\n";
        } else {
            res.set(http::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
            res.set(http::field::cache_control, "no-store");
            res.body() = state->render();
        }
        const bool head = req.method() == http::verb::head;
        res.keep_alive(req.keep_alive());
        res.prepare_payload();
        if (head) res.body().clear();
        co_await http::async_write(stream, res, asio::redirect_error(use_awaitable, ec));
        if (ec || !res.keep_alive()) break;
    }
    stream.socket().shutdown(tcp::socket::shutdown_send, ec);
}

awaitable<void> metrics_accept(std::shared_ptr<tcp::acceptor> acceptor, std::shared_ptr<State> state) {
    for (;;) {
        beast::error_code ec;
        tcp::socket socket(asio::make_strand(acceptor->get_executor()));
        co_await acceptor->async_accept(socket, asio::redirect_error(use_awaitable, ec));
        if (ec == asio::error::operation_aborted) co_return;
        if (ec) {
            asio::steady_timer t(acceptor->get_executor(), 50ms);
            co_await t.async_wait(asio::redirect_error(use_awaitable, ec));
            continue;
        }
        if (state->open.load() >= MaxConnections) {
            socket.close(ec);
            continue;
        }
        ++state->open;
        asio::co_spawn(
            socket.get_executor(),
            [](tcp::socket s, std::shared_ptr<State> st) -> awaitable<void> {
                co_await metrics_session(std::move(s), st);
                --st->open;
            }(std::move(socket), state),
            asio::detached);
    }
}

}  // namespace

std::optional<unsigned short> start_metrics_listener(asio::io_context& ioc, const ListenAddress& at,
                                                     std::function<std::string()> render, std::string& why) {
    beast::error_code ec;
    const tcp::endpoint endpoint{asio::ip::make_address(at.host, ec), at.port};
    if (ec) {
        why = "bad metrics address '" + at.host + "'";
        return std::nullopt;
    }
    auto acceptor = std::make_shared<tcp::acceptor>(ioc);
    acceptor->open(endpoint.protocol(), ec);
    if (!ec) acceptor->set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor->bind(endpoint, ec);
    if (!ec) acceptor->listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
        why = "cannot listen for metrics on " + at.host + ":" + std::to_string(at.port) + ": " + ec.message();
        return std::nullopt;
    }
    const unsigned short port = acceptor->local_endpoint().port();
    auto state = std::make_shared<State>();
    state->render = std::move(render);
    asio::co_spawn(ioc, metrics_accept(acceptor, state), asio::detached);
    return port;
}

}  // namespace outpost::server
