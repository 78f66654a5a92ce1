// Outpost — issue 25, the bounded and security-critical parts: a seat bound to an
// account is that account's (item 6), the bounds of a served game (time controls,
// the PGN a game starts from: item 3 and "Bounds everywhere"), the open-games cap
// for rematches (item 9), and rated games only with two moves each (item 8). Through
// the hub and the in-process bus, with an exact fake clock.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <tuple>

#include "server/accounts/ratings.h"
#include "server/bus/in_process_bus.h"
#include "server/common/game_bounds.h"
#include "server/play/hub.h"
#include "../support/collector.h"

using namespace outpost;
using namespace outpost::server;
using nlohmann::json;

namespace {

using outpost::test::Collector;

// A connection with a signed-in account (0: anonymous), as the edge's WebSocket session.
struct Connection : Collector {
    std::int64_t account = 0;
    explicit Connection(std::int64_t a = 0) : account(a) {}
    std::int64_t account_id() const override { return account; }
};

struct HardeningFixture : ::testing::Test {
    Millis now = 1'000'000;
    int tokens = 0;
    HubEnv env;
    std::unique_ptr<Hub> hub;
    InProcessBus bus;
    Account alice{1, "alice"}, bob{2, "bob"}, mallory{3, "mallory"};

    void SetUp() override {
        env.monotonic_ms = [this] { return now; };
        env.wall_ms = [this] { return 1'700'000'000'000 + now; };
        env.random_token = [this](int len) {
            std::string s(1, 't');  // (not "t" + …: g++ 12 warns of a false overflow there)
            s += std::to_string(++tokens);
            while (int(s.size()) < len) s += "x";
            return s;
        };
        env.inline_writes = true;
        make_hub();
    }
    void make_hub() {
        hub = std::make_unique<Hub>(env, nullptr);
        bus.serve(Topic::GAME, hub.get());
    }
    // A rated game as the lobby makes it: alice White, bob Black, both seats theirs.
    CreatedGame rated_game() {
        auto g = hub->create_game(R"({"opponent":"invite","color":"white","time_control":"5+3","casual":false})", "lobby",
                                  &alice, &bob);
        EXPECT_TRUE(g.ok());
        return *g;
    }
    std::shared_ptr<Connection> join(const std::string& game, const std::string& token, const Account* account) {
        auto c = std::make_shared<Connection>(account ? account->id : 0);
        auto seat = bus.join(Address::game(game), c, Credentials{token, account, "client"});
        EXPECT_TRUE(seat.ok());
        return c;
    }
    json state(const std::string& id) { return json::parse(hub->state_json(id).value())["game"]; }
    // A game of `client` between two connections, resigned by White, who offers a rematch:
    // its id and the two connections.
    std::tuple<std::string, std::shared_ptr<Collector>, std::shared_ptr<Collector>> finished_with_rematch_offered(
        const std::string& client) {
        auto g = hub->create_game(R"({"opponent":"invite","color":"white","time_control":"5+3"})", client).value();
        auto w = std::make_shared<Collector>(), b = std::make_shared<Collector>();
        EXPECT_TRUE(hub->connect(g.id, *g.white_token, w).ok());
        EXPECT_TRUE(hub->connect(g.id, *g.black_token, b).ok());
        hub->handle_message(g.id, Seat::WHITE_SEAT, R"({"t":"resign"})", *w);
        hub->handle_message(g.id, Seat::WHITE_SEAT, R"({"t":"rematch","action":"offer"})", *w);
        return {g.id, w, b};
    }
};

}  // namespace

// Item 6: an anonymous connection holding a signed-in player's seat token watched
// and could move and resign for them (242 points lost). Now it is a spectator.
TEST_F(HardeningFixture, Issue25Item6AnonymousHolderOfAnAccountsSeatCannotMoveOrResign) {
    CreatedGame g = rated_game();
    ASSERT_TRUE(state(g.id)["rated"].get<bool>());
    auto thief = join(g.id, *g.white_token, nullptr);
    EXPECT_EQ(thief->last_of("state")["game"]["you"], "spectator");
    EXPECT_EQ(thief->last_of("error")["code"], "not_your_seat");
    EXPECT_NE(thief->last_of("error")["message"].get<std::string>().find("alice"), std::string::npos);
    bus.send(Address::game(g.id), *thief, R"({"v":1,"t":"move","uci":"e2e4"})");
    bus.send(Address::game(g.id), *thief, R"({"v":1,"t":"resign"})");
    EXPECT_EQ(thief->last()["code"], "not_your_seat");
    EXPECT_EQ(state(g.id)["ply"], 0);
    EXPECT_EQ(state(g.id)["status"], "ongoing");
    // Another account with the token is no better.
    auto other = join(g.id, *g.white_token, &mallory);
    bus.send(Address::game(g.id), *other, R"({"v":1,"t":"resign"})");
    EXPECT_EQ(other->last()["code"], "not_your_seat");
    EXPECT_EQ(state(g.id)["status"], "ongoing");
    EXPECT_EQ(state(g.id)["players"]["white"]["name"], "alice");
    // The owner, signed in, plays it.
    auto owner = join(g.id, *g.white_token, &alice);
    EXPECT_EQ(owner->last_of("state")["game"]["you"], "white");
    bus.send(Address::game(g.id), *owner, R"({"v":1,"t":"move","uci":"e2e4"})");
    EXPECT_EQ(state(g.id)["ply"], 1);
}

// Item 6: a seat claimed while an anonymous connection holds it (the bus keeps the
// seat of the join): from the claim on, only the account's connections act for it.
TEST_F(HardeningFixture, Issue25Item6ASeatClaimedLaterIsTheAccountsFromThen) {
    auto g = hub->create_game(R"({"opponent":"invite","color":"white","time_control":"5+3"})", "c").value();
    auto before = join(g.id, *g.black_token, nullptr);
    EXPECT_EQ(before->last_of("state")["game"]["you"], "black");
    auto white = join(g.id, *g.white_token, nullptr);
    bus.send(Address::game(g.id), *white, R"({"v":1,"t":"move","uci":"e2e4"})");
    ASSERT_EQ(state(g.id)["ply"], 1);
    ASSERT_TRUE(hub->claim_seat(g.id, *g.black_token, bob).ok());
    bus.send(Address::game(g.id), *before, R"({"v":1,"t":"move","uci":"e7e5"})");
    EXPECT_EQ(before->last()["code"], "not_your_seat");
    bus.send(Address::game(g.id), *before, R"({"v":1,"t":"ping"})");  // a ping still answers
    EXPECT_EQ(before->last()["t"], "pong");
    EXPECT_EQ(state(g.id)["ply"], 1);
    auto bobs = join(g.id, *g.black_token, &bob);
    bus.send(Address::game(g.id), *bobs, R"({"v":1,"t":"move","uci":"e7e5"})");
    EXPECT_EQ(state(g.id)["ply"], 2);
    // An anonymous game stays playable with its token alone.
    auto h = hub->create_game(R"({"opponent":"invite","color":"white"})", "c").value();
    auto anon = join(h.id, *h.white_token, nullptr);
    EXPECT_EQ(anon->last_of("state")["game"]["you"], "white");
    bus.send(Address::game(h.id), *anon, R"({"v":1,"t":"move","uci":"d2d4"})");
    EXPECT_EQ(state(h.id)["ply"], 1);
}

// Item 3: a 60 KB time control of 8,570 periods was accepted and echoed everywhere.
TEST(Issue25Bounds, TimeControlsAreBounded) {
    for (const char* ok : {"5+3", "1+0", "90+30", "40/5400+30:1800+30", "40/7200:20/3600:900+30", "3+2d", "3d", "14d/100d",
                           "240", "-"})
        EXPECT_TRUE(read_served_time_control(ok).ok()) << ok;
    auto message = [](std::string_view text) {
        auto r = read_served_time_control(text);
        EXPECT_FALSE(r.ok()) << text;
        return r ? std::string() : r.error().message;
    };
    EXPECT_EQ(message("10/60:10/60:10/60:60"), "time control '10/60:10/60:10/60:60': at most 3 periods");
    EXPECT_EQ(message("241"), "time control '241', period 1: the main time is at most 240 minutes");
    EXPECT_EQ(message("5+181"), "time control '5+181', period 1: the increment or delay is at most 180 seconds");
    EXPECT_EQ(message("201/600:60"), "time control '201/600:60', period 1: at most 200 moves");
    EXPECT_EQ(message("15d"), "time control '15d': days per move must be 1 to 14");
    EXPECT_EQ(message("3d/101d"), "time control '3d/101d': a bank holds at most 100 days");
    std::string huge;
    for (int i = 0; i < 8570; ++i) huge += "1/60:";
    huge += "60";
    EXPECT_EQ(message(huge), "the time control is longer than 40 characters (this server takes at most 3 periods)");
    EXPECT_EQ(read_served_time_control("abc").error().code, "bad_request");
}

TEST_F(HardeningFixture, Issue25BoundsEveryWayAGameIsMadeTakesThem) {
    auto bad = hub->create_game(R"({"opponent":"invite","time_control":"10/60:10/60:10/60:10/60"})", "c");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().code, "bad_request");
    EXPECT_NE(bad.error().message.find("at most 3 periods"), std::string::npos);
    // A PGN of more than MaxStartPlies plies is refused before it is replayed.
    std::string pgn;
    const char* cycle[] = {"Nf3", "Nf6", "Ng1", "Ng8"};
    for (int ply = 0; ply < MaxStartPlies + 2; ++ply) {
        if (ply % 2 == 0) pgn += std::to_string(ply / 2 + 1) + ". ";
        pgn += std::string(cycle[ply % 4]) + " ";
    }
    // (A threefold repetition is only claimable: a casual game would draw it at once.)
    json body{{"opponent", "invite"}, {"pgn", pgn + "*"}, {"casual", false}};
    auto long_pgn = hub->create_game(body.dump(), "c");
    ASSERT_FALSE(long_pgn.ok());
    EXPECT_EQ(long_pgn.error().message, "PGN: a game starts from at most 600 plies (300 moves); this one has 602");
    std::string shorter;
    for (int ply = 0; ply < 12; ++ply) {  // (the start three times more: not yet fivefold)
        if (ply % 2 == 0) shorter += std::to_string(ply / 2 + 1) + ". ";
        shorter += std::string(cycle[ply % 4]) + " ";
    }
    body["pgn"] = shorter + "*";
    EXPECT_TRUE(hub->create_game(body.dump(), "c").ok());
}

// Item 9: rematches made 40 unfinished games against a cap of 20.
TEST_F(HardeningFixture, Issue25Item9RematchesCountAgainstTheOpenGamesCap) {
    env.max_open_games_per_client = 3;
    make_hub();
    const std::string client = "10.0.0.1";
    auto finished = [&] { return finished_with_rematch_offered(client); };
    // Two finished games with rematches offered, two open games: the first rematch
    // makes the third open game, the second is refused.
    auto [one, w1, b1] = finished();
    auto [two, w2, b2] = finished();
    for (int i = 0; i < 2; ++i) ASSERT_TRUE(hub->create_game(R"({"opponent":"invite"})", client).ok());
    hub->handle_message(one, Seat::BLACK_SEAT, R"({"t":"rematch","action":"accept"})", *b1);
    EXPECT_TRUE(state(one)["rematch"]["game"].is_string()) << b1->all();
    hub->handle_message(two, Seat::BLACK_SEAT, R"({"t":"rematch","action":"accept"})", *b2);
    EXPECT_EQ(b2->last()["code"], "rate_limited") << b2->all();
    EXPECT_TRUE(state(two)["rematch"]["game"].is_null());
    // The rematch counts as any other game of the client.
    auto more = hub->create_game(R"({"opponent":"invite"})", client);
    ASSERT_FALSE(more.ok());
    EXPECT_EQ(more.error().code, "rate_limited");
}

// Item 9 and item 7: an IPv6 client is its /64 for the cap.
TEST_F(HardeningFixture, Issue25Item7OpenGamesCapHoldsPerIpv6Slash64) {
    env.max_open_games_per_client = 2;
    make_hub();
    ASSERT_TRUE(hub->create_game(R"({"opponent":"invite"})", "2001:db8:1:2::1").ok());
    ASSERT_TRUE(hub->create_game(R"({"opponent":"invite"})", "2001:db8:1:2:ffff::9").ok());
    auto third = hub->create_game(R"({"opponent":"invite"})", "2001:db8:1:2:abcd:1:2:3");
    ASSERT_FALSE(third.ok());
    EXPECT_EQ(third.error().code, "rate_limited");
    EXPECT_TRUE(hub->create_game(R"({"opponent":"invite"})", "2001:db8:1:3::1").ok());
}

// Issue 25: the open-games cap was per address only: a signed-in player with many
// addresses had 20 games on each. Now the account is counted too, every way a game is
// made (here a robot game, an invitation and a rematch); another account at the same
// address is not affected, and an event's games (made by the organiser's service)
// are not counted.
TEST_F(HardeningFixture, Issue25OpenGamesCapHoldsPerAccountAcrossAddresses) {
    env.max_open_games_per_client = 3;
    make_hub();
    ASSERT_TRUE(hub->create_game(R"({"opponent":"robot","level":1})", "10.0.0.1", &alice).ok());
    auto g = hub->create_game(R"({"opponent":"invite","color":"white","time_control":"5+3"})", "10.0.0.2", &alice).value();
    auto refused = [&](const Answer<CreatedGame>& a) {
        EXPECT_FALSE(a.ok());
        if (!a.ok()) {
            EXPECT_EQ(a.error().code, "rate_limited");
            EXPECT_NE(a.error().message.find("your account"), std::string::npos) << a.error().message;
        }
    };
    // The rematch of a finished game of alice's is her third open game, the fourth is refused.
    auto w = join(g.id, *g.white_token, &alice), b = join(g.id, *g.black_token, nullptr);
    hub->handle_message(g.id, Seat::WHITE_SEAT, R"({"t":"resign"})", *w);
    hub->handle_message(g.id, Seat::WHITE_SEAT, R"({"t":"rematch","action":"offer"})", *w);
    hub->handle_message(g.id, Seat::BLACK_SEAT, R"({"t":"rematch","action":"accept"})", *b);
    EXPECT_TRUE(state(g.id)["rematch"]["game"].is_string()) << b->all();
    ASSERT_TRUE(hub->create_game(R"({"opponent":"hotseat"})", "10.0.0.3", &alice).ok());
    refused(hub->create_game(R"({"opponent":"invite"})", "10.0.0.4", &alice));
    refused(hub->create_game(R"({"opponent":"robot","level":1})", "2001:db8:9::1", &alice));
    // Another account at one of her addresses, and an anonymous player there too.
    EXPECT_TRUE(hub->create_game(R"({"opponent":"invite"})", "10.0.0.4", &bob).ok());
    EXPECT_TRUE(hub->create_game(R"({"opponent":"invite"})", "10.0.0.1").ok());
    // An event's board is the organiser's doing: not counted.
    EXPECT_TRUE(hub->create_event_game("5+3", false, alice, mallory).ok());
}

// Item 8: one move each and a resignation farmed ratings; two moves each are needed.
TEST(Issue25Item8, ARatedGameNeedsTwoMovesOfEachSide) {
    StoredGame g;
    g.white_account = 1;
    g.black_account = 2;
    g.white_kind = g.black_kind = "human";
    g.white_token = "a";
    g.black_token = "b";
    g.time_control = "5+3";
    g.variant = "standard";
    g.chess960 = -1;
    g.initial_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    ASSERT_TRUE(rated_class(g).has_value());
    const Outcome resigned{BLACK, Status::RESIGNATION};
    EXPECT_EQ(MinRatedPlies, 4);
    for (int plies = 0; plies < 4; ++plies) EXPECT_FALSE(changes_ratings(g, resigned, plies)) << plies;
    EXPECT_TRUE(changes_ratings(g, resigned, 4));
    EXPECT_TRUE(changes_ratings(g, resigned, 40));
}

namespace {

// The open-games count every node keeps (issue 26), as one Redis would: other nodes'
// games are `elsewhere`; every call is recorded.
struct SharedCount : SharedLimits {
    std::mutex mutex;
    std::map<std::string, int> count;             // per key
    std::map<std::string, std::string> pending;   // token -> key
    std::vector<std::string> settled;             // "key=game" ("" given back)
    int reservations = 0;
    Result<bool> take(std::string_view, std::string_view, double, double) override { return true; }
    Result<Millis> attempt_wait(std::string_view) override { return Millis(0); }
    Result<bool> attempt_failed(std::string_view, const AttemptGuard::Options&) override { return true; }
    Result<bool> attempt_succeeded(std::string_view) override { return true; }
    Result<bool> reserve_open_game(std::string_view key, std::string_view token, int cap, Millis) override {
        std::lock_guard lock(mutex);
        ++reservations;
        int& n = count[std::string(key)];
        if (n >= cap) return false;
        ++n;
        pending[std::string(token)] = key;
        return true;
    }
    Result<bool> settle_open_game(std::string_view key, std::string_view token, std::string_view game) override {
        std::lock_guard lock(mutex);
        pending.erase(std::string(token));
        if (game.empty()) --count[std::string(key)];
        settled.push_back(std::string(key) + "=" + std::string(game));
        return true;
    }
    void open_game_ended(std::string_view key, std::string_view) override {
        std::lock_guard lock(mutex);
        --count[std::string(key)];
    }
    int connections_elsewhere(const std::string&) override { return 0; }
    void connections_here(const std::string&, int) override {}
    int of(const std::string& key) {
        std::lock_guard lock(mutex);
        return count[key];
    }
};

}  // namespace

// Issue 26: a rematch is held to the open-games cap every node counts, not only this
// node's: its place is asked for off the network thread (HubEnv::run_blocking), and the
// rematch is made once it is held; refused when the creator's games on other nodes fill
// the cap; asked for once however many accepts come meanwhile; given back when the
// connection has gone.
TEST_F(HardeningFixture, Issue26RematchesCountAgainstTheOpenGamesCapOfEveryNode) {
    SharedCount shared;
    std::vector<std::function<void()>> jobs;
    env.max_open_games_per_client = 3;
    env.shared_limits = &shared;
    env.run_blocking = [&jobs](std::function<void()> job) {
        jobs.push_back(std::move(job));
        return true;
    };
    make_hub();
    const std::string client = "10.0.0.1";
    auto run_jobs = [&jobs] {
        auto queued = std::move(jobs);
        jobs.clear();
        for (auto& j : queued) j();
        return queued.size();
    };
    auto finished = [&] { return finished_with_rematch_offered(client); };
    // Two games of this client run on other nodes; one finished here.
    shared.count[client] = 2;
    auto [one, w1, b1] = finished();
    ASSERT_EQ(shared.of(client), 2);
    // The accept waits for its place; a second accept meanwhile asks nothing more.
    hub->handle_message(one, Seat::BLACK_SEAT, R"({"t":"rematch","action":"accept"})", *b1);
    hub->handle_message(one, Seat::BLACK_SEAT, R"({"t":"rematch","action":"accept"})", *b1);
    EXPECT_TRUE(state(one)["rematch"]["game"].is_null());
    const int asked_before = shared.reservations;
    ASSERT_EQ(run_jobs(), 1u);
    EXPECT_EQ(shared.reservations, asked_before + 1);
    const json made = state(one)["rematch"]["game"];
    ASSERT_TRUE(made.is_string()) << b1->all();
    EXPECT_EQ(shared.of(client), 3);
    EXPECT_EQ(shared.settled.back(), client + "=" + made.get<std::string>());
    // The cap is full on every node together (this node has only the rematch): refused.
    shared.count[client] = 2;  // the first game's rematch ended elsewhere, say; another finished here
    auto [two, w2, b2] = finished();
    shared.count[client] = 3;  // and a game was made on another node meanwhile
    hub->handle_message(two, Seat::BLACK_SEAT, R"({"t":"rematch","action":"accept"})", *b2);
    ASSERT_EQ(run_jobs(), 1u);
    EXPECT_EQ(b2->last()["code"], "rate_limited") << b2->all();
    EXPECT_NE(b2->last()["message"].get<std::string>().find("no rematch now"), std::string::npos);
    EXPECT_TRUE(state(two)["rematch"]["game"].is_null());
    EXPECT_EQ(shared.of(client), 3);
    // Asked again once a place is free: made.
    shared.count[client] = 2;
    hub->handle_message(two, Seat::BLACK_SEAT, R"({"t":"rematch","action":"accept"})", *b2);
    ASSERT_EQ(run_jobs(), 1u);
    EXPECT_TRUE(state(two)["rematch"]["game"].is_string()) << b2->all();
    // A connection gone before its place was held: nothing made, the place given back.
    shared.count[client] = 0;
    auto [three, w3, b3] = finished();
    hub->handle_message(three, Seat::BLACK_SEAT, R"({"t":"rematch","action":"accept"})", *b3);
    hub->disconnect(three, b3.get());
    b3.reset();
    ASSERT_EQ(run_jobs(), 1u);
    EXPECT_TRUE(state(three)["rematch"]["game"].is_null());
    EXPECT_EQ(shared.of(client), 0);
}
