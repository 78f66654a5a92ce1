// Outpost — the domains node of several nodes (issue 26, docs/scaling.md): the envelopes
// it adds (joins of the lobby and simuls, games' reports) and the reports' JSON read as
// hostile, and RedisBus nodes on a real redis-server (tests/support): one node takes the
// lease `domains`; a lobby connection on another node is forwarded to it, in order; the
// games' reports reach it in order; at its hand-over (SIGTERM) or its death another node
// runs the domains and the connection joins there.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <mutex>
#include <thread>

#include "server/bus/redis/bus_envelope.h"
#include "server/bus/redis/redis_bus.h"
#include "server/play/live_game_json.h"
#include "../support/eventually.h"
#include "../support/redis_server.h"

using namespace outpost;
using namespace outpost::server;
using namespace outpost::server::redis;
using namespace std::chrono_literals;

namespace {

using outpost::test::eventually;

struct Inbox : Subscriber {
    std::mutex mu;
    std::vector<std::string> got;
    void deliver(std::shared_ptr<const std::string> m) override {
        std::lock_guard lock(mu);
        got.push_back(*m);
    }
    std::int64_t account_id() const override { return 0; }
    std::vector<std::string> all() {
        std::lock_guard lock(mu);
        return got;
    }
    bool has(const std::string& s) {
        auto g = all();
        return std::find(g.begin(), g.end(), s) != g.end();
    }
};

// The lobby of a node: a join is answered "lobby:NODE", a message "seen:TEXT" (the bus
// reads no message of the lobby: it must come unread).
struct FakeLobby : BusHandler {
    std::string node;
    std::mutex mu;
    std::map<const Subscriber*, std::shared_ptr<Subscriber>> members;
    explicit FakeLobby(std::string n) : node(std::move(n)) {}
    Answer<Seat> on_join(const Address&, const std::shared_ptr<Subscriber>& who, const Credentials&) override {
        {
            std::lock_guard lock(mu);
            members[who.get()] = who;
        }
        who->deliver(std::make_shared<const std::string>("lobby:" + node));
        return Seat::SPECTATOR;
    }
    void on_message(const ClientIn& in) override {
        in.from.deliver(std::make_shared<const std::string>(std::string(in.message ? "read:" : "seen:") +
                                                            std::string(in.text)));
    }
    void on_leave(const Address&, const Subscriber* who) override {
        std::lock_guard lock(mu);
        members.erase(who);
    }
    size_t size() {
        std::lock_guard lock(mu);
        return members.size();
    }
};

// What the edge is told: the changes of the domains lease, the reports received.
struct Edge {
    std::mutex mu;
    std::vector<bool> changes;
    std::vector<std::string> reports;
    void attach(RedisBus& bus) {
        bus.receive_reports([this](const std::string& r) {
            std::lock_guard lock(mu);
            reports.push_back(r);
        });
        bus.run_domains([this](bool runs) {
            std::lock_guard lock(mu);
            changes.push_back(runs);
        });
    }
    std::vector<bool> seen() {
        std::lock_guard lock(mu);
        return changes;
    }
    size_t report_count() {
        std::lock_guard lock(mu);
        return reports.size();
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

LiveGame a_game(int ply) {
    LiveGame g;
    g.id = "Gm1";
    g.white = "Anna";
    g.black = "Boris";
    g.time_control = "5+3";
    g.variant = "standard";
    g.rated = true;
    g.ply = ply;
    g.fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    g.last_move = "e2e4";
    return g;
}

}  // namespace

TEST(BusEnvelopeIssue26Domains, LobbyAndSimulJoinsAndReportsAreReadBackAsWritten) {
    for (const char* at : {"lobby", "simul:S1", "event:7", "game:g"}) {
        Envelope e;
        e.kind = Envelope::Kind::JOIN;
        e.node = "b";
        e.conn = 3;
        e.address = at;
        auto back = decode(encode(e));
        ASSERT_TRUE(back.ok()) << at << ": " << back.error().message;
        EXPECT_EQ(back->address, at);
    }
    Envelope r;
    r.kind = Envelope::Kind::REPORT;
    r.node = "b";
    r.text = live_game_json(a_game(3));
    auto back = decode(encode(r));
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->kind, Envelope::Kind::REPORT);
    EXPECT_EQ(back->node, "b");
    EXPECT_EQ(back->text, r.text);
}

TEST(BusEnvelopeIssue26Domains, HostileJoinsAndReportsAreRefusedWithWhatIsWrong) {
    const std::vector<std::pair<std::string, std::string>> bad = {
        {R"({"t":"join","conn":1,"node":"a","at":"lobby:x"})", "not one"},
        {R"({"t":"join","conn":1,"node":"a","at":"simul:"})", "not one"},
        {R"({"t":"join","conn":1,"node":"a","at":"event:"})", "not one"},
        {R"({"t":"join","conn":1,"node":"a","at":"nowhere:1"})", "not one"},
        {R"({"t":"report","text":"{}"})", "node"},
        {R"({"t":"report","node":"a b","text":"{}"})", "name"},
        {R"({"t":"report","node":"a"})", "text"},
        {R"({"t":"report","node":"a","text":7})", "text"},
        {R"({"t":"report","node":"a","text":"{not json"})", "not JSON"},
        {R"({"t":"report","node":"a","text":")" + std::string(MaxReportBytes + 1, 'x') + "\"}", "longer"},
    };
    for (const auto& [text, why] : bad) {
        auto e = decode(text);
        ASSERT_FALSE(e.ok()) << text.substr(0, 80);
        EXPECT_NE(e.error().message.find(why), std::string::npos) << text.substr(0, 80) << " -> " << e.error().message;
    }
}

TEST(LiveGameJsonIssue26, AReportIsReadBackAsWritten) {
    LiveGame g = a_game(41);
    g.over = true;
    g.outcome = Outcome{BLACK, Status::RESIGNATION};
    g.result = "0-1";
    auto back = read_live_game(live_game_json(g));
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->id, g.id);
    EXPECT_EQ(back->white, g.white);
    EXPECT_EQ(back->black, g.black);
    EXPECT_EQ(back->time_control, g.time_control);
    EXPECT_EQ(back->variant, g.variant);
    EXPECT_EQ(back->rated, g.rated);
    EXPECT_EQ(back->ply, 41);
    EXPECT_TRUE(back->over);
    EXPECT_EQ(back->listed, g.listed);
    EXPECT_EQ(back->outcome, g.outcome);
    EXPECT_EQ(back->result, "0-1");
    EXPECT_EQ(back->fen, g.fen);
    EXPECT_EQ(back->last_move, "e2e4");
    auto draw = a_game(2);
    draw.outcome = Outcome{std::nullopt, Status::AGREEMENT};
    back = read_live_game(live_game_json(draw));
    ASSERT_TRUE(back.ok());
    EXPECT_FALSE(back->outcome.winner.has_value());
}

TEST(LiveGameJsonIssue26, HostileReportsAreRefusedWithTheField) {
    const nlohmann::json good = nlohmann::json::parse(live_game_json(a_game(1)));
    const auto with = [&](const char* field, const nlohmann::json& v) {
        nlohmann::json j = good;
        j[field] = v;
        return j.dump();
    };
    const auto without = [&](const char* field) {
        nlohmann::json j = good;
        j.erase(field);
        return j.dump();
    };
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"", "not a JSON object"},
        {"[]", "not a JSON object"},
        {without("id"), "\"id\""},
        {with("id", ""), "empty \"id\""},
        {with("id", 5), "\"id\""},
        {with("white", std::string(129, 'w')), "\"white\" is longer"},
        {with("fen", std::string(101, 'f')), "\"fen\" is longer"},
        {with("result", "1-0 and more"), "\"result\" is longer"},
        {with("rated", "yes"), "\"rated\""},
        {without("over"), "\"over\""},
        {with("ply", -1), "\"ply\""},
        {with("ply", nlohmann::json(1e12)), "\"ply\""},
        {with("ply", nlohmann::json(int64_t(1) << 40)), "\"ply\""},
        {with("ply", "3"), "\"ply\""},
        {with("status", "exploded"), "unknown \"status\""},
        {without("status"), "\"status\""},
        {with("winner", "green"), "\"winner\""},
    };
    for (const auto& [text, why] : bad) {
        auto g = read_live_game(text);
        ASSERT_FALSE(g.ok()) << text.substr(0, 120);
        EXPECT_NE(g.error().message.find(why), std::string::npos) << text.substr(0, 120) << " -> " << g.error().message;
    }
}

TEST(RedisBusIssue26Domains, OneNodeRunsTheDomainsAndALobbyConnectionElsewhereIsForwardedInOrder) {
    outpost::test::RedisServer redis;
    FakeLobby lobby_a("node-a"), lobby_b("node-b");  // first: they outlive the buses' threads
    Edge edge_a, edge_b;
    auto a = node(redis, "node-a");
    ASSERT_TRUE(a);
    a->serve(Topic::LOBBY, &lobby_a);
    edge_a.attach(*a);
    ASSERT_TRUE(eventually([&] { return a->runs_domains(); }));
    auto b = node(redis, "node-b");
    ASSERT_TRUE(b);
    b->serve(Topic::LOBBY, &lobby_b);
    edge_b.attach(*b);  // a candidate too, but a holds the lease
    EXPECT_EQ(a->domains_node(), "node-a");
    EXPECT_EQ(b->domains_node(), "node-a");
    std::this_thread::sleep_for(300ms);
    EXPECT_FALSE(b->runs_domains());
    EXPECT_EQ(edge_a.seen(), std::vector<bool>{true});
    EXPECT_TRUE(edge_b.seen().empty());

    auto inbox = std::make_shared<Inbox>();
    ASSERT_TRUE(b->join(Address::lobby(), inbox, Credentials{"", nullptr, "10.0.0.9"}).ok());
    ASSERT_TRUE(eventually([&] { return inbox->has("lobby:node-a"); }));
    EXPECT_EQ(lobby_b.size(), 0u);
    for (int i = 0; i < 200; ++i) b->send(Address::lobby(), *inbox, std::string("m").append(std::to_string(i)));
    ASSERT_TRUE(eventually([&] { return inbox->all().size() == 201; }));
    const auto got = inbox->all();
    for (int i = 0; i < 200; ++i) ASSERT_EQ(got[size_t(i) + 1], "seen:m" + std::to_string(i)) << i;

    // The games' reports of b reach a's edge, in order; a's own are delivered at once.
    for (int ply = 0; ply < 100; ++ply) b->report_to_domains(live_game_json(a_game(ply)));
    a->report_to_domains(live_game_json(a_game(100)));
    ASSERT_TRUE(eventually([&] { return edge_a.report_count() == 101; }));
    {
        std::lock_guard lock(edge_a.mu);
        std::vector<int> plies;
        for (const auto& text : edge_a.reports) {
            auto r = read_live_game(text);
            ASSERT_TRUE(r.ok()) << r.error().message;
            plies.push_back(r->ply);
        }
        plies.erase(std::remove(plies.begin(), plies.end(), 100), plies.end());
        ASSERT_EQ(plies.size(), 100u);
        for (int ply = 0; ply < 100; ++ply) EXPECT_EQ(plies[size_t(ply)], ply);
    }
    EXPECT_EQ(edge_b.report_count(), 0u);

    // SIGTERM of a: b runs the domains at once and the connection joins its lobby.
    const auto handed = std::chrono::steady_clock::now();
    a->hand_over();
    ASSERT_TRUE(eventually([&] { return b->runs_domains(); }, 2s));
    ASSERT_TRUE(eventually([&] { return inbox->has("lobby:node-b"); }, 2s));
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - handed).count();
    EXPECT_LT(took, 1.0);
    EXPECT_EQ(lobby_b.size(), 1u);
    EXPECT_TRUE(eventually([&] { return lobby_a.size() == 0; }));
    EXPECT_EQ(edge_b.seen(), std::vector<bool>{true});
    b->send(Address::lobby(), *inbox, "after");
    EXPECT_TRUE(eventually([&] { return inbox->has("seen:after"); }));
    b->leave(Address::lobby(), inbox.get());
    EXPECT_EQ(lobby_b.size(), 0u);
}

TEST(RedisBusIssue26Domains, TheDomainsNodeStoppedWithoutAHandOverIsReplacedWithinTheLeaseTime) {
    outpost::test::RedisServer redis;
    FakeLobby lobby_a("node-a"), lobby_b("node-b");
    Edge edge_a, edge_b;
    auto a = node(redis, "node-a");
    ASSERT_TRUE(a);
    a->serve(Topic::LOBBY, &lobby_a);
    edge_a.attach(*a);
    ASSERT_TRUE(eventually([&] { return a->runs_domains(); }));
    auto b = node(redis, "node-b");
    ASSERT_TRUE(b);
    b->serve(Topic::LOBBY, &lobby_b);
    edge_b.attach(*b);
    auto inbox = std::make_shared<Inbox>();
    ASSERT_TRUE(b->join(Address::lobby(), inbox, Credentials{}).ok());
    ASSERT_TRUE(eventually([&] { return inbox->has("lobby:node-a"); }));
    const auto stopped = std::chrono::steady_clock::now();
    a->stop();  // as kill -9: its lease is not released, it runs out
    a.reset();
    ASSERT_TRUE(eventually([&] { return inbox->has("lobby:node-b"); }, 5s));
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - stopped).count();
    EXPECT_LT(took, 0.9 + 0.05 + 1.0) << "the lease's time, a watch period, and slack";
    EXPECT_TRUE(b->runs_domains());
    EXPECT_EQ(b->domains_node(), "node-b");
}

// Reports made while no node runs the domains, and those sent to a domains node that
// died (kill -9: its lease runs out), wait for the next domains node and reach it in
// the order made (they used to be dropped and counted).
TEST(RedisBusIssue26Domains, ReportsMadeWhileNoNodeRunsTheDomainsReachTheNextOneInOrder) {
    outpost::test::RedisServer redis;
    FakeLobby lobby_a("node-a"), lobby_b("node-b");
    Edge edge_a, edge_b;
    auto b = node(redis, "node-b");  // not a candidate: it never runs the domains
    ASSERT_TRUE(b);
    b->serve(Topic::LOBBY, &lobby_b);
    b->receive_reports([&edge_b](const std::string& r) {
        std::lock_guard lock(edge_b.mu);
        edge_b.reports.push_back(r);
    });
    for (int ply = 0; ply < 30; ++ply) b->report_to_domains(live_game_json(a_game(ply)));  // nobody runs them
    auto a = node(redis, "node-a");
    ASSERT_TRUE(a);
    a->serve(Topic::LOBBY, &lobby_a);
    edge_a.attach(*a);
    ASSERT_TRUE(eventually([&] { return a->runs_domains(); }));
    ASSERT_TRUE(eventually([&] { return b->domains_node() == "node-a"; }));
    for (int ply = 30; ply < 40; ++ply) b->report_to_domains(live_game_json(a_game(ply)));
    ASSERT_TRUE(eventually([&] { return edge_a.report_count() == 40; }, 3s)) << edge_a.report_count();
    {
        std::lock_guard lock(edge_a.mu);
        for (size_t i = 0; i < edge_a.reports.size(); ++i) {
            auto r = read_live_game(edge_a.reports[i]);
            ASSERT_TRUE(r.ok()) << r.error().message;
            EXPECT_EQ(r->ply, int(i));
        }
    }
    // a dies without a hand-over; b's reports meanwhile go to the next domains node, c.
    a->stop();
    a.reset();
    for (int ply = 40; ply < 50; ++ply) b->report_to_domains(live_game_json(a_game(ply)));
    Edge edge_c;
    FakeLobby lobby_c("node-c");
    auto c = node(redis, "node-c");
    ASSERT_TRUE(c);
    c->serve(Topic::LOBBY, &lobby_c);
    edge_c.attach(*c);
    ASSERT_TRUE(eventually([&] { return c->runs_domains(); }, 5s));
    ASSERT_TRUE(eventually([&] { return edge_c.report_count() == 10; }, 5s)) << edge_c.report_count();
    {
        std::lock_guard lock(edge_c.mu);
        for (size_t i = 0; i < edge_c.reports.size(); ++i) {
            auto r = read_live_game(edge_c.reports[i]);
            ASSERT_TRUE(r.ok()) << r.error().message;
            EXPECT_EQ(r->ply, 40 + int(i));
        }
    }
    EXPECT_EQ(b->reports_dropped(), 0u);
    EXPECT_EQ(edge_b.report_count(), 0u);
    c->stop();
    b->stop();
}

TEST(RedisBusIssue26Domains, TheDomainsLeaseIsNoGameAClientCanJoinOrTake) {
    outpost::test::RedisServer redis;
    FakeLobby games("node-a");
    Edge edge;
    auto a = node(redis, "node-a");
    ASSERT_TRUE(a);
    a->serve(Topic::GAME, &games);
    edge.attach(*a);
    ASSERT_TRUE(eventually([&] { return a->runs_domains(); }));
    auto inbox = std::make_shared<Inbox>();
    auto seat = a->join(Address::game("@domains"), inbox, Credentials{});
    ASSERT_FALSE(seat.ok());
    EXPECT_EQ(seat.error().code, "not_found");
    EXPECT_FALSE(a->take_game("@domains", 0).has_value());
    a->game_forgotten("@domains");
    a->game_ended("@domains");
    EXPECT_EQ(a->node_of("@domains"), "");
    std::this_thread::sleep_for(400ms);  // the keeper's turns: the lease is still a's
    EXPECT_TRUE(a->runs_domains());
    EXPECT_EQ(a->domains_node(), "node-a");
    EXPECT_EQ(games.size(), 0u);
}

// The domains' fence (stores/domains_fence.h): a node that takes the domains lease
// writes its token to the database before it runs them; one whose grant is below the
// stored token (Redis restarted empty) takes the lease again above it; one that cannot
// write its token (the database away) does not run them, and tries again.
TEST(RedisBusIssue26Domains, TheDomainsTokenIsClaimedInTheDatabaseBeforeTheNodeRunsThem) {
    outpost::test::RedisServer redis;
    std::mutex mu;
    std::int64_t stored = 1000;  // written by nodes before Redis lost its counter
    bool database_up = false;
    std::vector<std::int64_t> claims;
    const auto claim = [&](std::int64_t token) -> Result<std::int64_t> {
        std::unique_lock lock(mu);
        claims.push_back(token);
        if (!database_up) {
            // A slow answer: the grant is held meanwhile, and no write may use it.
            lock.unlock();
            std::this_thread::sleep_for(30ms);
            return make_error("the database is away");
        }
        stored = std::max(stored, token);
        return stored;
    };
    FakeLobby lobby_a("node-a"), lobby_b("node-b");
    Edge edge_a, edge_b;
    auto a = node(redis, "node-a");
    ASSERT_TRUE(a);
    a->serve(Topic::LOBBY, &lobby_a);
    a->fence_domains(claim);
    edge_a.attach(*a);
    ASSERT_TRUE(eventually([&] {
        std::lock_guard lock(mu);
        return claims.size() >= 2;
    }));
    EXPECT_FALSE(a->runs_domains());
    EXPECT_EQ(a->domains_token(), -1);
    EXPECT_TRUE(edge_a.seen().empty());
    {
        std::lock_guard lock(mu);
        database_up = true;
    }
    ASSERT_TRUE(eventually([&] { return a->runs_domains(); }, 3s));
    EXPECT_EQ(edge_a.seen(), std::vector<bool>{true});
    EXPECT_GT(a->domains_token(), 1000);
    {
        std::lock_guard lock(mu);
        EXPECT_EQ(stored, a->domains_token()) << "claimed before it ran them";
    }
    auto b = node(redis, "node-b");
    ASSERT_TRUE(b);
    b->serve(Topic::LOBBY, &lobby_b);
    b->fence_domains(claim);
    edge_b.attach(*b);
    std::this_thread::sleep_for(200ms);
    EXPECT_FALSE(b->runs_domains());
    EXPECT_EQ(b->domains_token(), -1) << "a node that does not hold the lease writes nothing";
    const std::int64_t before = a->domains_token();
    a->stop();  // as kill -9
    a.reset();
    ASSERT_TRUE(eventually([&] { return b->runs_domains(); }, 5s));
    EXPECT_GT(b->domains_token(), before);
    std::lock_guard lock(mu);
    EXPECT_EQ(stored, b->domains_token());
}
