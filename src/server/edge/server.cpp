// Outpost — the network layer (the Beast layout of STYLE.md 7): a listener, an HTTP
// session per connection, a WebSocket session after an upgrade. Each connection
// lives on its own strand with a single-writer queue; timeouts and size limits
// everywhere. Nothing here knows the rules: the router and the hub do. The sessions
// are templates over the stream: plain TCP, or TLS (--tls-cert, edge/tls.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/edge/server.h"

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

#include "server/bus/in_process_bus.h"
#include "server/common/client_address.h"
#include "server/common/guards.h"
#include "server/common/https.h"
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
#include "server/edge/game_timers.h"
#include "server/edge/https_redirect.h"
#include "server/edge/tls.h"
#include "server/edge/transport.h"
#include "server/edge/router.h"
#include "server/stores/game_store.h"

namespace outpost::server {
namespace {

using asio::awaitable;
using asio::use_awaitable;
using namespace std::chrono_literals;

constexpr size_t MaxHttpBody = 64 * 1024;
constexpr size_t MaxWsMessage = 4096;

using TlsStream = beast::ssl_stream<beast::tcp_stream>;
template <class Stream>
constexpr bool IsTls = std::is_same_v<Stream, TlsStream>;

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
    RateLimiter http{limits.http_per_second, limits.http_burst};
    RateLimiter post{limits.post_per_second, limits.post_burst};
    RateLimiter ws{limits.ws_per_second, limits.ws_burst};
    ConnectionCounter connections;
    TrustedProxies trusted;  // --trust-proxy: whose forwarding headers are believed
    Edge(EdgeLimits l, std::vector<std::string> origins, TrustedProxies proxies)
        : limits(l), allowed_origins(std::move(origins)), http(l.http_per_second, l.http_burst),
          post(l.post_per_second, l.post_burst), ws(l.ws_per_second, l.ws_burst), trusted(std::move(proxies)) {}
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
    TlsCertificate* tls = nullptr;   // --tls-cert: every connection speaks TLS
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
template <class Stream>
class WsSession : public Subscriber, public std::enable_shared_from_this<WsSession<Stream>> {
public:
    WsSession(websocket::stream<Stream> ws, std::string ip, std::optional<Account> account)
        : ws_(std::move(ws)), ip_(std::move(ip)), account_(std::move(account)) {}

    std::int64_t account_id() const override { return account_ ? account_->id : 0; }

    void deliver(std::shared_ptr<const std::string> message) override {
        asio::post(ws_.get_executor(), [self = this->shared_from_this(), message] {
            if (self->closed_) return;
            // A client that reads nothing must not grow the queue without bound: the
            // bound is in bytes (a few full states of long games), not in messages.
            if (self->queued_bytes_ + message->size() > self->limits_.send_queue_bytes) {
                self->close_now();
                return;
            }
            self->queued_bytes_ += message->size();
            self->queue_.push_back(message);
            if (self->queue_.size() == 1) self->write_next();
        });
    }

    awaitable<void> run(http::request<http::string_body> req, Shared shared) {
        limits_ = shared.edge->limits;
        const auto [path, query] = split_target(std::string(req.target()));
        const auto& q = query;
        const auto param = [&q](const char* name) { return q.count(name) ? q.at(name) : std::string(); };
        beast::get_lowest_layer(ws_).expires_never();
        ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
        ws_.read_message_max(MaxWsMessage);
        if constexpr (IsTls<Stream>)
            ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
                res.set(http::field::strict_transport_security, StrictTransportSecurity);
            }));
        // Pongs to the server's pings measure the connection's round trip (C5).
        ws_.control_callback([this](websocket::frame_type kind, beast::string_view payload) {
            if (kind != websocket::frame_type::pong || !ping_sent_at_ || sv(payload) != std::to_string(ping_counter_)) return;
            const Millis half_rtt = std::min(MaxMeasuredLag, std::max<Millis>(0, (monotonic_now() - *ping_sent_at_) / 2));
            measured_lag_ = samples_++ == 0 ? half_rtt : (measured_lag_ + half_rtt) / 2;
            ping_sent_at_.reset();
        });
        beast::error_code ec;
        co_await ws_.async_accept(req, asio::redirect_error(use_awaitable, ec));
        if (ec) co_return;
        // /api/v1/lobby: a member of the lobby (P22); /api/v1/simul: a simul's changes
        // (P18); any other path: a game's. The connection talks to its address on the
        // bus, never to the room that owns it.
        const bool lobby = path == "/api/v1/lobby" && shared.lobby;
        const bool simul = path == "/api/v1/simul" && shared.simuls;
        const Address address = lobby ? Address::lobby() : simul ? Address::simul(param("id")) : Address::game(param("game"));
        const std::string token = param(simul ? "key" : "seat");
        auto joined = shared.bus->join(address, this->shared_from_this(), Credentials{token, account_ ? &*account_ : nullptr, ip_});
        if (!joined) {
            std::string text = error_json(joined.error());
            co_await ws_.async_write(asio::buffer(text), asio::redirect_error(use_awaitable, ec));
            co_await ws_.async_close(websocket::close_code::policy_error, asio::redirect_error(use_awaitable, ec));
            co_return;
        }
        asio::co_spawn(ws_.get_executor(), pinger(this->shared_from_this()), asio::detached);
        beast::flat_buffer buffer;
        int rejected = 0;
        for (;;) {
            buffer.clear();
            co_await ws_.async_read(buffer, asio::redirect_error(use_awaitable, ec));
            if (ec == websocket::error::message_too_big) {
                deliver(std::make_shared<const std::string>(error_json({"bad_request", "message too large (the limit is 4096 bytes)"})));
                break;  // Beast closes a stream whose message was too big
            }
            if (ec || closed_) break;
            if (limits_.enabled && !shared.edge->ws.allow(ip_, monotonic_now())) {
                // A flood: answered while it lasts, then the connection is closed.
                if (++rejected >= limits_.ws_rejected_before_close) {
                    // The answers queued so far go out first, then the close frame.
                    closing_ = true;
                    deliver(std::make_shared<const std::string>(
                        error_json({"rate_limited", "too many messages: the connection is closed", 429})));
                    break;
                }
                deliver(std::make_shared<const std::string>(error_json({"rate_limited", "too many messages; slow down", 429})));
                continue;
            }
            rejected = 0;
            if (!ws_.got_text()) {
                deliver(std::make_shared<const std::string>(error_json({"bad_request", "send JSON text messages"})));
                continue;
            }
            const auto data = buffer.data();
            shared.bus->send(address, *this, std::string_view(static_cast<const char*>(data.data()), data.size()), measured_lag_);
        }
        if (!closing_) closed_ = true;
        ping_timer_.cancel();
        shared.bus->leave(address, this);
    }

private:
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
        ws_.async_write(asio::buffer(*queue_.front()), [self = this->shared_from_this()](beast::error_code ec, size_t) {
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
            else if (self->closing_ && !self->closed_) {
                self->closed_ = true;
                self->ws_.async_close(websocket::close_reason(websocket::close_code::policy_error, "rate limited"),
                                      [self](beast::error_code) {});
            }
        });
    }

    websocket::stream<Stream> ws_;
    std::string ip_;
    std::optional<Account> account_;  // the session's account at the upgrade (P21); none: anonymous
    EdgeLimits limits_;
    std::deque<std::shared_ptr<const std::string>> queue_;
    size_t queued_bytes_ = 0;
    bool closed_ = false;
    bool closing_ = false;  // flooded: close once the queue is written
    asio::steady_timer ping_timer_{ws_.get_executor()};
    std::optional<Millis> ping_sent_at_;
    std::uint64_t ping_counter_ = 0;
    int samples_ = 0;
    Millis measured_lag_ = 0;
};

http::response<http::string_body> to_beast(const HttpResponse& r, unsigned version, bool keep_alive, bool head,
                                           bool tls) {
    http::response<http::string_body> res{http::status(r.status), version};
    res.set(http::field::server, "Outpost");
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

HttpResponse error_response(const ProtocolError& e, std::vector<std::pair<std::string, std::string>> headers = {}) {
    return {e.http_status, "application/json", error_json(e), std::move(headers)};
}

// The answer the edge gives before the router sees a request, if any.
std::optional<HttpResponse> edge_check(const http::request<http::string_body>& req, const std::string& ip, Edge& edge) {
    const Millis now = monotonic_now();
    if (edge.limits.enabled) {
        const bool post = req.method() == http::verb::post;
        if (!edge.http.allow(ip, now) || (post && !edge.post.allow(ip, now)))
            return error_response({"rate_limited", "too many requests from this address; try again in a few seconds", 429},
                                  {{"Retry-After", "5"}});
    }
    if (req.method() == http::verb::post && !is_json_content_type(sv(req[http::field::content_type])))
        return error_response({"bad_request", "a POST body must be JSON, sent with Content-Type: application/json", 415});
    if (websocket::is_upgrade(req) &&
        !origin_allowed(sv(req[http::field::origin]), sv(req[http::field::host]), edge.allowed_origins))
        return error_response({"forbidden_origin",
                               "WebSocket connections are accepted only from pages of this server (see --allow-origin)", 403});
    return std::nullopt;
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
            auto res = to_beast({413, "application/json", error_json({"bad_request", "request body too large (the limit is 64 KiB)", 413}), {}}, 11, false, false, tls);
            co_await http::async_write(stream, res, asio::redirect_error(use_awaitable, ec));
            break;
        }
        if (ec) break;
        http::request<http::string_body> req = parser.release();
        const ClientView client = client_of(req, peer, shared.edge->trusted);
        const std::string& ip = client.address;  // the key of every per-address limit
        std::optional<CountedConnection> counted;
        std::optional<HttpResponse> refused = edge_check(req, ip, *shared.edge);
        if (!refused && behind_proxy && websocket::is_upgrade(req)) {
            const int cap = shared.edge->limits.enabled ? shared.edge->limits.connections_per_ip : std::numeric_limits<int>::max();
            if (shared.edge->connections.try_add(ip, cap)) counted.emplace(shared.edge, ip);
            else refused = error_response({"rate_limited", "too many connections from this address", 429});
        }
        if (refused) {
            auto res = to_beast(*refused, req.version(), req.keep_alive(), req.method() == http::verb::head, tls);
            co_await http::async_write(stream, res, asio::redirect_error(use_awaitable, ec));
            if (ec || !res.keep_alive() || websocket::is_upgrade(req)) break;
            continue;
        }
        if (websocket::is_upgrade(req)) {
            auto ws = std::make_shared<WsSession<Stream>>(websocket::stream<Stream>(std::move(stream)), ip,
                                                          identify_request(req, shared).account);
            co_await ws->run(std::move(req), shared);
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
        Identity who = identify_request(req, shared);
        request.account = std::move(who.account);
        request.session_token = std::move(who.token);
        HttpResponse r;
        try {
            if (shared.events && EventService::handles(request)) {
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
        auto res = to_beast(r, req.version(), req.keep_alive(), req.method() == http::verb::head, tls);
        co_await http::async_write(stream, res, asio::redirect_error(use_awaitable, ec));
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

awaitable<void> listener(tcp::acceptor acceptor, Shared shared) {
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
        // A cap on the connections of one address: over it, the new one is closed at once.
        // A trusted proxy's are not capped here (http_session counts its clients').
        const bool counted = !shared.edge->trusted.trusts(ip);
        if (counted && shared.edge->limits.enabled &&
            !shared.edge->connections.try_add(ip, shared.edge->limits.connections_per_ip)) {
            socket.close(ec);
            continue;
        }
        if (counted && !shared.edge->limits.enabled) shared.edge->connections.try_add(ip, std::numeric_limits<int>::max());
        // Moves are small messages that must leave at once (no Nagle delay).
        socket.set_option(tcp::no_delay(true), ec);
        auto ex = socket.get_executor();
        asio::co_spawn(ex, counted_session(std::move(socket), shared, std::move(ip), counted), asio::detached);
    }
}

}  // namespace

int run_server(const ServerConfig& config) {
    // The TLS files and the proxies first: a mistake in them is refused before the
    // database is opened or made.
    auto transport = load_transport(config);
    if (!transport) {
        std::cerr << "outpost serve: " << transport.error().message << "\n";
        return 1;
    }
    asio::io_context ioc(config.io_threads);
    // The ports too: a port in use is refused before the database is made.
    auto listening = open_listeners(ioc, config);
    if (!listening) {
        std::cerr << "outpost serve: " << listening.error().message << "\n";
        return 1;
    }
    auto storage = Storage::open(config.db, config.sync_full);
    if (!storage) {
        std::cerr << "outpost serve: " << storage.error().message << "\n";
        return 1;
    }
    // P21: the accounts and sessions, in the same database file as the games.
    auto accounts = AccountStore::open(config.db, config.password_cost);
    if (!accounts) {
        std::cerr << "outpost serve: " << accounts.error().message << "\n";
        return 1;
    }
    const StaticFiles files = StaticFiles::load(config.web_dir);

    std::unique_ptr<Hub> hub;
    HubEnv env;
    env.monotonic_ms = monotonic_now;
    env.wall_ms = wall_now;
    env.random_token = secure_token;  // getrandom(2): mt19937 outputs revealed its state
    env.invite_wait_ms = Millis(config.invite_wait_minutes) * 60'000;
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
    if (!config.limits.enabled) lobby_env.max_seeks_per_client = std::numeric_limits<int>::max() / 2;
    Lobby lobby(lobby_env);
    std::atomic<EventService*> events_hook{nullptr};  // issue 13: results of event games
    // P18: simuls, in the same database; their boards' results come from the hub.
    auto simul_store = SimulStore::open(config.db);
    if (!simul_store) {
        std::cerr << "outpost serve: " << simul_store.error().message << "\n";
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
        std::cerr << "outpost serve: " << event_store.error().message << "\n";
        return 1;
    }
    auto events = EventService::open(event_store->get(), *hub, wall_now, config.allowed_origins);
    if (!events) {
        std::cerr << "outpost serve: " << events.error().message << "\n";
        return 1;
    }
    events_hook = events->get();

    auto resumed = hub->resume_from_storage();
    if (!resumed) {
        std::cerr << "outpost serve: " << resumed.error().message << "\n";
        return 1;
    }

    if (auto loaded = simuls.load(); !loaded) {
        std::cerr << "outpost serve: " << loaded.error().message << "\n";
        return 1;
    }
    // Issue 13: boards of a round whose games a stop kept from being made (or linked)
    // get them; results of event games that ended while the server was down, or in
    // the hub just before a stop, reach their boards.
    (void)(*events)->recover_games();
    (void)(*events)->recover_results();
    const std::string shown_host = config.host == "0.0.0.0" ? "localhost" : config.host;
    const unsigned short port = listening->main.local_endpoint().port();
    if (transport->tls) std::cout << "TLS certificate: " << transport->tls->describe() << std::endl;
    if (listening->redirect)
        std::cout << "Plain HTTP on port " << listening->redirect->local_endpoint().port()
                  << ": every request is redirected to https" << std::endl;
    std::cout << "Outpost is serving on " << (transport->tls ? "https://" : "http://") << shown_host << ":" << port
              << "/ (database " << config.db << ", " << *resumed << " live games resumed, " << files.size()
              << " web files)" << std::endl;

    AnalysisService::Options analysis_options;
    analysis_options.pool.workers = config.analysis_workers;
    analysis_options.pool.max_queue = std::size_t(std::max(config.analysis_queue, 1));
    analysis_options.pool.max_nodes = std::max<std::uint64_t>(config.analysis_nodes, 1);
    analysis_options.settings.nodes = config.analysis_nodes;
    analysis_options.client_limits = config.limits.enabled;
    AnalysisService analysis(analysis_options, *hub, storage->get(), monotonic_now);

    AccountService::Options account_options;
    account_options.client_limits = config.limits.enabled;
    account_options.allowed_origins = config.allowed_origins;
    AccountService account_service(account_options, *accounts->get(), *hub, storage->get(), wall_now, monotonic_now);

    // The bus: the WebSocket sessions reach the games, the lobby and the simuls through it.
    InProcessBus bus;
    LobbyOnBus lobby_on_bus(lobby);
    SimulsOnBus simuls_on_bus(simuls);
    bus.serve(Topic::GAME, hub.get());
    bus.serve(Topic::LOBBY, &lobby_on_bus);
    bus.serve(Topic::SIMUL, &simuls_on_bus);
    Edge edge(config.limits, config.allowed_origins, std::move(transport->proxies));
    asio::co_spawn(ioc, listener(std::move(listening->main), Shared{hub.get(), &bus, &files, &analysis, &edge, accounts->get(), &account_service, &lobby, events->get(), &simuls, transport->tls.get()}), asio::detached);
    if (listening->redirect)
        asio::co_spawn(ioc,
                       https_redirect_listener(std::move(*listening->redirect), port,
                                               config.limits.enabled ? &edge.connections : nullptr,
                                               config.limits.connections_per_ip),
                       asio::detached);
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
    signals.async_wait([&ioc](beast::error_code, int) { ioc.stop(); });
    asio::signal_set hangup(ioc, SIGHUP);
    reload_on_hangup(hangup, transport->tls.get());

    std::vector<std::thread> threads;
    for (int i = 1; i < config.io_threads; ++i) threads.emplace_back([&ioc] { ioc.run(); });
    ioc.run();
    for (auto& t : threads) t.join();
    return 0;
}

}  // namespace outpost::server
