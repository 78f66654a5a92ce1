// Outpost — the simuls on the bus (server/bus/bus.h): the owner of the "simul:ID"
// addresses. A join watches the simul (the credentials' token is the viewer's key; an
// unknown simul is answered on the connection, as before the bus), a message is a ping,
// a leave stops watching.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "server/bus/bus.h"
#include "server/events/simul.h"

namespace outpost::server {

class SimulsOnBus final : public BusHandler {
public:
    explicit SimulsOnBus(SimulService& simuls) : simuls_(simuls) {}
    Answer<Seat> on_join(const Address& at, const std::shared_ptr<Subscriber>& who, const Credentials& c) override {
        simuls_.watch(who, at.id, std::string(c.token), c.account);
        return Seat::SPECTATOR;
    }
    void on_message(const ClientIn& in) override { simuls_.handle_message(in.from, in.text); }
    void on_leave(const Address&, const Subscriber* who) override { simuls_.unwatch(who); }

private:
    SimulService& simuls_;
};

}  // namespace outpost::server
