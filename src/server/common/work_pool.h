// Outpost — a bounded pool of worker threads (issue 25: no blocking work on the network
// threads). The network threads only parse, route and write: a request whose answer
// reads or writes the database, pairs a round or parses a big PGN is posted here, and
// its answer is posted back to the connection when it is ready.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// try_post() refuses (returns false) when `max_queue` jobs already wait: the caller
// answers "busy" (HTTP 503) at once instead of letting the queue grow without bound.
// post() always takes the job: for messages that must not be lost (the reports of the
// games to the other domains), with one thread they run in the order posted.
// No Asio here: a job that must answer a connection posts that answer itself.
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cerrno>

namespace outpost::server {

class WorkPool {
public:
    // `threads` < 1 is one thread; `nice` > 0 is added to the threads' scheduling
    // priority (Linux keeps it per thread), so that the network threads come first.
    WorkPool(int threads, std::size_t max_queue, int nice = 0) : max_queue_(max_queue) {
        for (int i = 0; i < std::max(1, threads); ++i)
            threads_.emplace_back([this, nice] {
                if (nice > 0) lower_priority(nice);
                work();
            });
    }
    // Runs the jobs already queued, then joins the threads.
    ~WorkPool() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        for (auto& t : threads_) t.join();
    }
    WorkPool(const WorkPool&) = delete;
    WorkPool& operator=(const WorkPool&) = delete;

    // Queues the job unless `max_queue` jobs already wait (then false, and the job is
    // not run).
    bool try_post(std::function<void()> job) {
        {
            std::lock_guard lock(mutex_);
            if (stopping_ || queue_.size() >= max_queue_) return false;
            queue_.push_back(std::move(job));
        }
        wake_.notify_one();
        return true;
    }
    // Queues the job whatever the queue holds.
    void post(std::function<void()> job) {
        {
            std::lock_guard lock(mutex_);
            queue_.push_back(std::move(job));
        }
        wake_.notify_one();
    }

    std::size_t queued() const {
        std::lock_guard lock(mutex_);
        return queue_.size();
    }
    int running() const {
        std::lock_guard lock(mutex_);
        return running_;
    }
    int threads() const { return int(threads_.size()); }

    // The threads for a machine's cores: `per_core` a core, within [lo, hi].
    static int for_cores(int per_core, int lo, int hi) {
        const int cores = int(std::max(1u, std::thread::hardware_concurrency()));
        return std::clamp(cores * per_core, lo, hi);
    }

private:
    static void lower_priority(int nice) {
        const auto tid = id_t(::syscall(SYS_gettid));
        errno = 0;
        const int own = getpriority(PRIO_PROCESS, tid);
        if (errno == 0) setpriority(PRIO_PROCESS, tid, std::min(19, own + nice));
    }
    void work() {
        std::unique_lock lock(mutex_);
        for (;;) {
            wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) return;  // stopping, and nothing left
            std::function<void()> job = std::move(queue_.front());
            queue_.pop_front();
            ++running_;
            lock.unlock();
            try {
                job();
            } catch (...) {
                // A job answers its own errors; one that throws must not end the thread.
            }
            lock.lock();
            --running_;
        }
    }

    const std::size_t max_queue_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> queue_;
    int running_ = 0;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace outpost::server
