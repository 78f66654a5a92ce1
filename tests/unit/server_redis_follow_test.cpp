// Outpost — games follow their players (issue 26, docs/scaling.md): two RedisBus nodes on
// a real redis-server (tests/support). A game that no connection of its node follows
// moves to the node of the connection that joins it; a game with a connection of its own
// stays; a message sent while it moves is played where it goes; the owners of the games
// followed elsewhere are asked in one round trip; the "moved" envelope's new fields are
// read as hostile.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>

#include "server/bus/redis/bus_envelope.h"
#include "server/bus/redis/redis_bus.h"
#include "../support/eventually.h"
#include "../support/redis_server.h"
#include "../support/redis_stats.h"

using namespace outpost::server;
using namespace outpost::server::redis;
using namespace std::chrono_literals;

namespace {

using outpost::test::calls_of;
using outpost::test::eventually;

struct Inbox : Subscriber {
    std::mutex mu;
    std::vector<std::string> got;
    void deliver(std::shared_ptr<const std::string> m) override {
        std::lock_guard lock(mu);
        got.push_back(*m);
    }
    std::int64_t account_id() const override { return 0; }
    size_t size() {
        std::lock_guard lock(mu);
        return got.size();
    }
    std::vector<std::string> all() {
        std::lock_guard lock(mu);
        return got;
    }
};

// A node's hub, as the real one behaves towards the bus: a game runs here only once
// take_game() gave this node its lease (a join of a game it does not run is
// "unavailable"); a join answers "state:NODE", a message "ack:TEXT:NODE". Handing a game
// over drops it and says it is durable `commit` later (the group commit of the clocks'
// write and the writes before it).
struct Node : BusHandler {
    std::string name;
    RedisBus* bus = nullptr;
    std::chrono::milliseconds commit{20};
    std::mutex mu;
    std::set<std::string> games;
    std::map<const Subscriber*, std::shared_ptr<Subscriber>> followers;
    std::vector<std::string> texts;
    std::vector<std::thread> commits;
    explicit Node(std::string n) : name(std::move(n)) {}
    ~Node() override {
        for (auto& t : commits) t.join();
    }
    bool runs(const std::string& game) {
        std::lock_guard lock(mu);
        return games.count(game) != 0;
    }
    bool make(const std::string& game) {
        if (!bus->take_game(game, 0)) return false;
        std::lock_guard lock(mu);
        games.insert(game);
        return true;
    }
    Answer<Seat> on_join(const Address& at, const std::shared_ptr<Subscriber>& who, const Credentials& c) override {
        if (!runs(at.id) && !make(at.id)) return ProtocolError{"unavailable", "run elsewhere", 503};
        {
            std::lock_guard lock(mu);
            followers[who.get()] = who;
        }
        who->deliver(std::make_shared<const std::string>("state:" + name));
        return c.token == "w" ? Seat::WHITE_SEAT : Seat::BLACK_SEAT;
    }
    void on_message(const ClientIn& in) override {
        {
            std::lock_guard lock(mu);
            if (!games.count(in.to.id)) return;  // the bus never hands it one of a game not here
            texts.emplace_back(in.text);
        }
        in.from.deliver(std::make_shared<const std::string>("ack:" + std::string(in.text) + ":" + name));
    }
    void on_leave(const Address&, const Subscriber* who) override {
        std::lock_guard lock(mu);
        followers.erase(who);
    }
    std::optional<std::vector<std::shared_ptr<Subscriber>>> hand_over(const std::string& game, std::function<void()> durable) {
        std::vector<std::shared_ptr<Subscriber>> out;
        {
            std::lock_guard lock(mu);
            if (!games.erase(game)) return std::nullopt;
            for (auto& [k, v] : followers) out.push_back(v);
            followers.clear();
            commits.emplace_back([durable = std::move(durable), wait = commit] {
                std::this_thread::sleep_for(wait);
                durable();
            });
        }
        return out;
    }
};

std::unique_ptr<RedisBus> open_node(const outpost::test::RedisServer& redis, Node& hub,
                                    std::chrono::milliseconds lease = 900ms,
                                    std::chrono::milliseconds watch_every = 50ms) {
    RedisBus::Options o;
    o.where = *Endpoint::parse(redis.url());
    o.node = hub.name;
    o.lease = lease;
    o.watch_every = watch_every;
    auto bus = RedisBus::open(o);
    EXPECT_TRUE(bus.ok()) << (bus.ok() ? "" : bus.error().message);
    if (!bus.ok()) return nullptr;
    hub.bus = bus->get();
    (*bus)->serve(Topic::GAME, &hub);
    (*bus)->attach_games(
        [&hub](const std::string& g) {
            std::optional<std::vector<std::shared_ptr<Subscriber>>> out = hub.hand_over(g, [] {});
            return out ? *out : std::vector<std::shared_ptr<Subscriber>>{};
        },
        [] { return std::vector<std::string>{}; });
    (*bus)->attach_hand_over([&hub](const std::string& g, std::function<void()> durable) {
        return hub.hand_over(g, std::move(durable));
    });
    return std::move(*bus);
}

std::string move_text(int i) { return R"({"v":1,"t":"move","uci":"e2e4","ply":)" + std::to_string(i) + "}"; }

}  // namespace

TEST(BusEnvelopeIssue26Follow, AMovedMessageCarriesTheMessageNotPlayedAndWhereTheGameGoes) {
    Envelope e;
    e.kind = Envelope::Kind::MOVED;
    e.conn = 9;
    e.address = "game:abc";
    e.text = move_text(3);
    e.to = "node-b";
    auto back = decode(encode(e));
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->text, e.text);
    EXPECT_EQ(back->to, "node-b");
    e.text.clear();
    e.to.clear();
    back = decode(encode(e));
    ASSERT_TRUE(back.ok());
    EXPECT_TRUE(back->text.empty() && back->to.empty());
    const std::string long_text(5000, 'x');
    const std::vector<std::pair<std::string, std::string>> bad = {
        {R"({"t":"moved","conn":1,"at":"game:x","text":")" + long_text + "\"}", "longer"},
        {R"({"t":"moved","conn":1,"at":"game:x","text":7})", "text"},
        {R"({"t":"moved","conn":1,"at":"game:x","to":"a b"})", "name"},
        {R"({"t":"moved","conn":1,"at":"game:x","to":""})", ""},  // empty: none, read
        {R"({"t":"moved","conn":1,"at":"game:x","to":[1]})", "to"},
        {R"({"t":"moved","conn":1,"at":"game:x","to":")" + std::string(65, 'a') + "\"}", "longer"},
    };
    for (const auto& [text, why] : bad) {
        auto r = decode(text);
        if (why.empty()) {
            EXPECT_TRUE(r.ok()) << text;
            continue;
        }
        ASSERT_FALSE(r.ok()) << text;
        EXPECT_NE(r.error().message.find(why), std::string::npos) << text << " -> " << r.error().message;
    }
}

TEST(RedisBusIssue26Follow, TheOwnersOfManyGamesAreReadInOneRoundTrip) {
    outpost::test::RedisServer redis;
    Node hub_a("node-a"), hub_b("node-b");
    // Leases of 30 s: renewed every 10 s, so that no renewal (a script that GETs each
    // lease) falls in the 600 ms counted below.
    auto a = open_node(redis, hub_a, 30s), b = open_node(redis, hub_b, 30s);
    ASSERT_TRUE(a && b);
    RedisClient raw(*Endpoint::parse(redis.url()));
    ASSERT_TRUE(raw.connect().ok());
    // 40 games made on a; b's connections follow each of them (and one connection of a
    // follows each, so that none moves: this test is about the watcher's reads).
    std::vector<std::shared_ptr<Inbox>> here, there;
    for (int i = 0; i < 40; ++i) {
        const std::string g = "m" + std::to_string(i);
        ASSERT_TRUE(hub_a.make(g));
        here.push_back(std::make_shared<Inbox>());
        ASSERT_TRUE(a->join(Address::game(g), here.back(), Credentials{"w", nullptr, ""}).ok());
        there.push_back(std::make_shared<Inbox>());
        ASSERT_TRUE(b->join(Address::game(g), there.back(), Credentials{"b", nullptr, ""}).ok());
    }
    ASSERT_TRUE(eventually([&] {
        for (auto& t : there)
            if (t->size() < 1) return false;
        return true;
    }));
    EXPECT_EQ(a->games_moved_away(), 0u);
    ASSERT_TRUE(raw.command({"CONFIG", "RESETSTAT"}).ok());
    std::this_thread::sleep_for(600ms);  // about 12 turns of b's watcher (every 50 ms)
    const long long gets = calls_of(raw, "get"), mgets = calls_of(raw, "mget");
    // Each node's watcher reads who holds the domains lease once a turn (one GET): 2
    // nodes, ~12 turns. One GET a game would be 40 a turn of b's.
    EXPECT_LE(gets, 40) << "one GET a game (Redis counts the GETs of scripts too)";
    EXPECT_GE(mgets, 5);
    EXPECT_LE(mgets, 20) << "one MGET a turn of the watcher, for all 40 games";
    // What it reads is who runs each: a game moved meanwhile is followed there.
    for (auto& t : there) EXPECT_EQ(t->all().front(), "state:node-a");
}

TEST(RedisBusIssue26Follow, AGameNoConnectionOfItsNodeFollowsMovesToTheJoiningConnectionsNode) {
    outpost::test::RedisServer redis;
    Node hub_a("node-a"), hub_b("node-b");
    auto a = open_node(redis, hub_a), b = open_node(redis, hub_b);
    ASSERT_TRUE(a && b);
    ASSERT_TRUE(hub_a.make("g1"));  // made on a (the front sent the POST there)
    auto white = std::make_shared<Inbox>(), black = std::make_shared<Inbox>();
    ASSERT_TRUE(b->join(Address::game("g1"), white, Credentials{"w", nullptr, ""}).ok());
    ASSERT_TRUE(eventually([&] { return white->size() == 1; }));
    EXPECT_EQ(white->all()[0], "state:node-b");
    EXPECT_TRUE(hub_b.runs("g1"));
    EXPECT_FALSE(hub_a.runs("g1"));
    EXPECT_EQ(b->node_of("g1"), "node-b");
    EXPECT_EQ(a->node_of("g1"), "node-b");
    EXPECT_EQ(a->games_moved_away(), 1u);
    ASSERT_TRUE(b->join(Address::game("g1"), black, Credentials{"b", nullptr, ""}).ok());
    ASSERT_TRUE(eventually([&] { return black->size() == 1; }));
    EXPECT_EQ(black->all()[0], "state:node-b");
    b->send(Address::game("g1"), *white, move_text(1));
    ASSERT_TRUE(eventually([&] { return white->size() == 2; }));
    EXPECT_EQ(white->all()[1], "ack:" + move_text(1) + ":node-b");
    // No ping-pong: a connection of a joining now does not take it back (b has its own).
    auto spectator = std::make_shared<Inbox>();
    ASSERT_TRUE(a->join(Address::game("g1"), spectator, Credentials{"", nullptr, ""}).ok());
    ASSERT_TRUE(eventually([&] { return spectator->size() == 1; }));
    EXPECT_EQ(spectator->all()[0], "state:node-b");
    EXPECT_EQ(b->games_moved_away(), 0u);
}

TEST(RedisBusIssue26Follow, AGameWithAConnectionOfItsOwnNodeStaysWhereItIs) {
    outpost::test::RedisServer redis;
    Node hub_a("node-a"), hub_b("node-b");
    auto a = open_node(redis, hub_a), b = open_node(redis, hub_b);
    ASSERT_TRUE(a && b);
    ASSERT_TRUE(hub_a.make("g2"));
    auto white = std::make_shared<Inbox>(), black = std::make_shared<Inbox>();
    ASSERT_TRUE(a->join(Address::game("g2"), white, Credentials{"w", nullptr, ""}).ok());
    ASSERT_TRUE(b->join(Address::game("g2"), black, Credentials{"b", nullptr, ""}).ok());
    ASSERT_TRUE(eventually([&] { return white->size() == 1 && black->size() == 1; }));
    EXPECT_EQ(black->all()[0], "state:node-a");
    std::this_thread::sleep_for(200ms);
    EXPECT_TRUE(hub_a.runs("g2"));
    EXPECT_FALSE(hub_b.runs("g2"));
    EXPECT_EQ(a->games_moved_away(), 0u);
    b->send(Address::game("g2"), *black, move_text(1));
    ASSERT_TRUE(eventually([&] { return black->size() == 2; }));
    EXPECT_EQ(black->all()[1], "ack:" + move_text(1) + ":node-a");
}

TEST(RedisBusIssue26Follow, AGameMovesAtMostOncePerPause) {
    outpost::test::RedisServer redis;
    Node hub_a("node-a"), hub_b("node-b");
    auto a = open_node(redis, hub_a), b = open_node(redis, hub_b);
    ASSERT_TRUE(a && b);
    ASSERT_TRUE(hub_a.make("g3"));
    auto white = std::make_shared<Inbox>();
    ASSERT_TRUE(b->join(Address::game("g3"), white, Credentials{"w", nullptr, ""}).ok());
    ASSERT_TRUE(eventually([&] { return white->size() == 1 && hub_b.runs("g3"); }));
    // Its one connection goes from b, and comes back through a at once: the game moved
    // to b a moment ago, so it stays on b (the pause, 10 s) and a's connection joins it there.
    b->leave(Address::game("g3"), white.get());
    auto again = std::make_shared<Inbox>();
    ASSERT_TRUE(a->join(Address::game("g3"), again, Credentials{"w", nullptr, ""}).ok());
    ASSERT_TRUE(eventually([&] { return again->size() == 1; }));
    EXPECT_EQ(again->all()[0], "state:node-b");
    EXPECT_EQ(b->games_moved_away(), 0u);
}

// A move sent while the game changes hands reaches the node it leaves after the room
// is gone there: it comes back with the "moved" message and is played where the game
// runs next, in the order sent, not lost.
TEST(RedisBusIssue26Follow, AMessageSentWhileTheGameMovesIsPlayedWhereItGoesInOrder) {
    outpost::test::RedisServer redis;
    Node hub_a("node-a"), hub_b("node-b");
    hub_a.commit = 400ms;  // a slow group commit: the hand-over takes that long
    auto a = open_node(redis, hub_a), b = open_node(redis, hub_b);
    ASSERT_TRUE(a && b);
    ASSERT_TRUE(hub_a.make("g4"));
    auto white = std::make_shared<Inbox>();
    ASSERT_TRUE(b->join(Address::game("g4"), white, Credentials{"w", nullptr, ""}).ok());
    for (int i = 1; i <= 3; ++i) b->send(Address::game("g4"), *white, move_text(i));
    ASSERT_TRUE(eventually([&] { return white->size() == 4; }, 5s)) << white->size();
    const auto got = white->all();
    EXPECT_EQ(got[0], "state:node-b");
    for (int i = 1; i <= 3; ++i) EXPECT_EQ(got[size_t(i)], "ack:" + move_text(i) + ":node-b");
    std::lock_guard lock(hub_a.mu);
    EXPECT_TRUE(hub_a.texts.empty());
}

// The same, with many messages spread over the hand-over and a watcher that looks every
// millisecond: a message that came back ("moved", to this node) is not sent again to the
// node the game is leaving while later ones are still on their way back from it (they
// would come back after it, out of order).
TEST(RedisBusIssue26Follow, MessagesThatComeBackWhileTheGameComesHereAreNotSentBackOutOfOrder) {
    outpost::test::RedisServer redis;
    Node hub_a("node-a"), hub_b("node-b");
    hub_a.commit = 400ms;
    auto a = open_node(redis, hub_a, 900ms, 1ms), b = open_node(redis, hub_b, 900ms, 1ms);
    ASSERT_TRUE(a && b);
    ASSERT_TRUE(hub_a.make("g5"));
    auto white = std::make_shared<Inbox>();
    ASSERT_TRUE(b->join(Address::game("g5"), white, Credentials{"w", nullptr, ""}).ok());
    constexpr int N = 12;  // fewer than MaxHeldMessages
    for (int i = 1; i <= N; ++i) {
        b->send(Address::game("g5"), *white, move_text(i));
        std::this_thread::sleep_for(30ms);
    }
    ASSERT_TRUE(eventually([&] { return white->size() == N + 1; }, 5s)) << ::testing::PrintToString(white->all());
    const auto got = white->all();
    EXPECT_EQ(got[0], "state:node-b");
    for (int i = 1; i <= N; ++i) EXPECT_EQ(got[size_t(i)], "ack:" + move_text(i) + ":node-b") << i;
}

// A spectator's node (b) while the game goes from a to a player's node (c): what b's
// connection sends meanwhile comes back from a and goes to c once the game is there, in
// the order sent.
TEST(RedisBusIssue26Follow, MessagesOfAThirdNodeFollowTheGameToItsNewNodeInOrder) {
    outpost::test::RedisServer redis;
    Node hub_a("node-a"), hub_b("node-b"), hub_c("node-c");
    hub_a.commit = 400ms;
    auto a = open_node(redis, hub_a, 900ms, 1ms), b = open_node(redis, hub_b, 900ms, 1ms),
         c = open_node(redis, hub_c, 900ms, 1ms);
    ASSERT_TRUE(a && b && c);
    ASSERT_TRUE(hub_a.make("g6"));
    // b's connection is joined on a, and a's own connection keeps the game there while it is.
    auto keeper = std::make_shared<Inbox>(), watcher = std::make_shared<Inbox>(), player = std::make_shared<Inbox>();
    ASSERT_TRUE(a->join(Address::game("g6"), keeper, Credentials{"w", nullptr, ""}).ok());
    ASSERT_TRUE(b->join(Address::game("g6"), watcher, Credentials{"b", nullptr, ""}).ok());
    ASSERT_TRUE(eventually([&] { return watcher->size() == 1; })) << ::testing::PrintToString(watcher->all());
    EXPECT_EQ(watcher->all()[0], "state:node-a");
    a->leave(Address::game("g6"), keeper.get());
    // c's player joins: the game leaves a for c (b's connection is not a's own).
    ASSERT_TRUE(c->join(Address::game("g6"), player, Credentials{"w", nullptr, ""}).ok());
    ASSERT_TRUE(eventually([&] { return !hub_a.runs("g6"); }));  // on its way (a's commit: 400 ms)
    constexpr int N = 12;  // fewer than MaxHeldMessages
    for (int i = 1; i <= N; ++i) {
        b->send(Address::game("g6"), *watcher, move_text(i));
        std::this_thread::sleep_for(30ms);
    }
    ASSERT_TRUE(eventually([&] { return watcher->size() == N + 2; }, 5s)) << ::testing::PrintToString(watcher->all());
    const auto got = watcher->all();
    std::vector<std::string> acks;
    for (const auto& t : got)
        if (t.rfind("ack:", 0) == 0) acks.push_back(t);
    ASSERT_EQ(acks.size(), size_t(N));
    for (int i = 1; i <= N; ++i) EXPECT_EQ(acks[size_t(i - 1)], "ack:" + move_text(i) + ":node-c") << i;
    EXPECT_TRUE(hub_c.runs("g6"));
}
