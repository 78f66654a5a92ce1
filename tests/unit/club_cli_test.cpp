// Outpost — `outpost pair --dutch`, `outpost standings` and `outpost roundrobin`
// (SPEC P20) run as a process.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "../support/run_outpost.h"
#include "../support/temp_dir_test.h"

namespace {

namespace fs = std::filesystem;

using ProcessOutput = outpost::test::CliRun;

std::string player_line(int rank, const std::string& rounds) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "001 %4d m    %-33s %4d FIN    12345678 1990/01/01  0.0 %4d", rank,
                  ("Player " + std::to_string(rank)).c_str(), 2400 - 10 * rank, rank);
    return std::string(buf) + rounds + "\n";
}

class ClubCliP20 : public outpost::test::TempDirTest {
protected:
    static ProcessOutput run(const std::vector<std::string>& args) { return outpost::test::run_outpost(args); }
};

}  // namespace

TEST_F(ClubCliP20, PairDutchFirstRoundInBbpPairingsFormat) {
    std::string text;
    for (int i = 1; i <= 5; ++i) text += player_line(i, "");
    const std::string file = write("t.trf", text + "XXR 4\nXXC white1\n");
    ProcessOutput r = run({"pair", "--dutch", file});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "3\n1 3\n4 2\n5 0\n");
    const std::string out = (dir_ / "pairs.txt").string();
    r = run({"pair", "--dutch", file, "-p", out});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "");
    std::ifstream in(out);
    std::ostringstream s;
    s << in.rdbuf();
    EXPECT_EQ(s.str(), "3\n1 3\n4 2\n5 0\n");
}

TEST_F(ClubCliP20, PairNamesTheLineAndFieldOfABadFile) {
    const std::string file = write("bad.trf", player_line(1, "     2 q 1") + player_line(2, "     1 b 0"));
    ProcessOutput r = run({"pair", "--dutch", file});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "outpost pair: " + file + ": line 1, round 1 colour (column 97): 'q' is not w, b or -\n");
    r = run({"pair", "--dutch", (dir_ / "missing.trf").string()});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("cannot read"), std::string::npos);
}

// Round 2 by the Dutch system (C.04.3): the winners of round 1 meet by colour
// preference, 4 against 1 and 2 against 3; a round nobody can pair is an error.
TEST_F(ClubCliP20, PairDutchSecondRound) {
    const char* rounds[] = {"     5 w 1", "     6 b 1", "     7 w 1", "     8 b 1",
                            "     1 b 0", "     2 w 0", "     3 b 0", "     4 w 0"};
    std::string text;
    for (int i = 1; i <= 8; ++i) text += player_line(i, rounds[i - 1]);
    const std::string file = write("r2.trf", text + "XXR 5\n");
    ProcessOutput r = run({"pair", "--dutch", file});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "4\n4 1\n2 3\n5 8\n7 6\n");

    const std::string met = write("met.trf", player_line(1, "     2 w 1") + player_line(2, "     1 b 0") + "XXR 3\n");
    r = run({"pair", "--dutch", met});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("round 2: no pairing"), std::string::npos) << r.err;
}

TEST_F(ClubCliP20, StandingsAndRoundRobin) {
    const std::string file = write("s.trf", player_line(1, "     2 w 1") + player_line(2, "     1 b 0") + "XXR 3\n");
    ProcessOutput r = run({"standings", file, "--tiebreaks", "BH,WIN"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("Place  No  Name"), std::string::npos);
    EXPECT_NE(r.out.find("    1    1  Player 1"), std::string::npos) << r.out;
    r = run({"standings", file, "--tiebreaks", "BH,NOPE"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("unknown tiebreak 'NOPE'"), std::string::npos);
    r = run({"roundrobin", "4"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, "Round 1:  1-4  2-3\nRound 2:  4-3  1-2\nRound 3:  2-4  3-1\n");
    r = run({"roundrobin", "3"});
    EXPECT_EQ(r.out, "Round 1:  2-3  1 bye\nRound 2:  1-2  3 bye\nRound 3:  3-1  2 bye\n");
    r = run({"roundrobin", "30"});
    EXPECT_EQ(r.exit_code, 2);
}
