// Outpost — the leases a node holds, kept alive (issue 26): the games this node runs
// are renewed together on one thread, every third of the lease time, and a game whose
// lease was lost (Redis down longer than the lease, or this node paused past it and
// another took the game over) is reported at once so that the node stops running it.
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
    LeaseKeeper(LeaseTable& table, std::chrono::milliseconds ttl, OnLost on_lost);
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
    // The grant this node holds for a game, if it keeps one (its token fences its writes).
    std::optional<Lease> held(const std::string& game) const;
    std::size_t size() const;

private:
    struct Held {
        Lease lease;
        std::chrono::steady_clock::time_point valid_until;
    };
    void run();
    void renew_all();

    LeaseTable& table_;
    std::chrono::milliseconds ttl_;
    OnLost on_lost_;
    mutable std::mutex mu_;
    std::condition_variable wake_;
    std::map<std::string, Held> held_;
    bool stop_ = false;
    std::thread thread_;
};

}  // namespace outpost::server::redis
