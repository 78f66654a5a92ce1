// Outpost — the game hub and router, with an exact fake clock (SPEC P2, P6, P9-P13, C5, D3, D4).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "../support/counted_token.h"
#include "server/play/hub.h"
#include "server/edge/router.h"
#include "server/stores/game_store.h"
#include "engine/skill.h"
#include "../support/collector.h"

using namespace outpost;
using namespace outpost::server;
using nlohmann::json;

namespace {

using outpost::test::Collector;

struct Fixture : ::testing::Test {
    Millis now = 1'000'000;
    int token_counter = 0;
    std::vector<std::pair<std::string, Millis>> callbacks;
    std::vector<RobotRequest> robot_requests;
    std::unique_ptr<Storage> storage;
    std::unique_ptr<Hub> hub;
    std::string db_path;

    HubEnv env() {
        HubEnv e;
        e.monotonic_ms = [this] { return now; };
        e.wall_ms = [this] { return 1'700'000'000'000 + now; };
        e.call_back_in = [this](const std::string& id, Millis d) { callbacks.emplace_back(id, d); };
        e.ask_robot = [this](RobotRequest r) { robot_requests.push_back(std::move(r)); };
        e.random_token = [this](int len) {
            return outpost::test::counted_token('t', ++token_counter, len);
        };
        e.levels_json = [] { return std::string(R"({"v":1,"levels":[{"level":1,"elo":800}]})"); };
        e.inline_writes = true;
        return e;
    }

    void SetUp() override {
        db_path = (std::filesystem::temp_directory_path() /
                   ("outpost-hub-test-" + std::to_string(::getpid()) + "-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db")).string();
        std::filesystem::remove(db_path);
        storage = std::move(Storage::open(db_path).value());
        hub = std::make_unique<Hub>(env(), storage.get());
    }
    void TearDown() override {
        hub.reset();
        storage.reset();
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_path + suffix);
    }

    CreatedGame create(const json& body) {
        auto r = hub->create_game(body.dump());
        if (!r) ADD_FAILURE() << r.error().code << ": " << r.error().message;
        return r.value();
    }
    std::shared_ptr<Collector> join(const std::string& id, const std::string& token, Seat expect) {
        auto c = std::make_shared<Collector>();
        auto r = hub->connect(id, token, c);
        EXPECT_TRUE(r.ok());
        if (r.ok()) {
            EXPECT_EQ(r.value(), expect);
        }
        return c;
    }
    void send(const std::string& id, Seat seat, Collector& c, const json& msg) { hub->handle_message(id, seat, msg.dump(), c); }
    std::string last_error(const Collector& c) {
        json j = c.last();
        return j["t"] == "error" ? j["code"].get<std::string>() : "";
    }
};

}  // namespace

TEST_F(Fixture, P2HotseatGameToCheckmate) {
    auto g = create({{"v", 1}, {"opponent", "hotseat"}, {"time_control", "5+3"}});
    ASSERT_TRUE(g.white_token && g.black_token);
    EXPECT_EQ(*g.white_token, *g.black_token);
    EXPECT_EQ(g.you, Seat::BOTH);
    auto c = join(g.id, *g.white_token, Seat::BOTH);
    json s = c->last_state();
    EXPECT_EQ(s["status"], "ongoing");
    EXPECT_EQ(s["legal"]["e2"], json::array({"e3", "e4"}));
    for (const char* m : {"f2f3", "e7e5", "g2g4", "d8h4"}) send(g.id, Seat::BOTH, *c, {{"v", 1}, {"t", "move"}, {"uci", m}});
    s = c->last_state();
    EXPECT_EQ(s["status"], "checkmate");
    EXPECT_EQ(s["result"], "0-1");
    EXPECT_EQ(s["end"], "Black wins by checkmate");
    EXPECT_EQ(s["san"].back(), "Qh4#");
    EXPECT_TRUE(s["legal"].empty());
}

TEST_F(Fixture, P2RobotGameAsksTheRobotAndPlaysItsMove) {
    auto g = create({{"opponent", "robot"}, {"color", "black"}, {"level", 4}});
    EXPECT_FALSE(g.white_token.has_value());
    ASSERT_TRUE(g.black_token.has_value());
    ASSERT_EQ(robot_requests.size(), 1u);
    EXPECT_EQ(robot_requests[0].ply, 0);
    EXPECT_EQ(robot_requests[0].level, 4);
    auto c = join(g.id, *g.black_token, Seat::BLACK_SEAT);
    EXPECT_TRUE(c->last_state()["legal"].empty());  // the robot is to move
    hub->on_robot_move(g.id, robot_requests[0].request_id, Move(SQ_E2, SQ_E4));
    hub->on_robot_move(g.id, robot_requests[0].request_id, Move(SQ_D2, SQ_D4));  // a stale answer is ignored
    json s = c->last_state();
    EXPECT_EQ(s["moves"], json::array({"e2e4"}));
    EXPECT_FALSE(s["legal"].empty());
    EXPECT_EQ(s["players"]["white"]["kind"], "robot");
    EXPECT_EQ(s["players"]["white"]["level"], 4);
}

TEST_F(Fixture, D4OnlyTheSeatHolderMoves) {
    auto g = create({{"opponent", "invite"}, {"color", "white"}});
    auto w = join(g.id, *g.white_token, Seat::WHITE_SEAT);
    auto b = join(g.id, *g.black_token, Seat::BLACK_SEAT);
    auto spectator = join(g.id, "", Seat::SPECTATOR);
    auto forged = std::make_shared<Collector>();
    auto r = hub->connect(g.id, "forged-token", forged);
    ASSERT_TRUE(!r);
    EXPECT_EQ(r.error().code, "not_your_seat");

    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "move"}, {"uci", "e7e5"}});
    EXPECT_EQ(last_error(*b), "not_your_turn");
    send(g.id, Seat::SPECTATOR, *spectator, {{"t", "move"}, {"uci", "e2e4"}});
    EXPECT_EQ(last_error(*spectator), "not_your_seat");
    EXPECT_TRUE(spectator->last_state()["legal"].empty());
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "move"}, {"uci", "e2e5"}});
    EXPECT_EQ(last_error(*w), "illegal_move");
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "move"}, {"san", "e4"}});
    EXPECT_EQ(spectator->last_state()["moves"], json::array({"e2e4"}));
    EXPECT_EQ(b->last_state()["you"], "black");
    EXPECT_FALSE(b->last_state()["legal"].empty());
    EXPECT_TRUE(w->last_state()["legal"].empty());
}

// A `move` message carries what changed; applied to the state before it, it must
// give exactly the state the server would send whole (asked for with `sync`), for
// every seat, through castling, promotion, check, a draw offer and the end.
TEST_F(Fixture, MoveMessagesFoldIntoTheFullState) {
    auto g = create({{"opponent", "invite"}, {"color", "white"}, {"time_control", "3+2"},
                     {"fen", "r3k2r/P7/8/8/8/8/8/R3K2R w KQkq - 0 1"}});
    auto w = join(g.id, *g.white_token, Seat::WHITE_SEAT);
    auto b = join(g.id, *g.black_token, Seat::BLACK_SEAT);
    auto spectator = join(g.id, "", Seat::SPECTATOR);
    auto same_as_sync = [&](Collector& c, Seat seat) {
        json folded = c.last_state();
        Collector fresh;
        send(g.id, seat, fresh, {{"t", "sync"}});
        ASSERT_EQ(fresh.messages.size(), 1u);
        json whole = json::parse(fresh.messages[0]);
        ASSERT_EQ(whole["t"], "state");
        json expected = whole["game"];
        folded["clock"].erase("server_time");
        expected["clock"].erase("server_time");
        EXPECT_EQ(folded, expected) << "seat " << int(seat);
    };
    const std::vector<std::pair<Seat, const char*>> moves = {
        {Seat::WHITE_SEAT, "e1g1"}, {Seat::BLACK_SEAT, "e8c8"}, {Seat::WHITE_SEAT, "a7a8q"}};
    for (const auto& [seat, uci] : moves) {
        now += 1500;  // the clocks run; the comparison is at the instant of the move
        send(g.id, seat, seat == Seat::WHITE_SEAT ? *w : *b, {{"t", "move"}, {"uci", uci}});
        same_as_sync(*w, Seat::WHITE_SEAT);
        same_as_sync(*b, Seat::BLACK_SEAT);
        same_as_sync(*spectator, Seat::SPECTATOR);
    }
    EXPECT_EQ(w->last_state()["san"], json::array({"O-O", "O-O-O", "a8=Q+"}));
    EXPECT_EQ(b->last_state()["check"], "c8");
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "draw"}, {"action", "offer"}});
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "move"}, {"uci", "c8c7"}});
    same_as_sync(*w, Seat::WHITE_SEAT);
    EXPECT_EQ(w->last_state()["draw_offer"], "black");
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "move"}, {"uci", "f1f7"}});
    same_as_sync(*b, Seat::BLACK_SEAT);
    same_as_sync(*spectator, Seat::SPECTATOR);
    EXPECT_EQ(spectator->last_state()["ply"], 5);
}

TEST_F(Fixture, BadMessagesGetJsonErrorsAndTheGameGoesOn) {
    auto g = create({{"opponent", "hotseat"}});
    auto c = join(g.id, *g.white_token, Seat::BOTH);
    for (const std::string& bad : std::vector<std::string>{"not json", "[1,2]", "{}", R"({"t":5})", R"({"t":"fly"})", R"({"t":"move"})",
                                  R"({"t":"move","uci":7})", R"({"t":"draw","action":"maybe"})", R"({"v":2,"t":"resign"})",
                                  R"({"t":"give_time","seconds":"x"})", std::string(5000, '{')}) {
        hub->handle_message(g.id, Seat::BOTH, bad, *c);
        json j = c->last();
        EXPECT_EQ(j["t"], "error") << bad;
        EXPECT_FALSE(j["message"].get<std::string>().empty());
    }
    send(g.id, Seat::BOTH, *c, {{"t", "move"}, {"uci", "e2e4"}});
    EXPECT_EQ(c->last_state()["ply"], 1);
    send(g.id, Seat::BOTH, *c, {{"t", "move"}, {"uci", "e7e5"}, {"ply", 0}});  // stale premove
    EXPECT_EQ(last_error(*c), "not_your_turn");
}

TEST_F(Fixture, CreateRejectsBadRequests) {
    for (const std::string& bad : std::vector<std::string>{"", "{", R"({"opponent":"alien"})", R"({"level":11})", R"({"time_control":"5+"})",
                                  R"({"fen":"8/8/8/8/8/8/8/8 w - - 0 1"})", R"({"chess960":960})", R"({"color":"green"})",
                                  R"({"pgn":"1. e4 e5 2. Ke3 Qh4"})", R"({"name":5})"}) {
        auto r = hub->create_game(bad);
        ASSERT_TRUE(!r) << bad;
        EXPECT_EQ(r.error().code, "bad_request") << bad;
    }
}

TEST_F(Fixture, P13StartFromFenPgnAndChess960) {
    auto a = create({{"opponent", "hotseat"}, {"fen", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"}});
    auto ca = join(a.id, *a.white_token, Seat::BOTH);
    EXPECT_EQ(ca->last_state()["initial_fen"], "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    auto b = create({{"opponent", "hotseat"}, {"pgn", "[Event \"x\"]\n\n1. e4 e5 2. Nf3 *"}});
    auto cb = join(b.id, *b.white_token, Seat::BOTH);
    EXPECT_EQ(cb->last_state()["san"], json::array({"e4", "e5", "Nf3"}));
    auto c = create({{"opponent", "hotseat"}, {"variant", "chess960"}, {"chess960", 0}});
    auto cc = join(c.id, *c.white_token, Seat::BOTH);
    EXPECT_EQ(cc->last_state()["initial_fen"], "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
    EXPECT_EQ(cc->last_state()["variant"], "chess960");
}

TEST_F(Fixture, P9DrawOffersClaimsResignAbort) {
    auto g = create({{"opponent", "invite"}, {"color", "white"}, {"casual", false}});
    auto w = join(g.id, *g.white_token, Seat::WHITE_SEAT);
    auto b = join(g.id, *g.black_token, Seat::BLACK_SEAT);
    EXPECT_TRUE(w->last_state()["can_abort"]);
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "draw"}, {"action", "offer"}});
    EXPECT_EQ(b->last_state()["draw_offer"], "white");
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "draw"}, {"action", "decline"}});
    EXPECT_TRUE(b->last_state()["draw_offer"].is_null());
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "claim"}, {"claim", "threefold-repetition"}});
    EXPECT_EQ(last_error(*w), "not_allowed");
    const char* shuffle[] = {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"};
    for (int i = 0; i < 7; ++i) send(g.id, i % 2 ? Seat::BLACK_SEAT : Seat::WHITE_SEAT, i % 2 ? *b : *w, {{"t", "move"}, {"uci", shuffle[i]}});
    EXPECT_FALSE(w->last_state()["can_abort"]);
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "abort"}});
    EXPECT_EQ(last_error(*b), "not_allowed");
    // Black claims with the move that repeats the position a third time.
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "claim"}, {"claim", "threefold-repetition"}, {"uci", "f6g8"}});
    json s = w->last_state();
    EXPECT_EQ(s["status"], "threefold-repetition");
    EXPECT_EQ(s["end"], "Draw by threefold repetition");
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "resign"}});
    EXPECT_EQ(last_error(*w), "game_over");

    auto h = create({{"opponent", "invite"}, {"color", "white"}});
    auto hw = join(h.id, *h.white_token, Seat::WHITE_SEAT);
    send(h.id, Seat::WHITE_SEAT, *hw, {{"t", "abort"}});
    EXPECT_EQ(hw->last_state()["status"], "aborted");
    auto k = create({{"opponent", "invite"}, {"color", "black"}});
    auto kb = join(k.id, *k.black_token, Seat::BLACK_SEAT);
    send(k.id, Seat::BLACK_SEAT, *kb, {{"t", "resign"}});
    EXPECT_EQ(kb->last_state()["end"], "White wins: Black resigned");
}

TEST_F(Fixture, P9TakebacksAgainstTheRobotAndAPerson) {
    auto g = create({{"opponent", "robot"}, {"color", "white"}, {"casual", true}});
    auto w = join(g.id, *g.white_token, Seat::WHITE_SEAT);
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "move"}, {"uci", "e2e4"}});
    hub->on_robot_move(g.id, robot_requests.back().request_id, Move(SQ_E7, SQ_E5));
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "takeback"}, {"action", "request"}});
    EXPECT_EQ(w->last_state()["ply"], 0);  // both the robot's move and ours

    // A takeback while the robot thinks: its answer was for the position taken back and
    // must not be played in the new one, even at the same ply count.
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "move"}, {"uci", "e2e4"}});
    const std::uint64_t for_e4 = robot_requests.back().request_id;
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "takeback"}, {"action", "request"}});
    EXPECT_EQ(w->last_state()["ply"], 0);
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "move"}, {"uci", "d2d4"}});
    hub->on_robot_move(g.id, for_e4, Move(SQ_E7, SQ_E5));
    EXPECT_EQ(w->last_state()["ply"], 1);  // the stale e7e5 was not played
    hub->on_robot_move(g.id, robot_requests.back().request_id, Move(SQ_D7, SQ_D5));
    EXPECT_EQ(w->last_state()["moves"], json::array({"d2d4", "d7d5"}));
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "takeback"}, {"action", "request"}});

    auto h = create({{"opponent", "invite"}, {"color", "white"}});
    auto hw = join(h.id, *h.white_token, Seat::WHITE_SEAT);
    auto hb = join(h.id, *h.black_token, Seat::BLACK_SEAT);
    send(h.id, Seat::WHITE_SEAT, *hw, {{"t", "move"}, {"uci", "e2e4"}});
    send(h.id, Seat::WHITE_SEAT, *hw, {{"t", "takeback"}, {"action", "request"}});
    EXPECT_EQ(hb->last_state()["takeback_request"], "white");
    send(h.id, Seat::BLACK_SEAT, *hb, {{"t", "takeback"}, {"action", "accept"}});
    EXPECT_EQ(hb->last_state()["ply"], 0);
    send(h.id, Seat::BLACK_SEAT, *hb, {{"t", "takeback"}, {"action", "accept"}});
    EXPECT_EQ(last_error(*hb), "not_allowed");
}

TEST_F(Fixture, C5ServerRunsTheClocksAndFlagFalls) {
    auto g = create({{"opponent", "invite"}, {"color", "white"}, {"time_control", "1+0"}});
    auto w = join(g.id, *g.white_token, Seat::WHITE_SEAT);
    auto b = join(g.id, *g.black_token, Seat::BLACK_SEAT);
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "move"}, {"uci", "e2e4"}});
    now += 5000;
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "move"}, {"uci", "e7e5"}});
    json clock = w->last_state()["clock"];
    EXPECT_EQ(clock["white_ms"], 60000);  // the first moves are not timed
    EXPECT_EQ(clock["black_ms"], 60000);
    EXPECT_EQ(clock["running"], "white");
    EXPECT_EQ(clock["class"], "bullet");
    now += 10000;
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "move"}, {"uci", "g1f3"}});
    EXPECT_EQ(w->last_state()["clock"]["white_ms"], 50000);
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "give_time"}, {"seconds", 15}});
    EXPECT_EQ(w->last_state()["clock"]["white_ms"], 65000);
    ASSERT_FALSE(callbacks.empty());
    now += 60001;
    hub->on_timer(g.id);
    json s = w->last_state();
    EXPECT_EQ(s["status"], "timeout");
    EXPECT_EQ(s["result"], "1-0");
    EXPECT_EQ(s["end"], "White wins on time");
}

TEST_F(Fixture, R14NoFirstMoveAbortsAnInviteGame) {
    auto g = create({{"opponent", "invite"}, {"color", "white"}, {"time_control", "3+2"}});
    auto w = join(g.id, *g.white_token, Seat::WHITE_SEAT);
    now += 61'000;
    hub->on_timer(g.id);
    EXPECT_EQ(w->last_state()["status"], "aborted");
}

// Issue 28 (1): an invitation made from the new-game panel waits for the friend
// (hours, not the 60 s of R14): the creator alone is not aborted after a minute; once
// the friend opens the link, R14's first-move time runs from that moment.
TEST_F(Fixture, Issue28AnInvitationWaitsForTheFriendThenR14Applies) {
    auto made = hub->create_game(json{{"opponent", "invite"}, {"color", "white"}, {"time_control", "3+2"}}.dump(), "",
                                 nullptr, nullptr, /*invitation=*/true);
    ASSERT_TRUE(made);
    const CreatedGame g = *made;
    auto w = join(g.id, *g.white_token, Seat::WHITE_SEAT);
    EXPECT_TRUE(w->last_state()["awaiting_friend"].get<bool>());
    EXPECT_TRUE(w->last_state()["can_abort"].get<bool>());  // the creator may cancel it
    now += 65'000;
    hub->on_timer(g.id);
    EXPECT_EQ(w->last_state()["status"], "ongoing");
    now += 3 * 3'600'000;  // the friend opens the link hours later
    auto b = join(g.id, *g.black_token, Seat::BLACK_SEAT);
    EXPECT_FALSE(b->last_state()["awaiting_friend"].get<bool>());
    now += 30'000;
    hub->on_timer(g.id);
    EXPECT_EQ(b->last_state()["status"], "ongoing");
    now += 31'000;  // 61 s after both were there, no first move: R14
    hub->on_timer(g.id);
    EXPECT_EQ(b->last_state()["status"], "aborted");
}

TEST_F(Fixture, Issue28AnUnopenedInvitationExpires) {
    auto made = hub->create_game(json{{"opponent", "invite"}, {"color", "black"}}.dump(), "", nullptr, nullptr, true);
    ASSERT_TRUE(made);
    auto b = join(made->id, *made->black_token, Seat::BLACK_SEAT);
    now += 24 * 3'600'000 + 1'000;
    hub->on_timer(made->id);
    EXPECT_EQ(b->last_state()["status"], "aborted");
}

TEST_F(Fixture, P6RematchSwapsColours) {
    auto g = create({{"opponent", "invite"}, {"color", "white"}, {"name", "Anna"}});
    auto w = join(g.id, *g.white_token, Seat::WHITE_SEAT);
    auto b = join(g.id, *g.black_token, Seat::BLACK_SEAT);
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "resign"}});
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "rematch"}, {"action", "offer"}});
    EXPECT_EQ(b->last_state()["rematch"]["offered_by"], "white");
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "rematch"}, {"action", "accept"}});
    json rw = w->last_state()["rematch"], rb = b->last_state()["rematch"];
    ASSERT_TRUE(rw["game"].is_string());
    auto w2 = join(rw["game"], rw["seat"], Seat::BLACK_SEAT);  // Anna now plays black
    auto b2 = join(rb["game"], rb["seat"], Seat::WHITE_SEAT);
    EXPECT_EQ(w2->last_state()["players"]["black"]["name"], "Anna");
}

TEST_F(Fixture, D3GamesSurviveARestart) {
    auto g = create({{"opponent", "invite"}, {"color", "white"}, {"time_control", "5+3"}});
    {
        auto w = join(g.id, *g.white_token, Seat::WHITE_SEAT);
        auto b = join(g.id, *g.black_token, Seat::BLACK_SEAT);
        for (const char* m : {"e2e4", "e7e5", "g1f3"}) {
            now += 2000;
            Seat s = std::string(m) == "e7e5" ? Seat::BLACK_SEAT : Seat::WHITE_SEAT;
            send(g.id, s, s == Seat::WHITE_SEAT ? *w : *b, {{"t", "move"}, {"uci", m}});
        }
        send(g.id, Seat::WHITE_SEAT, *w, {{"t", "draw"}, {"action", "offer"}});
    }
    const json before = json::parse((hub->state_json(g.id)).value())["game"];
    // A new hub on the same database, as after kill -9 and a restart.
    hub = std::make_unique<Hub>(env(), storage.get());
    now += 1000;
    auto resumed = hub->resume_from_storage();
    ASSERT_TRUE(resumed.ok());
    EXPECT_EQ(*resumed, 1);
    const json after = json::parse((hub->state_json(g.id)).value())["game"];
    EXPECT_EQ(after["moves"], before["moves"]);
    EXPECT_EQ(after["fen"], before["fen"]);
    EXPECT_EQ(after["draw_offer"], "white");
    EXPECT_EQ(after["clock"]["running"], "black");
    EXPECT_EQ(after["clock"]["white_ms"], before["clock"]["white_ms"]);
    EXPECT_EQ(after["clock"]["black_ms"].get<Millis>(), before["clock"]["black_ms"].get<Millis>() - 1000);
    auto b = join(g.id, *g.black_token, Seat::BLACK_SEAT);
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "move"}, {"uci", "b8c6"}});
    EXPECT_EQ(b->last_state()["ply"], 4);
}

TEST_F(Fixture, P11PgnAndLookup) {
    auto g = create({{"opponent", "hotseat"}, {"time_control", "5+3"}, {"name", "Anna"}});
    auto c = join(g.id, *g.white_token, Seat::BOTH);
    for (const char* m : {"f2f3", "e7e5", "g2g4", "d8h4"}) {
        now += 1000;
        send(g.id, Seat::BOTH, *c, {{"t", "move"}, {"uci", m}});
    }
    const std::string pgn = (hub->pgn(g.id)).value();
    EXPECT_NE(pgn.find("[White \"Anna\"]"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("[Result \"0-1\"]"), std::string::npos);
    EXPECT_NE(pgn.find("[TimeControl \"300+3\"]"), std::string::npos);
    EXPECT_NE(pgn.find("[Termination \"normal\"]"), std::string::npos);
    EXPECT_NE(pgn.find("Qh4#"), std::string::npos);
    EXPECT_NE(pgn.find("[%clk 0:05:02]"), std::string::npos) << pgn;
    const json found = json::parse((hub->lookup(json{{"tokens", {*g.white_token, "nobody"}}}.dump())).value());
    ASSERT_EQ(found["games"].size(), 1u);
    EXPECT_EQ(found["games"][0]["id"], g.id);
    EXPECT_EQ(found["games"][0]["you"], "both");
    EXPECT_TRUE(!(hub->lookup("{\"tokens\":5}")));
}

TEST_F(Fixture, RouterAnswersEveryPathWithJsonOrFiles) {
    const StaticFiles files = StaticFiles::load("/nonexistent");
    auto levels = route({"GET", "/api/v1/levels", ""}, *hub, files);
    EXPECT_EQ(levels.status, 200);
    EXPECT_EQ(json::parse(levels.body)["levels"][0]["elo"], 800);
    auto created = route({"POST", "/api/v1/games", R"({"opponent":"hotseat"})"}, *hub, files);
    EXPECT_EQ(created.status, 201);
    const std::string id = json::parse(created.body)["game"];
    EXPECT_EQ(route({"GET", "/api/v1/games/" + id, ""}, *hub, files).status, 200);
    auto pgn = route({"GET", "/api/v1/games/" + id + "/pgn", ""}, *hub, files);
    EXPECT_EQ(pgn.status, 200);
    EXPECT_EQ(pgn.headers.at(0).first, "Content-Disposition");
    for (const auto& [method, target, body, status] : std::vector<std::tuple<std::string, std::string, std::string, int>>{
             {"POST", "/api/v1/games", "nope", 400},
             {"GET", "/api/v1/games", "", 405},
             {"GET", "/api/v1/games/nothere", "", 404},
             {"GET", "/api/v1/games/../../etc/passwd", "", 404},
             {"GET", "/api/v2/x", "", 404},
             {"DELETE", "/", "", 405},
             {"GET", "/missing.js", "", 404}}) {
        auto r = route({method, target, body}, *hub, files);
        EXPECT_EQ(r.status, status) << method << " " << target;
        EXPECT_EQ(json::parse(r.body)["t"], "error");
    }
    auto page = route({"GET", "/game/abc", ""}, *hub, files);
    EXPECT_EQ(page.status, 200);
    EXPECT_NE(page.content_type.find("text/html"), std::string::npos);
}

// C5: the credit is the lag the network layer measured (the last argument), lowered
// by a smaller claim of the client, never raised by a larger one, and at most 300 ms.
TEST_F(Fixture, C5LagCompensationIsCreditedUpToTheCap) {
    auto g = create({{"opponent", "invite"}, {"color", "white"}, {"time_control", "1+0"}});
    auto w = join(g.id, *g.white_token, Seat::WHITE_SEAT);
    auto b = join(g.id, *g.black_token, Seat::BLACK_SEAT);
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "move"}, {"uci", "e2e4"}});
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "move"}, {"uci", "e7e5"}});
    now += 2000;
    hub->handle_message(g.id, Seat::WHITE_SEAT, json{{"t", "move"}, {"uci", "g1f3"}, {"lag_ms", 120}}.dump(), *w, 200);
    EXPECT_EQ(w->last_state()["clock"]["white_ms"], 60000 - 2000 + 120);
    now += 2000;
    hub->handle_message(g.id, Seat::BLACK_SEAT, json{{"t", "move"}, {"uci", "b8c6"}, {"lag_ms", 5000}}.dump(), *b, 250);
    EXPECT_EQ(b->last_state()["clock"]["black_ms"], 60000 - 2000 + 250);
    now += 2000;  // the attack: a claim the server did not measure is not credited
    hub->handle_message(g.id, Seat::WHITE_SEAT, json{{"t", "move"}, {"uci", "f1c4"}, {"lag_ms", 300}}.dump(), *w, 0);
    EXPECT_EQ(w->last_state()["clock"]["white_ms"], 60000 - 2000 + 120 - 2000);
}

// --- Defects of issue 9 (each failed before its fix) ----------------------------------

// P9: a takeback undoes one's own last move; a player who has made none has nothing to
// take back (the robot's or the opponent's first move is not theirs to undo).
TEST_F(Fixture, P9TakebackWithoutOwnMoveIsRefused) {
    auto g = create({{"opponent", "invite"}, {"color", "white"}});
    auto w = join(g.id, *g.white_token, Seat::WHITE_SEAT);
    auto b = join(g.id, *g.black_token, Seat::BLACK_SEAT);
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "takeback"}, {"action", "request"}});
    EXPECT_EQ(last_error(*w), "not_allowed");
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "move"}, {"uci", "e2e4"}});
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "takeback"}, {"action", "request"}});
    EXPECT_EQ(last_error(*b), "not_allowed");
    EXPECT_TRUE(w->last_state()["takeback_request"].is_null());

    auto r = create({{"opponent", "robot"}, {"color", "black"}, {"casual", true}});
    auto rb = join(r.id, *r.black_token, Seat::BLACK_SEAT);
    hub->on_robot_move(r.id, robot_requests.back().request_id, Move(SQ_E2, SQ_E4));
    send(r.id, Seat::BLACK_SEAT, *rb, {{"t", "takeback"}, {"action", "request"}});
    EXPECT_EQ(last_error(*rb), "not_allowed");
    EXPECT_EQ(rb->last_state()["ply"], 1);
}

// C6: an untimed game has no clock readings, also after it was read back from storage.
TEST_F(Fixture, C6UntimedGameReadBackExportsNoClockComments) {
    auto g = create({{"opponent", "hotseat"}});
    auto c = join(g.id, *g.white_token, Seat::BOTH);
    for (const char* m : {"e2e4", "e7e5", "g1f3", "b8c6"}) send(g.id, Seat::BOTH, *c, {{"t", "move"}, {"uci", m}});
    EXPECT_EQ((hub->pgn(g.id)).value().find("%clk"), std::string::npos);
    hub = std::make_unique<Hub>(env(), storage.get());
    ASSERT_TRUE(hub->resume_from_storage().ok());
    const std::string pgn = (hub->pgn(g.id)).value();
    EXPECT_NE(pgn.find("Nc6"), std::string::npos) << pgn;
    EXPECT_EQ(pgn.find("%clk"), std::string::npos) << pgn;
}

// P3: a custom-Elo robot is named by its Elo and shows it; the range is the engine's.
TEST_F(Fixture, P3CustomEloRobotIsNamedByItsEloWithinTheEnginesRange) {
    auto g = create({{"opponent", "robot"}, {"color", "white"}, {"elo", 1500}});
    auto w = join(g.id, *g.white_token, Seat::WHITE_SEAT);
    const json black = w->last_state()["players"]["black"];
    EXPECT_EQ(black["name"], "Outpost 1500 Elo");
    EXPECT_EQ(black["elo"], 1500);
    for (int elo : {engine::ELO_MIN - 1, engine::ELO_MAX + 1, 3500, 300}) {
        auto r = hub->create_game(json{{"opponent", "robot"}, {"elo", elo}}.dump());
        ASSERT_TRUE(!r) << elo;
        EXPECT_EQ(r.error().code, "bad_request");
        EXPECT_NE(r.error().message.find(std::to_string(engine::ELO_MAX)), std::string::npos);
    }
    for (int elo : {engine::ELO_MIN, engine::ELO_MAX})
        EXPECT_TRUE((hub->create_game(json{{"opponent", "robot"}, {"elo", elo}}.dump())).ok());
}

// P11: "My games" summaries say how many moves (plies) a game has, as the docs say.
TEST_F(Fixture, P11LookupSummariesCarryMoves) {
    auto g = create({{"opponent", "hotseat"}});
    auto c = join(g.id, *g.white_token, Seat::BOTH);
    for (const char* m : {"e2e4", "e7e5", "g1f3"}) send(g.id, Seat::BOTH, *c, {{"t", "move"}, {"uci", m}});
    json found = json::parse((hub->lookup(json{{"tokens", {*g.white_token}}}.dump())).value());
    ASSERT_EQ(found["games"].size(), 1u);
    EXPECT_EQ(found["games"][0]["moves"], 3);
    hub = std::make_unique<Hub>(env(), storage.get());  // not in memory: counted from storage
    found = json::parse((hub->lookup(json{{"tokens", {*g.white_token}}}.dump())).value());
    EXPECT_EQ(found["games"][0]["moves"], 3);
}

// D4: the robot's seat cannot be taken by anyone: no token the server ever made for a
// robot game opens the robot's side, and an empty token finds no games.
TEST_F(Fixture, D4RobotSeatIsNeverUsable) {
    auto g = create({{"opponent", "robot"}, {"color", "white"}, {"level", 2}});
    EXPECT_FALSE(g.black_token.has_value());
    for (int i = 1; i <= token_counter; ++i) {
        std::string t = outpost::test::counted_token('t', i, 22);
        auto c = std::make_shared<Collector>();
        auto r = hub->connect(g.id, t, c);
        if (r.ok()) {
            EXPECT_NE(r.value(), Seat::BLACK_SEAT) << t;
        }
    }
    json found = json::parse((hub->lookup(R"({"tokens":[""]})")).value());
    EXPECT_TRUE(found["games"].empty());
}

// --- Limits of issue 9 ----------------------------------------------------------------

// docs/protocol.md "Limits": one client may have at most max_open_games_per_client
// unfinished games; finishing one frees its place; other clients are not affected.
TEST_F(Fixture, D4OpenGamesPerClientAreCapped) {
    std::vector<CreatedGame> games;
    for (int i = 0; i < 20; ++i) {
        auto r = hub->create_game(R"({"opponent":"invite","color":"white"})", "10.0.0.1");
        ASSERT_TRUE(r.ok()) << i;
        games.push_back(r.value());
    }
    auto refused = hub->create_game(R"({"opponent":"invite"})", "10.0.0.1");
    ASSERT_TRUE(!refused);
    EXPECT_EQ(refused.error().code, "rate_limited");
    EXPECT_EQ(refused.error().http_status, 429);
    EXPECT_TRUE((hub->create_game(R"({"opponent":"invite"})", "10.0.0.2")).ok());
    auto w = join(games[0].id, *games[0].white_token, Seat::WHITE_SEAT);
    send(games[0].id, Seat::WHITE_SEAT, *w, {{"t", "abort"}});
    EXPECT_TRUE((hub->create_game(R"({"opponent":"invite"})", "10.0.0.1")).ok());
    // Through the router, the client is the request's.
    const StaticFiles files = StaticFiles::load("/nonexistent");
    EXPECT_EQ(route({"POST", "/api/v1/games", R"({"opponent":"hotseat"})", "10.0.0.1"}, *hub, files).status, 429);
}

// Finished games read over HTTP are kept in memory only up to a bound (LRU).
TEST_F(Fixture, FinishedGamesInMemoryAreBounded) {
    HubEnv e = env();
    e.max_finished_in_memory = 3;
    hub = std::make_unique<Hub>(e, storage.get());
    std::vector<std::string> ids;
    for (int i = 0; i < 10; ++i) {
        auto g = create({{"opponent", "hotseat"}});
        auto c = join(g.id, *g.white_token, Seat::BOTH);
        send(g.id, Seat::BOTH, *c, {{"t", "resign"}});
        hub->disconnect(g.id, c.get());
        ids.push_back(g.id);
    }
    EXPECT_LE(hub->rooms_in_memory(), 3u);
    for (const auto& id : ids) EXPECT_TRUE((hub->state_json(id)).ok());
    EXPECT_LE(hub->rooms_in_memory(), 3u);
    // A finished game someone follows is not dropped.
    auto watcher = join(ids[0], "", Seat::SPECTATOR);
    for (const auto& id : ids) (void)hub->pgn(id);
    EXPECT_EQ(json::parse((hub->state_json(ids[0])).value())["game"]["status"], "resignation");
    EXPECT_LE(hub->rooms_in_memory(), 4u);
}

// R8 with limits: one standing offer per side, and a side offers again only after
// draw_offer_interval_plies; a flood of offers neither succeeds nor grows the database.
TEST_F(Fixture, R8DrawOfferFloodsAreBounded) {
    auto g = create({{"opponent", "invite"}, {"color", "white"}, {"casual", false}});
    auto w = join(g.id, *g.white_token, Seat::WHITE_SEAT);
    auto b = join(g.id, *g.black_token, Seat::BLACK_SEAT);
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "move"}, {"uci", "e2e4"}});
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "move"}, {"uci", "e7e5"}});
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "draw"}, {"action", "offer"}});
    EXPECT_EQ(b->last_state()["draw_offer"], "white");
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "draw"}, {"action", "offer"}});
    EXPECT_EQ(last_error(*w), "not_allowed");
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "draw"}, {"action", "decline"}});
    const auto size_before = std::filesystem::file_size(db_path) + std::filesystem::file_size(db_path + "-wal");
    for (int i = 0; i < 2000; ++i) {
        send(g.id, Seat::WHITE_SEAT, *w, {{"t", "draw"}, {"action", "offer"}});
        EXPECT_EQ(last_error(*w), "not_allowed");
        send(g.id, Seat::BLACK_SEAT, *b, {{"t", "draw"}, {"action", "decline"}});
    }
    const auto size_after = std::filesystem::file_size(db_path) + std::filesystem::file_size(db_path + "-wal");
    EXPECT_LT(size_after, size_before + 64 * 1024);
    // Black may still offer (its own first offer), and white again after 20 plies.
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "draw"}, {"action", "offer"}});
    EXPECT_EQ(w->last_state()["draw_offer"], "black");
    const char* shuffle[] = {"g1f3", "g8f6", "b1c3", "b8c6", "f3g1", "f6g8", "c3b1", "c6b8"};
    for (int i = 0; i < 20; ++i)
        send(g.id, i % 2 ? Seat::BLACK_SEAT : Seat::WHITE_SEAT, i % 2 ? *b : *w, {{"t", "move"}, {"uci", shuffle[i % 8]}});
    ASSERT_EQ(w->last_state()["status"], "ongoing");
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "draw"}, {"action", "offer"}});
    EXPECT_EQ(b->last_state()["draw_offer"], "white");
}

// docs/protocol.md "Abandoned games": a side to move without a connection for the
// abandonment time lets the opponent claim the win or a draw; too early, or while the
// other side is connected, the claim is refused.
TEST_F(Fixture, P12AbandonedGameMayBeClaimed) {
    auto g = create({{"opponent", "invite"}, {"color", "white"}});
    auto w = join(g.id, *g.white_token, Seat::WHITE_SEAT);
    auto b = join(g.id, *g.black_token, Seat::BLACK_SEAT);
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "move"}, {"uci", "e2e4"}});
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "move"}, {"uci", "e7e5"}});
    now += 400'000;
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "claim"}, {"claim", "abandonment-win"}});
    EXPECT_EQ(last_error(*b), "not_allowed");  // white is connected
    hub->disconnect(g.id, w.get());
    now += 299'000;
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "claim"}, {"claim", "abandonment-win"}});
    EXPECT_EQ(last_error(*b), "not_allowed");  // not long enough
    now += 1'000;
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "claim"}, {"claim", "abandonment-win"}});
    json s = b->last_state();
    EXPECT_EQ(s["result"], "0-1");
    EXPECT_EQ(s["end"], "Black wins: White left the game");

    auto d = create({{"opponent", "invite"}, {"color", "white"}});
    auto dw = join(d.id, *d.white_token, Seat::WHITE_SEAT);
    auto db = join(d.id, *d.black_token, Seat::BLACK_SEAT);
    send(d.id, Seat::WHITE_SEAT, *dw, {{"t", "move"}, {"uci", "e2e4"}});
    hub->disconnect(d.id, db.get());
    now += 300'000;
    send(d.id, Seat::WHITE_SEAT, *dw, {{"t", "claim"}, {"claim", "abandonment-draw"}});
    EXPECT_EQ(last_error(*dw), "not_allowed");  // before both first moves: aborted, not claimed
    db = join(d.id, *d.black_token, Seat::BLACK_SEAT);
    send(d.id, Seat::BLACK_SEAT, *db, {{"t", "move"}, {"uci", "e7e5"}});
    send(d.id, Seat::WHITE_SEAT, *dw, {{"t", "move"}, {"uci", "g1f3"}});
    hub->disconnect(d.id, db.get());
    now += 300'000;
    send(d.id, Seat::WHITE_SEAT, *dw, {{"t", "claim"}, {"claim", "abandonment-draw"}});
    EXPECT_EQ(dw->last_state()["result"], "1/2-1/2");
}

// R14 beyond invites: a robot game whose first moves never come is aborted.
TEST_F(Fixture, R14UnstartedRobotGameIsAborted) {
    auto g = create({{"opponent", "robot"}, {"color", "white"}});
    auto w = join(g.id, *g.white_token, Seat::WHITE_SEAT);
    now += 3'599'000;
    hub->on_timer(g.id);
    EXPECT_EQ(w->last_state()["status"], "ongoing");
    now += 1'000;
    hub->on_timer(g.id);
    EXPECT_EQ(w->last_state()["status"], "aborted");
}

// D3: the seat links of a rematch are stored with the game, not only in memory.
TEST_F(Fixture, D3RematchSeatsSurviveARestart) {
    auto g = create({{"opponent", "invite"}, {"color", "white"}});
    auto w = join(g.id, *g.white_token, Seat::WHITE_SEAT);
    auto b = join(g.id, *g.black_token, Seat::BLACK_SEAT);
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "resign"}});
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "rematch"}, {"action", "offer"}});
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "rematch"}, {"action", "accept"}});
    const json before_w = w->last_state()["rematch"], before_b = b->last_state()["rematch"];
    ASSERT_TRUE(before_w["seat"].is_string());
    hub = std::make_unique<Hub>(env(), storage.get());
    ASSERT_TRUE(hub->resume_from_storage().ok());
    EXPECT_EQ(join(g.id, *g.white_token, Seat::WHITE_SEAT)->last_state()["rematch"], before_w);
    EXPECT_EQ(join(g.id, *g.black_token, Seat::BLACK_SEAT)->last_state()["rematch"], before_b);
    join(before_w["game"], before_w["seat"], Seat::BLACK_SEAT);
}

// Every client message written by the protocol module reads back as itself.
TEST(Protocol, ClientMessagesRoundTrip) {
    const std::vector<ClientMessage> all = {
        in::Move{"e2e4", std::nullopt, 0, 40}, in::Move{std::nullopt, "Nf3", std::nullopt, std::nullopt}, in::Resign{},
        in::Draw{Action::DECLINE}, in::Claim{ClaimKind::ABANDONMENT_WIN, {}},
        in::Claim{ClaimKind::THREEFOLD_REPETITION, in::Move{"g1f3", std::nullopt, 12, std::nullopt}},
        in::Takeback{Action::ACCEPT}, in::Abort{}, in::GiveTime{15}, in::Rematch{Action::OFFER}, in::Ping{}, in::Sync{}, in::Presence{true}, in::Presence{false}};
    for (const ClientMessage& m : all) {
        const std::string text = write_client_message(m);
        auto back = read_client_message(text);
        ASSERT_TRUE(back.ok()) << text << ": " << back.error().message;
        EXPECT_EQ(back.value().index(), m.index()) << text;
        EXPECT_EQ(write_client_message(back.value()), text);
        EXPECT_FALSE(json::parse(text).is_discarded());
    }
}

// Issue 28 (2): a game at one screen with White named and Black not is "Wanda vs
// Anonymous", not "Wanda vs Wanda".
TEST_F(Fixture, Issue28HotseatWithoutBlacksNameIsNotWhites) {
    auto g = create({{"opponent", "hotseat"}, {"name", "Wanda"}});
    const json players = join(g.id, *g.white_token, Seat::BOTH)->last_state()["players"];
    EXPECT_EQ(players["white"]["name"], "Wanda");
    EXPECT_EQ(players["black"]["name"], "Anonymous");
}

// Issue 28 (8): "Casual" unchecked at one screen is not a casual game in the PGN.
TEST_F(Fixture, Issue28PgnEventSaysCasualOnlyForCasualGames) {
    auto serious = create({{"opponent", "hotseat"}, {"casual", false}});
    EXPECT_NE(hub->pgn(serious.id).value().find("[Event \"Unrated game\"]"), std::string::npos);
    auto casual = create({{"opponent", "hotseat"}, {"casual", true}});
    EXPECT_NE(hub->pgn(casual.id).value().find("[Event \"Casual game\"]"), std::string::npos);
}

// P2: a hotseat game names both players: `name` is White's, `opponent_name` Black's
// (the home screen sends it; the hub ignored it and named Black like White).
TEST_F(Fixture, P2HotseatOpponentNameNamesBlack) {
    auto g = create({{"opponent", "hotseat"}, {"name", "Anna"}, {"opponent_name", "Boris"}});
    auto c = join(g.id, *g.white_token, Seat::BOTH);
    const json players = c->last_state()["players"];
    EXPECT_EQ(players["white"]["name"], "Anna");
    EXPECT_EQ(players["black"]["name"], "Boris");
    EXPECT_NE(hub->pgn(g.id).value().find("[Black \"Boris\"]"), std::string::npos);
    auto i = create({{"opponent", "invite"}, {"color", "black"}, {"name", "Anna"}, {"opponent_name", "Carl"}});
    EXPECT_EQ(join(i.id, *i.black_token, Seat::BLACK_SEAT)->last_state()["players"]["white"]["name"], "Carl");
    for (const json& bad : {json{{"opponent", "hotseat"}, {"opponent_name", 5}},
                            json{{"opponent", "hotseat"}, {"opponent_name", std::string(41, 'x')}}}) {
        auto r = hub->create_game(bad.dump());
        ASSERT_FALSE(r) << bad;
        EXPECT_EQ(r.error().code, bad["opponent_name"].is_string() ? "bad_name" : "bad_request");  // P21: names apart
    }
}

// docs/protocol.md "Limits": the open-games cap holds across a restart: the games a
// client left unfinished are read back with the address that created them (they were
// not counted, so a restart gave every client 20 more).
TEST_F(Fixture, D4OpenGamesCapCountsGamesResumedAfterARestart) {
    std::vector<CreatedGame> games;
    for (int i = 0; i < 20; ++i) {
        auto r = hub->create_game(R"({"opponent":"hotseat"})", "10.0.0.1");
        ASSERT_TRUE(r) << i;
        games.push_back(r.value());
    }
    hub = std::make_unique<Hub>(env(), storage.get());
    ASSERT_TRUE(hub->resume_from_storage().ok());
    auto refused = hub->create_game(R"({"opponent":"hotseat"})", "10.0.0.1");
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, "rate_limited");
    EXPECT_TRUE(bool(hub->create_game(R"({"opponent":"hotseat"})", "10.0.0.2")));
    // A resumed game that ends frees its place.
    auto c = join(games[3].id, *games[3].white_token, Seat::BOTH);
    send(games[3].id, Seat::BOTH, *c, {{"t", "abort"}});
    EXPECT_TRUE(bool(hub->create_game(R"({"opponent":"hotseat"})", "10.0.0.1")));
    EXPECT_FALSE(bool(hub->create_game(R"({"opponent":"hotseat"})", "10.0.0.1")));
    // The address is kept only while the game is unfinished.
    auto row = storage->load_game(games[3].id);
    ASSERT_TRUE(row && row->has_value());
    EXPECT_EQ((*row)->client, "");
    EXPECT_EQ((*storage->load_game(games[4].id))->client, "10.0.0.1");
}

// P22: each seat's presence as the others see it: online while connected, away while
// every connection of the seat says its tab is hidden, gone (with for how long) after
// its last connection closed; the seconds until the abandonment claim of
// docs/protocol.md count down for the player present, and the claim is accepted when
// they reach zero.
TEST_F(Fixture, P22PresenceOnlineAwayGoneAndTheClaimTime) {
    auto g = create({{"opponent", "invite"}, {"color", "white"}});
    auto w = join(g.id, *g.white_token, Seat::WHITE_SEAT);
    auto spectator = join(g.id, "", Seat::SPECTATOR);
    json p = spectator->last_state()["presence"];
    EXPECT_EQ(p["white"]["state"], "online");
    EXPECT_EQ(p["black"]["state"], "gone");
    EXPECT_TRUE(p["claim_in_ms"].is_null());
    auto b = join(g.id, *g.black_token, Seat::BLACK_SEAT);
    EXPECT_EQ(spectator->last()["t"], "presence");
    EXPECT_EQ(spectator->last_state()["presence"]["black"]["state"], "online");
    EXPECT_EQ(w->last_state()["presence"]["black"]["state"], "online");

    // Away: the client says its tab is hidden; a spectator's word changes nothing.
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "presence"}, {"state", "away"}});
    EXPECT_EQ(w->last_state()["presence"]["black"]["state"], "away");
    const size_t before = w->messages.size();
    send(g.id, Seat::SPECTATOR, *spectator, {{"t", "presence"}, {"state", "away"}});
    EXPECT_EQ(w->messages.size(), before);
    // A second connection of the same seat that is visible makes the seat online.
    auto b2 = join(g.id, *g.black_token, Seat::BLACK_SEAT);
    EXPECT_EQ(w->last_state()["presence"]["black"]["state"], "online");
    hub->disconnect(g.id, b2.get());
    EXPECT_EQ(w->last_state()["presence"]["black"]["state"], "away");
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "presence"}, {"state", "online"}});
    EXPECT_EQ(w->last_state()["presence"]["black"]["state"], "online");
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "presence"}, {"state", "sleeping"}});
    EXPECT_EQ(last_error(*b), "bad_request");

    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "move"}, {"uci", "e2e4"}});
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "move"}, {"uci", "e7e5"}});
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "move"}, {"uci", "g1f3"}});
    // Gone: black, to move, closes its last connection.
    now += 1'000;
    hub->disconnect(g.id, b.get());
    p = w->last_state()["presence"];
    EXPECT_EQ(p["black"]["state"], "gone");
    EXPECT_EQ(p["black"]["gone_ms"], 0);
    EXPECT_EQ(p["claim_in_ms"], 300'000);
    now += 120'000;
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "sync"}});
    p = w->last_state()["presence"];
    EXPECT_EQ(p["black"]["gone_ms"], 120'000);
    EXPECT_EQ(p["claim_in_ms"], 180'000);
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "claim"}, {"claim", "abandonment-win"}});
    EXPECT_EQ(last_error(*w), "not_allowed");
    now += 180'000;
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "sync"}});
    EXPECT_EQ(w->last_state()["presence"]["claim_in_ms"], 0);
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "claim"}, {"claim", "abandonment-win"}});
    EXPECT_EQ(w->last_state()["result"], "1-0");
    EXPECT_TRUE(w->last_state()["presence"]["claim_in_ms"].is_null());
}

// P22: the side that left but is not to move gives no claim; a robot is always online.
// P22 with C3 and R18: the claim the presence counts down to is the hub's; in a
// correspondence game (the deadline decides) and in an adjourned game (nobody is to
// move) there is none, so no countdown either.
TEST_F(Fixture, P22C3NoClaimTimeInCorrespondenceOrAdjournedGames) {
    auto g = create({{"opponent", "invite"}, {"color", "white"}, {"days_per_move", 2}});
    auto w = join(g.id, *g.white_token, Seat::WHITE_SEAT);
    auto b = join(g.id, *g.black_token, Seat::BLACK_SEAT);
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "move"}, {"uci", "e2e4"}});
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "move"}, {"uci", "e7e5"}});
    hub->disconnect(g.id, w.get());  // white to move, and gone
    EXPECT_EQ(b->last_state()["presence"]["white"]["state"], "gone");
    EXPECT_TRUE(b->last_state()["presence"]["claim_in_ms"].is_null());

    auto a = create({{"opponent", "invite"}, {"color", "white"}, {"time_control", "15+10"}, {"adjournment", true}});
    auto aw = join(a.id, *a.white_token, Seat::WHITE_SEAT);
    auto ab = join(a.id, *a.black_token, Seat::BLACK_SEAT);
    send(a.id, Seat::WHITE_SEAT, *aw, {{"t", "move"}, {"uci", "e2e4"}});
    send(a.id, Seat::BLACK_SEAT, *ab, {{"t", "move"}, {"uci", "e7e5"}});
    send(a.id, Seat::WHITE_SEAT, *aw, {{"t", "seal"}, {"move", "Nf3"}});
    hub->disconnect(a.id, aw.get());
    EXPECT_EQ(ab->last_state()["presence"]["white"]["state"], "gone");
    EXPECT_TRUE(ab->last_state()["presence"]["claim_in_ms"].is_null()) << ab->last_state().dump();
}

TEST_F(Fixture, P22NoClaimTimeWhenTheAbsentSideIsNotToMove) {
    auto g = create({{"opponent", "invite"}, {"color", "white"}});
    auto w = join(g.id, *g.white_token, Seat::WHITE_SEAT);
    auto b = join(g.id, *g.black_token, Seat::BLACK_SEAT);
    send(g.id, Seat::WHITE_SEAT, *w, {{"t", "move"}, {"uci", "e2e4"}});
    send(g.id, Seat::BLACK_SEAT, *b, {{"t", "move"}, {"uci", "e7e5"}});
    hub->disconnect(g.id, b.get());  // white to move: black's absence gives nothing
    EXPECT_EQ(w->last_state()["presence"]["black"]["state"], "gone");
    EXPECT_TRUE(w->last_state()["presence"]["claim_in_ms"].is_null());
    auto r = create({{"opponent", "robot"}, {"color", "white"}});
    auto rw = join(r.id, *r.white_token, Seat::WHITE_SEAT);
    EXPECT_EQ(rw->last_state()["presence"]["black"]["state"], "online");
}
