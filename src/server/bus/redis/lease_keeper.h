// Outpost — the leases a node holds, kept alive (issue 26): the games this node runs
// are renewed together on one thread, every third of the lease time, and a game whose
// lease was lost (Redis down longer than the lease, or this node paused past it and
// another took the game over) is reported at once so that the node stops running it.
// A finished game still in this node's memory keeps its lease (a rematch offer must
// reach one room), parked: renewed for a long time at a slow pace, so that the
// renewals stay proportional to the live games; it is released when the game leaves
// memory.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// While Redis cannot be reached the keeper keeps trying; a lease is reported lost only
// when its time has run out since its last successful renewal (counted on this node's
// steady clock, from before the renewal was sent, so never later than Redis's own
// expiry), or when Redis says another node holds it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "server/bus/redis/redis_lease.h"

namespace outpost::server::redis {

class LeaseKeeper {
public:
    using OnLost = std::function<void(const std::string& game)>;

    // on_lost runs on the keeper's thread, once per lost lease, without the keeper's lock.
    // A parked lease lasts `parked_ttl` and is renewed every third of it.
    LeaseKeeper(LeaseTable& table, std::chrono::milliseconds ttl, OnLost on_lost,
                std::chrono::milliseconds parked_ttl = std::chrono::minutes(1));
    ~LeaseKeeper();  // stops renewing (the leases run out by themselves unless released)
    LeaseKeeper(const LeaseKeeper&) = delete;
    LeaseKeeper& operator=(const LeaseKeeper&) = delete;

    // Takes the game's lease for this node and keeps it: the holder (another node's
    // grant when it is not ours, which this keeper then does not keep).
    Result<Lease> take(const std::string& game);
    // Gives up one game (its end, or a hand-over on SIGTERM): released in Redis now.
    Result<bool> give_up(const std::string& game);
    // Every lease released (a SIGTERM hand-over: the other nodes take the games at once).
    void give_up_all();
    // The game ended: its lease is parked (extended to parked_ttl by the keeper's thread,
    // never blocking the caller). Nothing when this node keeps no lease for it.
    void park(const std::string& game);
    // The game left this node's memory: its lease is released by the keeper's thread.
    void forget(const std::string& game);
    // The grant this node holds for a game, if it keeps one (its token fences its writes).
    std::optional<Lease> held(const std::string& game) const;
    // The same, only while its grant lasts as this node counts (not after a pause of
    // this process past it, before the keeper has found the lease lost).
    std::optional<Lease> valid(const std::string& game) const;
    // Whether it keeps the game's lease at the live pace (held and not parked).
    bool live(const std::string& game) const;
    std::size_t size() const;         // the leases renewed at the live pace
    std::size_t parked_size() const;  // the parked ones

private:
    struct Held {
        Lease lease;
        std::chrono::steady_clock::time_point valid_until;
        bool parked = false;
        std::chrono::steady_clock::time_point renew_at{};  // parked: its next renewal
    };
    void run();
    void renew_all();
    // Renews `leases` for `ttl`; those no longer ours are reported lost.
    void renew(const std::vector<Lease>& leases, std::chrono::milliseconds ttl);

    LeaseTable& table_;
    std::chrono::milliseconds ttl_;
    OnLost on_lost_;
    std::chrono::milliseconds parked_ttl_;
    mutable std::mutex mu_;
    std::condition_variable wake_;
    std::map<std::string, Held> held_;
    std::vector<Lease> to_release_;  // forgotten, released by the thread
    bool stop_ = false;
    std::thread thread_;
};

}  // namespace outpost::server::redis
