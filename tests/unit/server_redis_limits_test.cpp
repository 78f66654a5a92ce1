// Outpost — the per-address limits shared by the nodes of a cluster (issue 26, "the
// per-address limits and the open-games cap" shared; server/bus/redis/redis_limits.h)
// against a real redis-server of the test's own: two RedisLimits are two nodes.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <thread>

#include "server/bus/redis/redis_client.h"
#include "server/bus/redis/redis_limits.h"
#include "../support/redis_server.h"

using namespace outpost::server;
using namespace outpost::server::redis;
using namespace std::chrono_literals;

namespace {

RedisLimits::Options node(const outpost::test::RedisServer& s, const std::string& name) {
    RedisLimits::Options o;
    o.where = *Endpoint::parse(s.url());
    o.node = name;
    o.sync_every = 100ms;
    o.count_ttl = 600ms;
    return o;
}

template <class F>
bool eventually(F f, std::chrono::milliseconds within = 5s) {
    const auto until = std::chrono::steady_clock::now() + within;
    while (std::chrono::steady_clock::now() < until) {
        if (f()) return true;
        std::this_thread::sleep_for(10ms);
    }
    return f();
}

int allowed(RedisLimits& l, const std::string& kind, const std::string& key, double rate, double burst, int tries) {
    int n = 0;
    for (int i = 0; i < tries; ++i) {
        auto r = l.take(kind, key, rate, burst);
        EXPECT_TRUE(r.ok()) << r.error().message;
        n += r.ok() && *r;
    }
    return n;
}

}  // namespace

TEST(RedisLimitsIssue26, TwoNodesShareOneBucketPerAddressGroup) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running()) << "redis-server did not start (scripts/install-deps.sh installs it)";
    RedisLimits a(node(server, "a")), b(node(server, "b"));
    // A burst of 10 at 1 a minute: 6 on one node and 6 on the other are 10 in all.
    EXPECT_EQ(allowed(a, "auth", "198.51.100.7", 1.0 / 60, 10, 6), 6);
    EXPECT_EQ(allowed(b, "auth", "198.51.100.7", 1.0 / 60, 10, 6), 4);
    // One IPv6 /64 is one client, written however the address is written.
    EXPECT_EQ(allowed(a, "auth", "2001:db8:1:2::5", 1.0 / 60, 3, 2), 2);
    EXPECT_EQ(allowed(b, "auth", "2001:db8:1:2:ffff::9", 1.0 / 60, 3, 2), 1);
    // Another address, and another kind of limit, have buckets of their own.
    EXPECT_EQ(allowed(b, "auth", "198.51.100.8", 1.0 / 60, 10, 1), 1);
    EXPECT_EQ(allowed(b, "post", "198.51.100.7", 1.0 / 60, 10, 1), 1);
}

TEST(RedisLimitsIssue26, ABucketRefillsAndItsKeyExpiresByItself) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running());
    RedisLimits a(node(server, "a")), b(node(server, "b"));
    // 20 tokens a second, a burst of 2: empty after 2, one more 50 ms later (on the other node).
    EXPECT_EQ(allowed(a, "post", "192.0.2.1", 20, 2, 3), 2);
    std::this_thread::sleep_for(120ms);
    EXPECT_EQ(allowed(b, "post", "192.0.2.1", 20, 2, 1), 1);
    RedisClient probe(*Endpoint::parse(server.url()));
    auto ttl = probe.command({"PTTL", a.key_of("post", "192.0.2.1")});
    ASSERT_TRUE(ttl.ok());
    EXPECT_GT(ttl->integer, 0);  // it has an expiry: no key lives forever
    EXPECT_LE(ttl->integer, 100);
    EXPECT_TRUE(eventually([&] { return probe.command({"EXISTS", a.key_of("post", "192.0.2.1")})->integer == 0; }));
}

TEST(RedisLimitsIssue26, WrongPasswordsPerAccountCountOnEveryNode) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running());
    RedisLimits a(node(server, "a")), b(node(server, "b"));
    AttemptGuard::Options o;
    o.free_failures = 3;
    o.first_delay_ms = 60'000;
    o.max_delay_ms = 240'000;
    // Two free failures on one node and one on the other: still free.
    ASSERT_TRUE(a.attempt_failed("name:alice", o).ok());
    ASSERT_TRUE(a.attempt_failed("name:alice", o).ok());
    ASSERT_TRUE(b.attempt_failed("name:alice", o).ok());
    EXPECT_EQ(*a.attempt_wait("name:alice"), 0);
    // The fourth, on either node: both make the next attempt wait the first delay.
    ASSERT_TRUE(b.attempt_failed("name:alice", o).ok());
    EXPECT_GT(*a.attempt_wait("name:alice"), 55'000);
    EXPECT_LE(*b.attempt_wait("name:alice"), 60'000);
    // It doubles, up to the longest.
    ASSERT_TRUE(a.attempt_failed("name:alice", o).ok());
    EXPECT_GT(*b.attempt_wait("name:alice"), 115'000);
    for (int i = 0; i < 5; ++i) ASSERT_TRUE(a.attempt_failed("name:alice", o).ok());
    EXPECT_LE(*b.attempt_wait("name:alice"), 240'000);
    EXPECT_GT(*b.attempt_wait("name:alice"), 235'000);
    EXPECT_EQ(*b.attempt_wait("name:bob"), 0);  // another account is not slowed
    // The right password, on either node, ends the count.
    ASSERT_TRUE(b.attempt_succeeded("name:alice").ok());
    EXPECT_EQ(*a.attempt_wait("name:alice"), 0);
}

TEST(RedisLimitsIssue26, TheOpenGamesCapHoldsAcrossNodesAndAGameEndsOnAnyNode) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running());
    RedisLimits a(node(server, "a")), b(node(server, "b"));
    const std::string key = "203.0.113.9";
    ASSERT_TRUE(*a.reserve_open_game(key, "pending:1", 2, 3'600'000));
    ASSERT_TRUE(*a.settle_open_game(key, "pending:1", "game1"));
    ASSERT_TRUE(*b.reserve_open_game(key, "pending:2", 2, 3'600'000));
    EXPECT_TRUE(*b.reserve_open_game(key, "pending:2", 2, 3'600'000));  // the same token again: its own place
    EXPECT_FALSE(*a.reserve_open_game(key, "pending:3", 2, 3'600'000));  // two open: the cap
    // A game not made gives its place back.
    EXPECT_FALSE(*b.settle_open_game(key, "pending:2", ""));
    ASSERT_TRUE(*a.reserve_open_game(key, "pending:3", 2, 3'600'000));
    ASSERT_TRUE(*a.settle_open_game(key, "pending:3", "game3"));
    EXPECT_FALSE(*b.reserve_open_game(key, "pending:4", 2, 3'600'000));
    // game1, made on node a, ends on node b (which took it over): its place is free.
    b.open_game_ended(key, "game1");
    ASSERT_TRUE(b.flush(5s));
    EXPECT_TRUE(*a.reserve_open_game(key, "pending:4", 2, 3'600'000));
}

TEST(RedisLimitsIssue26, AnOpenGameWhoseEndWasLostStopsCountingAfterTheLongestWait) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running());
    RedisLimits a(node(server, "a"));
    ASSERT_TRUE(*a.reserve_open_game("192.0.2.50", "t1", 1, 150));
    EXPECT_FALSE(*a.reserve_open_game("192.0.2.50", "t2", 1, 150));
    std::this_thread::sleep_for(250ms);
    EXPECT_TRUE(*a.reserve_open_game("192.0.2.50", "t2", 1, 150));
}

TEST(RedisLimitsIssue26, ConnectionsOfOtherNodesAreHeardAndADeadNodesCountExpires) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running());
    RedisLimits b(node(server, "b"));
    {
        RedisLimits a(node(server, "a"));
        a.connections_here("198.51.100.20", 5);
        b.connections_here("198.51.100.20", 2);
        EXPECT_TRUE(eventually([&] { return b.connections_elsewhere("198.51.100.20") == 5; }));
        EXPECT_TRUE(eventually([&] { return a.connections_elsewhere("198.51.100.20") == 2; }));
        a.connections_here("198.51.100.20", 3);  // closed ones are heard too
        EXPECT_TRUE(eventually([&] { return b.connections_elsewhere("198.51.100.20") == 3; }));
        EXPECT_EQ(b.connections_elsewhere("198.51.100.99"), 0);
    }  // node a is gone without a word (its thread stops, its count stays in Redis)...
    // ... and stops counting once its count's time is over (600 ms here).
    EXPECT_TRUE(eventually([&] { return b.connections_elsewhere("198.51.100.20") == 0; }, 3s));
}

// The limiters of the request pool's routes (players' reports, puzzles, learning from
// mistakes: RateLimiter::share): two nodes' limiters give an address its burst once in
// all, each node's own bucket still holds, and Redis away leaves each node's alone.
TEST(RedisLimitsIssue26, TwoNodesRateLimitersOfOneKindShareTheAddresssBurst) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running());
    RedisLimits shared_a(node(server, "a")), shared_b(node(server, "b"));
    RateLimiter reports_a(1.0 / 360, 5), reports_b(1.0 / 360, 5);  // AdminService's: 5, then one each 6 minutes
    reports_a.share(&shared_a, "report");
    reports_b.share(&shared_b, "report");
    int on_a = 0, on_b = 0;
    for (int i = 0; i < 3; ++i) on_a += reports_a.allow("198.51.100.40", 1000);
    for (int i = 0; i < 5; ++i) on_b += reports_b.allow("198.51.100.40", 1000);
    EXPECT_EQ(on_a, 3);
    EXPECT_EQ(on_b, 2) << "five in all, not five a node";
    EXPECT_TRUE(reports_b.allow("198.51.100.41", 1000)) << "another address has its own count";
    RateLimiter puzzles_b(10, 60);
    puzzles_b.share(&shared_b, "puzzle_read");
    EXPECT_TRUE(puzzles_b.allow("198.51.100.40", 1000)) << "another kind has its own count";
    server.stop();
    RateLimiter alone(1.0 / 360, 2);
    alone.share(&shared_a, "report");
    EXPECT_TRUE(alone.allow("198.51.100.42", 1000));
    EXPECT_TRUE(alone.allow("198.51.100.42", 1000));
    EXPECT_FALSE(alone.allow("198.51.100.42", 1000)) << "Redis away: this node's own bucket holds";
}

TEST(RedisLimitsIssue26, RedisAwayIsAnErrorSoTheLocalLimitAloneHolds) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running());
    RedisLimits a(node(server, "a")), b(node(server, "b"));
    a.connections_here("198.51.100.30", 4);
    b.connections_here("198.51.100.30", 1);
    ASSERT_TRUE(eventually([&] { return b.connections_elsewhere("198.51.100.30") == 4; }));
    server.stop();
    const auto started = std::chrono::steady_clock::now();
    EXPECT_FALSE(a.take("post", "198.51.100.30", 1, 10).ok());
    EXPECT_FALSE(a.attempt_wait("name:alice").ok());
    EXPECT_FALSE(a.reserve_open_game("198.51.100.30", "t", 20, 1000).ok());
    EXPECT_LT(std::chrono::steady_clock::now() - started, 2s);  // no long waits: each a failed connect at most
    EXPECT_FALSE(a.reachable());
    // The other nodes' connections are no longer counted: this node's own cap holds.
    EXPECT_TRUE(eventually([&] { return b.connections_elsewhere("198.51.100.30") == 0; }));
    a.open_game_ended("198.51.100.30", "g");  // queued, kept while Redis is away: no hang, no crash
    EXPECT_FALSE(a.flush(300ms));
    // Back: shared again, and the game's end is sent.
    ASSERT_TRUE(server.start());
    EXPECT_TRUE(eventually([&] { return a.take("post", "198.51.100.30", 1, 10).ok(); }));
    EXPECT_TRUE(a.reachable());
    EXPECT_TRUE(a.flush(5s));
}

TEST(RedisLimitsIssue26, HostileKeyTextsMakeSmallPlainKeys) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running());
    RedisLimits a(node(server, "a")), b(node(server, "b"));
    const std::string odd[] = {std::string(100'000, 'x'), std::string("a\0b", 3), "a b\r\nDEL *", "", "\xff\xfe",
                               "name:\xe5\x90\x8d", "*", "limit:auth:1.2.3.4", "::ffff:1.2.3.4"};
    for (const std::string& k : odd) {
        const std::string key = a.key_of("auth", k);
        EXPECT_LE(key.size(), 60u) << k.size();
        for (char c : key) EXPECT_GT(static_cast<unsigned char>(c), 0x20);
        EXPECT_EQ(key, b.key_of("auth", k));  // the same on every node
        auto r = a.take("auth", k, 1, 2);
        ASSERT_TRUE(r.ok()) << r.error().message;
        EXPECT_TRUE(*r);
        ASSERT_TRUE(a.attempt_failed(k, AttemptGuard::Options{}).ok());
        ASSERT_TRUE(a.reserve_open_game(k, k, 1, 1000).ok());
    }
    // Different texts never share a key; an IPv4-mapped address is its IPv4 address.
    EXPECT_NE(a.key_of("auth", "a b"), a.key_of("auth", "a  b"));
    EXPECT_NE(a.key_of("auth", std::string(101, 'x')), a.key_of("auth", std::string(102, 'x')));
    EXPECT_EQ(allowed(a, "c", "::ffff:1.2.3.4", 1.0 / 60, 1, 1), 1);
    EXPECT_EQ(allowed(b, "c", "1.2.3.4", 1.0 / 60, 1, 1), 0);
    // Nonsense rates are refused, not sent.
    EXPECT_FALSE(a.take("auth", "1.2.3.4", 0, 10).ok());
    EXPECT_FALSE(a.take("auth", "1.2.3.4", 1, 0).ok());
    EXPECT_FALSE(a.take("auth", "1.2.3.4", std::nan(""), 10).ok());
    // A field in the connection counts that is not "count expiry" (written by anything
    // else in Redis) is dropped, never counted.
    RedisClient probe(*Endpoint::parse(server.url()));
    ASSERT_TRUE(probe.command({"HSET", a.key_of("conn", "192.0.2.77"), "evil", "999999 99999999999999999"}).ok());
    ASSERT_TRUE(probe.command({"HSET", a.key_of("conn", "192.0.2.77"), "junk", "lots"}).ok());
    a.connections_here("192.0.2.77", 1);
    ASSERT_TRUE(a.sync_connections().ok());
    EXPECT_EQ(a.connections_elsewhere("192.0.2.77"), 0);
    EXPECT_EQ(probe.command({"HEXISTS", a.key_of("conn", "192.0.2.77"), "junk"})->integer, 0);
    EXPECT_EQ(probe.command({"HEXISTS", a.key_of("conn", "192.0.2.77"), "evil"})->integer, 0);
}

// What a node pays (docs/scaling.md, "Limits across nodes"): a shared check is one round
// trip to Redis, on the request or password pool; what a network thread asks (the
// connection cap) is a read of memory.
TEST(RedisLimitsIssue26, ACheckIsOneRoundTripAndTheNetworkThreadsReadMemory) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running());
    RedisLimits a(node(server, "a"));
    constexpr int Checks = 500, Reads = 100'000;
    auto started = std::chrono::steady_clock::now();
    for (int i = 0; i < Checks; ++i) ASSERT_TRUE(a.take("post", "192.0.2." + std::to_string(i % 200), 1, 60).ok());
    const double check_us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - started).count() / Checks;
    a.connections_here("192.0.2.1", 3);
    started = std::chrono::steady_clock::now();
    int sum = 0;
    for (int i = 0; i < Reads; ++i) sum += a.connections_elsewhere("192.0.2.1");
    const double read_ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - started).count() / Reads;
    std::cout << "shared limits: " << check_us << " us a check (Redis on a Unix socket), " << read_ns
              << " ns a connection-cap read (" << sum << ")\n";
    RecordProperty("check_us", std::to_string(check_us));
    RecordProperty("read_ns", std::to_string(read_ns));
    EXPECT_LT(check_us, 20'000);  // a round trip, not a timeout
    EXPECT_LT(read_ns, 100'000);  // no round trip at all
}
