// Outpost — the WebSocket connections of the server, by account and session (issue 25
// "sessions that end"; SPEC D9, the admin page's connections): a connection enters
// when its WebSocket is accepted and leaves when it closes; end() closes at once
// every connection of the sessions that ended (accounts/session_end.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "server/accounts/session_end.h"

namespace outpost::server {

class AccountSockets {
public:
    // A connection that can be told to close: with the close frame's reason.
    class Closable {
    public:
        virtual ~Closable() = default;
        virtual void end_session(const std::string& reason) = 0;
        // SIGTERM (graceful_stop.h): what is queued goes out, then close code 1012
        // ("service restart"), so that pages reconnect to the next server.
        virtual void close_for_restart() = 0;
    };
    struct Entry {
        std::weak_ptr<Closable> who;
        std::int64_t account_id = 0;  // 0: anonymous
        std::string account_name;
        std::string token;            // the session it was opened under ("": anonymous)
        std::string kind;             // "game", "lobby", "simul"
    };

    void add(const void* key, Entry e) {
        std::lock_guard lock(mutex_);
        entries_[key] = std::move(e);
    }
    void remove(const void* key) {
        std::lock_guard lock(mutex_);
        entries_.erase(key);
    }

    // Closes the connections of the sessions that ended; returns how many.
    int end(const SessionsEnded& ended) {
        std::vector<std::shared_ptr<Closable>> closing;
        {
            std::lock_guard lock(mutex_);
            for (auto& [key, e] : entries_) {
                if (e.token.empty()) continue;
                if (ended.account_id != 0 && e.account_id != ended.account_id) continue;
                if (ended.account_id == 0 && (ended.token.empty() || e.token != ended.token)) continue;
                if (!ended.token.empty() && e.token != ended.token) continue;
                if (!ended.keep_token.empty() && e.token == ended.keep_token) continue;
                if (auto p = e.who.lock()) closing.push_back(std::move(p));
            }
        }
        for (auto& c : closing) c->end_session(ended.reason);
        return int(closing.size());
    }

    size_t size() const {
        std::lock_guard lock(mutex_);
        return entries_.size();
    }
    // Every connection, anonymous ones too, for a stop (graceful_stop.h).
    void close_all_for_restart() {
        std::vector<std::shared_ptr<Closable>> open;
        {
            std::lock_guard lock(mutex_);
            for (const auto& [key, e] : entries_)
                if (auto p = e.who.lock()) open.push_back(std::move(p));
        }
        for (auto& c : open) c->close_for_restart();
    }
    // The sessions that connections are open under, each once (session_sweep.h).
    std::vector<std::string> tokens() const {
        std::lock_guard lock(mutex_);
        std::vector<std::string> out;
        for (const auto& [key, e] : entries_)
            if (!e.token.empty()) out.push_back(e.token);
        std::sort(out.begin(), out.end());
        out.erase(std::unique(out.begin(), out.end()), out.end());
        return out;
    }

    // For the admin page: every connection (without its token).
    std::vector<Entry> list() const {
        std::lock_guard lock(mutex_);
        std::vector<Entry> out;
        out.reserve(entries_.size());
        for (const auto& [key, e] : entries_) out.push_back(Entry{{}, e.account_id, e.account_name, "", e.kind});
        return out;
    }

private:
    mutable std::mutex mutex_;
    std::map<const void*, Entry> entries_;
};

}  // namespace outpost::server
