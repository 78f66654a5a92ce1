// Outpost — the network layer (the Beast layout of STYLE.md 7): a listener, an HTTP
// session per connection, a WebSocket session after an upgrade. Each connection
// lives on its own strand with a single-writer queue; timeouts and size limits
// everywhere. Nothing here knows the rules: the router and the hub do.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/edge/server.h"

#include "server/edge/net.h"  // first: see net.h

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
#include "server/common/guards.h"
#include "server/events/simul_on_bus.h"
#include "server/players/lobby_on_bus.h"
#include "server/players/account_service.h"
#include "server/events/events.h"
#include "server/analysis/analysis_service.h"
#include "server/play/hub.h"
#include "server/players/lobby.h"
#include "server/accounts/ratings.h"
#include "server/events/simul.h"

#include <nlohmann/json.hpp>
#include "server/accounts/identity.h"
#include "server/common/random.h"
#include "server/play/robot.h"
#include "server/edge/account_sockets.h"
#include "server/edge/game_timers.h"
#include "server/edge/access_log.h"
#include "server/edge/graceful_stop.h"
#include "server/edge/metrics_listener.h"
#include "server/edge/serve_gauges.h"
#include "server/observe/log.h"
#include "server/observe/metrics.h"
#include "server/edge/session_sweep.h"
#include "server/edge/router.h"
#include "server/stores/game_store.h"

namespace outpost::server {
namespace {

using asio::awaitable;
using asio::use_awaitable;
using namespace std::chrono_literals;

constexpr size_t MaxHttpBody = 64 * 1024;
constexpr size_t MaxWsMessage = 4096;
// A message over MaxWsMessage is read in pieces and thrown away, then answered with
// bad_request (docs/protocol.md); one over this is not read at all: the connection
// closes (1009), as reading it would be the flood.
constexpr size_t MaxWsDiscarded = 1 << 20;

Millis monotonic_now() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
std::int64_t wall_now() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// What every session shares: the hub, the web files, and the edge's limits.
struct Edge {
    EdgeLimits limits;
    std::vector<std::string> allowed_origins;
    std::vector<std::string> host_names;  // issue 25: the names of --host-name (guards.h host_allowed)
    int max_connections = 0;              // in all (issue 25)
    RateLimiter http{limits.http_per_second, limits.http_burst};
    RateLimiter post{limits.post_per_second, limits.post_burst};
    RateLimiter ws{limits.ws_per_second, limits.ws_burst};
    ConnectionCounter connections;
    Edge(EdgeLimits l, std::vector<std::string> origins)
        : limits(l), allowed_origins(std::move(origins)), http(l.http_per_second, l.http_burst),
          post(l.post_per_second, l.post_burst), ws(l.ws_per_second, l.ws_burst) {}
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
};

// A request whose answer needs a password hash: handed to the account service's pool,
// and awaited without holding the network thread (other connections go on meanwhile).
awaitable<HttpResponse> answer_off_thread(AccountService& service, HttpRequest request) {
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


// C5: the lag the server measured on a connection, from its own WebSocket pings: half
// the round trip, smoothed over the last samples, never more than MaxMeasuredLag (the
// hub caps the credit at its own max_lag_credit_ms too, and the clock's quota bounds
// what a player can collect over many moves).
constexpr Millis PingEveryMs = 5000;
constexpr Millis MaxMeasuredLag = 300;

std::string_view sv(beast::string_view s) { return {s.data(), s.size()}; }

// The account of a request's session cookie (identity.h): the one call for HTTP
// requests and WebSocket upgrades alike.
Identity identify_request(const http::request<http::string_body>& req, const Shared& shared) {
    return identify(shared.accounts, sv(req[http::field::cookie]), wall_now());
}

// A WebSocket connection following one game.
class WsSession : public Subscriber, public AccountSockets::Closable, public std::enable_shared_from_this<WsSession> {
public:
    WsSession(websocket::stream<beast::tcp_stream> ws, std::string ip, Identity who)
        : ws_(std::move(ws)), ip_(std::move(ip)), account_(std::move(who.account)), token_(std::move(who.token)) {}

    // Issue 25: the session this connection was opened under has ended: it closes at
    // once (SessionEndedCloseCode, with the reason), and reads nothing more.
    void end_session(const std::string& reason) override {
        asio::post(ws_.get_executor(), [self = shared_from_this(), reason] {
            if (self->closed_ || self->ending_) return;
            self->ending_ = self->closing_ = true;
            self->close_code_ = websocket::close_code(SessionEndedCloseCode);
            self->close_reason_ = reason.substr(0, 120);
            if (!self->accepted_) return;  // run() closes it once the handshake is done
            // What was waiting to be sent is no longer for this session; a write under
            // way finishes, then the close frame goes (write_next).
            while (self->queue_.size() > 1) {
                self->queued_bytes_ -= self->queue_.back()->size();
                self->queue_.pop_back();
            }
            if (self->queue_.empty()) self->send_close();
        });
    }

    std::int64_t account_id() const override { return account_ ? account_->id : 0; }

    void deliver(std::shared_ptr<const std::string> message) override {
        asio::post(ws_.get_executor(), [self = shared_from_this(), message] {
            if (self->closed_ || self->ending_) return;
            // A client that reads nothing must not grow the queue without bound: the
            // bound is in bytes (a few full states of long games), not in messages.
            if (self->queued_bytes_ + message->size() > self->limits_.send_queue_bytes) {
                metrics().limit_refusals.inc("send_queue");
                self->close_now();
                return;
            }
            self->queued_bytes_ += message->size();
            self->queue_.push_back(message);
            if (self->queue_.size() == 1) self->write_next();
        });
    }

    // SIGTERM (graceful_stop.h): what is queued goes out, then a close frame with 1012.
    void close_for_restart() override {
        asio::post(ws_.get_executor(), [self = shared_from_this()] {
            if (self->closed_ || self->closing_) return;
            self->closing_ = true;
            self->close_code_ = websocket::close_code::service_restart;
            self->close_reason_ = "service restart";
            if (!self->accepted_) return;  // run() closes it once the handshake is done
            if (self->queue_.empty()) self->send_close();
        });
    }

    awaitable<void> run(http::request<http::string_body> req, Shared shared, const std::string& request_id) {
        WsSessionLog log_at_end{request_id, ip_, std::string(req.target()), std::chrono::steady_clock::now()};
        limits_ = shared.edge->limits;
        const auto [path, query] = split_target(std::string(req.target()));
        const auto& q = query;
        const auto param = [&q](const char* name) { return q.count(name) ? q.at(name) : std::string(); };
        beast::get_lowest_layer(ws_).expires_never();
        ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
        ws_.read_message_max(MaxWsDiscarded);
        // Pongs to the server's pings measure the connection's round trip (C5).
        ws_.control_callback([this](websocket::frame_type kind, beast::string_view payload) {
            if (kind != websocket::frame_type::pong || !ping_sent_at_ || sv(payload) != std::to_string(ping_counter_)) return;
            const Millis half_rtt = std::min(MaxMeasuredLag, std::max<Millis>(0, (monotonic_now() - *ping_sent_at_) / 2));
            measured_lag_ = samples_++ == 0 ? half_rtt : (measured_lag_ + half_rtt) / 2;
            ping_sent_at_.reset();
        });
        // /api/v1/lobby: a member of the lobby (P22); /api/v1/simul: a simul's changes
        // (P18); any other path: a game's. The connection talks to its address on the
        // bus, never to the room that owns it.
        const bool lobby = path == "/api/v1/lobby" && shared.lobby;
        const bool simul = path == "/api/v1/simul" && shared.simuls;
        // Issue 25: known by its session from the start (no wait since the cookie was
        // read), so that a session ending during the handshake closes it too.
        struct Registered {
            AccountSockets* sockets;
            const void* key;
            ~Registered() {
                if (sockets) sockets->remove(key);
            }
        } registered{shared.sockets, this};
        if (shared.sockets)
            shared.sockets->add(this, AccountSockets::Entry{weak_from_this(), account_ ? account_->id : 0,
                                                             account_ ? account_->name : "", token_,
                                                             lobby ? "lobby" : simul ? "simul" : "game"});
        beast::error_code ec;
        co_await ws_.async_accept(req, asio::redirect_error(use_awaitable, ec));
        if (ec) co_return;
        accepted_ = true;
        log_at_end.status = 101;
        if (ending_ || closing_) {
            closed_ = true;
            co_await ws_.async_close(websocket::close_reason(close_code_, close_reason_), asio::redirect_error(use_awaitable, ec));
            co_return;
        }
        const Address address = lobby ? Address::lobby() : simul ? Address::simul(param("id")) : Address::game(param("game"));
        const std::string token = param(simul ? "key" : "seat");
        auto joined = shared.bus->join(address, shared_from_this(), Credentials{token, account_ ? &*account_ : nullptr, ip_});
        if (!joined) {
            std::string text = error_json(joined.error());
            co_await ws_.async_write(asio::buffer(text), asio::redirect_error(use_awaitable, ec));
            co_await ws_.async_close(websocket::close_code::policy_error, asio::redirect_error(use_awaitable, ec));
            co_return;
        }
        asio::co_spawn(ws_.get_executor(), pinger(shared_from_this()), asio::detached);
        std::string text;
        int rejected = 0;
        for (;;) {
            const bool too_big = co_await read_message(text, ec);
            if (ec == websocket::error::message_too_big) {
                deliver(std::make_shared<const std::string>(error_json({"bad_request", "message too large (the limit is 4096 bytes)"})));
                break;  // Beast closes a stream whose message was too big
            }
            if (ec || closed_ || ending_) break;
            if (limits_.enabled && !shared.edge->ws.allow(ip_, monotonic_now())) {
                metrics().limit_refusals.inc("ws_messages");
                // A flood: answered while it lasts, then the connection is closed.
                if (++rejected >= limits_.ws_rejected_before_close) {
                    // The answers queued so far go out first, then the close frame.
                    closing_ = true;
                    deliver(std::make_shared<const std::string>(
                        error_json({"rate_limited", "too many messages: the connection is closed", 429})));
                    close_code_ = websocket::close_code::policy_error;
                    close_reason_ = "rate limited";
                    break;
                }
                deliver(std::make_shared<const std::string>(error_json({"rate_limited", "too many messages; slow down", 429})));
                continue;
            }
            rejected = 0;
            if (too_big) {  // issue 25: answered as the protocol says; the connection goes on
                deliver(std::make_shared<const std::string>(
                    error_json({"bad_request", "message too large (the limit is 4096 bytes); it was not read"})));
                continue;
            }
            if (!ws_.got_text()) {
                deliver(std::make_shared<const std::string>(error_json({"bad_request", "send JSON text messages"})));
                continue;
            }
            shared.bus->send(address, *this, text, measured_lag_);
        }
        if (!closing_) closed_ = true;
        ping_timer_.cancel();
        shared.bus->leave(address, this);
    }

private:
    // One message into `text`, read in pieces of at most MaxWsMessage bytes so that a
    // longer one is thrown away as it comes (true: it was too big; `text` is empty).
    awaitable<bool> read_message(std::string& text, beast::error_code& ec) {
        text.clear();
        bool too_big = false;
        beast::flat_buffer piece;
        do {
            piece.clear();
            co_await ws_.async_read_some(piece, MaxWsMessage, asio::redirect_error(use_awaitable, ec));
            if (ec) co_return false;
            const auto data = piece.data();
            if (!too_big && text.size() + data.size() <= MaxWsMessage) {
                text.append(static_cast<const char*>(data.data()), data.size());
            } else if (!too_big) {
                too_big = true;
                text.clear();
                text.shrink_to_fit();
            }
        } while (!ws_.is_message_done());
        co_return too_big;
    }

    // Pings every PingEveryMs (the first at once), one at a time.
    static awaitable<void> pinger(std::shared_ptr<WsSession> self) {
        beast::error_code ec;
        while (!self->closed_ && !self->closing_) {
            if (!self->ping_sent_at_) {
                self->ping_sent_at_ = monotonic_now();
                const std::string payload = std::to_string(++self->ping_counter_);
                co_await self->ws_.async_ping(websocket::ping_data(payload.c_str()), asio::redirect_error(use_awaitable, ec));
                if (ec) co_return;
            }
            self->ping_timer_.expires_after(std::chrono::milliseconds(PingEveryMs));
            co_await self->ping_timer_.async_wait(asio::redirect_error(use_awaitable, ec));
        }
    }

    void close_now() {
        closed_ = true;
        queue_.clear();
        queued_bytes_ = 0;
        ping_timer_.cancel();
        beast::error_code ec;
        beast::get_lowest_layer(ws_).socket().close(ec);
    }

    void write_next() {
        ws_.text(true);
        ws_.async_write(asio::buffer(*queue_.front()), [self = shared_from_this()](beast::error_code ec, size_t) {
            if (self->queue_.empty()) return;  // closed meanwhile
            self->queued_bytes_ -= self->queue_.front()->size();
            self->queue_.pop_front();
            if (ec) {
                self->closed_ = true;
                self->queue_.clear();
                self->queued_bytes_ = 0;
                return;
            }
            if (!self->queue_.empty()) self->write_next();
            else if (self->closing_ && !self->closed_) self->send_close();
        });
    }

    // The close frame, once the queue is written (flooded, or the session ended).
    void send_close() {
        closed_ = true;
        ping_timer_.cancel();
        ws_.async_close(websocket::close_reason(close_code_, close_reason_), [self = shared_from_this()](beast::error_code) {});
    }

    websocket::stream<beast::tcp_stream> ws_;
    std::string ip_;
    std::optional<Account> account_;  // the session's account at the upgrade (P21); none: anonymous
    std::string token_;               // the session's token ("": anonymous), to close it when it ends
    bool ending_ = false;             // its session ended (issue 25): closing, nothing more read or sent
    bool accepted_ = false;           // the WebSocket handshake is done
    websocket::close_code close_code_ = websocket::close_code::policy_error;
    std::string close_reason_ = "rate limited";
    EdgeLimits limits_;
    std::deque<std::shared_ptr<const std::string>> queue_;
    size_t queued_bytes_ = 0;
    bool closed_ = false;
    bool closing_ = false;  // flooded or the server stopping: close once the queue is written
    websocket::close_reason close_reason_;
    asio::steady_timer ping_timer_{ws_.get_executor()};
    std::optional<Millis> ping_sent_at_;
    std::uint64_t ping_counter_ = 0;
    int samples_ = 0;
    Millis measured_lag_ = 0;
};

http::response<http::string_body> to_beast(const HttpResponse& r, unsigned version, bool keep_alive, bool head) {
    http::response<http::string_body> res{http::status(r.status), version};
    res.set(http::field::server, "Outpost");
    res.set(http::field::content_type, r.content_type);
    for (const auto& [k, v] : security_headers()) res.set(k, v);
    for (const auto& [k, v] : r.headers) res.set(k, v);
    res.keep_alive(keep_alive);
    res.body() = head ? std::string() : r.body;
    res.prepare_payload();
    if (head) res.content_length(r.body.size());
    return res;
}

HttpResponse error_response(const ProtocolError& e, std::vector<std::pair<std::string, std::string>> headers = {}) {
    return {e.http_status, "application/json", error_json(e), std::move(headers)};
}

// The answer the edge gives before the router sees a request, if any.
std::optional<HttpResponse> edge_check(const http::request<http::string_body>& req, const std::string& ip, Edge& edge) {
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

awaitable<void> http_session(tcp::socket socket, Shared shared, std::string ip) {
    beast::tcp_stream stream(std::move(socket));
    beast::flat_buffer buffer;
    beast::error_code ec;
    for (;;) {
        stream.expires_after(60s);
        http::request_parser<http::string_body> parser;
        parser.body_limit(MaxHttpBody);
        parser.header_limit(16 * 1024);
        co_await http::async_read(stream, buffer, parser, asio::redirect_error(use_awaitable, ec));
        if (ec == http::error::body_limit) {
            auto res = to_beast({413, "application/json", error_json({"bad_request", "request body too large (the limit is 64 KiB)", 413}), {}}, 11, false, false);
            co_await http::async_write(stream, res, asio::redirect_error(use_awaitable, ec));
            break;
        }
        if (ec) break;
        http::request<http::string_body> req = parser.release();
        const auto started = std::chrono::steady_clock::now();
        const std::string request_id = next_request_id();
        if (auto refused = edge_check(req, ip, *shared.edge)) {
            auto res = to_beast(*refused, req.version(), req.keep_alive(), req.method() == http::verb::head);
            log_access("http", request_id, ip, sv(req.method_string()), sv(req.target()), refused->status, started);
            co_await http::async_write(stream, res, asio::redirect_error(use_awaitable, ec));
            if (ec || !res.keep_alive() || websocket::is_upgrade(req)) break;
            continue;
        }
        if (websocket::is_upgrade(req)) {
            auto ws = std::make_shared<WsSession>(websocket::stream<beast::tcp_stream>(std::move(stream)), ip,
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
        request.secure = request_is_secure(sv(req["X-Forwarded-Proto"]), sv(req[http::field::forwarded]), request.origin);
        Identity who = identify_request(req, shared);
        request.account = std::move(who.account);
        request.session_token = std::move(who.token);
        HttpResponse r;
        try {
            if (shared.admin && AdminService::handles(request)) {
                r = shared.admin->handle(request);
            } else if (shared.events && EventService::handles(request)) {
                r = shared.events->handle(request);
            } else if (shared.account_service && AccountService::handles(request)) {
                if (AccountService::hashes(request)) r = co_await answer_off_thread(*shared.account_service, std::move(request));
                else r = shared.account_service->handle(request);
            } else if (shared.simuls && SimulService::handles(request)) {
                r = shared.simuls->handle(request);
            } else {
                r = route(request, *shared.hub, *shared.files, shared.analysis);
            }
        } catch (const std::exception& e) {
            r = HttpResponse{500, "application/json", error_json({"internal", e.what(), 500}), {}};
        }
        auto res = to_beast(r, req.version(), req.keep_alive(), req.method() == http::verb::head);
        co_await http::async_write(stream, res, asio::redirect_error(use_awaitable, ec));
        metrics().http_requests.inc();
        log_access("http", request_id, ip, sv(req.method_string()), sv(req.target()), r.status, started);
        if (ec || !res.keep_alive()) break;
    }
    stream.socket().shutdown(tcp::socket::shutdown_send, ec);
}

// Counts a connection of its address for as long as its session lives.
struct CountedConnection {
    Edge* edge;
    std::string ip;
    ~CountedConnection() {
        edge->connections.remove(ip);
        metrics().connections.add(-1);
    }
};

awaitable<void> counted_session(tcp::socket socket, Shared shared, std::string ip) {
    metrics().connections.add(1);
    CountedConnection counted{shared.edge, ip};
    co_await http_session(std::move(socket), shared, std::move(ip));
}

awaitable<void> listener(tcp::acceptor& acceptor, Shared shared) {
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
        std::string ip = peer.address().to_string();
        // A cap on the connections of one address (its /64 for IPv6), and on all of
        // them (issue 25): over either, the new one is closed at once.
        const int per_ip = shared.edge->limits.enabled ? shared.edge->limits.connections_per_ip : std::numeric_limits<int>::max();
        if (!shared.edge->connections.try_add(ip, per_ip, shared.edge->max_connections)) {
            metrics().limit_refusals.inc("connections");
            socket.close(ec);
            continue;
        }
        // Moves are small messages that must leave at once (no Nagle delay).
        socket.set_option(tcp::no_delay(true), ec);
        auto ex = socket.get_executor();
        asio::co_spawn(ex, counted_session(std::move(socket), shared, std::move(ip)), asio::detached);
    }
}

}  // namespace

int run_server(const ServerConfig& config) {
    configure_log(parse_log_level(config.log_level).value_or(LogLevel::INFO),
                  parse_log_format(config.log_format).value_or(LogFormat::TEXT));
    std::optional<ListenAddress> metrics_at;
    if (!config.metrics_listen.empty()) {
        std::string why;
        metrics_at = parse_listen_address(config.metrics_listen, why);
        if (!metrics_at) {
            log_event(LogLevel::ERROR, "outpost serve: --metrics-listen " + why);
            return 2;
        }
    }
    auto storage = Storage::open(config.db, config.sync_full);
    if (!storage) {
        log_event(LogLevel::ERROR, "outpost serve: " + storage.error().message);
        return 1;
    }
    // P21: the accounts and sessions, in the same database file as the games.
    auto accounts = AccountStore::open(config.db, config.password_cost);
    if (!accounts) {
        log_event(LogLevel::ERROR, "outpost serve: " + accounts.error().message);
        return 1;
    }
    const StaticFiles files = StaticFiles::load(config.web_dir);
    asio::io_context ioc(config.io_threads);

    // SPEC D9: the admin page's audit log, reports and arbiters' decisions.
    auto admin_store = AdminStore::open(config.db);
    if (!admin_store) {
        std::cerr << "outpost serve: " << admin_store.error().message << "\n";
        return 1;
    }
    std::unique_ptr<Hub> hub;
    HubEnv env;
    env.arbiter_reason = [store = admin_store->get()](const std::string& id) {
        auto r = store->arbiter_reason(id);
        return r ? *r : std::string();
    };
    env.monotonic_ms = monotonic_now;
    env.wall_ms = wall_now;
    env.random_token = secure_token;  // getrandom(2): mt19937 outputs revealed its state
    env.invite_wait_ms = Millis(config.invite_wait_minutes) * 60'000;
    env.max_finished_bytes = size_t(config.finished_cache_mib) << 20;
    // --no-client-limits lifts every per-address limit, the cap on open games too.
    env.max_open_games_per_client = config.max_open_games > 0 && config.limits.enabled
                                        ? config.max_open_games
                                        : std::numeric_limits<int>::max();
    if (!config.limits.enabled) env.max_open_correspondence_per_client = std::numeric_limits<int>::max();
    env.levels_json = [] { return RobotPool::levels_json(); };
    env.level_elo = [](int level) { return RobotPool::level_elo(level); };
    // One timer per game (edge/game_timers.h), on the network threads.
    auto timers = std::make_shared<GameTimers>(ioc, [&hub](const std::string& id) { hub->on_timer(id); });
    env.call_back_in = [timers](const std::string& id, Millis delay) { timers->arm(id, delay); };
    RobotPool robots(
        config.robot_threads,
        [&ioc, &hub](const std::string& id, std::uint64_t request_id, Move m) {
            asio::post(ioc, [&hub, id, request_id, m] { hub->on_robot_move(id, request_id, m); });
        },
        monotonic_now);
    robots.set_human_time(config.robot_human_time, std::random_device{}());
    env.ask_robot = [&robots](RobotRequest r) { robots.ask(std::move(r)); };
    env.cancel_robot = [&robots](const std::string& id) { robots.cancel(id); };
    // R7 beyond the quick test after each move: the deeper search on a thread of its own.
    DeadPositionWatch dead_watch([&ioc, &hub](const std::string& id, int ply, Key key) {
        asio::post(ioc, [&hub, id, ply, key] { hub->on_dead_position(id, ply, key); });
    });
    env.check_dead_position = [&dead_watch](DeadPositionRequest q) { dead_watch.ask(std::move(q)); };
    env.cancel_dead_position = [&dead_watch](const std::string& id) { dead_watch.cancel(id); };
    // The lobby (P22): fed by the hub with the games being played, asking it for games.
    LobbyEnv lobby_env;
    lobby_env.monotonic_ms = monotonic_now;
    lobby_env.create_game = [&hub](const std::string& body, const std::string& client, const Account* owner,
                                   const Account* other) {
        return hub->create_game(body, client, owner, other);
    };
    // P23: a member's rating as stored (the lobby asks under its own lock: the account
    // and game stores have locks of their own, the hub's is not taken).
    lobby_env.rating = [account_store = accounts->get(), game_store = storage->get()](
                           const std::string& name, std::string_view rating_class) -> std::optional<LobbyRating> {
        auto account = account_store->find(name);
        if (!account || !*account) return std::nullopt;
        auto ratings = game_store->ratings_of((*account)->id);
        if (!ratings) return std::nullopt;
        for (const StoredRating& r : *ratings)
            if (r.rating_class == rating_class) return LobbyRating{int(std::lround(r.rating)), is_provisional(r)};
        return std::nullopt;
    };
    if (!config.limits.enabled) {
        lobby_env.max_seeks_per_client = std::numeric_limits<int>::max() / 2;
        lobby_env.max_anonymous_seeks = lobby_env.max_seeks;
    }
    Lobby lobby(lobby_env);
    std::atomic<EventService*> events_hook{nullptr};  // issue 13: results of event games
    // P18: simuls, in the same database; their boards' results come from the hub.
    auto simul_store = SimulStore::open(config.db);
    if (!simul_store) {
        log_event(LogLevel::ERROR, "outpost serve: " + simul_store.error().message);
        return 1;
    }
    SimulEnv simul_env;
    simul_env.wall_ms = wall_now;
    simul_env.random_token = secure_token;
    simul_env.allowed_origins = config.allowed_origins;
    simul_env.create_game = [&hub](const NewGameRequest& spec, const Account& host, std::int64_t opponent) {
        return hub->create_game(spec, "", &host, opponent);
    };
    simul_env.game_result = [&hub](const std::string& id) -> std::optional<std::string> {
        auto state = hub->state_json(id);
        if (!state) return std::nullopt;
        auto j = nlohmann::json::parse(*state, nullptr, false);
        const auto* game = j.is_object() && j.contains("game") ? &j["game"] : &j;
        if (!game->is_object() || game->value("status", "") == "ongoing" || !game->contains("result")) return std::nullopt;
        return game->value("result", "*");
    };
    SimulService simuls(simul_env, simul_store->get());
    env.on_live_game = [&lobby, &simuls, &events_hook](const LiveGame& g) {
        lobby.on_live_game(g);
        simuls.on_live_game(g);
        if (auto* ev = events_hook.load(); ev && g.over) ev->on_game_over(g);
    };
    hub = std::make_unique<Hub>(env, storage->get());
    auto event_store = EventStore::open(config.db);
    if (!event_store) {
        log_event(LogLevel::ERROR, "outpost serve: " + event_store.error().message);
        return 1;
    }
    auto events = EventService::open(event_store->get(), *hub, wall_now, config.allowed_origins);
    if (!events) {
        log_event(LogLevel::ERROR, "outpost serve: " + events.error().message);
        return 1;
    }
    events_hook = events->get();

    auto resumed = hub->resume_from_storage();
    if (!resumed) {
        log_event(LogLevel::ERROR, "outpost serve: " + resumed.error().message);
        return 1;
    }

    beast::error_code ec;
    const auto address = asio::ip::make_address(config.host, ec);
    if (ec) {
        log_event(LogLevel::ERROR, "outpost serve: bad host '" + config.host + "': " + ec.message());
        return 2;
    }
    tcp::acceptor acceptor(ioc);
    const tcp::endpoint endpoint{address, config.port};
    acceptor.open(endpoint.protocol(), ec);
    if (!ec) acceptor.set_option(asio::socket_base::reuse_address(true), ec);
    if (!ec) acceptor.bind(endpoint, ec);
    if (!ec) acceptor.listen(asio::socket_base::max_listen_connections, ec);
    if (ec) {
        log_event(LogLevel::ERROR, "outpost serve: cannot listen on " + config.host + ":" + std::to_string(config.port) + ": " +
                                       ec.message());
        return 1;
    }
    if (auto loaded = simuls.load(); !loaded) {
        log_event(LogLevel::ERROR, "outpost serve: " + loaded.error().message);
        return 1;
    }
    // Issue 13: boards of a round whose games a stop kept from being made (or linked)
    // get them; results of event games that ended while the server was down, or in
    // the hub just before a stop, reach their boards.
    (void)(*events)->recover_games();
    (void)(*events)->recover_results();

    AnalysisService::Options analysis_options;
    analysis_options.pool.workers = config.analysis_workers;
    analysis_options.pool.max_queue = std::size_t(std::max(config.analysis_queue, 1));
    analysis_options.pool.max_nodes = std::max<std::uint64_t>(config.analysis_nodes, 1);
    analysis_options.settings.nodes = config.analysis_nodes;
    analysis_options.client_limits = config.limits.enabled;
    AnalysisService analysis(analysis_options, *hub, storage->get(), monotonic_now);

    AccountSockets sockets;  // issue 25: a session that ends closes its WebSockets
    // ... also when another process ended it (`outpost user disable|logout`).
    SessionSweep sweep(sockets, *accounts->get(), wall_now, std::chrono::seconds(3));
    AccountService::Options account_options;
    account_options.end_sessions = [&sockets](const SessionsEnded& e) { return sockets.end(e); };
    account_options.client_limits = config.limits.enabled;
    account_options.allowed_origins = config.allowed_origins;
    AccountService account_service(account_options, *accounts->get(), *hub, storage->get(), wall_now, monotonic_now);
    AdminEnv admin_env;
    admin_env.wall_ms = wall_now;
    admin_env.monotonic_ms = monotonic_now;
    admin_env.allowed_origins = config.allowed_origins;
    admin_env.client_limits = config.limits.enabled;
    admin_env.end_sessions = account_options.end_sessions;
    admin_env.connections = [&sockets] {
        std::vector<AdminConnection> out;
        for (const AccountSockets::Entry& e : sockets.list()) out.push_back(AdminConnection{e.account_name, e.kind});
        return out;
    };
    AdminService admin(admin_env, *admin_store->get(), *accounts->get(), *hub, events->get(), &simuls);

    // The bus: the WebSocket sessions reach the games, the lobby and the simuls through it.
    InProcessBus bus;
    LobbyOnBus lobby_on_bus(lobby);
    SimulsOnBus simuls_on_bus(simuls);
    bus.serve(Topic::GAME, hub.get());
    bus.serve(Topic::LOBBY, &lobby_on_bus);
    bus.serve(Topic::SIMUL, &simuls_on_bus);
    Edge edge(config.limits, config.allowed_origins);
    edge.host_names = config.host_names;
    edge.max_connections = config.limits.max_connections > 0 ? config.limits.max_connections : default_max_connections();
    asio::co_spawn(ioc, listener(acceptor, Shared{hub.get(), &bus, &files, &analysis, &edge, accounts->get(), &account_service, &lobby, events->get(), &simuls, &sockets, &admin}), asio::detached);
    unsigned short metrics_port = 0;
    if (metrics_at) {
        // Off the public port (issue 27): an address of its own, only when asked for.
        const std::vector<Sampled> sampled = serve_gauges(*hub, robots, analysis, config.db);
        std::string why;
        auto port = start_metrics_listener(ioc, *metrics_at, [sampled] { return render_metrics(metrics(), sampled); }, why);
        if (!port) {
            log_event(LogLevel::ERROR, "outpost serve: " + why);
            return 1;
        }
        metrics_port = *port;
    }
    // The lobby's pulse: quick pairing as ranges widen, and its changes sent out.
    asio::steady_timer lobby_timer(ioc);
    std::function<void()> lobby_pulse = [&] {
        lobby_timer.expires_after(500ms);
        lobby_timer.async_wait([&](beast::error_code e) {
            if (e) return;
            lobby.tick();
            simuls.tick();
            lobby_pulse();
        });
    };
    lobby_pulse();
    asio::signal_set signals(ioc, SIGINT, SIGTERM);
    stop_on_signals(ioc, signals, acceptor, sockets, std::chrono::milliseconds(2500));
    // Said once everything is ready, signals included (tests wait for this line).
    std::cout << "Outpost is serving on http://" << (config.host == "0.0.0.0" ? "localhost" : config.host) << ":"
              << acceptor.local_endpoint().port() << "/ (database " << config.db << ", " << *resumed
              << " live games resumed, " << files.size() << " web files)" << std::endl;
    log_event(LogLevel::INFO, "serving",
              {{"host", config.host}, {"port", int(acceptor.local_endpoint().port())}, {"db", config.db},
               {"games_resumed", std::int64_t(*resumed)}});
    if (metrics_at)
        std::cout << "Metrics on http://"
                  << (metrics_at->host.find(':') != std::string::npos ? "[" + metrics_at->host + "]" : metrics_at->host)
                  << ":" << metrics_port << "/metrics" << std::endl;

    std::vector<std::thread> threads;
    for (int i = 1; i < config.io_threads; ++i) threads.emplace_back([&ioc] { ioc.run(); });
    ioc.run();
    for (auto& t : threads) t.join();
    return 0;
}

}  // namespace outpost::server
