// Outpost — the lobby on the bus (server/bus/bus.h): the owner of the "lobby" address.
// A join enters the lobby (sent the lobby at once), a message is a member's, a leave
// takes the member's seeks with it. Every member is a spectator to the bus: the lobby
// knows its members by their connections.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "server/bus/bus.h"
#include "server/players/lobby.h"

namespace outpost::server {

class LobbyOnBus final : public BusHandler {
public:
    explicit LobbyOnBus(Lobby& lobby) : lobby_(lobby) {}
    Answer<Seat> on_join(const Address&, const std::shared_ptr<Subscriber>& who, const Credentials& c) override {
        lobby_.join(who, c.client, c.account);
        return Seat::SPECTATOR;
    }
    void on_message(const ClientIn& in) override { lobby_.handle_message(in.from, in.text); }
    void on_leave(const Address&, const Subscriber* who) override { lobby_.leave(who); }

private:
    Lobby& lobby_;
};

}  // namespace outpost::server
