// Outpost — the leases a node holds, kept alive (lease_keeper.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/bus/redis/lease_keeper.h"

#include <vector>

namespace outpost::server::redis {

LeaseKeeper::LeaseKeeper(LeaseTable& table, std::chrono::milliseconds ttl, OnLost on_lost)
    : table_(table), ttl_(ttl), on_lost_(std::move(on_lost)) {
    thread_ = std::thread([this] { run(); });
}

LeaseKeeper::~LeaseKeeper() {
    {
        std::lock_guard lock(mu_);
        stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

Result<Lease> LeaseKeeper::take(const std::string& game) {
    const auto sent = std::chrono::steady_clock::now();
    auto l = table_.acquire(game, ttl_);
    if (!l) return l;
    if (l->node == table_.node()) {
        std::lock_guard lock(mu_);
        held_[game] = Held{*l, sent + ttl_};
    }
    return l;
}

Result<bool> LeaseKeeper::give_up(const std::string& game) {
    std::optional<Lease> lease;
    {
        std::lock_guard lock(mu_);
        if (auto it = held_.find(game); it != held_.end()) {
            lease = it->second.lease;
            held_.erase(it);
        }
    }
    if (!lease) return false;
    return table_.release(*lease);
}

void LeaseKeeper::give_up_all() {
    std::map<std::string, Held> all;
    {
        std::lock_guard lock(mu_);
        all.swap(held_);
    }
    for (const auto& [game, h] : all) (void)table_.release(h.lease);
}

std::optional<Lease> LeaseKeeper::held(const std::string& game) const {
    std::lock_guard lock(mu_);
    if (auto it = held_.find(game); it != held_.end()) return it->second.lease;
    return std::nullopt;
}

std::size_t LeaseKeeper::size() const {
    std::lock_guard lock(mu_);
    return held_.size();
}

void LeaseKeeper::renew_all() {
    std::vector<Lease> leases;
    {
        std::lock_guard lock(mu_);
        for (const auto& [game, h] : held_) leases.push_back(h.lease);
    }
    if (leases.empty()) return;
    const auto sent = std::chrono::steady_clock::now();
    auto ours = table_.renew_many(leases, ttl_);
    std::vector<std::string> lost;
    {
        std::lock_guard lock(mu_);
        const auto now = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < leases.size(); ++i) {
            const Lease& l = leases[i];
            auto it = held_.find(l.game);
            if (it == held_.end() || it->second.lease != l) continue;  // given up meanwhile
            if (ours && (*ours)[i]) {
                it->second.valid_until = sent + ttl_;
            } else if (ours || now >= it->second.valid_until) {
                // Another node holds it, or Redis has been unreachable for the lease's time.
                held_.erase(it);
                lost.push_back(l.game);
            }
        }
    }
    for (const auto& game : lost) on_lost_(game);
}

void LeaseKeeper::run() {
    std::unique_lock lock(mu_);
    while (!stop_) {
        wake_.wait_for(lock, ttl_ / 3, [this] { return stop_; });
        if (stop_) break;
        lock.unlock();
        renew_all();
        lock.lock();
    }
}

}  // namespace outpost::server::redis
