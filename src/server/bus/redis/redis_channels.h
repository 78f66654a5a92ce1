// Outpost — Redis publish/subscribe for the bus between nodes (issue 26): a node
// publishes to another node's channel (a message for a game that node runs) or to a
// game's channel (what happened, for every node with a follower), and one subscriber
// thread per node receives what its channels carry, in the order it was published.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Redis delivers a channel's messages at most once and in order per publishing
// connection; what is published while a subscriber is disconnected is lost to it. So
// the subscriber says when it loses and regains Redis (on_link): on regaining, the owner
// of the channels resynchronises from the store (a game's state is durable before it is
// published), and a browser gets a full state, as after any reconnection. The
// subscriber reconnects by itself with a growing pause (50 ms to 2 s) and subscribes
// again to every channel it had.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "server/bus/redis/redis_client.h"

namespace outpost::server::redis {

class RedisSubscriber {
public:
    using OnMessage = std::function<void(const std::string& channel, const std::string& payload)>;
    using OnLink = std::function<void(bool up)>;

    // Both callbacks run on the subscriber's own thread, one at a time.
    RedisSubscriber(Endpoint where, OnMessage on_message, OnLink on_link = {});
    ~RedisSubscriber();  // stops the thread
    RedisSubscriber(const RedisSubscriber&) = delete;
    RedisSubscriber& operator=(const RedisSubscriber&) = delete;

    // Takes effect on the subscriber's thread within a few milliseconds; kept across
    // reconnections.
    void subscribe(const std::string& channel);
    void unsubscribe(const std::string& channel);
    // Waits until every subscribe asked so far is confirmed by Redis (false: not within
    // `timeout`, Redis down). For a start that must not miss the first messages.
    bool wait_subscribed(std::chrono::milliseconds timeout);
    bool linked() const { return linked_.load(); }

private:
    void run();
    bool pump(struct redisContext* c);

    Endpoint where_;
    OnMessage on_message_;
    OnLink on_link_;
    std::mutex mu_;
    std::set<std::string> wanted_;                 // what we should be subscribed to
    std::vector<std::pair<bool, std::string>> todo_;  // (subscribe?, channel) not yet sent
    std::set<std::string> confirmed_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> linked_{false};
    std::thread thread_;
};

// Publishes on its own client; the number of subscribers that received it.
Result<long long> publish(RedisClient& redis, const std::string& channel, const std::string& payload);
// Many messages, in order, in one round trip (RedisClient::pipeline): for each, the
// subscribers that received it, or the error.
std::vector<Result<long long>> publish_all(RedisClient& redis,
                                           const std::vector<std::pair<std::string_view, std::string_view>>& messages);

}  // namespace outpost::server::redis
