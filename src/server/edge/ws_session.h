// Outpost — a WebSocket session (the Beast layout of STYLE.md 7): one connection
// following a game, the lobby or a simul through the bus, on its own strand with a
// single-writer queue bounded in bytes; pings measure its lag (C5); a flood, the end
// of its account's session (issue 25) or a stop (1012) closes it after its queue.
// A template over the stream: plain TCP or TLS. Included by edge/server.cpp only.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "server/edge/session_shared.h"

namespace outpost::server::net {

// A WebSocket connection following one game.
template <class Stream>
class WsSession : public Subscriber, public AccountSockets::Closable, public std::enable_shared_from_this<WsSession<Stream>> {
public:
    WsSession(websocket::stream<Stream> ws, std::string ip, Identity who)
        : ws_(std::move(ws)), ip_(std::move(ip)), account_(std::move(who.account)), token_(std::move(who.token)) {}

    // Issue 25: the session this connection was opened under has ended: it closes at
    // once (SessionEndedCloseCode, with the reason), and reads nothing more.
    void end_session(const std::string& reason) override {
        asio::post(ws_.get_executor(), [self = this->shared_from_this(), reason] {
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
        asio::post(ws_.get_executor(), [self = this->shared_from_this(), message] {
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
        asio::post(ws_.get_executor(), [self = this->shared_from_this()] {
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
        ws_.set_option(websocket::stream_base::decorator([node = shared.edge->node](websocket::response_type& res) {
            res.set(NodeHeader, node);  // issue 26: which node answered
            if constexpr (IsTls<Stream>) res.set(http::field::strict_transport_security, StrictTransportSecurity);
        }));
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
            shared.sockets->add(this, AccountSockets::Entry{this->weak_from_this(), account_ ? account_->id : 0,
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
        auto joined = shared.bus->join(address, this->shared_from_this(), Credentials{token, account_ ? &*account_ : nullptr, ip_});
        if (!joined) {
            // Closing from here: nothing else may write or close meanwhile (a stop or a
            // session's end would start a second close, which Beast does not allow: an
            // assertion, or in a release build the crash of the whole server, when
            // the client never answered the close).
            closed_ = true;
            std::string text = error_json(joined.error());
            co_await ws_.async_write(asio::buffer(text), asio::redirect_error(use_awaitable, ec));
            co_await ws_.async_close(websocket::close_code::policy_error, asio::redirect_error(use_awaitable, ec));
            co_return;
        }
        asio::co_spawn(ws_.get_executor(), pinger(this->shared_from_this()), asio::detached);
        std::string text;
        int rejected = 0;
        for (;;) {
            const bool too_big = co_await read_message(text, ec);
            if (ec == websocket::error::message_too_big) {
                deliver(std::make_shared<const std::string>(error_json({"bad_request", "message too large (the limit is 4096 bytes)"})));
                break;  // Beast closes a stream whose message was too big
            }
            if (ec || closed_ || ending_) break;
            if (limits_.enabled && !shared.edge->ws.allow(message_bucket_, account_ ? account_->id : 0, ip_, monotonic_now())) {
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
            if (address.topic == Topic::GAME || !shared.domains) {
                shared.bus->send(address, *this, text, measured_lag_);
                continue;
            }
            // Issue 25: the lobby's and simuls' messages may make games and write the
            // database: on their own thread, in the order they came; their answers come
            // back through deliver(). Too many waiting: answered at once.
            auto self = this->shared_from_this();
            if (!shared.domains->try_post([self, bus = shared.bus, address, text, lag = measured_lag_] {
                    bus->send(address, *self, text, lag);
                }))
                deliver(std::make_shared<const std::string>(
                    error_json({"rate_limited", "the server is busy; try again in a few seconds", 503})));
        }
        if (!closing_) closed_ = true;
        ping_timer_.cancel();
        if (address.topic == Topic::GAME || !shared.domains) {
            shared.bus->leave(address, this);
        } else {  // after the messages it sent (never dropped)
            shared.domains->post([self = this->shared_from_this(), bus = shared.bus, address] { bus->leave(address, self.get()); });
        }
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
            else if (self->closing_ && !self->closed_) self->send_close();
        });
    }

    // The close frame, once the queue is written (flooded, or the session ended).
    void send_close() {
        closed_ = true;
        ping_timer_.cancel();
        ws_.async_close(websocket::close_reason(close_code_, close_reason_), [self = this->shared_from_this()](beast::error_code) {});
    }

    websocket::stream<Stream> ws_;
    std::string ip_;
    std::optional<Account> account_;  // the session's account at the upgrade (P21); none: anonymous
    std::string token_;               // the session's token ("": anonymous), to close it when it ends
    bool ending_ = false;             // its session ended (issue 25): closing, nothing more read or sent
    bool accepted_ = false;           // the WebSocket handshake is done
    websocket::close_code close_code_ = websocket::close_code::policy_error;
    std::string close_reason_ = "rate limited";
    EdgeLimits limits_;
    TokenBucket message_bucket_;  // this connection's own message rate (issue 25)
    std::deque<std::shared_ptr<const std::string>> queue_;
    size_t queued_bytes_ = 0;
    bool closed_ = false;
    bool closing_ = false;  // flooded, its session ended, or the server stopping: close once the queue is written
    asio::steady_timer ping_timer_{ws_.get_executor()};
    std::optional<Millis> ping_sent_at_;
    std::uint64_t ping_counter_ = 0;
    int samples_ = 0;
    Millis measured_lag_ = 0;
};

}  // namespace outpost::server::net
