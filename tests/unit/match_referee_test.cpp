// Outpost — the referee against scripted fake engines: legal play to mate, an
// illegal move, a crash, an engine that never answers, repetition, adjudication, and
// a whole match with a restart after a crash.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "match/pgn_writer.h"
#include "match/referee.h"
#include "match/tournament.h"

using namespace outpost;
using namespace outpost::match;

namespace {

// A UCI engine in bash that plays the moves given as arguments, one per `go`, and
// starts again at ucinewgame. Special moves: CRASH (dies by SIGSEGV), HANG (never
// answers, ignores stop), NONE (bestmove (none)). SCORE in the environment of the
// script sets the score it reports.
const char* FakeEngine = R"SH(#!/bin/bash
name=$1; shift
moves=("$@")
n=0
score=${FAKE_SCORE:-0}
while IFS= read -r line; do
    case "$line" in
        uci) echo "id name $name"; echo "option name Hash type spin default 1 min 1 max 16"; echo uciok ;;
        isready) echo readyok ;;
        ucinewgame) n=0 ;;
        go*)
            m=${moves[$n]}; n=$((n + 1))
            case "$m" in
                CRASH) kill -SEGV $$ ;;
                HANG) ;;
                NONE) echo "bestmove (none)" ;;
                *) echo "info depth 3 score cp $score nodes 10 pv $m"; echo "bestmove $m" ;;
            esac ;;
        quit) exit 0 ;;
    esac
done
)SH";

class MatchReferee : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() / ("outpost-match-test-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir_);
        script_ = (dir_ / "fake.sh").string();
        std::ofstream(script_) << FakeEngine;
        std::filesystem::permissions(script_, std::filesystem::perms::owner_all);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    EngineConfig fake(const std::string& name, const std::string& moves, const std::string& tc = "10") {
        EngineConfig e;
        e.name = name;
        e.command = {"/bin/bash", script_, name};
        std::istringstream in(moves);
        std::string m;
        while (in >> m) e.command.push_back(m);
        e.tc = *parse_tc(tc);
        e.tc.margin = 100;
        return e;
    }

    PlayedGame play(const EngineConfig& w, const EngineConfig& b, const Adjudication& adj = {}) {
        UciEngine white(w), black(b);
        EXPECT_TRUE(white.start(false));
        EXPECT_TRUE(black.start(false));
        GameSpec spec{Position::startpos(), {}};
        return play_game(white, black, spec, adj);
    }

    std::filesystem::path dir_;
    std::string script_;
};

}  // namespace

TEST_F(MatchReferee, FoolsMate) {
    const PlayedGame rec = play(fake("W", "f2f3 g2g4"), fake("B", "e7e5 d8h4"));
    EXPECT_EQ(result_string(rec.outcome), "0-1");
    EXPECT_EQ(rec.termination, Termination::NORMAL);
    EXPECT_EQ(rec.reason, "Black wins by checkmate");
    ASSERT_EQ(rec.moves.size(), 4u);
    EXPECT_EQ(rec.moves[3].san, "Qh4#");
    EXPECT_EQ(rec.moves[3].comment.substr(0, 8), "+0.00/3 ");

    const std::string pgn = write_played_game(rec, {});
    EXPECT_NE(pgn.find("[Result \"0-1\"]"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("[Termination \"normal\"]"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("[TimeControl \"10\"]"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("2. g4 {+0.00/3"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("{Black wins by checkmate} 0-1"), std::string::npos) << pgn;
    EXPECT_EQ(pgn.find("[FEN"), std::string::npos) << pgn;
}

TEST_F(MatchReferee, IllegalMoveLoses) {
    const PlayedGame rec = play(fake("W", "e2e5"), fake("B", "e7e5"));
    EXPECT_EQ(result_string(rec.outcome), "0-1");
    EXPECT_EQ(rec.termination, Termination::ILLEGAL_MOVE);
    EXPECT_NE(rec.reason.find("illegal move e2e5"), std::string::npos) << rec.reason;
    const std::string pgn = write_played_game(rec, {});
    EXPECT_NE(pgn.find("[Termination \"rules infraction\"]"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("illegal move e2e5"), std::string::npos) << pgn;

    const PlayedGame none = play(fake("W", "e2e4"), fake("B", "NONE"));
    EXPECT_EQ(result_string(none.outcome), "1-0");
    EXPECT_NE(none.reason.find("illegal move (none)"), std::string::npos) << none.reason;
}

TEST_F(MatchReferee, CrashLosesAndAsksForRestart) {
    const PlayedGame rec = play(fake("W", "e2e4"), fake("B", "CRASH"));
    EXPECT_EQ(result_string(rec.outcome), "1-0");
    EXPECT_EQ(rec.termination, Termination::CRASH);
    EXPECT_NE(rec.reason.find("Black's engine crashed (killed by signal 11"), std::string::npos) << rec.reason;
    EXPECT_TRUE(rec.needs_restart[BLACK]);
    EXPECT_FALSE(rec.needs_restart[WHITE]);
    EXPECT_NE(write_played_game(rec, {}).find("[Termination \"abandoned\"]"), std::string::npos);
}

TEST_F(MatchReferee, NoAnswerLosesOnTime) {
    const PlayedGame rec = play(fake("W", "e2e4 HANG", "0.3"), fake("B", "e7e5", "0.3"));
    EXPECT_EQ(result_string(rec.outcome), "0-1");
    EXPECT_EQ(rec.termination, Termination::TIME_FORFEIT);
    EXPECT_NE(rec.reason.find("White loses on time (no move after"), std::string::npos) << rec.reason;
    // The hanging engine ignored `stop` and was killed.
    EXPECT_TRUE(rec.needs_restart[WHITE]);
    EXPECT_NE(write_played_game(rec, {}).find("[Termination \"time forfeit\"]"), std::string::npos);
}

TEST_F(MatchReferee, FixedTimePerMoveFlag) {
    EngineConfig w = fake("W", "HANG");
    w.tc = EngineTimeControl{};
    w.tc.per_move = 100;
    const PlayedGame rec = play(w, fake("B", "e7e5"));
    EXPECT_EQ(rec.termination, Termination::TIME_FORFEIT);
    EXPECT_EQ(result_string(rec.outcome), "0-1");
}

TEST_F(MatchReferee, ThreefoldRepetition) {
    const PlayedGame rec = play(fake("W", "g1f3 f3g1 g1f3 f3g1"), fake("B", "g8f6 f6g8 g8f6 f6g8"));
    EXPECT_EQ(result_string(rec.outcome), "1/2-1/2");
    EXPECT_EQ(rec.reason, "Draw by threefold repetition");
    EXPECT_EQ(rec.moves.size(), 8u);
}

TEST_F(MatchReferee, ResignAndDrawAdjudication) {
    ::setenv("FAKE_SCORE", "-700", 1);
    Adjudication resign;
    resign.resign_move_count = 2;
    resign.resign_score = 600;
    PlayedGame rec = play(fake("W", "g1f3 f3g1 g1f3"), fake("B", "g8f6 f6g8 g8f6"), resign);
    EXPECT_EQ(rec.termination, Termination::ADJUDICATION);
    EXPECT_EQ(result_string(rec.outcome), "0-1");  // White reaches two hopeless moves first
    EXPECT_EQ(rec.reason, "Black wins: White resigns (its score -7.00)");
    EXPECT_EQ(rec.moves.size(), 3u);

    ::setenv("FAKE_SCORE", "5", 1);
    Adjudication draw;
    draw.draw_move_number = 1;
    draw.draw_move_count = 1;
    draw.draw_score = 10;
    rec = play(fake("W", "g1f3 f3g1 g1f3"), fake("B", "g8f6 f6g8 g8f6"), draw);
    EXPECT_EQ(rec.termination, Termination::ADJUDICATION);
    EXPECT_EQ(result_string(rec.outcome), "1/2-1/2");
    EXPECT_EQ(rec.reason, "Draw by adjudication");
    ::unsetenv("FAKE_SCORE");
}

TEST_F(MatchReferee, EngineThatCannotStart) {
    UciEngine missing(EngineConfig{"x", {"/nonexistent/engine"}, {}, {}, {}, false});
    auto started = missing.start(false);
    ASSERT_FALSE(started);
    EXPECT_EQ(started.error().message, "cannot execute '/nonexistent/engine': not found or not executable");
    // A program that is not a UCI engine at all: it exits at once.
    UciEngine not_uci(EngineConfig{"t", {"/bin/true"}, {}, {}, {}, false});
    started = not_uci.start(false);
    ASSERT_FALSE(started);
    EXPECT_EQ(started.error().message, "engine 't' did not answer 'uci' with 'uciok'");
}

TEST_F(MatchReferee, UnknownOptionIsReportedNotSent) {
    EngineConfig e = fake("W", "e2e4");
    e.options = {{"Hash", "8"}, {"Frobnication", "1"}};
    UciEngine engine(e);
    ASSERT_TRUE(engine.start(false));
    const auto warnings = engine.take_warnings();
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0], "engine 'W' has no option 'Frobnication'; not sent");
    EXPECT_EQ(engine.id_name(), "W");
}

TEST_F(MatchReferee, InfoLines) {
    std::optional<Score> score;
    int depth = 0;
    parse_info_line("info depth 12 seldepth 20 multipv 1 score cp 35 nodes 1000 pv e2e4 e7e5", score, depth);
    ASSERT_TRUE(score);
    EXPECT_EQ(*score, (Score{false, 35}));
    EXPECT_EQ(depth, 12);
    parse_info_line("info depth 13 multipv 2 score cp -80 pv d2d4", score, depth);
    EXPECT_EQ(score->value, 35);  // secondary line ignored
    parse_info_line("info depth 14 score mate -3 lowerbound", score, depth);
    EXPECT_EQ(*score, (Score{true, -3}));
    EXPECT_EQ(move_comment(score, depth, 520), "-M3/14 0.52s");
    parse_info_line("info string score cp 999", score, depth);
    EXPECT_EQ(score->value, -3);
    parse_info_line("info depth x score cp", score, depth);  // malformed: nothing breaks
    EXPECT_EQ(depth, 14);
}

TEST_F(MatchReferee, WholeMatchRestartsACrashedEngine) {
    // The crasher dies at its first move in every game; the match must go on with a
    // fresh process each time and count every game.
    const std::string pgn_path = (dir_ / "out.pgn").string();
    auto cfg = parse_match_args({"-engine", "cmd=/bin/bash " + script_ + " Good e2e4 e7e5 d2d4 d7d5", "-engine",
                                 "cmd=/bin/bash " + script_ + " Crasher CRASH", "-each", "tc=5", "timemargin=100",
                                 "-games", "4", "-repeat", "-concurrency", "2", "-pgnout", pgn_path});
    ASSERT_TRUE(cfg) << cfg.error().message;
    std::ostringstream out, err;
    std::atomic<bool> stop{false};
    Tournament t(*cfg, out, err, stop);
    const auto summary = t.run();
    ASSERT_TRUE(summary.ok()) << summary.error().message;
    EXPECT_EQ(summary->games_played, 4);
    ASSERT_EQ(summary->pairs.size(), 1u);
    EXPECT_EQ(summary->pairs[0].games.wins, 4);
    EXPECT_EQ(summary->pairs[0].pairs.counts[4], 2);  // two pairs won 2-0
    EXPECT_NE(out.str().find("Score of Good vs Crasher: 4 - 0 - 0  [1.000] 4"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("Elo difference: inf +/- inf"), std::string::npos) << out.str();
    std::ifstream in(pgn_path);
    std::stringstream pgn;
    pgn << in.rdbuf();
    int games = 0;
    for (std::size_t at = pgn.str().find("[Event "); at != std::string::npos; at = pgn.str().find("[Event ", at + 1))
        ++games;
    EXPECT_EQ(games, 4);
    EXPECT_NE(pgn.str().find("engine crashed"), std::string::npos);
}

TEST_F(MatchReferee, MatchFailsClearlyWhenAnEngineIsMissing) {
    auto cfg = parse_match_args(
        {"-engine", "cmd=/nonexistent/a", "-engine", "cmd=/bin/bash " + script_ + " X", "-each", "tc=1"});
    ASSERT_TRUE(cfg);
    std::ostringstream out, err;
    std::atomic<bool> stop{false};
    const auto summary = Tournament(*cfg, out, err, stop).run();
    ASSERT_FALSE(summary.ok());
    EXPECT_EQ(summary.error().message, "cannot execute '/nonexistent/a': not found or not executable");
    EXPECT_EQ(out.str().find("Finished game"), std::string::npos);
}
