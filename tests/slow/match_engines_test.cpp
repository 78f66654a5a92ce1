// Outpost — `outpost match` with real engines: Stockfish against itself at a fixed
// time per move, Outpost's own engine against Stockfish from PGN openings, and an
// SPRT that stops a one-sided match early. Skipped when an engine is not installed
// (Debian: apt-get install stockfish).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "chess/pgn.h"

using namespace outpost;

namespace {

const std::string Stockfish = "/usr/games/stockfish";

struct CliRun {
    int status = -1;
    std::string output;
};

CliRun run(const std::string& args) {
    CliRun r;
    const std::string cmd = std::string(OUTPOST_BINARY) + " match " + args + " 2>&1";
    FILE* p = ::popen(cmd.c_str(), "r");
    if (!p) return r;
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
    const int st = ::pclose(p);
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    return r;
}

std::vector<PgnGame> read_games(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    std::vector<PgnGame> games;
    PgnReader reader(text);
    while (auto g = reader.next()) {
        EXPECT_TRUE(*g) << (*g ? "" : g->error().message);
        if (*g) games.push_back(**g);
    }
    return games;
}

std::string temp_path(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("outpost-" + std::to_string(::getpid()) + "-" + name)).string();
}

bool installed(const std::string& path) { return ::access(path.c_str(), X_OK) == 0; }

}  // namespace

TEST(MatchEngines, StockfishSelfPlayFixedTime) {
    if (!installed(Stockfish)) GTEST_SKIP() << "stockfish is not installed";
    const std::string pgn = temp_path("sf.pgn");
    const CliRun r = run("-engine cmd=" + Stockfish + " name=SF-A -engine cmd=" + Stockfish +
                         " name=SF-B option.UCI_LimitStrength=true option.UCI_Elo=1500 -each st=0.05 timemargin=100 "
                         "option.Hash=16 -openings file=" OUTPOST_TEST_DATA
                         "/openings/outpost-balanced.epd order=random "
                         "-games 4 -repeat -concurrency 2 -seed 1 -pgnout " +
                         pgn);
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("Finished game 4"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("Elo difference: "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("Finished match"), std::string::npos) << r.output;
    const auto games = read_games(pgn);
    ASSERT_EQ(games.size(), 4u);
    for (const auto& g : games) {
        EXPECT_NE(g.result, "*");
        EXPECT_EQ(g.tag("TimeControl").value_or(""), "1/0.05");
        EXPECT_TRUE(g.tag("FEN").has_value());  // EPD openings start from a set-up position
        EXPECT_TRUE(g.tag("Termination").has_value());
        EXPECT_GT(g.moves.size(), 0u);
    }
    // -repeat: games 1 and 2 share an opening with colours reversed.
    std::filesystem::remove(pgn);
}

TEST(MatchEngines, OutpostAgainstStockfishFromPgnOpenings) {
    if (!installed(Stockfish)) GTEST_SKIP() << "stockfish is not installed";
    const std::string pgn = temp_path("op.pgn");
    const CliRun r = run(std::string("-engine \"cmd=") + OUTPOST_BINARY + " uci\" -engine cmd=" + Stockfish +
                         " option.UCI_LimitStrength=true option.UCI_Elo=1350 -each tc=2+0.05 timemargin=100 "
                         "-openings file=" OUTPOST_TEST_DATA
                         "/openings/outpost-balanced.pgn plies=6 "
                         "-games 2 -repeat -concurrency 2 -resign movecount=3 score=800 -pgnout " +
                         pgn);
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("Started game 1 of 2 (Outpost vs Stockfish 15.1)"), std::string::npos) << r.output;
    const auto games = read_games(pgn);
    ASSERT_EQ(games.size(), 2u);
    for (const auto& g : games) {
        // From the standard position: the six book moves are in the movetext.
        EXPECT_FALSE(g.tag("FEN").has_value());
        ASSERT_GT(g.moves.size(), 6u);
        EXPECT_EQ(g.moves[0].comments_after.at(0), "book");
        EXPECT_NE(g.moves[6].comments_after.at(0), "book");
    }
    // Same opening, colours swapped.
    for (int i = 0; i < 6; ++i) EXPECT_EQ(games[0].moves[i].move, games[1].moves[i].move);
    EXPECT_EQ(games[0].tag("White"), games[1].tag("Black"));
    std::filesystem::remove(pgn);
}

TEST(MatchEngines, SprtStopsAOneSidedMatch) {
    if (!installed(Stockfish)) GTEST_SKIP() << "stockfish is not installed";
    const CliRun r = run("-engine cmd=" + Stockfish + " name=Full -engine cmd=" + Stockfish +
                         " name=Weak option.UCI_LimitStrength=true option.UCI_Elo=1350 -each st=0.03 timemargin=100 "
                         "-games 2 -rounds 20 -repeat -concurrency 2 -resign movecount=2 score=400 "
                         "-openings file=" OUTPOST_TEST_DATA
                         "/openings/outpost-balanced.epd "
                         "-sprt elo0=0 elo1=50 alpha=0.05 beta=0.05");
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("SPRT: H1 accepted"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("Finished game 40 "), std::string::npos) << r.output;
}

TEST(MatchEngines, ArgumentErrorsExitWithTwo) {
    CliRun r = run("-engine cmd=x -each tc=1");
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.output.find("outpost match: at least two engines are needed"), std::string::npos) << r.output;
    r = run("-engine cmd=/nonexistent -engine cmd=/nonexistent -each tc=1");
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.output.find("cannot execute '/nonexistent'"), std::string::npos) << r.output;
    r = run("-help");
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.output.find("Usage: outpost match"), std::string::npos) << r.output;
}
