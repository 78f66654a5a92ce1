// Outpost — the network edge: seat tokens (D4), the robot pool, rate limits and the
// lag quota as the server applies them (C5). Protocol: docs/protocol.md.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "server/common/random.h"
#include "server/play/robot.h"

using namespace outpost;
using namespace outpost::server;

namespace {

// D4: a seat is guarded by its token alone. The tokens came from mt19937_64, whose
// state an attacker recovered from the tokens of games it created, and then predicted
// a victim's seat token. Now: getrandom(2), 22 characters of 62 (131 bits).
TEST(SeatTokensD4, WellFormedAndDistinct) {
    std::set<std::string> seen;
    for (int i = 0; i < 20000; ++i) {
        const std::string t = secure_token(22);
        ASSERT_EQ(t.size(), 22u);
        for (char c : t) ASSERT_TRUE((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) << t;
        ASSERT_TRUE(seen.insert(t).second) << "a token came twice: " << t;
    }
    EXPECT_EQ(secure_token(0), "");
    EXPECT_EQ(secure_token(1000).size(), 1000u);
}

// Every character equally likely (rejection sampling rather than `byte % 62`, which
// would make the first 8 characters 5/4 as likely as the others with bytes): a
// chi-square test over 620,000 characters, 61 degrees of freedom, at p ~ 1e-6.
TEST(SeatTokensD4, CharactersUniform) {
    std::array<long, 128> count{};
    const int Tokens = 20000;
    for (int i = 0; i < Tokens; ++i)
        for (char c : secure_token(31)) ++count[size_t(c)];
    const double expected = Tokens * 31.0 / 62;
    double chi2 = 0;
    for (long n : count)
        if (n) chi2 += (n - expected) * (n - expected) / expected;
    EXPECT_LT(chi2, 130.0);  // mean 61; a biased byte % 62 gives ~4,000 here
}

Millis steady_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The answers of a pool, with the time each came.
struct Answers {
    std::mutex mutex;
    std::condition_variable cv;
    std::map<std::string, std::pair<std::uint64_t, Millis>> by_game;
    RobotPool::OnMove callback() {
        return [this](const std::string& id, std::uint64_t request_id, Move) {
            std::lock_guard lock(mutex);
            by_game[id] = {request_id, steady_ms()};
            cv.notify_all();
        };
    }
    bool wait_for(const std::string& id, Millis ms) {
        std::unique_lock lock(mutex);
        return cv.wait_for(lock, std::chrono::milliseconds(ms), [&] { return by_game.count(id) > 0; });
    }
    size_t size() {
        std::lock_guard lock(mutex);
        return by_game.size();
    }
};

RobotRequest request(const std::string& game, int level, std::uint64_t id) {
    RobotRequest r;
    r.game_id = game;
    r.request_id = id;
    r.asked_at_ms = steady_ms();
    r.start = Position::startpos();
    r.level = level;  // no clock: 1.5 s a move at full strength, under 0.4 s at level 1
    return r;
}

// Polls until cond holds or ms pass (the machine may be busy: no fixed sleeps).
template <class F>
bool eventually(F cond, Millis ms = 5000) {
    const Millis until = steady_ms() + ms;
    while (!cond()) {
        if (steady_ms() > until) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

// Issue 9.4: thirty full-strength games made a new level-1 game wait 38 s for its
// first move behind a first-come queue. Here one thread for full strength and six
// full-strength games (1.5 s each) asked first: the level-1 game is answered while
// the first of them still thinks, not after all six.
TEST(RobotPoolP3, QuickLevelDoesNotWaitBehindFullStrengthGames) {
    Answers answers;
    RobotPool pool(1, answers.callback());
    for (int i = 0; i < 6; ++i) pool.ask(request("top" + std::to_string(i), 10, 100 + i));
    ASSERT_TRUE(eventually([&] { return pool.thinking() == 1; }));
    const Millis asked = steady_ms();
    pool.ask(request("quick", 1, 7));
    ASSERT_TRUE(answers.wait_for("quick", 5000)) << "no answer for the level-1 game";
    std::lock_guard lock(answers.mutex);
    EXPECT_EQ(answers.by_game.count("top0"), 0u) << "the level-1 game waited for a full-strength search";
    EXPECT_LT(answers.by_game["quick"].second - asked, 1500);
    EXPECT_EQ(answers.by_game["quick"].first, 7u);
}

// A second request of one game replaces its first (the position changed), and stops
// its search if it is thinking.
TEST(RobotPoolP3, ANewRequestOfAGameReplacesItsOldOne) {
    Answers answers;
    RobotPool pool(1, answers.callback());
    pool.ask(request("a", 10, 1));
    ASSERT_TRUE(eventually([&] { return pool.thinking() == 1 && pool.queued() == 0; }));
    pool.ask(request("b", 10, 2));  // queued ...
    pool.ask(request("b", 10, 3));  // ... and replaced
    EXPECT_EQ(pool.queued(), 1u);
    pool.ask(request("a", 10, 4));  // stops the search for request 1
    ASSERT_TRUE(answers.wait_for("a", 8000));
    ASSERT_TRUE(answers.wait_for("b", 8000));
    std::lock_guard lock(answers.mutex);
    EXPECT_EQ(answers.by_game["a"].first, 4u);
    EXPECT_EQ(answers.by_game["b"].first, 3u);
}

// A game that ended or was taken back: its queued request is dropped and a search
// for it stops at once without an answer (the hub would otherwise get a stale move).
TEST(RobotPoolP3, CancelDropsQueuedAndRunningRequests) {
    Answers answers;
    RobotPool pool(1, answers.callback());
    pool.ask(request("running", 10, 1));
    ASSERT_TRUE(eventually([&] { return pool.thinking() == 1 && pool.queued() == 0; }));
    pool.ask(request("queued", 10, 2));
    EXPECT_EQ(pool.queued(), 1u);
    pool.cancel("queued");
    EXPECT_EQ(pool.queued(), 0u);
    pool.cancel("running");
    // Stopped, not left to think for its 1.5 s.
    EXPECT_TRUE(eventually([&] { return pool.thinking() == 0; }, 700));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_EQ(answers.size(), 0u) << "a cancelled request was answered";
    pool.ask(request("next", 1, 3));  // and the pool goes on
    EXPECT_TRUE(answers.wait_for("next", 5000));
}

// Issue 25 (fair shares): one address's twenty level-10 games made another player's
// level-10 robot answer in 250 s, behind a queue of games. Players take turns: one
// full-strength thread, one player's twenty games asked first, then another player's
// one game; the second player's game is answered within the first two answers (the
// old pool, games in the order they asked, answered it last).
TEST(RobotPoolFairShares25, OnePlayersTwentyGamesDoNotMakeAnothersOneWait) {
    std::mutex mutex;
    std::vector<std::string> order;
    std::condition_variable cv;
    RobotPool pool(1, [&](const std::string& id, std::uint64_t, Move) {
        std::lock_guard lock(mutex);
        order.push_back(id);
        cv.notify_all();
    });
    auto timed = [](const std::string& game, const std::string& owner, std::uint64_t id) {
        RobotRequest r = request(game, 10, id);
        r.owner = owner;
        r.my_time = r.their_time = 400;  // a short think each: the order is what is measured
        return r;
    };
    // The first search thinks 1.5 s (no clock), long enough to queue the others behind it.
    RobotRequest first = request("many0", 10, 100);
    first.owner = "account:1";
    pool.ask(first);
    ASSERT_TRUE(eventually([&] { return pool.thinking() == 1; }));
    for (int i = 1; i < 20; ++i) pool.ask(timed("many" + std::to_string(i), "account:1", 100 + i));
    pool.ask(timed("one", "account:2", 7));
    std::unique_lock lock(mutex);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(60), [&] { return order.size() == 21; })) << order.size();
    const auto at = std::find(order.begin(), order.end(), "one") - order.begin();
    EXPECT_LE(at, 1) << "the other player's game was answered after " << at << " of the first player's";
}

// The same among guests: their games are their address group's (RobotRequest::owner),
// and the two players' games alternate while both wait.
TEST(RobotPoolFairShares25, TwoOwnersAlternate) {
    std::mutex mutex;
    std::vector<std::string> order;
    RobotPool pool(1, [&](const std::string& id, std::uint64_t, Move) {
        std::lock_guard lock(mutex);
        order.push_back(id);
    });
    auto timed = [](const std::string& game, const std::string& owner, std::uint64_t id) {
        RobotRequest r = request(game, 10, id);
        r.owner = owner;
        r.my_time = r.their_time = 400;
        return r;
    };
    RobotRequest first = request("a0", 10, 1);  // 1.5 s, while the others queue
    first.owner = "address:192.0.2.1";
    pool.ask(first);
    ASSERT_TRUE(eventually([&] { return pool.thinking() == 1; }));
    for (int i = 1; i < 4; ++i) pool.ask(timed("a" + std::to_string(i), "address:192.0.2.1", 1 + i));
    for (int i = 0; i < 3; ++i) pool.ask(timed("b" + std::to_string(i), "address:2001:db8:1:2::/64", 10 + i));
    ASSERT_TRUE(eventually([&] { std::lock_guard lock(mutex); return order.size() == 7; }, 60'000));
    std::lock_guard lock(mutex);
    EXPECT_EQ(order, (std::vector<std::string>{"a0", "b0", "a1", "b1", "a2", "b2", "a3"}));
}

// C5 and issue 9.4: time spent queued is the robot's own time gone; the search is
// given what is left (less a margin for the answer's way back), never more.
TEST(RobotPoolC5, BudgetSubtractsTheTimeSpentQueued) {
    RobotRequest r = request("g", 10, 1);
    r.asked_at_ms = 10'000;
    r.my_time = 6'000;
    r.their_time = 9'000;
    r.my_inc = 2'000;
    engine::Limits l = RobotPool::limits_for(r, BLACK, 15'000);
    EXPECT_EQ(l.time[BLACK], 6'000 - 5'000 - RobotPool::AnswerOverheadMs);
    EXPECT_EQ(l.time[WHITE], 9'000);
    EXPECT_EQ(l.inc[BLACK], 2'000);
    l = RobotPool::limits_for(r, BLACK, 30'000);  // waited longer than it had: move at once
    EXPECT_EQ(l.time[BLACK], 1);
    r.my_time = -1;
    EXPECT_EQ(RobotPool::limits_for(r, WHITE, 30'000).movetime, 1500);
}

TEST(RobotPoolP3, DefaultIsOneThreadPerCorePlusTheQuickLane) {
    RobotPool pool(0, [](const std::string&, std::uint64_t, Move) {});
    EXPECT_EQ(pool.threads(), int(std::max(1u, std::thread::hardware_concurrency())) + 1);
}

}  // namespace
