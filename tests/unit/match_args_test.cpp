// Outpost — `outpost match` arguments: what they set, and the errors for bad ones.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <sstream>

#include "match/config.h"
#include "match/tournament.h"

using namespace outpost::match;

namespace {

std::vector<std::string> words(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> out;
    std::string w;
    while (in >> w) out.push_back(w);
    return out;
}

std::string error_of(const std::string& args) {
    auto cfg = parse_match_args(words(args));
    return cfg ? std::string("(no error)") : cfg.error().message;
}

}  // namespace

TEST(MatchArgs, FullCommandLine) {
    auto cfg = parse_match_args(
        words("-engine cmd=/usr/games/stockfish name=SF option.Hash=16 option.UCI_Elo=1500 "
              "-engine cmd=./other arg=--uci name=Other tc=40/60+0.6 "
              "-each tc=10+0.1 option.Threads=1 timemargin=20 "
              "-openings file=book.epd format=epd order=random plies=16 -games 2 -rounds 50 -repeat -concurrency 2 "
              "-draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=600 -pgnout out.pgn "
              "-sprt elo0=0 elo1=5 alpha=0.05 beta=0.1 -chess960 -seed 42 -maxmoves 200"));
    ASSERT_TRUE(cfg) << cfg.error().message;
    ASSERT_EQ(cfg->engines.size(), 2u);
    const EngineConfig& sf = cfg->engines[0];
    EXPECT_EQ(sf.name, "SF");
    EXPECT_EQ(sf.command, std::vector<std::string>{"/usr/games/stockfish"});
    // -each settings come first; the engine's own follow.
    ASSERT_EQ(sf.options.size(), 3u);
    EXPECT_EQ(sf.options[0].first, "Threads");
    EXPECT_EQ(sf.options[1], (std::pair<std::string, std::string>{"Hash", "16"}));
    EXPECT_EQ(sf.tc.base, 10000);
    EXPECT_EQ(sf.tc.increment, 100);
    EXPECT_EQ(sf.tc.margin, 20);
    const EngineConfig& other = cfg->engines[1];
    EXPECT_EQ(other.command, (std::vector<std::string>{"./other", "--uci"}));
    EXPECT_EQ(other.tc.moves, 40);  // its own tc wins over -each
    EXPECT_EQ(other.tc.base, 60000);

    EXPECT_EQ(cfg->openings.file, "book.epd");
    EXPECT_TRUE(cfg->openings.random_order);
    EXPECT_EQ(cfg->openings.plies, 16);
    EXPECT_EQ(cfg->games, 2);
    EXPECT_EQ(cfg->rounds, 50);
    EXPECT_EQ(cfg->repeat, 2);
    EXPECT_EQ(cfg->concurrency, 2);
    EXPECT_EQ(cfg->adjudication.draw_move_number, 40);
    EXPECT_EQ(cfg->adjudication.draw_move_count, 8);
    EXPECT_EQ(cfg->adjudication.draw_score, 10);
    EXPECT_EQ(cfg->adjudication.resign_move_count, 3);
    EXPECT_EQ(cfg->adjudication.resign_score, 600);
    EXPECT_EQ(cfg->adjudication.max_moves, 200);
    EXPECT_EQ(cfg->pgn_out, "out.pgn");
    ASSERT_TRUE(cfg->sprt);
    EXPECT_EQ(cfg->sprt->beta, 0.1);
    EXPECT_TRUE(cfg->chess960);
    EXPECT_EQ(cfg->seed, 42u);
    EXPECT_EQ(cfg->total_games(), 100);
}

TEST(MatchArgs, DoubleDashAndSpacesInCommand) {
    auto cfg = parse_match_args({"--engine", "cmd=outpost uci", "st=0.5", "--engine", "cmd=x", "depth=5"});
    ASSERT_TRUE(cfg) << cfg.error().message;
    EXPECT_EQ(cfg->engines[0].command, (std::vector<std::string>{"outpost", "uci"}));
    EXPECT_EQ(cfg->engines[0].tc.per_move, 500);
    EXPECT_TRUE(cfg->engines[1].tc.infinite);
    EXPECT_EQ(cfg->engines[1].tc.depth, 5);
    // An option value with spaces stays whole (one argv word from the shell).
    cfg = parse_match_args({"-engine", "cmd=a", "option.SyzygyPath=/a b", "-engine", "cmd=b", "-each", "tc=1"});
    ASSERT_TRUE(cfg);
    EXPECT_EQ(cfg->engines[0].options[0].second, "/a b");
}

TEST(MatchArgs, ClearErrors) {
    EXPECT_EQ(error_of("-engine cmd=a tc=1"), "at least two engines are needed (-engine cmd=PROGRAM, twice)");
    EXPECT_EQ(error_of("-engine name=A -engine cmd=b -each tc=1"), "engine 1 has no cmd= (the program to run)");
    EXPECT_EQ(error_of("-engine cmd=a name=A -engine cmd=b"),
              "engine 'A' has no time control: give tc=, st=, depth= or nodes= (with -engine or -each)");
    EXPECT_EQ(error_of("-engine cmd=a -engine cmd=b -each tc=10+x"),
              "-each: bad time control '10+x': 'x' is not a number of seconds (increment)");
    EXPECT_EQ(error_of("-engine cmd=a -engine cmd=b -each tc=inf"), "engine 1: tc=inf needs depth= or nodes=");
    EXPECT_EQ(error_of("-engine cmd=a -engine cmd=b -each tc=1 -frobnicate"),
              "unknown option '-frobnicate' (see outpost match -help)");
    EXPECT_EQ(error_of("-engine cmd=a -engine cmd=b -each tc=1 -games"), "-games needs a value");
    EXPECT_EQ(error_of("-engine cmd=a -engine cmd=b -each tc=1 -games 0"), "-games must be at least 1, not 0");
    EXPECT_EQ(error_of("-engine cmd=a -engine cmd=b -each tc=1 -games two"), "-games: 'two' is not a number");
    EXPECT_EQ(error_of("-engine cmd=a -engine cmd=b -each tc=1 -sprt elo0=5 elo1=0"),
              "-sprt: elo0 must be less than elo1");
    EXPECT_EQ(error_of("-engine cmd=a -engine cmd=b -engine cmd=c -each tc=1 -sprt elo0=0 elo1=5"),
              "-sprt needs exactly two engines");
    EXPECT_EQ(error_of("-engine cmd=a -engine cmd=b -each tc=1 -draw movenumber=40"),
              "-draw needs movecount= and score=");
    EXPECT_EQ(error_of("-engine cmd=a -engine cmd=b -each tc=1 -openings file=x.txt"),
              "-openings: give format=epd or format=pgn for 'x.txt'");
    EXPECT_EQ(error_of("-engine cmd=a -engine cmd=b -each tc=1 -openings file=x.epd order=shuffled"),
              "-openings order must be random or sequential, not 'shuffled'");
    EXPECT_EQ(error_of("-engine cmd=a colour=red -engine cmd=b -each tc=1").substr(0, 42),
              "engine 1: unknown engine setting 'colour' ");
    EXPECT_EQ(error_of("-engine cmd=a -engine cmd=b -each tc=1 -games 2 stray"),
              "unexpected argument 'stray' (options start with '-')");
    EXPECT_EQ(error_of("-engine cmd=a -engine cmd=b -each tc=1 stray"), "-each: expected key=value, got 'stray'");
    EXPECT_EQ(error_of("-engine cmd=a -engine cmd=b -each tc=1 proto=xboard"),
              "-each proto: only the uci protocol is supported, not 'xboard'");
}

TEST(MatchArgs, Help) {
    auto cfg = parse_match_args({"-help"});
    ASSERT_TRUE(cfg);
    EXPECT_TRUE(cfg->help);
    EXPECT_NE(match_usage().find("-engine cmd=PROGRAM"), std::string::npos);
}

TEST(MatchSchedule, RepeatPairsOpeningsAndSwapsColours) {
    auto cfg = parse_match_args(words("-engine cmd=a -engine cmd=b -each tc=1 -games 2 -rounds 3 -repeat"));
    ASSERT_TRUE(cfg);
    const auto games = make_schedule(*cfg);
    ASSERT_EQ(games.size(), 6u);
    for (std::size_t i = 0; i < games.size(); ++i) {
        EXPECT_EQ(games[i].number, int(i) + 1);
        EXPECT_EQ(games[i].encounter, int(i) / 2);  // one opening per two games
        EXPECT_EQ(games[i].white, int(i) % 2);      // colours alternate
        EXPECT_EQ(games[i].round, int(i) / 2 + 1);
    }
}

TEST(MatchSchedule, RoundRobinAndGauntlet) {
    auto cfg = parse_match_args(words("-engine cmd=a -engine cmd=b -engine cmd=c -engine cmd=d -each tc=1 -games 2"));
    ASSERT_TRUE(cfg);
    EXPECT_EQ(make_schedule(*cfg).size(), 12u);  // 6 pairs x 2 games
    // Without -repeat every game gets its own opening.
    EXPECT_EQ(make_schedule(*cfg).back().encounter, 11);
    cfg->pairing = Pairing::GAUNTLET;
    const auto gauntlet = make_schedule(*cfg);
    ASSERT_EQ(gauntlet.size(), 6u);
    for (const auto& g : gauntlet) EXPECT_EQ(g.first, 0);
}
