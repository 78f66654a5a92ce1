// Outpost — the per-address limits of a cluster counted in Redis (issue 26;
// common/shared_limits.h; docs/scaling.md, "Limits across nodes").
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Every check is one Lua script, one round trip, on the clock of Redis (TIME: the nodes'
// clocks never compare). Keys are PREFIX "limit:KIND:KEY", KEY the address group
// (guards.h address_group: an IPv6 /64 is one) or an account's key; a KEY that is long
// or holds bytes other than printable ASCII is replaced by a hash of it ("h:…"), so
// hostile text never makes a large or odd key. Every key expires by itself:
//   - a token bucket (GCRA): a string, the bucket's "theoretical arrival time", kept as
//     long as the bucket is not full;
//   - wrong passwords per account: a hash (failures, next allowed time), a day;
//   - open games: a sorted set of game ids by creation time, entries older than the
//     longest an open game may count pruned on every reservation;
//   - connections: a hash of node -> "count expiry", each node's field renewed by it
//     every second and dropped by any node once expired (a dead node's count goes).
// Two connections of its own: one for the checks (the request and password pools, the
// domains thread) with a short timeout, one for its thread, which sends what may not
// block (a game's end, the connection counts) and renews this node's counts.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "server/bus/redis/redis_client.h"
#include "server/common/shared_limits.h"

namespace outpost::server::redis {

class RedisLimits : public SharedLimits {
public:
    struct Options {
        Endpoint where;
        std::string node;                   // this node's field in the connection counts
        std::string prefix = "outpost:";
        std::chrono::milliseconds timeout{300};      // a check waits at most this (then: local only)
        std::chrono::milliseconds sync_every{1000};  // connection counts sent and read back
        std::chrono::milliseconds sync_soon{100};    // ... and at most this long after a change
        std::chrono::milliseconds count_ttl{5000};   // a node's counts, unless renewed
        std::size_t max_queue = 100'000;             // game ends waiting to be sent; more are dropped
    };
    // Starts its thread; Redis is not asked yet (a check that cannot reach it falls back).
    explicit RedisLimits(Options options);
    ~RedisLimits() override;  // stops the thread; this node's counts expire by themselves
    RedisLimits(const RedisLimits&) = delete;
    RedisLimits& operator=(const RedisLimits&) = delete;

    Result<bool> take(std::string_view kind, std::string_view key, double per_second, double burst) override;
    Result<Millis> attempt_wait(std::string_view key) override;
    Result<bool> attempt_failed(std::string_view key, const AttemptGuard::Options& options) override;
    Result<bool> attempt_succeeded(std::string_view key) override;
    Result<bool> reserve_open_game(std::string_view key, std::string_view token, int cap, Millis max_age_ms) override;
    Result<bool> settle_open_game(std::string_view key, std::string_view token, std::string_view game_id) override;
    void open_game_ended(std::string_view key, std::string_view game_id) override;
    int connections_elsewhere(const std::string& group) override;
    void connections_here(const std::string& group, int count) override;

    // The Redis key of a limit (for tests and docs): PREFIX "limit:" KIND ":" safe KEY.
    std::string key_of(std::string_view kind, std::string_view key) const;
    // Sends the connection counts now and reads the others' back (the thread does it
    // every sync_every; tests call it to not wait).
    Result<bool> sync_connections();
    // Waits until the queued game ends are sent (tests), at most `wait`.
    bool flush(std::chrono::milliseconds wait);
    // Whether the last command reached Redis.
    bool reachable() const { return reachable_.load(); }

private:
    Result<Reply> run(RedisClient& client, std::vector<std::string> argv);
    void loop();

    Options options_;
    RedisClient checks_, background_;
    std::atomic<bool> reachable_{true};
    std::mutex log_mutex_;

    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false, sending_ = false;
    std::deque<std::pair<std::string, std::string>> ended_;  // (redis key, game id)
    std::unordered_map<std::string, int> here_;              // group -> connections on this node
    std::unordered_set<std::string> fresh_;                  // groups not yet sent
    bool changed_ = false;                                   // a count changed since the last sync
    std::unordered_map<std::string, int> elsewhere_;         // group -> on the other nodes, as last read
    std::thread thread_;
};

}  // namespace outpost::server::redis
