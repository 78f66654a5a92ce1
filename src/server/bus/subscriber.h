// Outpost — a connection's end of the bus: where the messages of a game, the lobby or
// a simul are delivered (server/bus/bus.h says who delivers what, and when).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace outpost::server {

// Someone following an address: a player's or a spectator's connection (the edge's
// WebSocket session), or a test's inbox.
class Subscriber {
public:
    virtual ~Subscriber() = default;
    // Must not block and must not call the hub or the bus (it may be called under the
    // hub's lock or from the storage writer's thread once a batch is durable).
    virtual void deliver(std::shared_ptr<const std::string> message) = 0;
    // The signed-in account of this connection (P21), resolved from the session cookie
    // at the WebSocket upgrade; 0: anonymous.
    virtual std::int64_t account_id() const { return 0; }
};

}  // namespace outpost::server
