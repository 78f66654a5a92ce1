// Outpost — the dead-position watch: a queue of requests and the thread that tests them.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/play/dead_watch.h"

#include <algorithm>
#include <chrono>
#include <ctime>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace outpost::server {
namespace {

// The processor time this thread has used (its rest is owed for what it searched, not
// for the time another thread held its core).
std::chrono::nanoseconds thread_cpu_time() {
    timespec t{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
}

}  // namespace

DeadPositionWatch::DeadPositionWatch(OnDead on_dead, std::function<Deadness(const Position&)> test, int cpu_percent,
                                     std::function<bool()> busy)
    : on_dead_(std::move(on_dead)),
      test_(test ? std::move(test) : [](const Position& p) { return dead_position_deep(p); }),
      cpu_percent_(std::clamp(cpu_percent, 1, 100)),
      busy_machine_(std::move(busy)) {
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
        if (auto found = queued_.find(request.game_id); found != queued_.end()) {
            auto it = found->second;
            // The newer request keeps the older one's earliest positions: a dead
            // position among them is where the game ended.
            if (it->first_ply < request.first_ply && request.first_ply <= it->first_ply + int(it->positions.size())) {
                it->positions.resize(size_t(request.first_ply - it->first_ply));
                it->positions.insert(it->positions.end(), request.positions.begin(), request.positions.end());
            } else {
                *it = std::move(request);
            }
        } else {
            const std::string id = request.game_id;
            queue_.push_back(std::move(request));
            queued_.emplace(id, std::prev(queue_.end()));
        }
    }
    cv_.notify_all();
}

void DeadPositionWatch::cancel(const std::string& game_id) {
    std::lock_guard lock(mutex_);
    if (auto found = queued_.find(game_id); found != queued_.end()) {
        queue_.erase(found->second);
        queued_.erase(found);
    }
}

void DeadPositionWatch::wait_idle() {
    std::unique_lock lock(mutex_);
    idle_cv_.wait(lock, [this] { return queue_.empty() && !busy_; });
}

void DeadPositionWatch::run() {
    // Only spare processor time: on real games the search takes about 10 ms a move on
    // average (150 ms at worst), which under load must not slow the moves themselves.
    // Nice 19 (Linux: this thread alone). Not SCHED_IDLE: on our 2-core machine, busy
    // SCHED_IDLE threads on every core gave the normal threads a tail of half a second
    // (docs/scaling.md, "Background threads"), nice 19 threads a tenth of it.
    (void)::setpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid)), 19);
    std::chrono::nanoseconds rest{0};
    for (;;) {
        DeadPositionRequest r;
        {
            std::unique_lock lock(mutex_);
            busy_ = false;
            idle_cv_.notify_all();
            // The share of one core: the rest owed for the last request first. (Nice 19
            // alone was not enough: three nodes on two cores, each watch busy, still
            // gave the moves a tail over 100 ms; docs/scaling.md, "Background threads".)
            if (rest > rest.zero() && cv_.wait_for(lock, rest, [this] { return stopping_; })) return;
            cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (stopping_) return;
            queued_.erase(queue_.front().game_id);
            r = std::move(queue_.front());
            queue_.pop_front();
            busy_ = true;
        }
        // The newest position first: if it is alive (or not proved dead), so is every
        // earlier one as far as this test can tell, and nothing is reported.
        const auto started = thread_cpu_time();
        int first_dead = -1;
        for (int i = int(r.positions.size()) - 1; i >= 0; --i) {
            if (test_(r.positions[size_t(i)]) != Deadness::DEAD) break;
            first_dead = i;
        }
        // A tenth of the share while the machine is busy (bench/cluster-load, three nodes
        // on two cores: the moves' p99 538 ms with the watches at 50%, 294 ms at 1%).
        const int percent = busy_machine_ && busy_machine_() ? std::max(1, cpu_percent_ / 10) : cpu_percent_;
        rest = (thread_cpu_time() - started) * (100 - percent) / percent;
        if (first_dead >= 0)
            on_dead_(r.game_id, r.first_ply + first_dead, r.positions[size_t(first_dead)].repetition_key());
    }
}

}  // namespace outpost::server
