// Outpost — who runs a game: the node that owns each live game, asked wherever a
// message to a game is routed (server/bus/bus.h).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Today one process runs every game (SingleNodeDirectory). With several nodes (the
// Redis bus of "Many machines") each game is owned by one node through a lease; the
// directory answers from the leases, and the bus forwards a message to the owner
// instead of handing it to the local hub.
#pragma once

#include <string>
#include <string_view>

namespace outpost::server {

class GameDirectory {
public:
    virtual ~GameDirectory() = default;
    // The name of the node that runs game `game_id` (it may not exist: the owner says so).
    virtual std::string_view owner_of(std::string_view game_id) const = 0;
    // The name of this node.
    virtual std::string_view this_node() const = 0;
    bool runs_here(std::string_view game_id) const { return owner_of(game_id) == this_node(); }
};

// One process, every game: the server as it runs today.
class SingleNodeDirectory final : public GameDirectory {
public:
    explicit SingleNodeDirectory(std::string name = "local") : name_(std::move(name)) {}
    std::string_view owner_of(std::string_view) const override { return name_; }
    std::string_view this_node() const override { return name_; }

private:
    std::string name_;
};

}  // namespace outpost::server
