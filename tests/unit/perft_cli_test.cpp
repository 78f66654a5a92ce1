// The `outpost perft` command line (N1 FEN input, N2 move output): runs the real
// executable (OUTPOST_BINARY) and checks what it prints.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <string>

#include "../support/run_outpost.h"

namespace {

using outpost::test::CliRun;
using outpost::test::run_outpost;  // ARGS is shell text: quote FENs

std::string last_line(const CliRun& r) { return r.lines.empty() ? std::string() : r.lines.back(); }

TEST(PerftCliN1, StartPositionDepth3) {
    const CliRun r = run_outpost("perft 3");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(last_line(r), "Nodes searched: 8902");
}

TEST(PerftCliN2, DivideFormat) {
    const CliRun r = run_outpost("perft 2 --divide");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.has_line("e2e4: 20")) << r.out;
    EXPECT_TRUE(r.has_line("g1f3: 20")) << r.out;
    EXPECT_TRUE(r.has_line("b1a3: 20")) << r.out;
    EXPECT_EQ(last_line(r), "Nodes searched: 400");
    // Every other non-empty line is `move: count`.
    int moves = 0;
    for (const auto& line : r.lines) {
        if (line.empty() || line == last_line(r)) continue;
        ASSERT_EQ(line.size(), 8u) << "'" << line << "'";
        EXPECT_EQ(line.substr(4), ": 20") << "'" << line << "'";
        ++moves;
    }
    EXPECT_EQ(moves, 20);
}

TEST(PerftCliN1, FenOption) {
    const CliRun r =
        run_outpost("perft 3 --fen 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(last_line(r), "Nodes searched: 97862");
    // EPD-style FEN without the clocks.
    const CliRun epd = run_outpost("perft 2 --fen '8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w -  -'");
    EXPECT_EQ(epd.exit_code, 0) << epd.err;
    EXPECT_EQ(last_line(epd), "Nodes searched: 191");
}

TEST(PerftCliN1, XFenAndShredderFenGiveTheSameCounts) {
    for (const char* fen : {"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1",
                            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"}) {
        const CliRun r = run_outpost(std::string("perft 3 --chess960 --fen '") + fen + "'");
        EXPECT_EQ(r.exit_code, 0) << fen << ": " << r.err;
        EXPECT_EQ(last_line(r), "Nodes searched: 9006") << fen;
    }
    // Shredder-FEN that only Chess960 can describe works without --chess960 too.
    const CliRun r = run_outpost("perft 3 --fen 'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1'");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(last_line(r), "Nodes searched: 9006");
}

TEST(PerftCliN2, Chess960CastlingIsPrintedAsKingTakesRook) {
    const CliRun r = run_outpost("perft 1 --divide --chess960 --fen 'r5kr/8/8/8/8/8/8/RK5R w HAha - 0 1'");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.has_line("b1a1: 1")) << r.out;
    EXPECT_TRUE(r.has_line("b1h1: 1")) << r.out;
    EXPECT_FALSE(r.has_line("b1g1: 1")) << r.out;

    // A classical position: e1g1 normally, e1h1 with --chess960.
    const std::string fen = "'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1'";
    const CliRun standard = run_outpost("perft 1 --divide --fen " + fen);
    const CliRun chess960 = run_outpost("perft 1 --divide --chess960 --fen " + fen);
    EXPECT_TRUE(standard.has_line("e1g1: 1") && standard.has_line("e1c1: 1")) << standard.out;
    EXPECT_FALSE(standard.has_line("e1h1: 1")) << standard.out;
    EXPECT_TRUE(chess960.has_line("e1h1: 1") && chess960.has_line("e1a1: 1")) << chess960.out;
    EXPECT_FALSE(chess960.has_line("e1g1: 1")) << chess960.out;
    EXPECT_EQ(last_line(standard), "Nodes searched: 26");
    EXPECT_EQ(last_line(chess960), "Nodes searched: 26");
}

TEST(PerftCliN1, BadFenFailsWithAMessage) {
    const CliRun r = run_outpost("perft 2 --fen '4k3/8/8/8/8/8/8/3KK3 w - - 0 1'");
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("king"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("Nodes searched"), std::string::npos) << r.out;

    const CliRun garbage = run_outpost("perft 2 --fen 'not a fen'");
    EXPECT_NE(garbage.exit_code, 0);
    EXPECT_FALSE(garbage.err.empty());
}

TEST(PerftCliN1, BadArgumentsFail) {
    EXPECT_NE(run_outpost("perft").exit_code, 0);
    EXPECT_NE(run_outpost("perft x").exit_code, 0);
    EXPECT_NE(run_outpost("perft -1").exit_code, 0);
    EXPECT_NE(run_outpost("perft 2 --no-such-option").exit_code, 0);
}

}  // namespace
