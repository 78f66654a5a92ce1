// Outpost — sessions ended by another process (issue 25): `outpost user disable NAME`
// and `outpost user logout NAME` change the database, not the running server. Every
// few seconds this thread reads the sessions that open WebSockets were opened under
// (AccountSockets::tokens) and closes the connections of those that are no more:
// ended, expired, or of a disabled account (the reason "session ended"). A database
// that cannot be read closes nothing. One indexed read per signed-in session, on a
// thread of its own, never on the network thread.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

#include "server/edge/account_sockets.h"
#include "server/stores/account_store.h"

namespace outpost::server {

class SessionSweep {
public:
    SessionSweep(AccountSockets& sockets, AccountStore& store, std::function<std::int64_t()> wall_ms,
                 std::chrono::milliseconds every)
        : sockets_(sockets), store_(store), wall_ms_(std::move(wall_ms)), every_(every), thread_([this] { run(); }) {}
    ~SessionSweep() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }
    SessionSweep(const SessionSweep&) = delete;
    SessionSweep& operator=(const SessionSweep&) = delete;

    // One pass now (tests): how many connections it closed.
    int sweep() {
        int closed = 0;
        for (const std::string& token : sockets_.tokens()) {
            auto account = store_.session_account(token, wall_ms_());
            if (account && !*account) closed += sockets_.end({0, token, "", "session ended"});
        }
        return closed;
    }

private:
    void run() {
        std::unique_lock lock(mutex_);
        while (!stopping_) {
            wake_.wait_for(lock, every_, [this] { return stopping_; });
            if (stopping_) break;
            lock.unlock();
            sweep();
            lock.lock();
        }
    }

    AccountSockets& sockets_;
    AccountStore& store_;
    std::function<std::int64_t()> wall_ms_;
    std::chrono::milliseconds every_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;  // last: started once everything it uses is made
};

}  // namespace outpost::server
