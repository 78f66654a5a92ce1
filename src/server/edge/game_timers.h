// Outpost — the timer of each live game on the network threads (the hub's
// HubEnv::call_back_in): one timer per game, re-armed at every change (which cancels
// the wait before), and forgotten when it fires without being re-armed, so a finished
// game leaves none. Every use of a timer object is under the mutex. Header-only, for
// edge/server.cpp alone: Asio stays out of every library that the fuzz build compiles.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "server/edge/net.h"  // first: see net.h

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "chess/clock.h"  // Millis

namespace outpost::server {

class GameTimers : public std::enable_shared_from_this<GameTimers> {
public:
    GameTimers(boost::asio::io_context& ioc, std::function<void(const std::string& game)> on_fire)
        : ioc_(ioc), on_fire_(std::move(on_fire)) {}

    // Calls on_fire(game) after `delay` (at most a day: a longer wait is re-armed by the
    // hub when the day has passed), unless arm() is called again for the game before.
    void arm(const std::string& game, Millis delay) {
        std::lock_guard lock(mutex_);
        auto& t = by_game_[game];
        if (!t) t = std::make_shared<boost::asio::steady_timer>(ioc_);
        t->expires_after(std::chrono::milliseconds(std::clamp<Millis>(delay, 0, 86'400'000)));
        t->async_wait([t, game, self = shared_from_this()](boost::system::error_code ec) {
            if (ec) return;  // re-armed or shut down
            {
                std::lock_guard fired(self->mutex_);
                auto it = self->by_game_.find(game);
                if (it != self->by_game_.end() && it->second == t &&
                    t->expiry() <= boost::asio::steady_timer::clock_type::now())
                    self->by_game_.erase(it);
            }
            self->on_fire_(game);
        });
    }

private:
    boost::asio::io_context& ioc_;
    std::function<void(const std::string&)> on_fire_;
    std::mutex mutex_;
    std::unordered_map<std::string, std::shared_ptr<boost::asio::steady_timer>> by_game_;
};

}  // namespace outpost::server
