// Outpost — a game handed to the node of its players (issue 26, "games follow their
// players", docs/scaling.md) in the hub: two hubs on one SQLite file and one exact fake
// clock stand for two nodes. FIDE 6.10-6.11 as docs/laws.md applies it: the side to move
// is charged the time it used on the first node, and not the time the game spent
// between the nodes.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "server/play/hub.h"
#include "server/stores/game_store.h"
#include "../support/collector.h"
#include "../support/fake_hub_env.h"

using namespace outpost;
using namespace outpost::server;
using nlohmann::json;
using outpost::test::Collector;

namespace {

struct HubFollow : ::testing::Test {
    Millis now = 1'000'000;
    int tokens = 0;
    std::int64_t next_token = 0;
    std::string db_path;
    std::unique_ptr<Storage> storage;

    HubEnv env(const std::string& node) {
        HubEnv e = test::fake_hub_env(now, tokens);
        e.node = node;
        e.take_game = [this](const std::string&, std::int64_t stored) -> std::optional<std::int64_t> {
            next_token = std::max(next_token, stored) + 1;
            return next_token;
        };
        return e;
    }
    void SetUp() override {
        db_path = (std::filesystem::temp_directory_path() /
                   ("outpost-hub-follow-" + std::to_string(::getpid()) + "-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db"))
                      .string();
        std::filesystem::remove(db_path);
        storage = std::move(Storage::open(db_path).value());
    }
    void TearDown() override {
        storage.reset();
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_path + suffix);
    }
    static void move(Hub& hub, const std::string& id, Seat seat, Collector& c, const std::string& uci) {
        hub.handle_message(id, seat, json{{"v", 1}, {"t", "move"}, {"uci", uci}}.dump(), c);
    }
};

TEST_F(HubFollow, Issue26TheSideToMoveIsChargedItsTimeOnTheFirstNodeNotTheHandOver) {
    Hub a(env("a"), storage.get());
    auto g = a.create_game(R"({"v":1,"opponent":"invite","color":"white","time_control":"5+0"})");
    ASSERT_TRUE(g.ok()) << g.error().message;
    auto w = std::make_shared<Collector>(), b = std::make_shared<Collector>();
    ASSERT_TRUE(a.connect(g->id, *g->white_token, w).ok());
    ASSERT_TRUE(a.connect(g->id, *g->black_token, b).ok());
    move(a, g->id, Seat::WHITE_SEAT, *w, "e2e4");
    move(a, g->id, Seat::BLACK_SEAT, *b, "e7e5");
    ASSERT_EQ(w->last_state()["ply"], 2);
    ASSERT_EQ(w->last_state()["clock"]["white_ms"], 300'000);
    now += 7'000;  // white thinks on a for 7 s ...
    bool durable = false;
    auto followers = a.hand_over_game(g->id, [&] { durable = true; });
    ASSERT_TRUE(followers);
    EXPECT_TRUE(durable);
    EXPECT_EQ(followers->size(), 2u);
    EXPECT_EQ(a.live_games(), 0u);
    now += 20'000;  // ... and the game is 20 s between the nodes (far longer than it takes)

    Hub b_node(env("b"), storage.get());
    auto state = b_node.state_json(g->id);
    ASSERT_TRUE(state.ok()) << state.error().message;
    json s = json::parse(*state)["game"];
    EXPECT_EQ(s["node"], "b");
    EXPECT_EQ(s["clock"]["white_ms"], 293'000) << "7 s of white's on a, none of the 20 s between";
    EXPECT_EQ(s["clock"]["black_ms"], 300'000);
    EXPECT_EQ(s["clock"]["running"], "white");
    now += 1'000;  // white's clock runs on b
    s = json::parse(*b_node.state_json(g->id))["game"];
    EXPECT_EQ(s["clock"]["white_ms"], 292'000);
    auto w2 = std::make_shared<Collector>();
    ASSERT_TRUE(b_node.connect(g->id, *g->white_token, w2).ok());
    move(b_node, g->id, Seat::WHITE_SEAT, *w2, "g1f3");
    EXPECT_EQ(w2->last_state()["ply"], 3);
    EXPECT_EQ(w2->last_state()["clock"]["white_ms"], 292'000);
}

TEST_F(HubFollow, Issue26OnlyALiveGameInMemoryIsHandedOver) {
    Hub a(env("a"), storage.get());
    bool called = false;
    EXPECT_FALSE(a.hand_over_game("nosuchgame", [&] { called = true; }));
    auto g = a.create_game(R"({"v":1,"opponent":"hotseat","color":"white"})");
    ASSERT_TRUE(g.ok());
    ASSERT_TRUE(a.arbiter_decision(g->id, "1-0", "test").ok());
    EXPECT_FALSE(a.hand_over_game(g->id, [&] { called = true; })) << "a finished game stays (a rematch offer)";
    EXPECT_FALSE(called);
}

}  // namespace
