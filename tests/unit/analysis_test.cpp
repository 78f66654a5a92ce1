// Game analysis (SPEC E4, issue 10): evaluations from White's view, marks by the drop
// in winning chances with mates handled explicitly, accuracy, and the annotated PGN.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <cmath>

#include "chess/fen.h"
#include "chess/pgn.h"
#include "chess/san.h"
#include "engine/analysis.h"
#include "engine/engine.h"

namespace outpost::engine {
namespace {

TEST(AnalysisEvalE4, PgnFormatAsLichessWritesIt) {
    EXPECT_EQ(eval_to_pgn(Eval::centipawns(35)), "0.35");
    EXPECT_EQ(eval_to_pgn(Eval::centipawns(-120)), "-1.20");
    EXPECT_EQ(eval_to_pgn(Eval::centipawns(0)), "0.00");
    EXPECT_EQ(eval_to_pgn(Eval::centipawns(-4)), "-0.04");
    EXPECT_EQ(eval_to_pgn(Eval::mate_in(3)), "#3");
    EXPECT_EQ(eval_to_pgn(Eval::mate_in(-3)), "#-3");
    EXPECT_EQ(eval_to_pgn(Eval::mated(BLACK)), std::nullopt);  // the game is over
}

TEST(AnalysisEvalE4, SearchValuesTurnToWhitesPointOfView) {
    EXPECT_EQ(Eval::from_search(35, WHITE), Eval::centipawns(35));
    EXPECT_EQ(Eval::from_search(35, BLACK), Eval::centipawns(-35));
    // Mate in 5 plies = 3 moves for the side to move.
    EXPECT_EQ(Eval::from_search(mate_in(5), WHITE), Eval::mate_in(3));
    EXPECT_EQ(Eval::from_search(mate_in(5), BLACK), Eval::mate_in(-3));
    EXPECT_EQ(Eval::from_search(mate_in(1), BLACK), Eval::mate_in(-1));
    // Mated in 4 plies: the opponent mates with their second move.
    EXPECT_EQ(Eval::from_search(mated_in(4), WHITE), Eval::mate_in(-2));
    EXPECT_EQ(Eval::from_search(mated_in(4), BLACK), Eval::mate_in(2));
}

TEST(AnalysisJudgeE4, WinningChancesCurve) {
    EXPECT_DOUBLE_EQ(win_percent(Eval::centipawns(0), WHITE), 50.0);
    EXPECT_NEAR(win_percent(Eval::centipawns(300), WHITE), 75.1, 0.1);
    EXPECT_NEAR(win_percent(Eval::centipawns(300), BLACK), 24.9, 0.1);
    // Mates count as MateCp, and centipawns are clamped there.
    EXPECT_DOUBLE_EQ(win_percent(Eval::mate_in(5), WHITE), win_percent(Eval::centipawns(MateCp), WHITE));
    EXPECT_DOUBLE_EQ(win_percent(Eval::centipawns(5000), WHITE), win_percent(Eval::centipawns(MateCp), WHITE));
    EXPECT_DOUBLE_EQ(win_percent(Eval::mated(WHITE), BLACK), win_percent(Eval::centipawns(MateCp), WHITE));
}

TEST(AnalysisJudgeE4, MarksByDropInWinningChances) {
    const Eval even = Eval::centipawns(0);
    EXPECT_EQ(judge_move(even, Eval::centipawns(-40), WHITE), Mark::NONE);        // 3.7 points
    EXPECT_EQ(judge_move(even, Eval::centipawns(-60), WHITE), Mark::INACCURACY);  // 5.5
    EXPECT_EQ(judge_move(even, Eval::centipawns(-120), WHITE), Mark::MISTAKE);    // 11.0
    EXPECT_EQ(judge_move(even, Eval::centipawns(-200), WHITE), Mark::BLUNDER);    // 17.6
    // Black's drop is White's gain.
    EXPECT_EQ(judge_move(even, Eval::centipawns(200), BLACK), Mark::BLUNDER);
    EXPECT_EQ(judge_move(even, Eval::centipawns(-200), BLACK), Mark::NONE);
    // Far ahead, a pawn changes little: +9 to +8 is no mistake.
    EXPECT_EQ(judge_move(Eval::centipawns(900), Eval::centipawns(800), WHITE), Mark::NONE);
}

TEST(AnalysisJudgeE4, MatesHandledExplicitly) {
    // Losing a forced mate.
    EXPECT_EQ(judge_move(Eval::mate_in(2), Eval::centipawns(300), WHITE), Mark::BLUNDER);
    EXPECT_EQ(judge_move(Eval::mate_in(2), Eval::centipawns(800), WHITE), Mark::MISTAKE);
    EXPECT_EQ(judge_move(Eval::mate_in(2), Eval::centipawns(1500), WHITE), Mark::INACCURACY);
    EXPECT_EQ(judge_move(Eval::mate_in(-2), Eval::centipawns(-300), BLACK), Mark::BLUNDER);
    // A slower mate is no error; from mating to being mated is.
    EXPECT_EQ(judge_move(Eval::mate_in(2), Eval::mate_in(5), WHITE), Mark::NONE);
    EXPECT_EQ(judge_move(Eval::mate_in(2), Eval::mate_in(-5), WHITE), Mark::BLUNDER);
    // Walking into a mate.
    EXPECT_EQ(judge_move(Eval::centipawns(50), Eval::mate_in(-3), WHITE), Mark::BLUNDER);
    EXPECT_EQ(judge_move(Eval::centipawns(-800), Eval::mate_in(-3), WHITE), Mark::MISTAKE);
    EXPECT_EQ(judge_move(Eval::centipawns(-1200), Eval::mate_in(-3), WHITE), Mark::INACCURACY);
    EXPECT_EQ(judge_move(Eval::centipawns(-50), Eval::mate_in(1), BLACK), Mark::BLUNDER);
    // Already being mated: a faster mate is not marked.
    EXPECT_EQ(judge_move(Eval::mate_in(-5), Eval::mate_in(-1), WHITE), Mark::NONE);
    // Giving mate.
    EXPECT_EQ(judge_move(Eval::mate_in(1), Eval::mated(BLACK), WHITE), Mark::NONE);
    EXPECT_EQ(mark_nag(Mark::INACCURACY), 6);
    EXPECT_EQ(mark_nag(Mark::MISTAKE), 2);
    EXPECT_EQ(mark_nag(Mark::BLUNDER), 4);
}

TEST(AnalysisAccuracyE4, MoveAndGameAccuracy) {
    EXPECT_DOUBLE_EQ(move_accuracy(60, 60), 100.0);
    EXPECT_DOUBLE_EQ(move_accuracy(60, 70), 100.0);
    EXPECT_NEAR(move_accuracy(60, 50), 103.1668 * std::exp(-0.04354 * 10) - 3.1669 + 1, 0.01);
    EXPECT_DOUBLE_EQ(move_accuracy(99, 1), 0.0);

    std::vector<Eval> steady(21, Eval::centipawns(20));
    auto acc = game_accuracy(steady, WHITE);
    EXPECT_DOUBLE_EQ(acc[WHITE], 100.0);
    EXPECT_DOUBLE_EQ(acc[BLACK], 100.0);
    // White throws the game away at ply 10; Black stays perfect.
    std::vector<Eval> blunder = steady;
    for (size_t i = 11; i < blunder.size(); ++i) blunder[i] = Eval::centipawns(-600);
    acc = game_accuracy(blunder, WHITE);
    EXPECT_LT(acc[WHITE], 80.0);
    EXPECT_DOUBLE_EQ(acc[BLACK], 100.0);
    // One move by White only: Black has none.
    acc = game_accuracy(std::vector<Eval>{Eval::centipawns(0), Eval::centipawns(0)}, WHITE);
    EXPECT_TRUE(std::isnan(acc[BLACK]));
}

// Plays SAN moves from the start position.
std::vector<Move> san_line(std::initializer_list<const char*> sans, Position pos = Position::startpos()) {
    std::vector<Move> moves;
    for (const char* s : sans) {
        auto m = move_from_san(pos, s);
        EXPECT_TRUE(m) << s;
        if (!m) break;
        moves.push_back(*m);
        pos.do_move(*m);
    }
    return moves;
}

AnalysisSettings test_settings() {
    AnalysisSettings s;
    s.nodes = 30000;
    s.hash_mb = 16;
    return s;
}

// 2...Qh4?? hangs the queen to the knight; 3...Nf6?? walks into Qxf7#, and
// 4. Qe2?? misses that mate in one.
TEST(AnalysisGameE4, HungQueenAndMissedMateAreBlunders) {
    Engine engine;
    const auto queen = san_line({"e4", "e5", "Nf3", "Qh4", "Nxh4"});
    auto a = analyse_game(engine, Position::startpos(), queen, test_settings());
    ASSERT_TRUE(a) << a.error().message;
    ASSERT_EQ(a->moves.size(), 5u);
    ASSERT_EQ(a->positions.size(), 6u);
    EXPECT_EQ(a->moves[3].mark, Mark::BLUNDER);  // 2...Qh4??
    EXPECT_GT(a->moves[3].eval_after.cp, 500);   // White's view: White is a queen up
    for (int ply : {0, 1, 2, 4}) EXPECT_NE(a->moves[size_t(ply)].mark, Mark::BLUNDER) << "ply " << ply;
    EXPECT_EQ(a->marks[BLACK][int(Mark::BLUNDER)], 1);
    EXPECT_EQ(a->marks[WHITE][int(Mark::BLUNDER)], 0);
    EXPECT_GT(a->accuracy[WHITE], a->accuracy[BLACK]);

    const auto mate = san_line({"e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6", "Qe2"});
    a = analyse_game(engine, Position::startpos(), mate, test_settings());
    ASSERT_TRUE(a) << a.error().message;
    EXPECT_EQ(a->moves[5].mark, Mark::BLUNDER);           // 3...Nf6??
    EXPECT_EQ(a->moves[5].eval_after, Eval::mate_in(1));  // White mates in one
    EXPECT_EQ(a->moves[6].mark, Mark::BLUNDER);           // 4. Qe2?? misses it
    EXPECT_EQ(a->positions[6].eval, Eval::mate_in(1));    // before 4. Qe2
    const Position before = Position::startpos();
    Position p = before;
    for (size_t i = 0; i < 6; ++i) p.do_move(mate[i]);
    EXPECT_EQ(move_to_san(p, a->positions[6].best), "Qxf7#");
    for (int ply : {0, 1, 2, 3, 4}) EXPECT_EQ(a->moves[size_t(ply)].mark, Mark::NONE) << "ply " << ply;
}

TEST(AnalysisGameE4, GameEndingInMateAndProgress) {
    Engine engine;
    const auto moves = san_line({"f3", "e5", "g4", "Qh4#"});
    std::vector<int> seen;
    auto a = analyse_game(engine, Position::startpos(), moves, test_settings(), [&](int done, int total) {
        EXPECT_EQ(total, 5);
        seen.push_back(done);
        return true;
    });
    ASSERT_TRUE(a) << a.error().message;
    EXPECT_EQ(seen, (std::vector<int>{1, 2, 3, 4, 5}));
    EXPECT_TRUE(a->positions[4].eval.checkmated);
    EXPECT_EQ(a->positions[3].eval, Eval::mate_in(-1));  // after 2. g4??: Black mates in one
    EXPECT_EQ(a->moves[2].mark, Mark::BLUNDER);
    EXPECT_EQ(a->moves[3].mark, Mark::NONE);
    EXPECT_FALSE(a->positions[4].best);

    // Cancelled from the progress callback.
    auto cancelled =
        analyse_game(engine, Position::startpos(), moves, test_settings(), [](int done, int) { return done < 2; });
    ASSERT_FALSE(cancelled);
    EXPECT_NE(cancelled.error().message.find("cancelled"), std::string::npos);
}

TEST(AnalysisGameE4, BadInputIsAnError) {
    Engine engine;
    AnalysisSettings two_limits = test_settings();
    two_limits.depth = 5;
    EXPECT_FALSE(analyse_game(engine, Position::startpos(), {}, two_limits));
    AnalysisSettings threads = test_settings();
    threads.threads = 0;
    EXPECT_FALSE(analyse_game(engine, Position::startpos(), {}, threads));
    // A limit too small for one iteration is an error, not a made-up 0.00.
    AnalysisSettings one_node = test_settings();
    one_node.nodes = 1;
    auto tiny = analyse_game(engine, Position::startpos(), san_line({"e4"}), one_node);
    ASSERT_FALSE(tiny);
    EXPECT_NE(tiny.error().message.find("raise the limit"), std::string::npos) << tiny.error().message;
    // An illegal move names itself.
    auto moves = san_line({"e4", "e5"});
    moves.push_back(moves[0]);
    auto bad = analyse_game(engine, Position::startpos(), moves, test_settings());
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("move 2 (white)"), std::string::npos) << bad.error().message;
    // A move after the mate.
    auto after_mate = san_line({"f3", "e5", "g4", "Qh4#"});
    after_mate.push_back(Move(SQ_A2, SQ_A3));
    EXPECT_FALSE(analyse_game(engine, Position::startpos(), after_mate, test_settings()));
    // An empty game is fine: one position.
    auto empty = analyse_game(engine, Position::startpos(), {}, test_settings());
    ASSERT_TRUE(empty);
    EXPECT_EQ(empty->positions.size(), 1u);
    EXPECT_TRUE(std::isnan(empty->accuracy[WHITE]));
}

// The annotated game is PGN our own reader reads back: the same moves, the marks as
// NAGs, an [%eval] after every move but the mate, the better move and its line.
TEST(AnalysisPgnE4, AnnotatedGameRoundTrips) {
    auto pgn = read_pgn_game(
        "[Event \"Test\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n"
        "1. e4 {[%clk 0:05:00]} e5 2. Bc4 Nc6 3. Qh5 Nf6 $1 4. Qxf7# 1-0\n");
    ASSERT_TRUE(pgn) << pgn.error().message;
    Engine engine;
    auto a = analyse_game(engine, pgn->start, pgn->mainline(), test_settings());
    ASSERT_TRUE(a);
    ASSERT_TRUE(annotate_pgn(*pgn, *a, test_settings()));
    const std::string text = write_pgn(*pgn);
    auto back = read_pgn_game(text);
    ASSERT_TRUE(back) << back.error().message << "\n" << text;
    EXPECT_EQ(back->mainline(), pgn->mainline());
    const auto opening = classify_opening(back->start, back->mainline());
    ASSERT_TRUE(opening);
    EXPECT_EQ(back->tag("ECO"), opening->eco);
    EXPECT_EQ(back->tag("Opening"), opening->name);
    EXPECT_EQ(back->tag("Opening"), pgn->tag("Opening"));
    EXPECT_TRUE(back->tag("WhiteAccuracy"));
    ASSERT_EQ(back->moves.size(), 7u);
    // 1. e4 keeps its clock beside the evaluation.
    const auto& first = back->moves[0].comments_after;
    ASSERT_EQ(first.size(), 1u) << text;
    EXPECT_TRUE(first[0].starts_with("[%eval ")) << first[0];
    EXPECT_TRUE(first[0].ends_with("] [%clk 0:05:00]")) << first[0];
    // 3...Nf6: $4 instead of the $1 that was written, mate in one for White.
    EXPECT_EQ(back->moves[5].nags, std::vector<int>{4});
    EXPECT_EQ(back->moves[5].comments_after[0], "[%eval #1]");
    EXPECT_FALSE(back->moves[5].variations.empty());
    // The mate itself carries no evaluation.
    for (const auto& c : back->moves[6].comments_after) EXPECT_FALSE(c.starts_with("[%eval")) << c;
    for (size_t i = 0; i < 6; ++i)
        EXPECT_TRUE(back->moves[i].comments_after[0].starts_with("[%eval ")) << i << " " << text;

    // Analysing the annotated game again gives one evaluation per move, not two.
    auto again = analyse_game(engine, back->start, back->mainline(), test_settings());
    ASSERT_TRUE(again);
    ASSERT_TRUE(annotate_pgn(*back, *again, test_settings()));
    int evals = 0;
    for (const auto& c : back->moves[0].comments_after) evals += c.find("[%eval") != std::string::npos;
    EXPECT_EQ(evals, 1);
    EXPECT_EQ(back->moves[0].comments_before.size(), 1u);
}

}  // namespace
}  // namespace outpost::engine
