// Outpost — the bus within one process (server/bus/bus.h): the table of which
// connection has joined which address with which seat, and the routing of joins,
// messages and leaves to the owners of their topics. Delivery is synchronous.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <map>
#include <mutex>
#include <utility>

#include "server/bus/bus.h"
#include "server/bus/game_directory.h"

namespace outpost::server {

class InProcessBus final : public Bus {
public:
    // `directory`: who runs each game (null: this process runs every game).
    explicit InProcessBus(const GameDirectory* directory = nullptr);

    void serve(Topic topic, BusHandler* owner) override;
    Answer<Seat> join(const Address& at, const std::shared_ptr<Subscriber>& who, const Credentials& c) override;
    void send(const Address& at, Subscriber& from, std::string_view text, Millis lag_ms = 0) override;
    void leave(const Address& at, const Subscriber* who) override;

    size_t joined() const;  // connections joined to addresses (for tests)

private:
    Answer<BusHandler*> route(const Address& at) const;
    Answer<BusHandler*> checked(const Address& at, BusHandler* owner) const;  // null: nobody serves the topic

    SingleNodeDirectory single_;
    const GameDirectory* directory_;
    mutable std::mutex mutex_;
    BusHandler* owners_[TopicCount] = {};
    std::map<std::pair<const Subscriber*, Address>, Seat> joined_;
};

}  // namespace outpost::server
