// Outpost — the WebSocket sessions open on the public port, for a stop (issue 27 item 5):
// on SIGTERM every one is closed with code 1012 ("service restart") after the messages
// already queued for it, so that pages reconnect to the next server.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace outpost::server {

class Restartable {
public:
    virtual ~Restartable() = default;
    // Sends what is queued, then closes with 1012. Called from any thread.
    virtual void close_for_restart() = 0;
};

// Thread-safe; holds the sessions weakly (a session ends on its own as ever).
class LiveSessions {
public:
    std::uint64_t add(std::weak_ptr<Restartable> s) {
        std::lock_guard lock(mutex_);
        sessions_.emplace(++next_, std::move(s));
        return next_;
    }
    void remove(std::uint64_t id) {
        std::lock_guard lock(mutex_);
        sessions_.erase(id);
    }
    size_t size() const {
        std::lock_guard lock(mutex_);
        return sessions_.size();
    }
    void close_all_for_restart() {
        std::vector<std::shared_ptr<Restartable>> open;
        {
            std::lock_guard lock(mutex_);
            for (const auto& [id, weak] : sessions_)
                if (auto s = weak.lock()) open.push_back(std::move(s));
        }
        for (const auto& s : open) s->close_for_restart();
    }

private:
    mutable std::mutex mutex_;
    std::map<std::uint64_t, std::weak_ptr<Restartable>> sessions_;
    std::uint64_t next_ = 0;
};

// A session's place in LiveSessions for as long as it is open (none without a set).
class SessionSlot {
public:
    SessionSlot(LiveSessions* set, std::weak_ptr<Restartable> s) : set_(set), id_(set ? set->add(std::move(s)) : 0) {}
    ~SessionSlot() {
        if (set_) set_->remove(id_);
    }
    SessionSlot(const SessionSlot&) = delete;
    SessionSlot& operator=(const SessionSlot&) = delete;

private:
    LiveSessions* set_;
    std::uint64_t id_;
};

}  // namespace outpost::server
