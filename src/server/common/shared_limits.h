// Outpost — per-address limits counted by every node of a cluster (issue 26; docs/protocol.md,
// "Limits"; docs/scaling.md). One node alone has none (a null SharedLimits*): its local
// counters (guards.h, the hub's open games) are the whole limit. With `--bus` every node
// keeps its local counters and also asks the shared ones, so that N nodes behind a front
// do not give an address N times its share.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The implementation (server/bus/redis/redis_limits.h) keeps the counts in Redis; the
// rooms see only this interface. A method that returns a Result may block for up to its
// connection's timeout: it is called on the request pool, the password pool or the
// domains thread, never on a network thread. An error means the shared count cannot be
// reached now: the caller's local limit alone holds (the implementation logs that once,
// and once when it is back). The methods that return nothing never block (queued, or a
// cache read): they are the ones the network threads and the hub's lock call.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "chess/clock.h"  // Millis
#include "chess/result.h"
#include "server/common/guards.h"

namespace outpost::server {

class SharedLimits {
public:
    virtual ~SharedLimits() = default;

    // A token bucket of `burst` tokens refilled at `per_second` (GCRA), one for every
    // node, under `kind` ("auth", "post" …) and the key's address group (address_group;
    // an account key such as "name:alice" is itself). Takes a token: true allowed,
    // false refused.
    virtual Result<bool> take(std::string_view kind, std::string_view key, double per_second, double burst) = 0;

    // AttemptGuard's rule (guards.h), one count for every node: the milliseconds an
    // attempt on the account `key` must still wait (0: none); a wrong password; a right one.
    virtual Result<Millis> attempt_wait(std::string_view key) = 0;
    virtual Result<bool> attempt_failed(std::string_view key, const AttemptGuard::Options& options) = 0;
    virtual Result<bool> attempt_succeeded(std::string_view key) = 0;

    // The open-games cap (the hub's open_keys): a place among the `cap` unfinished games
    // of `key`, held by `token` until settled (true: held; false: the cap is reached).
    // Entries older than `max_age_ms` no longer count (a game's end that never reached
    // the shared count: Redis away at that moment).
    virtual Result<bool> reserve_open_game(std::string_view key, std::string_view token, int cap, Millis max_age_ms) = 0;
    // The place of `token` becomes the game `game_id`'s ("": given back, no game made).
    virtual Result<bool> settle_open_game(std::string_view key, std::string_view token, std::string_view game_id) = 0;
    // The game ended (on whichever node ran it then): its place is free. Never blocks.
    virtual void open_game_ended(std::string_view key, std::string_view game_id) = 0;

    // Connections per address group: those open on the other nodes (as last heard: a
    // cache, never blocks), and this node's own count now (published soon, and renewed
    // while it lasts: a node that dies leaves nothing behind after its counts expire).
    virtual int connections_elsewhere(const std::string& group) = 0;
    virtual void connections_here(const std::string& group, int count) = 0;
};

}  // namespace outpost::server
