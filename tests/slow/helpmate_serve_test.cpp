// Flag falls played out through a real `outpost serve` (R11, FIDE 6.9) in positions
// where counting material gives the wrong answer: the game starts from a PGN with a
// FEN tag and two moves (the clock starts after two plies, docs/protocol.md), nobody
// moves again, and the server's own clock lets the flag fall (C5). The server and
// the HTTP client are those of tests/support/serve_process.h.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <chrono>
#include <regex>
#include <string>
#include <thread>

#include "../support/serve_process.h"

namespace {

using outpost::test::Server;

// One HTTP/1.1 request on its own connection; the body of the answer ("" on failure).
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

struct Ending {
    std::string status, result, end;
};

// A hotseat game from `fen` and the two `moves`, on a 1.2-second clock; waits for the
// server to see the flag fall and returns how the game ended.
Ending flag_fall(const Server& s, const std::string& fen, const std::string& moves) {
    const std::string pgn = "[SetUp \\\"1\\\"]\\n[FEN \\\"" + fen + "\\\"]\\n\\n" + moves + " *";
    const std::string created =
        request(s.port, "POST", "/api/v1/games",
             R"({"v":1,"opponent":"hotseat","color":"white","time_control":"0.02+0","pgn":")" + pgn + "\"}");
    const std::string id = field(created, "game");
    EXPECT_FALSE(id.empty()) << created;
    if (id.empty()) return {};
    for (int i = 0; i < 100; ++i) {
        const std::string state = request(s.port, "GET", "/api/v1/games/" + id);
        if (field(state, "status") != "ongoing" && !field(state, "status").empty())
            return {field(state, "status"), field(state, "result"), field(state, "end")};
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ADD_FAILURE() << "no flag fall for " << fen;
    return {};
}

}  // namespace

TEST(HelpmateServeR11Fide6_9, FlagFallsDecidedByWhoCanStillMate) {
    Server s({});
    ASSERT_GT(s.port, 0) << "outpost serve did not start";

    // White: king and two bishops on one colour; Black: king and queen. White's flag falls: Black can mate (the bishops can block next to the
    // white king), so Black wins.
    Ending a = flag_fall(s, "4k3/8/8/3q4/8/8/3B1B2/4K3 w - - 0 1", "1. Ke2 Ke7 2. Ke1 Ke8");
    EXPECT_EQ(a.status, "timeout");
    EXPECT_EQ(a.result, "0-1");

    // The other way round: White king and queen, Black king and two bishops on one
    // colour. More material for White would say "White loses on time"; but Black can
    // never mate, so White's flag fall is a draw.
    Ending b = flag_fall(s, "4k3/3b1b2/8/8/3Q4/8/8/4K3 w - - 0 1", "1. Ke2 Ke7 2. Ke1 Ke8");
    EXPECT_EQ(b.status, "timeout-draw");
    EXPECT_EQ(b.result, "1/2-1/2");
    EXPECT_NE(b.end.find("could not checkmate"), std::string::npos) << b.end;

    // Locked pawns (a published test vector, "-B"): White has two bishops against one,
    // but neither of its bishops nor its king can ever reach the black king; Black's
    // bishop can. Black's flag falls: a draw, not a White win.
    Ending c = flag_fall(s, "8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/7B/8 b - - 0 1", "1... Ke7 2. Bhg1");
    EXPECT_EQ(c.status, "timeout-draw");
    EXPECT_EQ(c.result, "1/2-1/2");

    // The same position, White's flag: Black, who can mate, wins on time.
    Ending d = flag_fall(s, "8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/7B/8 b - - 0 1", "1... Ke7 2. Bhg1 Kf7");
    EXPECT_EQ(d.status, "timeout");
    EXPECT_EQ(d.result, "0-1");
}
