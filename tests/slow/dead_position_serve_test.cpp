// Outpost — the dead-position watch in a real `outpost serve` (R7, FIDE 5.2.2; issue
// 28, item 15): a game started in a dead position that the quick test after a move
// cannot prove (a CHA test vector: Black's king shut in by its own pawns and White's)
// is ended by the watch, drawn, without a move. Server and client:
// tests/support/serve_process.h.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <chrono>
#include <regex>
#include <string>
#include <thread>

#include "../support/serve_process.h"
#include "chess/dead_position.h"
#include "chess/fen.h"

namespace {

std::string request(int port, const std::string& method, const std::string& target, const std::string& body = "") {
    const int fd = outpost::test::connect_to(port);
    if (fd < 0) return "";
    const auto r = outpost::test::http(fd, method, target, body,
                                       method == "POST" ? "Content-Type: application/json\r\n" : "");
    close(fd);
    return r.body;
}

std::string field(const std::string& json, const std::string& name) {
    std::smatch m;
    const std::regex re("\"" + name + "\": *\"([^\"]*)\"");
    return std::regex_search(json, m, re) ? std::string(m[1]) : "";
}

}  // namespace

TEST(DeadPositionServe, TheWatchEndsAGameTheQuickTestLeaves) {
    const std::string fen = "1k6/1P5p/BP3p2/1P6/8/8/5PKP/8 b - - 0 1";
    auto pos = outpost::position_from_fen(fen);
    ASSERT_TRUE(pos.ok());
    ASSERT_NE(outpost::dead_position_after_move(*pos, 2000), outpost::Deadness::DEAD);
    ASSERT_EQ(outpost::dead_position_deep(*pos), outpost::Deadness::DEAD);

    outpost::test::Server s({});
    ASSERT_GT(s.port, 0) << "outpost serve did not start";
    const std::string created =
        request(s.port, "POST", "/api/v1/games", R"({"v":1,"opponent":"hotseat","time_control":"5+3","fen":")" + fen + "\"}");
    const std::string id = field(created, "game");
    ASSERT_FALSE(id.empty()) << created;
    std::string state;
    for (int i = 0; i < 100 && field(state, "status") != "dead-position"; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        state = request(s.port, "GET", "/api/v1/games/" + id);
    }
    EXPECT_EQ(field(state, "status"), "dead-position") << state;
    EXPECT_EQ(field(state, "result"), "1/2-1/2") << state;
}
