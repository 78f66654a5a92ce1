// Outpost — the lobby's and simuls' pulse (issue 25: no blocking work on the network
// threads). Every half second the lobby pairs quick seeks as their ranges widen and sends
// its changes, and the simuls write what game results changed and cancel the open ones
// nobody came to: database writes. The timer runs on the network threads, but the work
// does not: each beat is posted to the domains thread (where the lobby's and simuls'
// messages run, so a beat never races them), and a beat that is still running when the
// next is due makes that one skip (a slow database delays the next write, it does not
// queue beats without bound). Header-only, for edge/server.cpp and its tests.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "server/edge/net.h"  // first: see net.h

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>

#include "server/common/work_pool.h"

namespace outpost::server {

class DomainPulse : public std::enable_shared_from_this<DomainPulse> {
public:
    // `beat` runs on `domains`, never on a thread of `ioc`; `domains` must outlive the
    // beats posted to it (its destructor runs them), and `beat` what it uses.
    DomainPulse(asio::io_context& ioc, WorkPool& domains, std::chrono::milliseconds every, std::function<void()> beat)
        : timer_(ioc), domains_(domains), every_(every), beat_(std::move(beat)) {}

    void start() { arm(); }
    // On the network thread (or before it runs): no beat is posted after this returns.
    void stop() {
        stopped_ = true;
        timer_.cancel();
    }
    // Beats skipped because the one before was still running (tests).
    int skipped() const { return skipped_; }

private:
    void arm() {
        timer_.expires_after(every_);
        timer_.async_wait([weak = weak_from_this()](boost::system::error_code e) {
            auto self = weak.lock();
            if (e || !self || self->stopped_) return;
            self->fire();
            self->arm();
        });
    }
    void fire() {
        if (running_->exchange(true)) {
            ++skipped_;
            return;
        }
        domains_.post([running = running_, beat = beat_] {
            struct Done {
                std::atomic<bool>& flag;
                ~Done() { flag = false; }
            } done{*running};
            beat();
        });
    }

    asio::steady_timer timer_;
    WorkPool& domains_;
    std::chrono::milliseconds every_;
    std::function<void()> beat_;
    std::shared_ptr<std::atomic<bool>> running_ = std::make_shared<std::atomic<bool>>(false);
    std::atomic<bool> stopped_{false};
    std::atomic<int> skipped_{0};
};

}  // namespace outpost::server
