// Outpost — the dead-position watch: a queue of requests and the thread that tests them.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/play/dead_watch.h"

#include <algorithm>

#include <sys/resource.h>

namespace outpost::server {

DeadPositionWatch::DeadPositionWatch(OnDead on_dead, std::function<Deadness(const Position&)> test)
    : on_dead_(std::move(on_dead)), test_(test ? std::move(test) : [](const Position& p) { return dead_position_deep(p); }) {
    thread_ = std::thread([this] { run(); });
}

DeadPositionWatch::~DeadPositionWatch() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

void DeadPositionWatch::ask(DeadPositionRequest request) {
    if (request.positions.empty()) return;
    {
        std::lock_guard lock(mutex_);
        auto it = std::find_if(queue_.begin(), queue_.end(), [&](const auto& q) { return q.game_id == request.game_id; });
        if (it != queue_.end()) {
            // The newer request keeps the older one's earliest positions: a dead
            // position among them is where the game ended.
            if (it->first_ply < request.first_ply && request.first_ply <= it->first_ply + int(it->positions.size())) {
                it->positions.resize(size_t(request.first_ply - it->first_ply));
                it->positions.insert(it->positions.end(), request.positions.begin(), request.positions.end());
            } else {
                *it = std::move(request);
            }
        } else {
            queue_.push_back(std::move(request));
        }
    }
    cv_.notify_all();
}

void DeadPositionWatch::cancel(const std::string& game_id) {
    std::lock_guard lock(mutex_);
    std::erase_if(queue_, [&](const auto& q) { return q.game_id == game_id; });
}

void DeadPositionWatch::wait_idle() {
    std::unique_lock lock(mutex_);
    idle_cv_.wait(lock, [this] { return queue_.empty() && !busy_; });
}

void DeadPositionWatch::run() {
    // Only spare processor time: on real games the search takes about 10 ms a move on
    // average (150 ms at worst), which under load must not slow the moves themselves.
    // (Linux: the nice value of this thread alone.)
    setpriority(PRIO_PROCESS, 0, 19);
    for (;;) {
        DeadPositionRequest r;
        {
            std::unique_lock lock(mutex_);
            busy_ = false;
            idle_cv_.notify_all();
            cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (stopping_) return;
            r = std::move(queue_.front());
            queue_.pop_front();
            busy_ = true;
        }
        // The newest position first: if it is alive (or not proved dead), so is every
        // earlier one as far as this test can tell, and nothing is reported.
        int first_dead = -1;
        for (int i = int(r.positions.size()) - 1; i >= 0; --i) {
            if (test_(r.positions[size_t(i)]) != Deadness::DEAD) break;
            first_dead = i;
        }
        if (first_dead >= 0)
            on_dead_(r.game_id, r.first_ply + first_dead, r.positions[size_t(first_dead)].repetition_key());
    }
}

}  // namespace outpost::server
