// Outpost — the storage writer.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/stores/writer.h"

#include <vector>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "server/observe/log.h"
#include "server/observe/metrics.h"

namespace outpost::server {

StorageWriter::StorageWriter(Storage* storage, bool threaded, size_t max_batch, std::chrono::microseconds window)
    : storage_(storage), threaded_(threaded && storage), max_batch_(std::max<size_t>(1, max_batch)),
      window_(std::max(std::chrono::microseconds(0), window)) {
    if (threaded_) thread_ = std::thread(&StorageWriter::run, this);
}

StorageWriter::~StorageWriter() {
    if (!threaded_) return;
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void StorageWriter::submit(GameWrite write, Done done) {
    if (!threaded_) {
        const Result<bool> ok = storage_ ? storage_->write(write) : Result<bool>(true);
        {
            std::lock_guard lock(mutex_);
            ++batches_;
            largest_ = std::max<size_t>(largest_, 1);
            last_ok_ = bool(ok);
            if (!ok) last_error_ = ok.error().message;
        }
        if (done) done(ok);
        return;
    }
    bool wake = true;
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(Item{std::move(write), std::move(done)});
        // Inside its commit window the writer waits for the window's end, not for this
        // write: waking it for each (a context switch a move) would change nothing.
        wake = !in_window_ || queue_.size() >= max_batch_;
    }
    if (wake) wake_.notify_one();
}

void StorageWriter::after_pending(Done done) {
    if (!threaded_) {
        if (done) done(true);
        return;
    }
    {
        std::lock_guard lock(mutex_);
        if (queue_.empty() && !busy_) {
            // Nothing on its way: no need to wait for the thread.
            // (Run outside the lock: `done` may deliver messages.)
        } else {
            queue_.push_back(Item{std::nullopt, std::move(done)});
            done = nullptr;
        }
    }
    if (done) done(true);
    else wake_.notify_one();
}

void StorageWriter::flush() {
    if (!threaded_) return;
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [this] { return queue_.empty() && !busy_; });
}

size_t StorageWriter::batches() const {
    std::lock_guard lock(mutex_);
    return batches_;
}

size_t StorageWriter::largest_batch() const {
    std::lock_guard lock(mutex_);
    return largest_;
}

StorageWriter::Health StorageWriter::health() const {
    std::lock_guard lock(mutex_);
    Health h;
    h.last_write_ok = last_ok_;
    if (!last_ok_) h.last_error = last_error_;
    if (busy_) h.writing_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - busy_since_).count();
    h.queued = queue_.size();
    return h;
}

void StorageWriter::run() {
    std::vector<Item> items;
    std::vector<GameWrite> batch;
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) {
            if (stopping_) return;
            continue;
        }
        // The commit window: no sooner than window_ after the last batch began, unless
        // a batch is full or the writer stops (what waits is written then).
        if (window_.count() > 0) {
            in_window_ = true;
            wake_.wait_until(lock, last_begun_ + window_, [this] { return stopping_ || queue_.size() >= max_batch_; });
            in_window_ = false;
        }
        last_begun_ = std::chrono::steady_clock::now();
        // Everything queued so far, up to max_batch_ writes: one transaction.
        items.clear();
        batch.clear();
        while (!queue_.empty() && batch.size() < max_batch_) {
            Item& it = queue_.front();
            if (it.write) batch.push_back(*it.write);
            items.push_back(std::move(it));
            queue_.pop_front();
        }
        busy_ = true;
        busy_since_ = std::chrono::steady_clock::now();
        ++batches_;
        largest_ = std::max(largest_, batch.size());
        lock.unlock();

        static const bool trace = std::getenv("OUTPOST_TRACE_STORAGE") != nullptr;
        const auto t0 = std::chrono::steady_clock::now();
        Result<bool> ok = batch.empty() ? Result<bool>(true) : storage_->write(batch);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (!batch.empty()) metrics().storage_write.observe(ms / 1000);
        // OUTPOST_TRACE_STORAGE=1: batches slower than 15 ms (see stores/sqlite/sqlite_games.cpp).
        if (trace && ms > 15)
            std::fprintf(stderr, "storage %.3f writer batch of %zu writes: %.1f ms\n",
                         std::chrono::duration<double>(t0.time_since_epoch()).count(), batch.size(), ms);
        if (ok) {
            for (Item& it : items)
                if (it.done) it.done(ok);
        } else {
            log_event(LogLevel::ERROR, "a write to the database failed",
                      {{"writes", std::int64_t(batch.size())}, {"error", ok.error().message}});
            // One bad write must not sink the others of its batch: each alone again.
            for (Item& it : items) {
                const Result<bool> one = it.write ? storage_->write(*it.write) : Result<bool>(true);
                if (it.done) it.done(one);
            }
        }

        if (!batch.empty()) storage_->after_batch();
        lock.lock();
        busy_ = false;
        last_ok_ = bool(ok);
        if (!ok) last_error_ = ok.error().message;
        if (queue_.empty()) idle_.notify_all();
    }
}

}  // namespace outpost::server
