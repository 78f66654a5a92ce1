// Outpost — the bus between nodes (issue 26): its envelopes written and read, hostile
// ones refused, and two RedisBus nodes on a real redis-server (tests/support): a
// connection on one node joins, writes to and leaves a game the other runs, in order;
// the games' leases through take_game(), handed over on SIGTERM (hand_over()).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <mutex>
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

Envelope join_envelope() {
    Envelope e;
    e.kind = Envelope::Kind::JOIN;
    e.node = "node-b";
    e.conn = 7;
    e.address = "game:abc";
    e.token = "tok";
    e.account = 42;
    e.account_name = "Anna";
    e.client = "10.0.0.1";
    return e;
}

// A connection's inbox.
struct Inbox : Subscriber {
    std::mutex mu;
    std::vector<std::string> got;
    std::int64_t account = 0;
    void deliver(std::shared_ptr<const std::string> m) override {
        std::lock_guard lock(mu);
        got.push_back(*m);
    }
    std::int64_t account_id() const override { return account; }
    size_t size() {
        std::lock_guard lock(mu);
        return got.size();
    }
    std::vector<std::string> all() {
        std::lock_guard lock(mu);
        return got;
    }
};

// The games' owner on a node: it answers a join with "state:NODE", a message with
// "ack:TEXT" (the message as the bus read it must be there), and keeps who follows.
struct FakeHub : BusHandler {
    std::string node;
    std::mutex mu;
    std::map<const Subscriber*, std::shared_ptr<Subscriber>> followers;
    std::vector<std::string> texts;
    std::vector<std::int64_t> accounts;
    bool runs = true;  // false: "unavailable", as the hub answers for a game it does not run
    explicit FakeHub(std::string n) : node(std::move(n)) {}
    Answer<Seat> on_join(const Address&, const std::shared_ptr<Subscriber>& who, const Credentials& c) override {
        {
            std::lock_guard lock(mu);
            if (!runs) return ProtocolError{"unavailable", "not here", 503};
            followers[who.get()] = who;
            accounts.push_back(c.account ? c.account->id : 0);
        }
        if (c.token == "nobody") return ProtocolError{"not_your_seat", "no seat", 403};
        who->deliver(std::make_shared<const std::string>("state:" + node));
        return c.token == "w" ? Seat::WHITE_SEAT : Seat::SPECTATOR;
    }
    void on_message(const ClientIn& in) override {
        {
            std::lock_guard lock(mu);
            texts.emplace_back(in.text);
        }
        in.from.deliver(std::make_shared<const std::string>(std::string("ack:") + (in.message ? "" : "?") +
                                                            std::string(in.text) + ":" + seat_name(in.seat)));
    }
    void on_leave(const Address&, const Subscriber* who) override {
        std::lock_guard lock(mu);
        followers.erase(who);
    }
    // What a game sends all its followers: one text, shared, as the hub's broadcasts.
    void broadcast(const std::string& text) {
        auto shared = std::make_shared<const std::string>(text);
        std::lock_guard lock(mu);
        for (auto& [key, who] : followers) who->deliver(shared);
    }
    size_t following() {
        std::lock_guard lock(mu);
        return followers.size();
    }
    std::vector<std::shared_ptr<Subscriber>> drop() {
        std::lock_guard lock(mu);
        std::vector<std::shared_ptr<Subscriber>> out;
        for (auto& [k, v] : followers) out.push_back(v);
        followers.clear();
        runs = false;
        return out;
    }
};

std::unique_ptr<RedisBus> node(const outpost::test::RedisServer& redis, const std::string& name) {
    RedisBus::Options o;
    o.where = *Endpoint::parse(redis.url());
    o.node = name;
    o.lease = 900ms;
    o.watch_every = 50ms;
    auto bus = RedisBus::open(o);
    EXPECT_TRUE(bus.ok()) << (bus.ok() ? "" : bus.error().message);
    return bus.ok() ? std::move(*bus) : nullptr;
}

std::string move_text(int i) { return R"({"v":1,"t":"move","uci":"e2e4","ply":)" + std::to_string(i) + "}"; }

}  // namespace

TEST(BusEnvelopeIssue26, EveryKindIsReadBackAsWritten) {
    const Envelope j = join_envelope();
    auto back = decode(encode(j));
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->kind, Envelope::Kind::JOIN);
    EXPECT_EQ(back->node, "node-b");
    EXPECT_EQ(back->conn, 7u);
    EXPECT_EQ(back->address, "game:abc");
    EXPECT_EQ(back->token, "tok");
    EXPECT_EQ(back->account, 42);
    EXPECT_EQ(back->account_name, "Anna");
    EXPECT_EQ(back->client, "10.0.0.1");
    Envelope m = j;
    m.kind = Envelope::Kind::MESSAGE;
    m.text = "{\"t\":\"move\",\"uci\":\"e2e4\"}\n\"quoted\"";
    m.lag_ms = 120;
    back = decode(encode(m));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->text, m.text);
    EXPECT_EQ(back->lag_ms, 120);
    Envelope o;
    o.kind = Envelope::Kind::OUT;
    o.conn = 3;
    o.text = std::string(100'000, 'x');  // a long game's state
    back = decode(encode(o));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->text.size(), 100'000u);
    for (auto k : {Envelope::Kind::LEAVE, Envelope::Kind::MOVED}) {
        Envelope e = j;
        e.kind = k;
        back = decode(encode(e));
        ASSERT_TRUE(back.ok());
        EXPECT_EQ(back->kind, k);
        EXPECT_EQ(back->address, "game:abc");
    }
}

TEST(BusEnvelopeIssue26, AnOutForSeveralConnectionsIsReadBackAsWritten) {
    Envelope o;
    o.kind = Envelope::Kind::OUT;
    o.conn = 3;
    o.also = {4, 9, 123456789012};
    o.text = move_text(1);
    auto back = decode(encode(o));
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->conn, 3u);
    EXPECT_EQ(back->also, o.also);
    EXPECT_EQ(back->text, o.text);
    o.also.clear();
    EXPECT_EQ(encode(o).find("also"), std::string::npos);  // one connection: as before
}

TEST(BusEnvelopeIssue26, HostileMessagesAreRefusedWithWhatIsWrong) {
    const std::string long_text(5000, 'x');
    std::string too_many = R"({"t":"out","conn":1,"text":"x","also":[1)";
    for (std::size_t i = 1; i <= MaxAlsoConnections; ++i) too_many.append(",").append(std::to_string(i + 1));
    too_many += "]}";
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"", "not a JSON object"},
        {"[1,2]", "not a JSON object"},
        {"{\"t\":\"out\"}", "connection number"},
        {"{\"t\":\"out\",\"conn\":0,\"text\":\"x\"}", "connection number"},
        {"{\"t\":\"out\",\"conn\":-5,\"text\":\"x\"}", "connection number"},
        {"{\"t\":\"out\",\"conn\":18446744073709551615,\"text\":\"x\"}", "connection number"},
        {"{\"t\":\"out\",\"conn\":1}", "text"},
        {"{\"t\":\"out\",\"conn\":1,\"text\":5}", "text"},
        {"{\"t\":\"boom\",\"conn\":1}", "unknown kind"},
        {"{\"t\":7,\"conn\":1}", "\"t\""},
        {"{\"t\":\"join\",\"conn\":1,\"at\":\"game:x\"}", "node"},
        {"{\"t\":\"join\",\"conn\":1,\"node\":\"a b\",\"at\":\"game:x\"}", "name"},
        {"{\"t\":\"join\",\"conn\":1,\"node\":\"a\",\"at\":\"lobby:x\"}", "not one"},
        {"{\"t\":\"join\",\"conn\":1,\"node\":\"a\",\"at\":\"game:\"}", "not one"},
        {"{\"t\":\"join\",\"conn\":1,\"node\":\"a\",\"at\":\"game:x\",\"account\":\"1\"}", "bad field"},
        {"{\"t\":\"msg\",\"conn\":1,\"node\":\"a\",\"at\":\"game:x\",\"text\":\"" + long_text + "\"}", "longer"},
        {"{\"t\":\"msg\",\"conn\":1,\"node\":\"a\",\"at\":\"game:x\",\"text\":\"x\",\"lag\":999999}", "range"},
        {std::string(MaxEnvelopeBytes + 1, ' '), "too long"},
        {"{\"t\":\"out\",\"conn\":1,\"text\":\"x\",\"also\":5}", "not a list"},
        {"{\"t\":\"out\",\"conn\":1,\"text\":\"x\",\"also\":[2,0]}", "not a connection number"},
        {"{\"t\":\"out\",\"conn\":1,\"text\":\"x\",\"also\":[-2]}", "not a connection number"},
        {"{\"t\":\"out\",\"conn\":1,\"text\":\"x\",\"also\":[\"2\"]}", "not a connection number"},
        {"{\"t\":\"out\",\"conn\":1,\"text\":\"x\",\"also\":[18446744073709551615]}", "not a connection number"},
        {too_many, "more than"},
    };
    for (const auto& [text, why] : bad) {
        auto e = decode(text);
        ASSERT_FALSE(e.ok()) << text.substr(0, 80);
        EXPECT_NE(e.error().message.find(why), std::string::npos) << text.substr(0, 80) << " -> " << e.error().message;
    }
}

TEST(RedisBusIssue26, AConnectionOnOneNodePlaysAGameTheOtherRunsInOrder) {
    outpost::test::RedisServer redis;
    FakeHub hub_a("node-a"), hub_b("node-b");  // first: they outlive the buses' threads
    auto a = node(redis, "node-a"), b = node(redis, "node-b");
    ASSERT_TRUE(a && b);
    a->serve(Topic::GAME, &hub_a);
    b->serve(Topic::GAME, &hub_b);
    ASSERT_TRUE(a->take_game("g1", 0).has_value());  // a made the game
    EXPECT_FALSE(b->take_game("g1", 0).has_value());
    auto inbox = std::make_shared<Inbox>();
    inbox->account = 42;
    Account anna;
    anna.id = 42;
    anna.name = "Anna";
    auto seat = b->join(Address::game("g1"), inbox, Credentials{"w", &anna, "10.0.0.1"});
    ASSERT_TRUE(seat.ok());
    ASSERT_TRUE(eventually([&] { return inbox->size() == 1; }));
    EXPECT_EQ(inbox->all()[0], "state:node-a");  // the owner answered, through b
    EXPECT_EQ(hub_b.following(), 0u);
    {
        std::lock_guard lock(hub_a.mu);
        EXPECT_EQ(hub_a.accounts, std::vector<std::int64_t>{42});
    }
    for (int i = 0; i < 300; ++i) b->send(Address::game("g1"), *inbox, move_text(i));
    ASSERT_TRUE(eventually([&] { return inbox->size() == 301; }));
    const auto got = inbox->all();
    for (int i = 0; i < 300; ++i) ASSERT_EQ(got[size_t(i) + 1], "ack:" + move_text(i) + ":white") << i;
    // A message that does not read is answered by the owner's bus, not its hub.
    b->send(Address::game("g1"), *inbox, "not json");
    ASSERT_TRUE(eventually([&] { return inbox->size() == 302; }));
    EXPECT_NE(inbox->all().back().find("\"error\""), std::string::npos);
    b->leave(Address::game("g1"), inbox.get());
    EXPECT_TRUE(eventually([&] { return hub_a.following() == 0; }));
}

// Issue 26: what a game sends all its followers reaches another node's connections in
// one message for them all, each in order, not one message a connection.
TEST(RedisBusIssue26, AGamesTextForItsFollowersOnANodeIsOneMessageToThatNode) {
    outpost::test::RedisServer redis;
    FakeHub hub_a("node-a"), hub_b("node-b"), hub_c("node-c");  // first: they outlive the buses' threads
    auto a = node(redis, "node-a"), b = node(redis, "node-b"), c = node(redis, "node-c");
    ASSERT_TRUE(a && b && c);
    a->serve(Topic::GAME, &hub_a);
    b->serve(Topic::GAME, &hub_b);
    c->serve(Topic::GAME, &hub_c);
    ASSERT_TRUE(a->take_game("g7", 0).has_value());
    std::vector<std::shared_ptr<Inbox>> on_b, on_c;
    for (int i = 0; i < 3; ++i) on_b.push_back(std::make_shared<Inbox>());
    on_c.push_back(std::make_shared<Inbox>());
    for (auto& in : on_b) ASSERT_TRUE(b->join(Address::game("g7"), in, Credentials{"", nullptr, ""}).ok());
    for (auto& in : on_c) ASSERT_TRUE(c->join(Address::game("g7"), in, Credentials{"", nullptr, ""}).ok());
    ASSERT_TRUE(eventually([&] { return hub_a.following() == 4; }));
    RedisClient raw(*Endpoint::parse(redis.url()));
    const long long before = calls_of(raw, "publish");
    constexpr int Texts = 200;
    for (int i = 0; i < Texts; ++i) hub_a.broadcast("move " + std::to_string(i));
    std::vector<std::shared_ptr<Inbox>> all = on_b;
    all.insert(all.end(), on_c.begin(), on_c.end());
    ASSERT_TRUE(eventually([&] {
        for (auto& in : all)
            if (in->size() != Texts + 1) return false;
        return true;
    }));
    for (auto& in : all) {
        const auto got = in->all();
        EXPECT_EQ(got[0], "state:node-a");
        for (int i = 0; i < Texts; ++i) ASSERT_EQ(got[std::size_t(i) + 1], "move " + std::to_string(i)) << i;
    }
    // One a node a text (b's three connections share one, c's connection in between or
    // not); a few more where the publisher took a text's first connections before the
    // hub had given it the next. One a connection would be 4 * Texts.
    const long long published = calls_of(raw, "publish") - before;
    EXPECT_GE(published, 2 * Texts);
    EXPECT_LT(published, 3 * Texts) << published;
}

TEST(RedisBusIssue26, HostileMessagesOnANodesChannelAreRefusedAndItGoesOn) {
    outpost::test::RedisServer redis;
    FakeHub hub_a("node-a"), hub_b("node-b");  // first: they outlive the buses' threads
    auto a = node(redis, "node-a"), b = node(redis, "node-b");
    ASSERT_TRUE(a && b);
    a->serve(Topic::GAME, &hub_a);
    b->serve(Topic::GAME, &hub_b);
    RedisClient raw(*Endpoint::parse(redis.url()));
    for (const char* junk : {"", "{", "null", "{\"t\":\"msg\",\"conn\":1}", "{\"t\":\"out\",\"conn\":99,\"text\":\"x\"}",
                             "{\"t\":\"msg\",\"conn\":5,\"node\":\"node-b\",\"at\":\"game:zz\",\"text\":\"{}\"}"})
        ASSERT_TRUE(publish(raw, "outpost:node:node-a", junk).ok());
    EXPECT_TRUE(eventually([&] { return a->refused_messages() >= 4; }));
    ASSERT_TRUE(a->take_game("g2", 0).has_value());
    auto inbox = std::make_shared<Inbox>();
    ASSERT_TRUE(b->join(Address::game("g2"), inbox, Credentials{"", nullptr, ""}).ok());
    EXPECT_TRUE(eventually([&] { return inbox->size() == 1; }));
}

TEST(RedisBusIssue26, AHandedOverGameIsTakenByTheFollowersNodeWithAHigherToken) {
    outpost::test::RedisServer redis;
    FakeHub hub_a("node-a"), hub_b("node-b");  // first: they outlive the buses' threads
    auto a = node(redis, "node-a"), b = node(redis, "node-b");
    ASSERT_TRUE(a && b);
    a->serve(Topic::GAME, &hub_a);
    b->serve(Topic::GAME, &hub_b);
    a->attach_games([&](const std::string&) { return hub_a.drop(); }, [] { return std::vector<std::string>{"g3"}; });
    // b's hub, like the real one, takes the game's lease when it is asked to run it.
    std::optional<std::int64_t> first = a->take_game("g3", 0), second;
    ASSERT_TRUE(first);
    auto inbox = std::make_shared<Inbox>();
    ASSERT_TRUE(b->join(Address::game("g3"), inbox, Credentials{"w", nullptr, ""}).ok());
    ASSERT_TRUE(eventually([&] { return inbox->size() == 1; }));
    a->hand_over();
    // b's watcher finds the lease free and joins the connection to b's own hub.
    ASSERT_TRUE(eventually([&] { return inbox->size() == 2; }, 2s));
    EXPECT_EQ(inbox->all()[1], "state:node-b");
    second = b->take_game("g3", *first);
    ASSERT_TRUE(second);
    EXPECT_GT(*second, *first);
    b->send(Address::game("g3"), *inbox, move_text(1));
    ASSERT_TRUE(eventually([&] { return inbox->size() == 3; }));
    EXPECT_EQ(inbox->all()[2], "ack:" + move_text(1) + ":white");
}

TEST(RedisBusIssue26, TokensStayAboveTheDatabasesAfterRedisLostItsData) {
    outpost::test::RedisServer redis;
    auto a = node(redis, "node-a");
    ASSERT_TRUE(a);
    // The database saw token 57 for this game; a Redis that restarted empty counts from 1.
    auto t = a->take_game("g4", 57);
    ASSERT_TRUE(t);
    EXPECT_GT(*t, 57);
    EXPECT_EQ(a->take_game("g4", *t), t);  // our own grant, extended: the same token
}

TEST(RedisBusIssue26, TheConnectionsOfANodeThatIsGoneLeaveTheGamesHere) {
    outpost::test::RedisServer redis;
    FakeHub hub_a("node-a"), hub_b("node-b");
    auto a = node(redis, "node-a"), b = node(redis, "node-b");
    ASSERT_TRUE(a && b);
    a->serve(Topic::GAME, &hub_a);
    b->serve(Topic::GAME, &hub_b);
    ASSERT_TRUE(a->take_game("g5", 0).has_value());
    auto inbox = std::make_shared<Inbox>();
    ASSERT_TRUE(b->join(Address::game("g5"), inbox, Credentials{"w", nullptr, ""}).ok());
    ASSERT_TRUE(eventually([&] { return inbox->size() == 1 && hub_a.following() == 1; }));
    b->stop();  // as kill -9: no leave is sent
    b.reset();
    // The next thing the game says to that connection finds nobody on its node's channel.
    {
        std::lock_guard lock(hub_a.mu);
        for (auto& [key, who] : hub_a.followers) who->deliver(std::make_shared<const std::string>("presence"));
    }
    EXPECT_TRUE(eventually([&] { return hub_a.following() == 0; }));
}

// Issue 26 (a browser through the front, its game's node killed): a move sent while the
// game changes hands reached nobody on the dead node's channel; it is held for the
// connection and played where the game runs next, after the connection's join there,
// rather than lost without an answer.
TEST(RedisBusIssue26, AMoveSentToADeadNodeIsPlayedWhereTheGameRunsNext) {
    outpost::test::RedisServer redis;
    FakeHub hub_a("node-a"), hub_b("node-b");
    auto a = node(redis, "node-a"), b = node(redis, "node-b");
    ASSERT_TRUE(a && b);
    a->serve(Topic::GAME, &hub_a);
    b->serve(Topic::GAME, &hub_b);
    ASSERT_TRUE(a->take_game("g6", 0).has_value());
    auto inbox = std::make_shared<Inbox>();
    ASSERT_TRUE(b->join(Address::game("g6"), inbox, Credentials{"w", nullptr, ""}).ok());
    ASSERT_TRUE(eventually([&] { return inbox->size() == 1; }));
    a->stop();  // as kill -9: its lease runs out by itself (900 ms)
    a.reset();
    b->send(Address::game("g6"), *inbox, move_text(1));
    b->send(Address::game("g6"), *inbox, move_text(2));
    ASSERT_TRUE(eventually([&] { return inbox->size() == 4; }, 5s));
    const auto got = inbox->all();
    EXPECT_EQ(got[1], "state:node-b");
    EXPECT_EQ(got[2], "ack:" + move_text(1) + ":white");
    EXPECT_EQ(got[3], "ack:" + move_text(2) + ":white");
    {
        std::lock_guard lock(hub_a.mu);
        EXPECT_TRUE(hub_a.texts.empty());
    }
}
