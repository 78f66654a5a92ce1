// Outpost — a server no single client can stall, in a real `outpost serve` (issue 25):
// - no blocking work on the network threads: while four clients read the profile of an
//   account with 10,000 games (tens of milliseconds of database work each), a game on
//   the one network thread (--io-threads 1) still moves at once. Before, the reads ran
//   on the network thread and every move waited behind them.
// - domains do not wait on each other: while the second round of a 500-player Swiss is
//   being paired (seconds of work), a resignation in an unrelated game is acknowledged
//   at once. Before, the hub told the events of every game's end under its own lock,
//   and the events held theirs through the pairing: the resignation waited for it.
// bench/fairness measures these attacks and more with a game moving five times a second.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <algorithm>
#include <atomic>
#include <functional>
#include <future>
#include <random>
#include <thread>
#include <regex>
#include <string>
#include <vector>

#include "../support/finished_games.h"
#include "../support/serve_process.h"
#include "server/stores/account_store.h"
#include "server/stores/game_store.h"

namespace {

using namespace outpost::test;
using Clock = std::chrono::steady_clock;

const std::string JsonType = "Content-Type: application/json\r\n";

std::string cookie_of(const Response& r) {
    std::smatch m;
    std::regex_search(r.head, m, std::regex("outpost_session=([^;\\r\\n]+)"));
    return m.size() > 1 ? std::string(m[1]) : std::string();
}

std::string with_cookie(const std::string& cookie) { return JsonType + "Cookie: outpost_session=" + cookie + "\r\n"; }

double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

// A signed-up account's session cookie ("" when refused).
std::string sign_up(int fd, const std::string& name) {
    const Response r = http(fd, "POST", "/api/v1/account/signup",
                            R"({"name":")" + name + R"(","password":"Fair-shares-25-for-)" + name + R"("})", JsonType);
    return r.status == 201 ? cookie_of(r) : std::string();
}

// The move round trips of a hotseat game, one move every 100 ms while `busy()`.
std::vector<double> victim_moves(int port, const std::function<bool()>& busy) {
    std::vector<double> times;
    const auto [game, token] = hotseat_game(port);
    auto [ws, status] = ws_open(port, "/api/v1/ws?game=" + game + "&seat=" + token, "");
    if (status != 101) return times;
    (void)ws_read_data(ws);
    const char* plies[] = {"a2a3", "a7a6", "a3a4", "a6a5", "b2b3", "b7b6", "b3b4", "b6b5",
                           "c2c3", "c7c6", "c3c4", "c6c5", "d2d3", "d7d6", "d3d4", "d6d5"};
    for (const char* uci : plies) {
        if (!busy()) break;
        const auto t = Clock::now();
        if (!ws_send(ws, R"({"v":1,"t":"move","uci":")" + std::string(uci) + R"("})")) break;
        for (;;) {
            auto [op, text] = ws_read_data(ws, 30000);
            if (op != 1) {
                close(ws);
                return times;
            }
            if (text.find(R"("t":"move")") != std::string::npos || text.find(R"("t":"error")") != std::string::npos) break;
        }
        times.push_back(ms_since(t));
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    close(ws);
    return times;
}

}  // namespace

TEST(FairnessServeIssue25, ProfileReadsOfA10000GameAccountDoNotHoldTheNetworkThread) {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("outpost-fairness-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string db = (dir / "t.db").string();
    {
        auto accounts = outpost::server::AccountStore::open(db, outpost::server::PasswordCost::cheapest());
        ASSERT_TRUE(accounts);
        auto heavy = (*accounts)->create("heavy25", "Fair-shares-25-heavy", false, 1'700'000'000'000);
        ASSERT_TRUE(heavy);
        auto storage = outpost::server::Storage::open(db);
        ASSERT_TRUE(storage);
        std::mt19937 rng(25);
        std::vector<outpost::server::GameWrite> batch;
        for (int i = 0; i < 10'000; ++i) {
            outpost::server::GameWrite w;
            w.kind = outpost::server::GameWrite::INSERT_GAME;
            char id[16];
            std::snprintf(id, sizeof id, "heavy%d", 100000 + i);  // (GCC 12 warns at "heavy" + std::to_string)
            w.game = finished_game(id, 40, rng);
            w.game.white_account = heavy->id;
            batch.push_back(std::move(w));
        }
        ASSERT_TRUE((*storage)->write(batch));
    }
    {
        Server s({"--no-client-limits", "--io-threads", "1"}, db);
        ASSERT_GT(s.port, 0) << "outpost serve did not start";
        std::atomic<bool> reading{true};
        std::atomic<int> reads{0};
        std::atomic<long> read_ms{0};
        std::vector<std::thread> readers;
        for (int r = 0; r < 4; ++r)
            readers.emplace_back([&] {
                const int fd = connect_to(s.port);
                while (reading) {
                    const auto t = Clock::now();
                    if (http(fd, "GET", "/api/v1/players/heavy25").status != 200) break;
                    read_ms += long(ms_since(t));
                    ++reads;
                }
                close(fd);
            });
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        const auto started = Clock::now();
        std::vector<double> times = victim_moves(s.port, [&] { return ms_since(started) < 20000; });
        reading = false;
        for (auto& t : readers) t.join();
        ASSERT_EQ(times.size(), 16u);
        std::sort(times.begin(), times.end());
        const double mean_read = reads ? double(read_ms) / reads : 0;
        std::cout << reads << " profile reads of " << mean_read << " ms on average; the game's moves: median "
                  << times[8] << " ms, worst " << times.back() << " ms\n";
        // The reads must be slow for the test to say anything.
        EXPECT_GT(mean_read, 40);
        EXPECT_LT(times[8], 30);
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
}

TEST(FairnessServeIssue25, AResignationIsAcknowledgedWhileA500PlayerSwissRoundIsPaired) {
    Server s({"--no-client-limits", "--password-cost", "cheapest"});
    ASSERT_GT(s.port, 0) << "outpost serve did not start";
    const int fd = connect_to(s.port);
    const std::string organiser = sign_up(fd, "organiser25");
    ASSERT_FALSE(organiser.empty());
    Response made = http(fd, "POST", "/api/v1/events",
                         R"({"name":"Big Swiss","system":"swiss","rounds":5,"time_control":"15+10","mode":"otb"})",
                         with_cookie(organiser));
    ASSERT_EQ(made.status, 201) << made.body;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(made.body, m, std::regex(R"re("id":([0-9]+))re")));
    const std::string event = "/api/v1/events/" + std::string(m[1]);
    for (int i = 0; i < 500; ++i) {
        const std::string player = sign_up(fd, "player25n" + std::to_string(i));
        ASSERT_FALSE(player.empty()) << i;
        ASSERT_EQ(http(fd, "POST", event + "/join", "{}", with_cookie(player)).status, 200) << i;
    }
    Response round1 = http(fd, "POST", event + "/rounds", "{}", with_cookie(organiser));
    ASSERT_EQ(round1.status, 201) << round1.body.substr(0, 300);
    // Every board of round 1 decided (over the board), the stronger side winning or a
    // draw now and then, so that round 2 has score groups to pair.
    for (int board = 1; board <= 250; ++board) {
        const std::string result = board % 7 == 0 ? "1/2-1/2" : board % 3 == 0 ? "0-1" : "1-0";
        const Response r = http(fd, "POST", event + "/results",
                                R"({"round":1,"board":)" + std::to_string(board) + R"(,"result":")" + result + R"("})",
                                with_cookie(organiser));
        ASSERT_EQ(r.status, 200) << board << ": " << r.body.substr(0, 200);
    }

    // The unrelated game: two moves played, so that a resignation ends it.
    const auto [game, token] = hotseat_game(s.port);
    ASSERT_FALSE(game.empty());
    auto [ws, status] = ws_open(s.port, "/api/v1/ws?game=" + game + "&seat=" + token, "");
    ASSERT_EQ(status, 101);
    ASSERT_EQ(ws_read_data(ws).first, 1);  // the state
    for (const char* uci : {"e2e4", "e7e5"}) {
        ASSERT_TRUE(ws_send(ws, R"({"v":1,"t":"move","uci":")" + std::string(uci) + R"("})"));
        ASSERT_EQ(ws_read_data(ws).first, 1);
    }

    // Round 2 starts on a connection of its own; the resignation goes in while it pairs.
    const auto round2_sent = Clock::now();
    auto round2 = std::async(std::launch::async, [&] {
        const int other = connect_to(s.port);
        Response r = http(other, "POST", event + "/rounds", "{}", with_cookie(organiser));
        close(other);
        return std::make_pair(r.status, ms_since(round2_sent));
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const auto resigned = Clock::now();
    ASSERT_TRUE(ws_send(ws, R"({"v":1,"t":"resign"})"));
    std::string answer;
    double ack_ms = -1;
    for (int i = 0; i < 20 && ack_ms < 0; ++i) {
        auto [op, text] = ws_read_data(ws, 30000);
        if (op != 1) break;
        if (text.find("resign") != std::string::npos) {
            ack_ms = ms_since(resigned);
            answer = text;
        }
    }
    // The round's own answer may take longer than the client's read timeout on a
    // loaded machine: the event is read until it shows round 2 started.
    bool started = false;
    for (int i = 0; i < 600 && !started; ++i) {
        started = http(fd, "GET", event).body.find(R"("current_round":2)") != std::string::npos;
        if (!started) std::this_thread::sleep_for(std::chrono::milliseconds(500));
    }
    const double round2_ms = ms_since(round2_sent);
    (void)round2.get();
    close(ws);
    close(fd);
    std::cout << "round 2 of 500 players paired in " << round2_ms << " ms; the resignation answered in " << ack_ms
              << " ms\n";
    EXPECT_TRUE(started) << "round 2 never started";
    ASSERT_GE(ack_ms, 0) << "the resignation was never answered";
    // The pairing must outlast the resignation's answer by far for the test to say
    // anything: it takes seconds (the old server answered the resignation after it).
    EXPECT_GT(round2_ms, 1000) << "the pairing was too quick to show anything";
    EXPECT_LT(ack_ms, 250) << answer.substr(0, 200);
}
