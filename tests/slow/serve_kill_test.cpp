// Outpost — D3 against the real thing: `outpost serve` on a SQLite file is killed with
// SIGKILL at random moments while games are played over WebSockets, again and again,
// and every move it acknowledged (docs/protocol.md: "a client's own move is
// acknowledged by that `move` message") and every game it answered 201 for must be
// there after the restart. SQLite runs in WAL mode with synchronous=NORMAL: durable
// against the death of the process (this test), not against a power cut (the docs say
// so; --sync-full closes that).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "../support/random_move.h"
#include "../support/serve_process.h"

namespace {

using namespace outpost::test;
using nlohmann::json;
using Steady = std::chrono::steady_clock;

struct PlayedGame {
    std::string id, token;
    std::vector<std::string> acked;  // the moves the server acknowledged, in order
    bool over = false;
    // This cycle's connection.
    int fd = -1;
    int waiting_for_ply = -1;  // the ply of our move in flight (-1: none)
    std::string in_flight;
    json legal;
};

}  // namespace

// `Cycles` times: start `outpost serve` (its options `extra`, its SQLite file `db`), play
// over WebSockets, kill -9 at a random moment; then look for every acknowledged move.
// Also run on PostgreSQL (tests/slow/postgres_serve_test.cpp).
namespace outpost::test {
void kill_cycles(const std::vector<std::string>& extra, const fs::path& db, const int Cycles) {
    std::mt19937 rng(20261124);
    std::vector<PlayedGame> games;
    const int NewGamesPerCycle = 3;
    long acked_total = 0, lost_total = 0;
    double worst_start_s = 0;

    for (int cycle = 0; cycle < Cycles; ++cycle) {
        const auto t0 = Steady::now();
        Server s(extra, db);
        worst_start_s = std::max(worst_start_s, std::chrono::duration<double>(Steady::now() - t0).count());
        ASSERT_GT(s.port, 0) << "cycle " << cycle << ": the server did not start again after kill -9";

        // New games: a 201 is an acknowledgement too.
        for (int i = 0; i < NewGamesPerCycle; ++i) {
            auto [id, token] = hotseat_game(s.port);
            ASSERT_FALSE(id.empty()) << "cycle " << cycle;
            PlayedGame g;
            g.id = id;
            g.token = token;
            games.push_back(std::move(g));
        }
        // Every game, with what the server has of it: it must hold every acknowledged
        // move (it may hold one more: a move stored whose acknowledgement was lost).
        for (PlayedGame& g : games) {
            if (g.over) continue;
            auto [fd, status] = ws_open(s.port, "/api/v1/ws?game=" + g.id + "&seat=" + g.token, "");
            ASSERT_EQ(status, 101) << "game " << g.id << " is gone after restart " << cycle;
            auto [op, text] = ws_read_data(fd, 10000);
            ASSERT_EQ(op, 1) << "no state for game " << g.id;
            const json state = json::parse(text)["game"];
            const std::vector<std::string> stored = state["moves"];
            bool prefix = stored.size() >= g.acked.size();
            for (size_t i = 0; prefix && i < g.acked.size(); ++i) prefix = stored[i] == g.acked[i];
            EXPECT_TRUE(prefix) << "game " << g.id << " after restart " << cycle << ": " << g.acked.size()
                                << " moves acknowledged, " << stored.size() << " stored";
            if (!prefix) ++lost_total;
            EXPECT_LE(stored.size(), g.acked.size() + 1) << "game " << g.id << ": moves stored that were never sent";
            g.acked = stored;
            g.over = state["status"] != "ongoing";
            g.fd = fd;
            g.legal = state["legal"];
            g.waiting_for_ply = -1;
            if (g.over) {
                close(fd);
                g.fd = -1;
                continue;
            }
            const std::string m = random_move(g.legal, rng, state["fen"]);
            if (m.empty()) continue;
            g.in_flight = m;
            g.waiting_for_ply = int(g.acked.size()) + 1;
            ASSERT_TRUE(ws_send(fd, json{{"v", 1}, {"t", "move"}, {"uci", m}, {"ply", g.acked.size()}}.dump()));
        }

        // Play: each game answers its acknowledgement with its next move, until the
        // kill at a random moment (0.1 to 0.9 s in).
        const auto kill_at = Steady::now() + std::chrono::milliseconds(100 + rng() % 800);
        while (Steady::now() < kill_at) {
            std::vector<pollfd> fds;
            std::vector<PlayedGame*> of;
            for (PlayedGame& g : games)
                if (g.fd >= 0) fds.push_back({g.fd, POLLIN, 0}), of.push_back(&g);
            if (fds.empty()) break;
            const int wait = int(std::chrono::duration_cast<std::chrono::milliseconds>(kill_at - Steady::now()).count());
            if (poll(fds.data(), fds.size(), std::max(0, wait)) <= 0) continue;
            for (size_t i = 0; i < fds.size(); ++i) {
                if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
                PlayedGame& g = *of[i];
                auto [op, text] = ws_read_data(g.fd);
                ASSERT_EQ(op, 1) << "game " << g.id << ": the connection broke while the server ran";
                const json msg = json::parse(text);
                ASSERT_NE(msg["t"], "error") << text;
                if (msg["t"] != "move") continue;
                const json& d = msg["game"];
                if (d["ply"] != g.waiting_for_ply || d["uci"] != g.in_flight) continue;
                g.acked.push_back(g.in_flight);  // acknowledged: durable from now on
                ++acked_total;
                g.waiting_for_ply = -1;
                if (d["status"] != "ongoing") {
                    g.over = true;
                    continue;
                }
                const std::string m = random_move(d["legal"], rng, d["fen"]);
                if (m.empty()) continue;
                g.in_flight = m;
                g.waiting_for_ply = int(g.acked.size()) + 1;
                ASSERT_TRUE(ws_send(g.fd, json{{"v", 1}, {"t", "move"}, {"uci", m}, {"ply", g.acked.size()}}.dump()));
            }
        }
        s.stop(SIGKILL);  // moves in flight, batches half written: whatever it was doing
        for (PlayedGame& g : games)
            if (g.fd >= 0) close(g.fd), g.fd = -1;
    }

    // The last look, after a last kill.
    Server s(extra, db);
    ASSERT_GT(s.port, 0);
    for (const PlayedGame& g : games) {
        int fd = connect_to(s.port);
        const Response r = http(fd, "GET", "/api/v1/games/" + g.id);
        close(fd);
        ASSERT_EQ(r.status, 200) << g.id;
        const std::vector<std::string> stored = json::parse(r.body)["game"]["moves"];
        ASSERT_GE(stored.size(), g.acked.size()) << g.id;
        EXPECT_TRUE(std::equal(g.acked.begin(), g.acked.end(), stored.begin())) << g.id;
    }
    // Enough happened for the test to mean something.
    EXPECT_GT(acked_total, 20 * Cycles) << "too few moves were played between the kills";
    EXPECT_EQ(lost_total, 0);
    EXPECT_LT(worst_start_s, 10.0) << "a restart after kill -9 took long (the WAL grew?)";
    std::printf("[ kill -9 ] %d cycles, %zu games, %ld moves acknowledged, none lost; slowest restart %.2f s\n", Cycles,
                games.size(), acked_total, worst_start_s);
    s.stop(SIGTERM);
}
}  // namespace outpost::test

namespace {

TEST(ServeKillD3, EveryAcknowledgedMoveSurvivesKill9) {
    const fs::path dir = fs::temp_directory_path() / ("outpost-kill-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    outpost::test::kill_cycles({"--no-client-limits"}, dir / "kill.db", 20);
    fs::remove_all(dir);
}

}  // namespace
