// Outpost — who runs a game when several nodes share one Redis (issue 26): an ownership
// lease per game, with a fencing token.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A node runs a game only while it holds the game's lease: a Redis key
// PREFIX "lease:game:" ID whose value is the node's name and a token, set with an expiry
// (PX). The node renews it well before it expires (every third of the time); a node
// that dies stops renewing, the key expires, and the first node that asks for the game
// afterwards takes it over. Each grant draws a new token from one counter
// (PREFIX "fence"), so tokens only grow: the store keeps the highest token that wrote a
// game and refuses a write with a lower one, so that a node that was paused past its
// lease (a long GC-like stall, a frozen VM) cannot write over its successor's moves.
// Every step is one Lua script, atomic in Redis: a renewal or release names the whole
// value (node and token), so a node can only extend or drop its own grant.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chess/result.h"
#include "server/bus/redis/redis_client.h"

namespace outpost::server::redis {

// The name of the lease of the domains node (the lobby, events, simuls, the analysis
// queue: one node at a time), key PREFIX "lease:domains". A name that starts with '@' is
// not a game's (RedisBus refuses such game ids from clients).
inline constexpr std::string_view DomainsLease = "@domains";

struct Lease {
    std::string game;
    std::string node;       // the holder
    std::int64_t token = 0; // its fencing token
    bool operator==(const Lease&) const = default;
};

class LeaseTable {
public:
    // prefix: every key this table writes starts with it ("outpost:" by default, one
    // per cluster sharing a Redis).
    LeaseTable(RedisClient& redis, std::string node, std::string prefix = "outpost:");

    // Takes the lease of `game` for `ttl`, or extends it when this node holds it. The
    // holder afterwards: this node (a new token, or the same one when extended), or the
    // other node that holds it.
    Result<Lease> acquire(std::string_view game, std::chrono::milliseconds ttl);
    // Extends a lease this node holds; false when it is no longer ours (expired and taken).
    Result<bool> renew(const Lease& lease, std::chrono::milliseconds ttl);
    // Many at once, in one round trip (a node renews all its games together): for each,
    // whether it is still ours.
    Result<std::vector<bool>> renew_many(const std::vector<Lease>& leases, std::chrono::milliseconds ttl);
    // Gives it up (a SIGTERM hand-over): false when it was no longer ours.
    Result<bool> release(const Lease& lease);
    // Who holds it now, if anyone.
    Result<std::optional<Lease>> holder(std::string_view game);
    // Who holds each of many, in one round trip (one MGET: the watcher of the games a
    // node's connections follow elsewhere), in the order asked.
    Result<std::vector<std::optional<Lease>>> holders(const std::vector<std::string>& games);
    // The token counter is raised to at least `floor` (a Redis that restarted empty
    // starts it again from 0, below the tokens the database has seen).
    Result<bool> raise_fence(std::int64_t floor);

    const std::string& node() const { return node_; }
    static bool valid_node_name(std::string_view name);  // 1-64 of A-Z a-z 0-9 . _ -

private:
    std::string key(std::string_view name) const {
        if (!name.empty() && name[0] == '@') return prefix_ + "lease:" + std::string(name.substr(1));
        return prefix_ + "lease:game:" + std::string(name);
    }
    std::optional<Lease> read_value(std::string_view game, std::string_view value) const;

    RedisClient& redis_;
    std::string node_;
    std::string prefix_;
};

}  // namespace outpost::server::redis
