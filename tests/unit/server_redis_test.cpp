// Outpost — the Redis pieces of "Many machines" (issue 26, SPEC D2) against a real
// redis-server of the test's own (tests/support/redis_server.h): the address of a
// Redis, commands and their errors, a Redis that goes away and comes back, the games'
// ownership leases with their fencing tokens, and publish/subscribe in order.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <thread>

#include "server/bus/redis/redis_channels.h"
#include "server/bus/redis/redis_client.h"
#include "server/bus/redis/lease_keeper.h"
#include "server/bus/redis/redis_lease.h"
#include "../support/redis_server.h"

using namespace outpost::server::redis;
using namespace std::chrono_literals;

namespace {

Endpoint at(const outpost::test::RedisServer& s) { return *Endpoint::parse(s.url()); }

template <class F>
bool eventually(F f, std::chrono::milliseconds within = 5s) {
    const auto until = std::chrono::steady_clock::now() + within;
    while (std::chrono::steady_clock::now() < until) {
        if (f()) return true;
        std::this_thread::sleep_for(5ms);
    }
    return f();
}

}  // namespace

TEST(RedisEndpointIssue26, ReadsTheAddressesOperatorsWrite) {
    auto a = Endpoint::parse("redis://10.0.0.5:6380/2");
    ASSERT_TRUE(a.ok());
    EXPECT_EQ(a->host, "10.0.0.5");
    EXPECT_EQ(a->port, 6380);
    EXPECT_EQ(a->db, 2);
    EXPECT_EQ(Endpoint::parse("redis://cache")->port, 6379);
    EXPECT_EQ(Endpoint::parse("redis://[::1]:7000")->host, "::1");
    EXPECT_EQ(Endpoint::parse("redis://[::1]:7000")->text(), "redis://[::1]:7000");
    EXPECT_EQ(Endpoint::parse("unix:///run/redis.sock")->socket_path, "/run/redis.sock");
    for (const char* bad : {"http://x", "redis://", "redis://h:0", "redis://h:99999", "redis://h:12x", "unix://rel.sock",
                            "redis://u:pw@h", "redis://h/x", "redis://[::1"}) {
        auto e = Endpoint::parse(bad);
        EXPECT_FALSE(e.ok()) << bad;
        if (!e.ok()) {
            EXPECT_NE(e.error().message.find(bad), std::string::npos) << e.error().message;
        }
    }
}

TEST(RedisClientIssue26, CommandsAreBinarySafeAndRedisErrorsAreErrors) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running()) << "redis-server did not start (scripts/install-deps.sh installs it)";
    RedisClient c(at(server));
    ASSERT_TRUE(c.connect().ok());
    const std::string value("a\0b\nc d", 7);
    ASSERT_TRUE(c.command({"SET", "k", value}).ok());
    auto got = c.command({"GET", "k"});
    ASSERT_TRUE(got.ok());
    EXPECT_EQ(got->str, value);
    EXPECT_TRUE(c.command({"GET", "missing"})->is_nil());
    ASSERT_TRUE(c.command({"RPUSH", "list", "x"}).ok());
    auto wrong = c.command({"INCR", "list"});
    ASSERT_FALSE(wrong.ok());
    EXPECT_NE(wrong.error().message.find("WRONGTYPE"), std::string::npos) << wrong.error().message;
    EXPECT_TRUE(c.connected()) << "an error reply is not a lost connection";
}

TEST(RedisClientIssue26, ARedisThatIsDownIsSaidAndOneThatComesBackIsUsedAgain) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running());
    RedisClient c(at(server), 500ms);
    ASSERT_TRUE(c.command({"SET", "k", "1"}).ok());
    server.stop();
    auto down = c.command({"GET", "k"});
    ASSERT_FALSE(down.ok());
    EXPECT_NE(down.error().message.find(server.url()), std::string::npos) << down.error().message;
    EXPECT_FALSE(c.connected());
    auto again = c.command({"GET", "k"});  // within the pause: not even tried
    EXPECT_FALSE(again.ok());
    ASSERT_TRUE(server.start());
    EXPECT_TRUE(eventually([&] { return c.command({"PING"}).ok(); })) << "no reconnection after the restart";
    EXPECT_TRUE(c.command({"GET", "k"})->is_nil()) << "a fresh Redis (no persistence in the test)";
}

TEST(RedisLeaseIssue26, OneNodeRunsAGameAndRenewsItsOwnLeaseOnly) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running());
    RedisClient ca(at(server)), cb(at(server));
    LeaseTable a(ca, "node-a", "t:"), b(cb, "node-b", "t:");
    auto la = a.acquire("g1", 10s);
    ASSERT_TRUE(la.ok()) << la.error().message;
    EXPECT_EQ(la->node, "node-a");
    auto lb = b.acquire("g1", 10s);
    ASSERT_TRUE(lb.ok());
    EXPECT_EQ(*lb, *la) << "node-b sees node-a's grant and does not take it";
    EXPECT_TRUE(*a.renew(*la, 10s));
    EXPECT_FALSE(*b.renew(Lease{"g1", "node-b", la->token}, 10s)) << "node-b cannot extend a grant it does not hold";
    EXPECT_EQ((*b.holder("g1"))->node, "node-a");
    Lease forged = *la;
    forged.token += 1;
    EXPECT_FALSE(*a.renew(forged, 10s)) << "a renewal names the exact grant";
    EXPECT_FALSE(*a.release(forged));
    auto again = a.acquire("g1", 10s);
    EXPECT_EQ(again->token, la->token) << "asking again extends, with the same token";
    ASSERT_TRUE(*a.release(*la));
    EXPECT_FALSE(b.holder("g1")->has_value());
    auto lb2 = b.acquire("g1", 10s);
    EXPECT_EQ(lb2->node, "node-b");
    EXPECT_GT(lb2->token, la->token) << "tokens only grow";
    EXPECT_FALSE(*a.release(*la)) << "an old grant cannot drop the new holder's";
    EXPECT_EQ((*a.holder("g1"))->node, "node-b");
}

TEST(RedisLeaseIssue26, ALeaseNotRenewedExpiresAndTheNextNodeTakesOverWithAHigherToken) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running());
    RedisClient ca(at(server)), cb(at(server));
    LeaseTable a(ca, "node-a", "t:"), b(cb, "node-b", "t:");
    auto la = a.acquire("g", 150ms);
    ASSERT_TRUE(la.ok());
    EXPECT_EQ(b.acquire("g", 150ms)->node, "node-a");
    // node-a "dies": it renews no more.
    ASSERT_TRUE(eventually([&] { return b.acquire("g", 10s)->node == "node-b"; }, 2s));
    auto lb = *b.holder("g");
    ASSERT_TRUE(lb.has_value());
    EXPECT_GT(lb->token, la->token);
    EXPECT_FALSE(*a.renew(*la, 10s)) << "node-a came back too late: its lease is gone";
    EXPECT_EQ(a.acquire("g", 10s)->node, "node-b");
}

TEST(RedisLeaseIssue26, ManyNodesRacingForManyGamesGetOneHolderEach) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running());
    constexpr int Nodes = 6, Games = 60;
    std::mutex mu;
    std::map<std::string, std::set<std::string>> winners;  // game -> nodes that were told they hold it
    std::vector<std::thread> threads;
    for (int n = 0; n < Nodes; ++n) {
        threads.emplace_back([&, n] {
            RedisClient c(at(server));
            std::string node = "node-";
            node += std::to_string(n);
            LeaseTable t(c, node, "race:");
            for (int g = 0; g < Games; ++g) {
                std::string game = "g";
                game += std::to_string(g);
                auto l = t.acquire(game, 30s);
                if (l.ok() && l->node == t.node()) {
                    std::lock_guard lock(mu);
                    winners[game].insert(t.node());
                }
            }
        });
    }
    for (auto& t : threads) t.join();
    ASSERT_EQ(winners.size(), static_cast<std::size_t>(Games));
    for (const auto& [game, nodes] : winners) EXPECT_EQ(nodes.size(), 1u) << game;
}

TEST(RedisLeaseIssue26, NodeNamesAreWordsWithoutSpaces) {
    EXPECT_TRUE(LeaseTable::valid_node_name("web-1.eu_west"));
    EXPECT_FALSE(LeaseTable::valid_node_name(""));
    EXPECT_FALSE(LeaseTable::valid_node_name("a b"));
    EXPECT_FALSE(LeaseTable::valid_node_name(std::string(65, 'a')));
}

TEST(RedisChannelsIssue26, MessagesArriveInTheOrderTheyWerePublished) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running());
    std::mutex mu;
    std::vector<std::pair<std::string, std::string>> got;
    RedisSubscriber sub(at(server), [&](const std::string& ch, const std::string& p) {
        std::lock_guard lock(mu);
        got.emplace_back(ch, p);
    });
    sub.subscribe("node:a");
    sub.subscribe("game:g1");
    ASSERT_TRUE(sub.wait_subscribed(5s));
    RedisClient pub(at(server));
    constexpr int N = 5000;
    for (int i = 0; i < N; ++i) ASSERT_TRUE(publish(pub, i % 2 ? "node:a" : "game:g1", std::to_string(i)).ok());
    ASSERT_TRUE(publish(pub, "elsewhere", "x").ok());
    ASSERT_TRUE(eventually([&] { std::lock_guard lock(mu); return got.size() >= static_cast<std::size_t>(N); }));
    std::lock_guard lock(mu);
    ASSERT_EQ(got.size(), static_cast<std::size_t>(N));
    for (int i = 0; i < N; ++i) {
        EXPECT_EQ(got[i].second, std::to_string(i));
        EXPECT_EQ(got[i].first, i % 2 ? "node:a" : "game:g1");
        if (::testing::Test::HasFailure()) break;
    }
}

// The publisher's pipeline: many commands in one round trip, each with its own reply
// (an error reply in the middle is that command's alone), and none after a lost Redis.
TEST(RedisClientIssue26, APipelineAnswersEachCommandInOrder) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running());
    RedisClient c(at(server), 500ms);
    ASSERT_TRUE(c.command({"RPUSH", "list", "x"}).ok());
    const std::string value("a\0b", 3);
    auto r = c.pipeline({{"SET", "k", value}, {"INCR", "list"}, {"GET", "k"}, {"INCR", "n"}, {"INCR", "n"}});
    ASSERT_EQ(r.size(), 5u);
    EXPECT_TRUE(r[0].ok());
    ASSERT_FALSE(r[1].ok());
    EXPECT_NE(r[1].error().message.find("WRONGTYPE"), std::string::npos) << r[1].error().message;
    ASSERT_TRUE(r[2].ok());
    EXPECT_EQ(r[2]->str, value);
    ASSERT_TRUE(r[4].ok());
    EXPECT_EQ(r[4]->integer, 2);
    EXPECT_TRUE(c.pipeline({}).empty());
    server.stop();
    auto down = c.pipeline({{"GET", "k"}, {"GET", "k"}});
    ASSERT_EQ(down.size(), 2u);
    EXPECT_FALSE(down[0].ok());
    EXPECT_FALSE(down[1].ok());
}

TEST(RedisChannelsIssue26, ManyMessagesPublishedAtOnceArriveInOrder) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running());
    std::mutex mu;
    std::vector<std::string> got;
    RedisSubscriber sub(at(server), [&](const std::string&, const std::string& p) {
        std::lock_guard lock(mu);
        got.push_back(p);
    });
    sub.subscribe("node:a");
    ASSERT_TRUE(sub.wait_subscribed(5s));
    RedisClient pub(at(server));
    constexpr int N = 1000;
    std::vector<std::string> payloads;
    for (int i = 0; i < N; ++i) payloads.push_back(std::to_string(i));
    std::vector<std::pair<std::string_view, std::string_view>> messages;
    for (int i = 0; i < N; ++i) messages.emplace_back(i % 3 ? "node:a" : "nobody", payloads[size_t(i)]);
    auto r = publish_all(pub, messages);
    ASSERT_EQ(r.size(), size_t(N));
    for (int i = 0; i < N; ++i) EXPECT_EQ(r[size_t(i)].value(), i % 3 ? 1 : 0) << i;
    ASSERT_TRUE(eventually([&] { std::lock_guard lock(mu); return got.size() >= size_t(N - N / 3 - 1); }));
    std::lock_guard lock(mu);
    std::vector<std::string> want;
    for (int i = 0; i < N; ++i)
        if (i % 3) want.push_back(payloads[size_t(i)]);
    EXPECT_EQ(got, want);
}

TEST(RedisChannelsIssue26, UnsubscribedChannelsAreQuiet) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running());
    std::atomic<int> count{0};
    RedisSubscriber sub(at(server), [&](const std::string&, const std::string&) { ++count; });
    sub.subscribe("c");
    ASSERT_TRUE(sub.wait_subscribed(5s));
    RedisClient pub(at(server));
    EXPECT_EQ(*publish(pub, "c", "1"), 1);
    sub.unsubscribe("c");
    ASSERT_TRUE(eventually([&] { return *publish(pub, "c", "probe") == 0; }));
    const int before = count.load();
    EXPECT_EQ(*publish(pub, "c", "2"), 0);
    std::this_thread::sleep_for(50ms);
    EXPECT_EQ(count.load(), before);
}

TEST(RedisChannelsIssue26, ASubscriberSaysItLostRedisAndSubscribesAgainWhenItIsBack) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running());
    std::mutex mu;
    std::vector<std::string> got;
    std::vector<bool> links;
    RedisSubscriber sub(
        at(server),
        [&](const std::string&, const std::string& p) {
            std::lock_guard lock(mu);
            got.push_back(p);
        },
        [&](bool up) {
            std::lock_guard lock(mu);
            links.push_back(up);
        });
    sub.subscribe("node:a");
    ASSERT_TRUE(sub.wait_subscribed(5s));
    server.stop();
    ASSERT_TRUE(eventually([&] { return !sub.linked(); }));
    ASSERT_TRUE(server.start());
    ASSERT_TRUE(sub.wait_subscribed(10s)) << "not subscribed again after Redis came back";
    RedisClient pub(at(server));
    ASSERT_TRUE(eventually([&] { return pub.command({"PING"}).ok(); }));
    EXPECT_EQ(*publish(pub, "node:a", "after"), 1);
    ASSERT_TRUE(eventually([&] { std::lock_guard lock(mu); return !got.empty(); }));
    std::lock_guard lock(mu);
    EXPECT_EQ(got.back(), "after");
    ASSERT_GE(links.size(), 3u);
    EXPECT_EQ(links[0], true);
    EXPECT_EQ(links[1], false);
    EXPECT_EQ(links[2], true);
}

TEST(RedisLeaseIssue26, ManyLeasesAreRenewedInOneRoundTripEachForItsOwnHolder) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running());
    RedisClient ca(at(server)), cb(at(server));
    LeaseTable a(ca, "node-a", "t:"), b(cb, "node-b", "t:");
    auto g1 = *a.acquire("g1", 10s);
    auto g2 = *b.acquire("g2", 10s);
    auto g3 = *a.acquire("g3", 10s);
    auto r = a.renew_many({g1, g2, g3, Lease{"g4", "node-a", 99}}, 10s);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(*r, (std::vector<bool>{true, true, true, false}))
        << "a grant named exactly is extended (g2 is node-b's, named as node-b's); g4 was never granted";
    auto none = a.renew_many({}, 10s);
    EXPECT_TRUE(none.ok() && none->empty());
}

TEST(RedisLeaseKeeperIssue26, KeepsItsGamesPastTheLeaseTimeAndGivesThemUpAtOnce) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running());
    RedisClient ca(at(server)), cb(at(server));
    LeaseTable a(ca, "node-a", "k:"), b(cb, "node-b", "k:");
    std::atomic<int> lost{0};
    LeaseKeeper keeper(a, 150ms, [&](const std::string&) { ++lost; });
    ASSERT_EQ(keeper.take("g1")->node, "node-a");
    ASSERT_EQ(keeper.take("g2")->node, "node-a");
    EXPECT_EQ(b.acquire("g3", 10s)->node, "node-b");
    EXPECT_EQ(keeper.take("g3")->node, "node-b") << "another node's game is not taken";
    EXPECT_EQ(keeper.size(), 2u);
    std::this_thread::sleep_for(600ms);  // four lease times
    EXPECT_EQ(b.acquire("g1", 10s)->node, "node-a") << "renewed: still node-a's";
    EXPECT_EQ(lost.load(), 0);
    ASSERT_TRUE(*keeper.give_up("g1"));
    EXPECT_EQ(b.acquire("g1", 10s)->node, "node-b") << "given up: node-b takes it at once";
    keeper.give_up_all();
    EXPECT_EQ(b.acquire("g2", 10s)->node, "node-b");
    EXPECT_EQ(keeper.size(), 0u);
    EXPECT_EQ(lost.load(), 0);
}

TEST(RedisLeaseKeeperIssue26, ALeaseTakenOverOrOutlivedWhileRedisIsDownIsReportedLost) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running());
    RedisClient ca(at(server), 300ms), cb(at(server));
    LeaseTable a(ca, "node-a", "k:"), b(cb, "node-b", "k:");
    std::mutex mu;
    std::vector<std::string> lost;
    LeaseKeeper keeper(a, 200ms, [&](const std::string& g) {
        std::lock_guard lock(mu);
        lost.push_back(g);
    });
    ASSERT_EQ(keeper.take("paused")->node, "node-a");
    ASSERT_EQ(keeper.take("kept")->node, "node-a");
    // node-a "paused" past its lease on one game: the key is gone, node-b took it.
    ASSERT_TRUE(cb.command({"DEL", "k:lease:game:paused"}).ok());
    ASSERT_EQ(b.acquire("paused", 10s)->node, "node-b");
    ASSERT_TRUE(eventually([&] { std::lock_guard lock(mu); return !lost.empty(); }, 2s));
    {
        std::lock_guard lock(mu);
        EXPECT_EQ(lost, (std::vector<std::string>{"paused"}));
    }
    EXPECT_FALSE(keeper.held("paused").has_value());
    EXPECT_TRUE(keeper.held("kept").has_value());
    // Redis goes away: the other lease runs out on node-a's own clock.
    server.stop();
    ASSERT_TRUE(eventually([&] { std::lock_guard lock(mu); return lost.size() == 2; }, 3s));
    std::lock_guard lock(mu);
    EXPECT_EQ(lost.back(), "kept");
    EXPECT_EQ(keeper.size(), 0u);
}

// Issue 26 (the lease of a finished game): a game that ended is parked, no longer
// renewed at the live pace but given one long lease, still this node's; when it leaves
// memory its lease is released, and the live games are renewed as before.
TEST(RedisLeaseKeeperIssue26, AFinishedGameIsParkedOnALongLeaseAndReleasedWhenForgotten) {
    outpost::test::RedisServer server;
    ASSERT_TRUE(server.running());
    RedisClient ca(at(server)), cb(at(server));
    LeaseTable a(ca, "node-a", "p:"), b(cb, "node-b", "p:");
    std::atomic<int> lost{0};
    LeaseKeeper keeper(a, 150ms, [&](const std::string&) { ++lost; }, 3s);
    const auto pttl = [&](const std::string& g) {
        auto r = cb.command({"PTTL", "p:lease:game:" + g});
        return r.ok() ? r->integer : -3;
    };
    ASSERT_EQ(keeper.take("live")->node, "node-a");
    ASSERT_EQ(keeper.take("ended")->node, "node-a");
    keeper.park("ended");
    keeper.park("unknown");  // not held here: nothing
    EXPECT_EQ(keeper.size(), 1u) << "one lease renewed at the live pace";
    EXPECT_EQ(keeper.parked_size(), 1u);
    ASSERT_TRUE(eventually([&] { return pttl("ended") > 1000; }, 2s)) << "parked: one long lease at once";
    const auto before = pttl("ended");
    std::this_thread::sleep_for(600ms);  // four live lease times
    EXPECT_LE(pttl("ended"), before - 500) << "a parked lease is not renewed every live turn";
    EXPECT_GT(pttl("live"), 0) << "the live game is still renewed";
    EXPECT_LE(pttl("live"), 150);
    EXPECT_EQ(b.acquire("ended", 10s)->node, "node-a") << "parked: still this node's";
    EXPECT_TRUE(keeper.held("ended").has_value());
    keeper.forget("ended");
    EXPECT_FALSE(keeper.held("ended").has_value());
    ASSERT_TRUE(eventually([&] { return pttl("ended") == -2; }, 2s)) << "forgotten: released by the keeper";
    EXPECT_EQ(b.acquire("ended", 10s)->node, "node-b");
    EXPECT_EQ(b.acquire("live", 10s)->node, "node-a");
    EXPECT_EQ(keeper.size(), 1u);
    EXPECT_EQ(keeper.parked_size(), 0u);
    EXPECT_EQ(lost.load(), 0);
}
