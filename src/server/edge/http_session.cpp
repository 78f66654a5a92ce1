// Outpost — the connections of the public port (the Beast layout of STYLE.md 7): the
// listener, an HTTP session per connection, a WebSocket session after an upgrade. Each
// connection lives on its own strand with a single-writer queue; timeouts and size
// limits everywhere. Nothing here knows the rules: the router and the hub do. The
// sessions are templates over the stream: plain TCP, or TLS (--tls-cert, edge/tls.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/edge/http_session.h"

#include "server/edge/http_answers.h"
#include "server/edge/http_forward.h"
#include "server/edge/ws_session.h"

namespace outpost::server::net {
namespace {

// `peer`: the canonical address of the connection's other end (client_address.h).
template <class Stream>
awaitable<void> http_session(Stream stream, Shared shared, std::string peer) {
    constexpr bool tls = IsTls<Stream>;
    // A trusted proxy's connection is not counted by the listener: its clients are (a
    // WebSocket through it counts as one of its client's connections).
    const bool behind_proxy = shared.edge->trusted.trusts(peer);
    beast::flat_buffer buffer;
    beast::error_code ec;
    for (;;) {
        beast::get_lowest_layer(stream).expires_after(60s);
        http::request_parser<http::string_body> parser;
        parser.body_limit(MaxHttpBody);
        parser.header_limit(16 * 1024);
        co_await http::async_read(stream, buffer, parser, asio::redirect_error(use_awaitable, ec));
        if (ec == http::error::body_limit) {
            auto res = to_beast({413, "application/json", error_json({"bad_request", "request body too large (the limit is 64 KiB)", 413}), {}}, 11, false, false, tls, shared.edge->node);
            co_await http::async_write(stream, res, asio::redirect_error(use_awaitable, ec));
            break;
        }
        if (ec) break;
        http::request<http::string_body> req = parser.release();
        const auto started = std::chrono::steady_clock::now();
        const std::string request_id = next_request_id();
        const ClientView client = client_of(req, peer, shared.edge->trusted);
        const std::string& ip = client.address;  // the key of every per-address limit
        std::optional<CountedConnection> counted;
        std::optional<HttpResponse> refused = edge_check(req, ip, *shared.edge);
        if (!refused && behind_proxy && websocket::is_upgrade(req)) {
            const int cap = shared.edge->limits.enabled ? shared.edge->limits.connections_per_ip : std::numeric_limits<int>::max();
            if (shared.edge->connections.try_add(ip, cap, shared.edge->max_connections)) counted.emplace(shared.edge, ip);
            else refused = error_response({"rate_limited", "too many connections from this address", 429});
        }
        if (refused) {
            auto res = to_beast(*refused, req.version(), req.keep_alive(), req.method() == http::verb::head, tls, shared.edge->node);
            log_access("http", request_id, ip, sv(req.method_string()), sv(req.target()), refused->status, started);
            co_await http::async_write(stream, res, asio::redirect_error(use_awaitable, ec));
            if (ec || !res.keep_alive() || websocket::is_upgrade(req)) break;
            continue;
        }
        if (websocket::is_upgrade(req)) {
            auto ws = std::make_shared<WsSession<Stream>>(websocket::stream<Stream>(std::move(stream)), ip,
                                                          identify_request(req, shared));
            co_await ws->run(std::move(req), shared, request_id);
            co_return;
        }
        HttpRequest request{std::string(req.method_string()), std::string(req.target()), req.body(), ip};
        request.cookie = std::string(sv(req[http::field::cookie]));
        request.origin = std::string(sv(req[http::field::origin]));
        request.host = std::string(sv(req[http::field::host]));
        request.content_type = std::string(sv(req[http::field::content_type]));
        request.accept_encoding = std::string(sv(req[http::field::accept_encoding]));
        request.if_none_match = std::string(sv(req[http::field::if_none_match]));
        request.secure = request_is_secure(tls || client.https, request.origin);
        // The session of the cookie (a read of the account store) with the answer.
        auto identified = [&shared](HttpRequest& q) {
            Identity who = identify(shared.accounts, q.cookie, wall_now());
            q.account = std::move(who.account);
            q.session_token = std::move(who.token);
        };
        HttpResponse r;
        if (shared.account_service && AccountService::handles(request) && AccountService::hashes(request)) {
            identified(request);
            r = co_await answer_off_thread(*shared.account_service, std::move(request));
        } else if (shared.work && request.target.rfind("/api/", 0) == 0) {
            // Issue 25: every route of the API may read or write the database, pair a
            // round or parse a PGN: it runs on the request pool, not here.
            PoolAnswer answer;
            std::function<HttpResponse()> work = [shared, identified, request = std::move(request)]() mutable {
                if (auto shared_refusal = shared_post_refusal(*shared.edge, request)) return std::move(*shared_refusal);
                identified(request);
                return answer_here_or_forward(shared, request);  // issue 26: the domains node's routes
            };
            if (!post_to_pool(*shared.work, co_await asio::this_coro::executor, answer, std::move(work))) {
                r = pool_busy();
            } else {
                co_await answer.timer->async_wait(asio::redirect_error(use_awaitable, ec));
                r = *answer.done ? std::move(**answer.done)
                                 : HttpResponse{500, "application/json", error_json({"internal", "no answer", 500}), {}};
            }
        } else {
            identified(request);
            r = dispatch(shared, request);
        }
        auto res = to_beast(r, req.version(), req.keep_alive(), req.method() == http::verb::head, tls, shared.edge->node);
        // The read's 60 s ran from before the request: an answer that took longer (a big
        // round paired on a loaded machine) would find it spent and never be written.
        beast::get_lowest_layer(stream).expires_after(60s);
        co_await http::async_write(stream, res, asio::redirect_error(use_awaitable, ec));
        metrics().http_requests.inc();
        log_access("http", request_id, ip, sv(req.method_string()), sv(req.target()), r.status, started);
        if (ec || !res.keep_alive()) break;
    }
    if constexpr (tls) {
        beast::get_lowest_layer(stream).expires_after(5s);
        co_await stream.async_shutdown(asio::redirect_error(use_awaitable, ec));
    } else {
        stream.socket().shutdown(tcp::socket::shutdown_send, ec);
    }
}

// A connection's session, counted against its address (`counted`) while it lives;
// with --tls-cert, after the TLS handshake, with the certificate current now.
awaitable<void> counted_session(tcp::socket socket, Shared shared, std::string ip, bool counted) {
    CountedConnection counting(counted ? shared.edge : nullptr, ip);
    metrics().connections.add(1);
    struct Uncount {
        ~Uncount() { metrics().connections.add(-1); }
    } uncount;
    if (!shared.tls) {
        co_await http_session(beast::tcp_stream(std::move(socket)), shared, std::move(ip));
        co_return;
    }
    const std::shared_ptr<asio::ssl::context> context = shared.tls->current();  // kept while the stream lives
    TlsStream stream(beast::tcp_stream(std::move(socket)), *context);
    beast::error_code ec;
    beast::get_lowest_layer(stream).expires_after(30s);
    co_await stream.async_handshake(asio::ssl::stream_base::server, asio::redirect_error(use_awaitable, ec));
    if (ec) co_return;  // not TLS (plain HTTP on the HTTPS port), or given up
    co_await http_session(std::move(stream), shared, std::move(ip));
}

}  // namespace

awaitable<void> listen_http(tcp::acceptor& acceptor, Shared shared) {
    for (;;) {
        beast::error_code ec;
        tcp::socket socket(asio::make_strand(acceptor.get_executor()));
        co_await acceptor.async_accept(socket, asio::redirect_error(use_awaitable, ec));
        if (ec) {
            if (ec == asio::error::operation_aborted) co_return;
            // Out of file descriptors and the like: wait a little and go on.
            asio::steady_timer t(acceptor.get_executor(), 50ms);
            co_await t.async_wait(asio::redirect_error(use_awaitable, ec));
            continue;
        }
        const auto peer = socket.remote_endpoint(ec);
        if (ec) continue;
        std::string ip = canonical_ip(peer.address().to_string());
        // A cap on the connections of one address (its /64 for IPv6), and on all of
        // them (issue 25): over either, the new one is closed at once. A trusted
        // proxy's are not capped here (http_session counts its clients').
        const bool counted = !shared.edge->trusted.trusts(ip);
        const int per_ip = shared.edge->limits.enabled ? shared.edge->limits.connections_per_ip : std::numeric_limits<int>::max();
        if (counted && !shared.edge->connections.try_add(ip, per_ip, shared.edge->max_connections)) {
            metrics().limit_refusals.inc("connections");
            socket.close(ec);
            continue;
        }
        // Moves are small messages that must leave at once (no Nagle delay).
        socket.set_option(tcp::no_delay(true), ec);
        auto ex = socket.get_executor();
        asio::co_spawn(ex, counted_session(std::move(socket), shared, std::move(ip), counted), asio::detached);
    }
}


}  // namespace outpost::server::net
