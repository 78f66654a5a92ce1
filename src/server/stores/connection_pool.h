// Outpost — a store's read connections, lent one reader at a time (issue 25: a heavy
// read, the profile of an account with 10,000 games, must not hold every other read
// behind it). Shared by the SQLite and the PostgreSQL stores: each opens its own
// connections and hands them here. take() lends a free connection, locked (its `mutex`),
// for as long as the lease lives, and waits only when every one is lent. A pool may
// instead lend one connection to every reader (SQLite in memory: lend()).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace outpost::server {

template <class Conn>
class ConnectionPool {
public:
    // Connections for a machine: two a core (the request pool's threads), 2 to 8.
    static int for_machine() { return std::clamp(2 * int(std::max(1u, std::thread::hardware_concurrency())), 2, 8); }

    void add(std::unique_ptr<Conn> c) {
        std::lock_guard lock(mutex_);
        free_.push_back(c.get());
        all_.push_back(std::move(c));
    }
    void lend(Conn& only) { only_ = &only; }
    int size() const { return only_ ? 1 : int(all_.size()); }

    class Lease {
    public:
        Lease(ConnectionPool& pool, Conn& c) : pool_(pool), c_(c), lock_(c.mutex) {}
        ~Lease() {
            lock_.unlock();
            pool_.give_back(c_);
        }
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        Conn& operator*() { return c_; }
        Conn* operator->() { return &c_; }

    private:
        ConnectionPool& pool_;
        Conn& c_;
        std::unique_lock<std::mutex> lock_;
    };
    Lease take() {
        if (only_) return Lease(*this, *only_);
        std::unique_lock lock(mutex_);
        freed_.wait(lock, [this] { return !free_.empty(); });
        Conn* c = free_.back();
        free_.pop_back();
        return Lease(*this, *c);
    }

private:
    void give_back(Conn& c) {
        if (only_) return;
        {
            std::lock_guard lock(mutex_);
            free_.push_back(&c);
        }
        freed_.notify_one();
    }

    Conn* only_ = nullptr;
    std::vector<std::unique_ptr<Conn>> all_;
    std::vector<Conn*> free_;
    std::mutex mutex_;
    std::condition_variable freed_;
};

}  // namespace outpost::server
