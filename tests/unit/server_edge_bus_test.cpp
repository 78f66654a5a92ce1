// Outpost — the WebSocket sessions of a real `outpost serve` on the bus
// (server/bus/bus.h): a game's, the lobby's and a simul's socket each reach their
// owner through it, and an address nobody has answers an error as before the bus.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <string>

#include "../support/serve_process.h"

namespace {

using namespace outpost::test;

bool has(const std::string& payload, const std::string& part) { return payload.find(part) != std::string::npos; }

TEST(EdgeBus, AGameSocketPlaysThroughTheBus) {
    Server s({});
    ASSERT_GT(s.port, 0);
    auto [game, seat] = hotseat_game(s.port);
    ASSERT_FALSE(game.empty());
    auto [fd, status] = ws_open(s.port, "/api/v1/ws?game=" + game + "&seat=" + seat, "");
    ASSERT_EQ(status, 101);
    auto first = ws_read_data(fd);
    EXPECT_TRUE(has(first.second, R"("t":"state")")) << first.second;
    ASSERT_TRUE(ws_send(fd, R"({"v":1,"t":"move","uci":"e2e4"})"));
    std::string move;
    for (int i = 0; i < 5 && !has(move, R"("t":"move")"); ++i) move = ws_read_data(fd).second;
    EXPECT_TRUE(has(move, R"("uci":"e2e4")")) << move;
    close(fd);
    // A game nobody has: the error, then the close.
    auto [bad, bad_status] = ws_open(s.port, "/api/v1/ws?game=nosuchgame", "");
    ASSERT_EQ(bad_status, 101);
    auto error = ws_read_data(bad);
    EXPECT_TRUE(has(error.second, R"("code":"not_found")")) << error.second;
    EXPECT_EQ(ws_read_data(bad).first, 8) << "the socket of a game nobody has stayed open";
    close(bad);
}

TEST(EdgeBus, TheLobbyAndASimulAnswerThroughTheBus) {
    Server s({});
    ASSERT_GT(s.port, 0);
    auto [lobby, status] = ws_open(s.port, "/api/v1/lobby", "");
    ASSERT_EQ(status, 101);
    EXPECT_TRUE(has(ws_read_data(lobby).second, R"("t":"lobby")"));
    ASSERT_TRUE(ws_send(lobby, R"({"v":1,"t":"ping"})"));
    EXPECT_TRUE(has(ws_read_data(lobby).second, R"("t":"pong")"));
    close(lobby);
    // An unknown simul is answered on its socket, which stays open (as before the bus).
    auto [simul, simul_status] = ws_open(s.port, "/api/v1/simul?id=nosuch", "");
    ASSERT_EQ(simul_status, 101);
    EXPECT_TRUE(has(ws_read_data(simul).second, R"("code":"not_found")"));
    ASSERT_TRUE(ws_send(simul, R"({"t":"ping"})"));
    EXPECT_TRUE(has(ws_read_data(simul).second, R"("t":"pong")"));
    close(simul);
}

}  // namespace
