// `outpost pgn opening` and `outpost pgn analyse` (issue 10, SPEC E4, N4), run as a process.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../support/run_outpost.h"
#include "../support/temp_dir_test.h"

namespace {

namespace fs = std::filesystem;

using ProcessOutput = outpost::test::CliRun;

// Each test has a temporary directory of its own (tests/support/temp_dir_test.h).
class PgnAnalysisCli : public outpost::test::TempDirTest {
protected:
    static ProcessOutput run(const std::vector<std::string>& args) { return outpost::test::run_outpost(args); }

    static std::string data(const std::string& name) { return std::string(OUTPOST_TEST_DATA) + "/pgn/" + name; }
};

}  // namespace

// Game 1 (Legal's trap) is a Philidor Defense: the TSV names 1. e4 e5 2. Nf3 d6 "C41
// Philidor Defense" and nothing after it in this game; the Chess960 games get none.
TEST_F(PgnAnalysisCli, OpeningPrintsEcoAndNamePerGame) {
    const ProcessOutput r = run({"pgn", "opening", data("annotated.pgn"), data("chess960.pgn")});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_EQ(r.out,
              "1\tC41\tPhilidor Defense\n"
              "2\tC54\tItalian Game: Classical Variation, Giuoco Pianissimo\n"
              "3\t-\t-\n"
              "4\t-\t-\n"
              "5\t-\t-\n");
}

TEST_F(PgnAnalysisCli, OpeningErrorNamesFileGameMoveAndToken) {
    const ProcessOutput r = run({"pgn", "opening", data("illegal_game2.pgn")});
    EXPECT_EQ(r.exit_code, 1);
    // Game 1 reaches the TSV's "1. e4 e5 … 9. h3 Na5 10. Bc2 c5 11. d4 Qc7" (C97).
    EXPECT_EQ(r.out, "1\tC97\tRuy Lopez: Closed, Chigorin Defense\n");
    EXPECT_EQ(r.err, "outpost pgn opening: " + data("illegal_game2.pgn") +
                         ": game 2 (line 20), move 5 (black): illegal move 'Qxd4': no queen can move to d4\n");
    const std::string missing = (dir_ / "missing.pgn").string();
    const ProcessOutput m = run({"pgn", "opening", missing});
    EXPECT_EQ(m.exit_code, 1);
    EXPECT_EQ(m.err, "outpost pgn opening: cannot open " + missing + "\n");
}

// Legal's trap: 5... Bxd1?? walks into mate in two and gets $4; the annotated file
// replays with our own reader to the same final positions.
TEST_F(PgnAnalysisCli, AnalyseWritesEvalsAndMarksThatReplay) {
    const ProcessOutput r = run({"pgn", "analyse", "--nodes", "10000", "--quiet", data("annotated.pgn")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "");
    std::string flat = r.out;  // the writer breaks lines at 79 columns
    std::replace(flat.begin(), flat.end(), '\n', ' ');
    EXPECT_NE(flat.find("Bxd1 $4 {[%eval #2]}"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("[ECO \"C41\"]"), std::string::npos);
    EXPECT_NE(r.out.find("[Opening \"Philidor Defense\"]"), std::string::npos);
    EXPECT_NE(r.out.find("[WhiteAccuracy \""), std::string::npos);
    EXPECT_EQ(flat.find("Nxe5 $4"), std::string::npos);
    const std::string annotated = write("annotated_out.pgn", r.out);
    const ProcessOutput again = run({"pgn", "replay", annotated});
    const ProcessOutput original = run({"pgn", "replay", data("annotated.pgn")});
    EXPECT_EQ(again.exit_code, 0) << again.err;
    EXPECT_EQ(again.out, original.out);
}

// --format tsv: one line per move; the FEN columns chain (after = the next before).
TEST_F(PgnAnalysisCli, AnalyseTsvHasOneLinePerMove) {
    const std::string file =
        write("legal.pgn", "1. e4 e5 2. Nf3 d6 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5# 1-0\n");
    const ProcessOutput r = run({"pgn", "analyse", "--nodes", "20000", "--quiet", "--format", "tsv", file});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::vector<std::string>> rows;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) {
        std::vector<std::string> fields;
        std::istringstream cells(line);
        for (std::string cell; std::getline(cells, cell, '\t');) fields.push_back(cell);
        ASSERT_EQ(fields.size(), 10u) << line;
        rows.push_back(fields);
    }
    ASSERT_EQ(rows.size(), 13u);
    EXPECT_EQ(rows[0][4], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    for (size_t i = 0; i + 1 < rows.size(); ++i) EXPECT_EQ(rows[i][5], rows[i + 1][4]);
    EXPECT_EQ(rows[9][2], "Bxd1");
    EXPECT_EQ(rows[9][3], "g4d1");
    EXPECT_EQ(rows[9][7], "#2");
    EXPECT_EQ(rows[9][9], "blunder");
    EXPECT_EQ(rows[12][2], "Nd5#");
    EXPECT_EQ(rows[12][7], "-");  // nothing to evaluate after the mate
    EXPECT_EQ(rows[12][9], "-");
}

TEST_F(PgnAnalysisCli, AnalyseRejectsBadSettings) {
    const ProcessOutput both = run({"pgn", "analyse", "--nodes", "1000", "--depth", "3", data("annotated.pgn")});
    EXPECT_NE(both.exit_code, 0);
    EXPECT_EQ(both.out, "");
    const ProcessOutput threads = run({"pgn", "analyse", "--threads", "0", data("annotated.pgn")});
    EXPECT_EQ(threads.exit_code, 1);
    EXPECT_EQ(threads.err, "outpost pgn analyse: analysis: threads 0 is outside 1..64\n");
    EXPECT_EQ(threads.out, "");
    const ProcessOutput illegal = run({"pgn", "analyse", "--nodes", "2000", "--quiet", data("illegal_game2.pgn")});
    EXPECT_EQ(illegal.exit_code, 1);
    EXPECT_NE(illegal.err.find("game 2 (line 20), move 5 (black): illegal move 'Qxd4'"), std::string::npos)
        << illegal.err;
}
