// Outpost — the deeper dead-position test off the move path (R7, FIDE 5.2.2): the
// watch's thread and the hub ending a game at the ply where it became dead.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <functional>
#include <mutex>
#include <thread>
#include <nlohmann/json.hpp>
#include <set>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/uci.h"
#include "server/play/dead_watch.h"
#include "server/play/hub.h"
#include "../support/collector.h"

using namespace outpost;
using namespace outpost::server;
using nlohmann::json;

namespace {

struct DeadFixture : ::testing::Test {
    Millis now = 1'000'000;
    int token_counter = 0;
    std::vector<DeadPositionRequest> asked;
    std::vector<std::string> cancelled;
    std::unique_ptr<Storage> storage;
    std::unique_ptr<Hub> hub;
    std::string db_path;

    void SetUp() override {
        db_path = (std::filesystem::temp_directory_path() /
                   ("outpost-dead-test-" + std::to_string(::getpid()) + "-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db"))
                      .string();
        std::filesystem::remove(db_path);
        storage = std::move(Storage::open(db_path).value());
        HubEnv e;
        e.monotonic_ms = [this] { return now; };
        e.wall_ms = [this] { return 1'700'000'000'000 + now; };
        e.call_back_in = [](const std::string&, Millis) {};
        e.random_token = [this](int len) {
            std::string s = std::to_string(++token_counter);
            s.insert(s.begin(), 't');
            while (int(s.size()) < len) s += "x";
            return s;
        };
        e.check_dead_position = [this](DeadPositionRequest q) { asked.push_back(std::move(q)); };
        e.cancel_dead_position = [this](const std::string& id) { cancelled.push_back(id); };
        e.inline_writes = true;
        hub = std::make_unique<Hub>(e, storage.get());
    }
    void TearDown() override {
        hub.reset();
        storage.reset();
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_path + suffix);
    }
    void move(const std::string& id, test::Collector& c, const char* uci) {
        hub->handle_message(id, Seat::BOTH, json{{"t", "move"}, {"uci", uci}}.dump(), c);
    }
};

// The start and every move the quick test did not prove dead go to the watch.
TEST_F(DeadFixture, EachMoveAsksTheWatch) {
    auto g = hub->create_game(R"({"opponent":"hotseat","time_control":"5+3"})").value();
    auto c = std::make_shared<test::Collector>();
    ASSERT_TRUE(hub->connect(g.id, *g.white_token, c));
    move(g.id, *c, "e2e4");
    move(g.id, *c, "e7e5");
    ASSERT_EQ(asked.size(), 3u);
    EXPECT_EQ(asked[0].first_ply, 0);
    EXPECT_EQ(asked[2].game_id, g.id);
    EXPECT_EQ(asked[2].first_ply, 2);
    ASSERT_EQ(asked[2].positions.size(), 1u);
    EXPECT_EQ(to_fen(asked[2].positions[0]), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
}

// 5.2.2: the game ended at the ply the watch proved dead; the move made meanwhile is
// taken back, and every player gets the state: drawn, dead position.
TEST_F(DeadFixture, ProvedDeadEndsTheGameAtThatPlyAndTakesBackTheMoveMadeMeanwhile) {
    auto g = hub->create_game(R"({"opponent":"hotseat","time_control":"5+3"})").value();
    auto c = std::make_shared<test::Collector>();
    ASSERT_TRUE(hub->connect(g.id, *g.white_token, c));
    for (const char* m : {"e2e4", "e7e5", "g1f3"}) move(g.id, *c, m);
    const Key at_two = asked[2].positions[0].repetition_key();
    hub->on_dead_position(g.id, 2, at_two ^ 1);  // not this game's position at ply 2: ignored
    EXPECT_EQ(c->last_state()["status"], "ongoing");
    hub->on_dead_position(g.id, 2, at_two);
    json s = c->last_state();
    EXPECT_EQ(s["status"], "dead-position");
    EXPECT_EQ(s["result"], "1/2-1/2");
    EXPECT_EQ(s["moves"], json::array({"e2e4", "e7e5"}));
    EXPECT_EQ(cancelled.back(), g.id);
    EXPECT_TRUE(s["clock"]["running"].is_null());  // the clocks stand once the game is over
    const json before = s["clock"];
    now += 5'000;
    hub->on_timer(g.id);
    const json after = json::parse(hub->state_json(g.id).value());
    const json& clock = after.contains("game") ? after["game"]["clock"] : after["clock"];
    EXPECT_EQ(clock["white_ms"], before["white_ms"]);
    EXPECT_EQ(clock["black_ms"], before["black_ms"]);
    // Stored so: the game read back ends at ply 2, drawn.
    hub->flush();
    auto stored = storage->load_game(g.id);
    ASSERT_TRUE(stored && *stored);
    EXPECT_EQ((*stored)->moves.size(), 2u);
    EXPECT_EQ((*stored)->status, "dead-position");
    hub->on_dead_position(g.id, 2, at_two);  // once over, nothing more happens
    EXPECT_EQ(c->last_state()["status"], "dead-position");
}

// The watch tests the newest position first and walks back to the first dead one; a
// newer request for a game keeps the earlier positions still queued.
TEST(DeadPositionWatch, ReportsTheFirstDeadPlyOfARequest) {
    Position p = Position::startpos();
    std::vector<Position> line{p};
    for (const char* m : {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4"}) {
        MoveList l = legal_moves(line.back());
        for (Move x : l)
            if (move_to_uci(line.back(), x) == m) line.push_back(line.back().after(x));
    }
    ASSERT_EQ(line.size(), 6u);
    std::set<Key> dead{line[3].repetition_key(), line[4].repetition_key(), line[5].repetition_key()};
    std::vector<std::pair<std::string, int>> reported;
    std::mutex m;
    std::atomic<bool> go{false};
    DeadPositionWatch watch(
        [&](const std::string& id, int ply, Key key) {
            std::lock_guard lock(m);
            reported.emplace_back(id, ply);
            EXPECT_TRUE(dead.count(key));
        },
        [&](const Position& q) {
            while (!go) std::this_thread::yield();
            return dead.count(q.repetition_key()) ? Deadness::DEAD : Deadness::ALIVE;
        });
    // The first request holds the thread until `go`; the next two for game b merge.
    watch.ask({"a", 1, {line[1]}});
    watch.ask({"b", 1, {line[1], line[2], line[3]}});
    watch.ask({"b", 4, {line[4], line[5]}});
    go = true;
    watch.wait_idle();
    std::lock_guard lock(m);
    ASSERT_EQ(reported.size(), 1u);
    EXPECT_EQ(reported[0], std::make_pair(std::string("b"), 3));
}

namespace {
// Burns `ms` of this thread's processor time (the watch rests for what it used).
void burn(std::chrono::milliseconds ms) {
    auto used = [] {
        timespec t{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
    };
    const auto start = used();
    while (used() - start < ms) {
    }
}
}  // namespace

// The milliseconds from the start of one search to the next, over `requests` requests
// of 20 ms of search each, with the watch at `percent` of a core.
std::vector<double> gaps_between_searches(int percent, std::function<bool()> busy, int requests) {
    using Steady = std::chrono::steady_clock;
    std::vector<Steady::time_point> starts;
    std::mutex m;
    DeadPositionWatch watch(
        [](const std::string&, int, Key) {},
        [&](const Position&) {
            {
                std::lock_guard lock(m);
                starts.push_back(Steady::now());
            }
            burn(std::chrono::milliseconds(20));
            return Deadness::ALIVE;
        },
        percent, std::move(busy));
    for (int i = 0; i < requests; ++i) watch.ask({"game" + std::to_string(i), 1, {Position::startpos()}});
    watch.wait_idle();
    std::lock_guard lock(m);
    std::vector<double> gaps;
    for (size_t i = 1; i < starts.size(); ++i)
        gaps.push_back(std::chrono::duration<double, std::milli>(starts[i] - starts[i - 1]).count());
    return gaps;
}

// Its share of one core: after a test that used T it rests T * (100 - P) / P before the
// next, so that a busy watch leaves the cores to the moves (docs/scaling.md).
TEST(DeadPositionWatch, RestsForItsShareOfOneCore) {
    const auto gaps = gaps_between_searches(25, {}, 4);
    ASSERT_EQ(gaps.size(), 3u);
    // 20 ms of search, then 60 ms of rest: at least 80 ms from one start to the next.
    for (size_t i = 0; i < gaps.size(); ++i) EXPECT_GE(gaps[i], 78.0) << i + 1;
}

// While the machine is busy with other work, a tenth of its share: 20 ms of search at
// 50% of a core rests 20 ms when the machine is free, and 380 ms (5%) when it is busy.
TEST(DeadPositionWatch, KeepsToATenthOfItsShareWhileTheMachineIsBusy) {
    const auto gaps = gaps_between_searches(50, [] { return true; }, 3);
    ASSERT_EQ(gaps.size(), 2u);
    for (size_t i = 0; i < gaps.size(); ++i) EXPECT_GE(gaps[i], 395.0) << i + 1;
}

// One request per game, found by its id (not by a search of the queue): a cancelled
// game's request is gone, the others are tested in the order asked, and a game asked
// again after its request was taken is queued anew.
TEST(DeadPositionWatch, CancelledRequestsGoAndTheRestAreTestedInTheOrderAsked) {
    std::vector<std::string> tested;
    std::mutex m;
    std::atomic<bool> go{false};
    DeadPositionWatch watch([](const std::string&, int, Key) {},
                            [&](const Position& q) {
                                while (!go) std::this_thread::yield();
                                std::lock_guard lock(m);
                                tested.push_back(to_fen(q));
                                return Deadness::ALIVE;
                            });
    // Different positions stand for different games here (the test sees positions only).
    std::vector<Position> line{Position::startpos()};
    for (const char* mv : {"e2e4", "e7e5", "g1f3", "b8c6"}) {
        for (Move x : legal_moves(line.back()))
            if (move_to_uci(line.back(), x) == mv) line.push_back(line.back().after(x));
    }
    ASSERT_EQ(line.size(), 5u);
    watch.ask({"held", 0, {line[0]}});  // taken at once: holds the thread until `go`
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    watch.ask({"a", 1, {line[1]}});
    watch.ask({"b", 2, {line[2]}});
    watch.ask({"c", 3, {line[3]}});
    watch.cancel("b");
    watch.cancel("nothere");
    go = true;
    watch.wait_idle();
    watch.ask({"b", 4, {line[4]}});
    watch.wait_idle();
    std::lock_guard lock(m);
    EXPECT_EQ(tested, (std::vector<std::string>{to_fen(line[0]), to_fen(line[1]), to_fen(line[3]), to_fen(line[4])}));
}

TEST(DeadPositionWatch, StopsDuringItsRest) {
    using Steady = std::chrono::steady_clock;
    std::atomic<bool> tested{false};
    Steady::time_point asked_to_stop;
    {
        DeadPositionWatch watch(
            [](const std::string&, int, Key) {},
            [&](const Position&) {
                burn(std::chrono::milliseconds(50));
                tested = true;
                return Deadness::ALIVE;
            },
            1);  // a rest of 4.95 s after it
        watch.ask({"a", 1, {Position::startpos()}});
        watch.wait_idle();
        ASSERT_TRUE(tested);
        asked_to_stop = Steady::now();
    }
    EXPECT_LT(std::chrono::duration<double>(Steady::now() - asked_to_stop).count(), 2.0);
}

}  // namespace
