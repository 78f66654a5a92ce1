// Outpost — a connection of another node, as the hub here sees it (redis_bus.h): what
// the hub delivers to it goes to that node's channel, tagged with its number, in order.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "server/bus/redis/redis_bus.h"

namespace outpost::server::redis {

class RedisBus::Proxy final : public Subscriber {
public:
    Proxy(RedisBus& bus, std::string node, std::uint64_t conn, std::int64_t account)
        : bus_(bus), node_(std::move(node)), conn_(conn), account_(account) {}
    // Under the hub's lock or on the writer's thread: queued for the publisher, never waits.
    void deliver(std::shared_ptr<const std::string> message) override { bus_.post_out(node_, conn_, std::move(message)); }
    std::int64_t account_id() const override { return account_; }
    const std::string& node() const { return node_; }
    std::uint64_t conn() const { return conn_; }

private:
    RedisBus& bus_;
    const std::string node_;
    const std::uint64_t conn_;
    const std::int64_t account_;
};

}  // namespace outpost::server::redis
