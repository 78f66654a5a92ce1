// Tests of `outpost pgn replay` and `outpost pgn from-uci` (N4, N3), run as a process.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../support/run_outpost.h"
#include "../support/temp_dir_test.h"

namespace {

namespace fs = std::filesystem;

using ProcessOutput = outpost::test::CliRun;
using outpost::test::shell_quote;

// Each test has a temporary directory of its own (tests/support/temp_dir_test.h).
class PgnCliN4 : public outpost::test::TempDirTest {
protected:

    // Runs the outpost binary with the arguments (each quoted for the shell).
    static ProcessOutput run(const std::vector<std::string>& args) {
        std::string text;
        for (const auto& a : args) text += (text.empty() ? "" : " ") + shell_quote(a);
        return outpost::test::run_outpost(text);
    }

    static std::string data(const std::string& name) { return std::string(OUTPOST_TEST_DATA) + "/pgn/" + name; }
};

}  // namespace

TEST_F(PgnCliN4, ReplayPrintsOneLinePerGameAcrossFiles) {
    const ProcessOutput r = run({"pgn", "replay", data("annotated.pgn"), data("chess960.pgn")});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.out,
              "1\t1-0\t13\trn1q1bnr/ppp1kB1p/3p2p1/3NN3/4P3/8/PPPP1PPP/R1BbK2R b KQ - 2 7\tcheckmate\t-\n"
              "2\t1/2-1/2\t36\tr2q2k1/1pp3p1/p3p2p/3n4/P2b4/6NP/1P3PP1/R1BQ2K1 w - - 0 19\tongoing\t-\n"
              "3\t1-0\t24\t8/8/kQ6/2K5/8/8/8/8 b - - 18 13\tcheckmate\t-\n"
              "4\t*\t22\tbbk4r/ppp1pppp/8/4N3/2nr4/8/PP2PPPP/BBK4R w - - 0 12\tongoing\t-\n"
              "5\t1/2-1/2\t8\tbbqn1rk1/ppppprpp/5n2/5p2/5P2/5N2/PPPPPRPP/BBQN1RK1 w - - 6 5\tongoing\t-\n");
}

TEST_F(PgnCliN4, ReplayStopsAtTheFirstIllegalMove) {
    const ProcessOutput r = run({"pgn", "replay", data("illegal_game2.pgn")});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.out, "1\t1-0\t22\tr1b2rk1/2q1bppp/p2p1n2/npp1p3/3PP3/2P2N1P/PPB2PP1/RNBQR1K1 w - - 1 12\tongoing\t-\n");
    EXPECT_EQ(r.err, "outpost pgn replay: " + data("illegal_game2.pgn") +
                         ": game 2 (line 20), move 5 (black): illegal move 'Qxd4': no queen can move to d4\n");
}

TEST_F(PgnCliN4, ReplayReportsUnreadableMovesWithFileGameAndLine) {
    const std::string good = write("good.pgn", "1. e4 e5 1-0\n");
    const std::string bad = write("bad.pgn", "[Event \"a\"]\n\n1. d4 *\n\n[Event \"b\"]\n\n1. e4 e5\n2. Zz9 Nc6 *\n");
    const ProcessOutput r = run({"pgn", "replay", good, bad});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.out,
              "1\t*\t2\trnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\tongoing\t-\n"
              "2\t*\t1\trnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\tongoing\t-\n");
    EXPECT_EQ(r.err, "outpost pgn replay: " + bad + ": game 2 (line 8), move 2 (white): unreadable move 'Zz9'\n");
}

TEST_F(PgnCliN4, ReplayUsesTheResultTagAndCountsPlies) {
    const std::string file =
        write("result.pgn",
              "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n[Event \"none\"]\n\n*\n\n"
              "[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 40\"]\n[Result \"1/2-1/2\"]\n\n40... Kd7 1/2-1/2\n");
    const ProcessOutput r = run({"pgn", "replay", file});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out,
              "1\t0-1\t4\trnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\tcheckmate\t-\n"
              "2\t*\t0\trnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\tongoing\t-\n"
              "3\t1/2-1/2\t1\t8/3k4/8/8/8/8/4P3/4K3 w - - 1 41\tongoing\t-\n");
}

TEST_F(PgnCliN4, ReplayDoesNotCountAnOpeningCommentAsAGame) {
    const std::string file = write("eco.pgn",
                                   "{ ECO classification, pgn-extract style }\n\n"
                                   "[ECO \"A00\"]\n\n1. g4 *\n\n[ECO \"A00\"]\n\n1. Na3 *\n");
    const ProcessOutput r = run({"pgn", "replay", file});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out,
              "1\t*\t1\trnbqkbnr/pppppppp/8/8/6P1/8/PPPPPP1P/RNBQKBNR b KQkq - 0 1\tongoing\t-\n"
              "2\t*\t1\trnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/R1BQKBNR b KQkq - 1 1\tongoing\t-\n");
}

TEST_F(PgnCliN4, ReplayFailsOnAFileThatCannotBeOpened) {
    const std::string missing = (dir_ / "missing.pgn").string();
    const ProcessOutput r = run({"pgn", "replay", data("chess960.pgn"), missing});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "outpost pgn replay: cannot open " + missing + "\n");
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 2);  // the games before it are printed
}

TEST_F(PgnCliN4, FromUciPrintsSanMovetext) {
    ProcessOutput r = run({"pgn", "from-uci", "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "e1g1"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. O-O\n");

    r = run({"pgn", "from-uci", "--fen", "rnbqkbnr/ppp2ppp/4p3/3p4/2PP4/2N5/PP2PPPP/R1BQKBNR b KQkq - 1 12", "g8f6",
             "c1g5"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "12... Nf6 13. Bg5\n");

    r = run({"pgn", "from-uci", "f2f3", "e7e5", "g2g4", "d8h4"});
    EXPECT_EQ(r.out, "1. f3 e5 2. g4 Qh4#\n");

    r = run({"pgn", "from-uci"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "\n");
}

TEST_F(PgnCliN4, FromUciChess960Castling) {
    // King on g1, rook on h1: castling short in Chess960 UCI is king-takes-rook g1h1.
    const ProcessOutput r =
        run({"pgn", "from-uci", "--chess960", "--fen", "1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", "g1h1", "g8h8"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "1. O-O O-O\n");
    const ProcessOutput standard =
        run({"pgn", "from-uci", "--fen", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "e8h8"});
    EXPECT_EQ(standard.out, "1. O-O-O O-O\n");
}

TEST_F(PgnCliN4, FromUciNamesTheFirstIllegalMove) {
    ProcessOutput r = run({"pgn", "from-uci", "e2e4", "e7e5", "e1e3", "a7a6"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "outpost pgn from-uci: move 3 (2. white): illegal move 'e1e3' in this position\n");

    r = run({"pgn", "from-uci", "e2e4", "e7e9"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "outpost pgn from-uci: move 2 (1... black): UCI move 'e7e9': 'e9' is not a square\n");

    r = run({"pgn", "from-uci", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1", "e2e4"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err, "outpost pgn from-uci: bad FEN: no white king\n");
}

TEST_F(PgnCliN4, ReplayReportsStatusAndClaimableDraws) {
    // Threefold by knight moves: the repetition is claimable, not automatic (R9).
    const std::string three = write("three.pgn",
        "[Result \"*\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n\n"
        "[Result \"1/2-1/2\"]\n[FEN \"8/8/3k4/8/8/3K4/8/R7 w - - 99 80\"]\n[SetUp \"1\"]\n\n80. Ra2 1/2-1/2\n\n"
        "[Result \"1/2-1/2\"]\n[FEN \"8/8/3k4/8/8/3K4/8/R7 w - - 149 80\"]\n[SetUp \"1\"]\n\n80. Ra2 1/2-1/2\n\n"
        "[Result \"1/2-1/2\"]\n\n1. e4 e5 *\n");
    const ProcessOutput r = run({"pgn", "replay", three});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out,
              "1\t*\t8\trnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5\tongoing\tthreefold-repetition\n"
              "2\t1/2-1/2\t1\t8/8/3k4/8/8/3K4/R7/8 b - - 100 80\tongoing\tfifty-moves\n"
              "3\t1/2-1/2\t1\t8/8/3k4/8/8/3K4/R7/8 b - - 150 80\tseventy-five-moves\t-\n"
              "4\t1/2-1/2\t2\trnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\tongoing\t-\n");
}

TEST_F(PgnCliN4, ReplayRejectsMovesAfterAnAutomaticEnding) {
    // After a capture that leaves K+B v K the game is over (R7): a further move is an error.
    const std::string after = write("after.pgn",
                                    "[Result \"1/2-1/2\"]\n\n1. e4 e5 *\n\n"
                                    "[Result \"1/2-1/2\"]\n[FEN \"4k3/8/8/8/8/8/3r4/3BK3 w - - 0 1\"]\n[SetUp \"1\"]\n\n"
                                    "1. Kxd2 Ke7 1/2-1/2\n");
    const ProcessOutput r = run({"pgn", "replay", after});
    EXPECT_NE(r.exit_code, 0);
    EXPECT_EQ(r.out, "1\t1/2-1/2\t2\trnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\tongoing\t-\n");
    EXPECT_NE(r.err.find("game 2"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("move 1 (black)"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("'Ke7'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("dead-position"), std::string::npos) << r.err;
    // After a mate no move is legal at all: the reader names it.
    const std::string mate = write("mate.pgn", "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 3. a3 0-1\n");
    const ProcessOutput m = run({"pgn", "replay", mate});
    EXPECT_NE(m.exit_code, 0);
    EXPECT_NE(m.err.find("'a3'"), std::string::npos) << m.err;
}
