// Outpost — the leases a node holds, kept alive (lease_keeper.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/bus/redis/lease_keeper.h"

#include <algorithm>
#include <vector>

namespace outpost::server::redis {

LeaseKeeper::LeaseKeeper(LeaseTable& table, std::chrono::milliseconds ttl, OnLost on_lost,
                         std::chrono::milliseconds parked_ttl)
    : table_(table), ttl_(ttl), on_lost_(std::move(on_lost)), parked_ttl_(std::max(parked_ttl, ttl)) {
    thread_ = std::thread([this] { run(); });
}

LeaseKeeper::~LeaseKeeper() {
    {
        std::lock_guard lock(mu_);
        stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
    for (const Lease& l : to_release_) (void)table_.release(l);  // forgotten: no one runs them here
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

void LeaseKeeper::park(const std::string& game) {
    {
        std::lock_guard lock(mu_);
        auto it = held_.find(game);
        if (it == held_.end() || it->second.parked) return;
        it->second.parked = true;
        it->second.renew_at = {};  // extended at the thread's next turn
    }
    wake_.notify_all();
}

void LeaseKeeper::forget(const std::string& game) {
    {
        std::lock_guard lock(mu_);
        auto it = held_.find(game);
        if (it == held_.end()) return;
        to_release_.push_back(it->second.lease);
        held_.erase(it);
    }
    wake_.notify_all();
}

std::optional<Lease> LeaseKeeper::held(const std::string& game) const {
    std::lock_guard lock(mu_);
    if (auto it = held_.find(game); it != held_.end()) return it->second.lease;
    return std::nullopt;
}

std::optional<Lease> LeaseKeeper::valid(const std::string& game) const {
    std::lock_guard lock(mu_);
    if (auto it = held_.find(game); it != held_.end() && std::chrono::steady_clock::now() < it->second.valid_until)
        return it->second.lease;
    return std::nullopt;
}

bool LeaseKeeper::live(const std::string& game) const {
    std::lock_guard lock(mu_);
    auto it = held_.find(game);
    return it != held_.end() && !it->second.parked;
}

std::size_t LeaseKeeper::size() const {
    std::lock_guard lock(mu_);
    return std::size_t(std::count_if(held_.begin(), held_.end(), [](const auto& h) { return !h.second.parked; }));
}

std::size_t LeaseKeeper::parked_size() const {
    std::lock_guard lock(mu_);
    return std::size_t(std::count_if(held_.begin(), held_.end(), [](const auto& h) { return h.second.parked; }));
}

// Every turn: the forgotten leases released, the live ones renewed, and the parked
// ones whose time has come (a third of their lease since the last renewal).
void LeaseKeeper::renew_all() {
    std::vector<Lease> live, parked, released;
    {
        std::lock_guard lock(mu_);
        released.swap(to_release_);
        const auto now = std::chrono::steady_clock::now();
        for (auto& [game, h] : held_) {
            if (!h.parked) {
                live.push_back(h.lease);
            } else if (now >= h.renew_at) {
                parked.push_back(h.lease);
                h.renew_at = now + parked_ttl_ / 3;
            }
        }
    }
    for (const Lease& l : released) (void)table_.release(l);
    renew(live, ttl_);
    renew(parked, parked_ttl_);
}

void LeaseKeeper::renew(const std::vector<Lease>& leases, std::chrono::milliseconds ttl) {
    if (leases.empty()) return;
    const auto sent = std::chrono::steady_clock::now();
    auto ours = table_.renew_many(leases, ttl);
    std::vector<std::string> lost;
    {
        std::lock_guard lock(mu_);
        const auto now = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < leases.size(); ++i) {
            const Lease& l = leases[i];
            auto it = held_.find(l.game);
            if (it == held_.end() || it->second.lease != l) continue;  // given up meanwhile
            if (ours && (*ours)[i]) {
                it->second.valid_until = sent + ttl;
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
        // Woken early by a park (its longer lease at once) or a forget (released now).
        wake_.wait_for(lock, ttl_ / 3, [this] {
            return stop_ || !to_release_.empty() ||
                   std::any_of(held_.begin(), held_.end(), [](const auto& h) {
                       return h.second.parked && h.second.renew_at == std::chrono::steady_clock::time_point{};
                   });
        });
        if (stop_) break;
        lock.unlock();
        renew_all();
        lock.lock();
    }
}

}  // namespace outpost::server::redis
