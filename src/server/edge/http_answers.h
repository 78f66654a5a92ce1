// Outpost — how the edge answers an HTTP request (edge/server.cpp): off the network
// thread (the password pool, the request pool), the answer written with the headers
// every answer carries (the node's name among them, issue 26), and the checks made
// before the router sees a request. Included by edge/server.cpp only.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "server/edge/session_shared.h"

namespace outpost::server::net {

// A request whose answer needs a password hash: handed to the account service's pool,
// and awaited without holding the network thread (other connections go on meanwhile).
inline awaitable<HttpResponse> answer_off_thread(AccountService& service, HttpRequest request) {
    co_return co_await asio::async_initiate<decltype(use_awaitable), void(HttpResponse)>(
        [&service, &request](auto handler) {
            auto shared_handler = std::make_shared<decltype(handler)>(std::move(handler));
            auto deliver = [shared_handler](HttpResponse r) {
                auto ex = asio::get_associated_executor(*shared_handler);
                asio::post(ex, [shared_handler, r = std::move(r)]() mutable { (*shared_handler)(std::move(r)); });
            };
            if (auto refused = service.submit(std::move(request), deliver)) deliver(std::move(*refused));
        },
        use_awaitable);
}


// The answer of a request that needs no password hash (on whatever thread calls it).
inline HttpResponse dispatch(const Shared& shared, const HttpRequest& request) {
    try {
        if (shared.admin && AdminService::handles(request)) return shared.admin->handle(request);
        if (shared.puzzles && PuzzleService::handles(request)) return shared.puzzles->handle(request);
        if (shared.events && EventService::handles(request)) return shared.events->handle(request);
        if (shared.account_service && AccountService::handles(request)) return shared.account_service->handle(request);
        if (shared.simuls && SimulService::handles(request)) return shared.simuls->handle(request);
        return route(request, *shared.hub, *shared.files, shared.analysis);
    } catch (const std::exception& e) {
        return HttpResponse{500, "application/json", error_json({"internal", e.what(), 500}), {}};
    }
}

// Issue 25: the answer of a request, computed on the request pool; the worker leaves
// it in `done` and posts a wake-up to the connection's strand, where the connection
// waits on a timer that the wake-up cancels (no handler of the coroutine crosses
// threads). Not a coroutine itself: GCC 12 miscompiles a lambda passed by value as a
// coroutine's argument (its strings were freed twice).
struct PoolAnswer {
    std::shared_ptr<asio::steady_timer> timer;
    std::shared_ptr<std::optional<HttpResponse>> done = std::make_shared<std::optional<HttpResponse>>();
};
inline bool post_to_pool(WorkPool& pool, const asio::any_io_executor& ex, PoolAnswer& answer,
                  std::function<HttpResponse()> work) {
    answer.timer = std::make_shared<asio::steady_timer>(ex, asio::steady_timer::time_point::max());
    return pool.try_post([ex, timer = answer.timer, done = answer.done, work = std::move(work)] {
        *done = work();
        asio::post(ex, [timer] { timer->cancel(); });
    });
}
// A full queue is answered at once: 503 rate_limited, as the hashing pool's
// (docs/protocol.md, Limits).
inline HttpResponse pool_busy() {
    metrics().limit_refusals.inc("request_pool");
    return HttpResponse{503, "application/json",
                        error_json({"rate_limited", "the server is busy; try again in a few seconds", 503}),
                        {{"Retry-After", "2"}}};
}

inline http::response<http::string_body> to_beast(const HttpResponse& r, unsigned version, bool keep_alive, bool head,
                                           bool tls, const std::string& node) {
    http::response<http::string_body> res{http::status(r.status), version};
    res.set(http::field::server, "Outpost");
    res.set(NodeHeader, node);  // issue 26: which node answered
    res.set(http::field::content_type, r.content_type);
    for (const auto& [k, v] : security_headers()) res.set(k, v);
    if (tls) res.set(http::field::strict_transport_security, StrictTransportSecurity);
    for (const auto& [k, v] : r.headers) res.set(k, v);
    res.keep_alive(keep_alive);
    res.body() = head ? std::string() : r.body;
    res.prepare_payload();
    if (head) res.content_length(r.body.size());
    return res;
}

inline HttpResponse error_response(const ProtocolError& e, std::vector<std::pair<std::string, std::string>> headers = {}) {
    return {e.http_status, "application/json", error_json(e), std::move(headers)};
}

// The answer the edge gives before the router sees a request, if any.
inline std::optional<HttpResponse> edge_check(const http::request<http::string_body>& req, const std::string& ip, Edge& edge) {
    const Millis now = monotonic_now();
    if (edge.limits.enabled) {
        const bool post = req.method() == http::verb::post;
        const bool http_ok = edge.http.allow(ip, now);
        if (!http_ok || (post && !edge.post.allow(ip, now))) {
            metrics().limit_refusals.inc(http_ok ? "http_post" : "http");
            return error_response({"rate_limited", "too many requests from this address; try again in a few seconds", 429},
                                  {{"Retry-After", "5"}});
        }
    }
    // Issue 25: DNS rebinding (guards.h host_allowed).
    if (!host_allowed(sv(req[http::field::host]), edge.host_names))
        return error_response({"forbidden_host",
                               "this server does not answer to the name in the Host header (see --host-name)", 421});
    if (req.method() == http::verb::post && !is_json_content_type(sv(req[http::field::content_type])))
        return error_response({"bad_request", "a POST body must be JSON, sent with Content-Type: application/json", 415});
    if (websocket::is_upgrade(req) &&
        !origin_allowed(sv(req[http::field::origin]), sv(req[http::field::host]), edge.allowed_origins))
        return error_response({"forbidden_origin",
                               "WebSocket connections are accepted only from pages of this server (see --allow-origin)", 403});
    return std::nullopt;
}

// Issue 26: the POST rate of an address counted by every node (the edge's own bucket,
// edge_check, holds it on this node). On the request pool: it asks Redis. Redis away:
// no answer here, the node's own bucket alone.
inline std::optional<HttpResponse> shared_post_refusal(const Edge& edge, const HttpRequest& request) {
    if (!edge.shared || !edge.limits.enabled || request.method != "POST") return std::nullopt;
    auto allowed = edge.shared->take("post", request.client, edge.limits.post_per_second, edge.limits.post_burst);
    if (!allowed || *allowed) return std::nullopt;
    metrics().limit_refusals.inc("http_post");
    return error_response({"rate_limited", "too many requests from this address; try again in a few seconds", 429},
                          {{"Retry-After", "5"}});
}

// Counts a connection of its address for as long as it lives (none: `edge` null).
struct CountedConnection {
    Edge* edge;
    std::string ip;
    CountedConnection(Edge* e, std::string i) : edge(e), ip(std::move(i)) {}
    CountedConnection(const CountedConnection&) = delete;
    CountedConnection& operator=(const CountedConnection&) = delete;
    ~CountedConnection() {
        if (edge) edge->connections.remove(ip);
    }
};

}  // namespace outpost::server::net
