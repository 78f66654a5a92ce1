// Outpost — the stop on SIGTERM.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/edge/graceful_stop.h"

#include <csignal>
#include <memory>

#include "server/observe/log.h"

namespace outpost::server {
namespace {

struct Stopping {
    asio::io_context& ioc;
    AccountSockets& sessions;
    asio::steady_timer poll;
    std::chrono::steady_clock::time_point started, deadline;
    Stopping(asio::io_context& c, AccountSockets& s) : ioc(c), sessions(s), poll(c) {}
};

void wait_for_sessions(const std::shared_ptr<Stopping>& st) {
    const size_t open = st->sessions.size();
    const auto now = std::chrono::steady_clock::now();
    if (open == 0 || now >= st->deadline) {
        const double ms = std::chrono::duration<double, std::milli>(now - st->started).count();
        log_event(open == 0 ? LogLevel::INFO : LogLevel::WARN, "stopped",
                  {{"websockets_left", std::int64_t(open)}, {"ms", double(std::int64_t(ms))}});
        st->ioc.stop();
        return;
    }
    st->poll.expires_after(std::chrono::milliseconds(20));
    st->poll.async_wait([st](beast::error_code ec) {
        if (!ec) wait_for_sessions(st);
    });
}

void await_signal(asio::signal_set& signals, tcp::acceptor& acceptor, const std::shared_ptr<Stopping>& st,
                  std::chrono::milliseconds grace) {
    signals.async_wait([&signals, &acceptor, st, grace](beast::error_code ec, int signal) {
        if (ec) return;
        if (st->started != std::chrono::steady_clock::time_point{}) {
            log_event(LogLevel::WARN, "stopping at once (a second signal)", {{"signal", signal}});
            st->ioc.stop();
            return;
        }
        st->started = std::chrono::steady_clock::now();
        st->deadline = st->started + grace;
        log_event(LogLevel::INFO, "stopping", {{"signal", signal == SIGTERM ? "SIGTERM" : signal == SIGINT ? "SIGINT" : "other"},
                                                {"websockets", std::int64_t(st->sessions.size())}});
        beast::error_code ignored;
        acceptor.close(ignored);
        st->sessions.close_all_for_restart();
        wait_for_sessions(st);
        await_signal(signals, acceptor, st, grace);
    });
}

}  // namespace

void stop_on_signals(asio::io_context& ioc, asio::signal_set& signals, tcp::acceptor& acceptor, AccountSockets& sessions,
                     std::chrono::milliseconds grace) {
    await_signal(signals, acceptor, std::make_shared<Stopping>(ioc, sessions), grace);
}

}  // namespace outpost::server
