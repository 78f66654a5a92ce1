// Issue 29 item 1: the puzzle generator on games with known mistakes, its step rule,
// ids and duplicates, and the themes on hand-made puzzles. Small node budgets: each
// game here has one or two moves, so the deep searches are few.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>

#include "chess/chess960.h"
#include "chess/fen.h"
#include "chess/uci.h"
#include "engine/engine.h"
#include "training/generator.h"
#include "training/puzzle_csv.h"
#include "training/step_rule.h"
#include "training/themes.h"

namespace outpost::training {
namespace {

std::vector<Move> moves_of(const Position& start, std::initializer_list<const char*> uci) {
    std::vector<Move> out;
    Position pos = start;
    for (const char* u : uci) {
        auto m = move_from_uci(pos, u);
        EXPECT_TRUE(m.ok()) << u;
        if (!m) break;
        out.push_back(*m);
        pos.do_move(*m);
    }
    return out;
}

GeneratorSettings fast() {
    GeneratorSettings s;
    s.scan_nodes = 5'000;
    s.nodes = 60'000;
    s.hash_mb = 8;
    return s;
}

std::vector<Puzzle> run(const std::string& fen, std::initializer_list<const char*> uci, GeneratorStats* stats = nullptr) {
    auto start = position_from_fen(fen);
    EXPECT_TRUE(start.ok()) << fen;
    engine::Engine engine;
    auto found = find_puzzles(engine, *start, moves_of(*start, uci), fast(), "test.pgn#1:", stats);
    EXPECT_TRUE(found.ok()) << (found ? "" : found.error().message);
    return found ? *found : std::vector<Puzzle>{};
}

bool has(const std::vector<std::string>& themes, const std::string& t) {
    return std::find(themes.begin(), themes.end(), t) != themes.end();
}

std::string joined(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
    return out;
}

const std::string StartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

TEST(PuzzleGenerator, Issue29_KnownBlunderGivesThePuzzle) {
    // 3...Nf6?? allows Qxf7#: the FEN is the one before Black's move, the moves start with it.
    const auto puzzles = run(StartFen, {"e2e4", "e7e5", "f1c4", "b8c6", "d1h5", "g8f6", "h5f7"});
    ASSERT_EQ(puzzles.size(), 1u);
    const Puzzle& p = puzzles[0];
    EXPECT_EQ(p.fen, "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3");
    EXPECT_EQ(joined(p.moves), "g8f6 h5f7");
    EXPECT_EQ(p.game_url, "test.pgn#1:6");
    EXPECT_TRUE(has(p.themes, "mateIn1")) << joined(p.themes);
    EXPECT_TRUE(has(p.themes, "oneMove")) << joined(p.themes);
    EXPECT_TRUE(has(p.themes, "opening")) << joined(p.themes);
    EXPECT_EQ(p.rating_deviation, 500);
    EXPECT_EQ(p.id, puzzle_id(p.fen));
    EXPECT_TRUE(check_puzzle(p).ok());
}

TEST(PuzzleGenerator, Issue29_MateInNIsTheRealLength) {
    // ...Nc4?? leaves the back rank to one rook: Re8+ Rxe8 Rxe8#, a mate in 2.
    const auto puzzles = run("2r3k1/pp3ppp/3n4/8/8/8/P3RPPP/4R1K1 b - - 0 1", {"d6c4"});
    ASSERT_EQ(puzzles.size(), 1u);
    EXPECT_EQ(joined(puzzles[0].moves), "d6c4 e2e8 c8e8 e1e8");
    EXPECT_TRUE(has(puzzles[0].themes, "mateIn2")) << joined(puzzles[0].themes);
    EXPECT_FALSE(has(puzzles[0].themes, "mateIn1"));
    EXPECT_TRUE(has(puzzles[0].themes, "backRankMate")) << joined(puzzles[0].themes);
}

TEST(PuzzleGenerator, Issue29_TwoWinningMovesGiveNoPuzzle) {
    // Rd5?? loses the rook to three captures (exd5, Nxd5, Rxd5): no single solution.
    GeneratorStats stats;
    const auto puzzles = run("3r2k1/5ppp/4pn2/8/8/8/5PPP/3R2K1 w - - 0 1", {"d1d5"}, &stats);
    EXPECT_TRUE(puzzles.empty()) << joined(puzzles.empty() ? std::vector<std::string>{} : puzzles[0].moves);
    EXPECT_EQ(stats.candidates, 1);  // the mistake was seen, and refused
}

TEST(PuzzleGenerator, Issue29_Chess960IsSkipped) {
    auto made960 = chess960_position(100);
    ASSERT_TRUE(made960.ok());
    const Position start = *made960;
    ASSERT_TRUE(start.is_chess960());
    engine::Engine engine;
    GeneratorStats stats;
    auto found = find_puzzles(engine, start, std::vector<Move>{}, fast(), "x", &stats);
    ASSERT_TRUE(found.ok());
    EXPECT_TRUE(found->empty());
    EXPECT_EQ(stats.games_skipped, 1);
}

TEST(PuzzleGenerator, Issue29_IllegalMoveIsAnError) {
    engine::Engine engine;
    std::vector<Move> moves = moves_of(Position::startpos(), {"e2e4"});
    moves.push_back(moves[0]);  // e2e4 again: illegal
    auto found = find_puzzles(engine, Position::startpos(), moves, fast(), "x");
    ASSERT_FALSE(found.ok());
    EXPECT_NE(found.error().message.find("illegal"), std::string::npos) << found.error().message;
}

TEST(PuzzleGenerator, Issue29_SettingsAreChecked) {
    GeneratorSettings s;
    s.nodes = 10;
    EXPECT_FALSE(s.validate().ok());
    s = {};
    s.max_solver_moves = 0;
    EXPECT_FALSE(s.validate().ok());
    EXPECT_TRUE(GeneratorSettings{}.validate().ok());
}

TEST(PuzzleGenerator, Issue29_IdsComeFromThePosition) {
    const std::string a = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3";
    const std::string b = "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 9";
    EXPECT_EQ(puzzle_id(a), puzzle_id(b));  // the move counters do not count
    EXPECT_EQ(puzzle_id(a).size(), 8u);
    EXPECT_NE(puzzle_id(a), puzzle_id(StartFen));
    for (char c : puzzle_id(a)) EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)));
}

TEST(PuzzleGenerator, Issue29_DuplicatesAreMadeOnce) {
    Puzzle p1, p2, p3;
    p1.fen = "8/8/8/8/8/8/8/K1k5 w - - 0 1";
    p2.fen = "8/8/8/8/8/8/8/K1k5 w - - 5 40";  // the same position later in a game
    p3.fen = "8/8/8/8/8/8/8/K1k5 b - - 0 1";
    p1.game_url = "first";
    std::vector<Puzzle> all{p1, p2, p3};
    drop_duplicates(all);
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].game_url, "first");
}

// The rule of a step (step_rule.h) with margin 0, as the outside check applies it.
TEST(PuzzleStepRule, Issue29_TheRule) {
    using S = LineScore;
    EXPECT_TRUE(step_is_unique(S{400, 0}, S{200, 0}));
    EXPECT_FALSE(step_is_unique(S{400, 0}, S{300, 0}));   // the second still wins
    EXPECT_FALSE(step_is_unique(S{250, 0}, S{120, 0}));   // within 150
    EXPECT_TRUE(step_is_unique(S{0, 3}, S{900, 0}));      // a mate against no mate
    EXPECT_FALSE(step_is_unique(S{0, 3}, S{0, 5}));       // another mate
    EXPECT_TRUE(step_is_unique(S{0, 1}, S{0, 1}));        // the last step: any mate
    EXPECT_TRUE(step_is_unique(S{400, 0}, std::nullopt)); // the only legal move
    EXPECT_FALSE(step_is_unique(S{400, 0}, S{0, 2}));     // the second mates
    // The generator's margin asks for more on both sides.
    EXPECT_FALSE(step_is_unique(S{500, 0}, S{250, 0}, 100));
    EXPECT_FALSE(step_is_unique(S{500, 0}, S{150, 0}, 100));
    EXPECT_TRUE(step_is_unique(S{500, 0}, S{90, 0}, 100));
    EXPECT_FALSE(step_is_unique(S{0, 3}, S{900, 0}, 100));
}

Puzzle made(const std::string& fen, const std::string& moves) {
    Puzzle p;
    p.fen = fen;
    for (std::size_t i = 0; i < moves.size();) {
        const std::size_t j = std::min(moves.find(' ', i), moves.size());
        p.moves.push_back(moves.substr(i, j - i));
        i = j + 1;
    }
    p.id = puzzle_id(fen);
    EXPECT_TRUE(check_puzzle(p).ok()) << fen << " " << moves;
    return p;
}

TEST(PuzzleThemes, Issue29_Fork) {
    // Nf7+ attacks the king on h8 and the queen on d8, then takes the queen.
    const Puzzle p = made("3q3k/p5pp/8/6N1/8/8/6PP/6K1 b - - 0 1", "a7a6 g5f7 h8g8 f7d8");
    const auto t = puzzle_themes(p);
    EXPECT_TRUE(has(t, "fork")) << joined(t);
    EXPECT_TRUE(has(t, "short")) << joined(t);
    EXPECT_TRUE(has(t, "crushing")) << joined(t);  // a queen won
    EXPECT_FALSE(has(t, "mate"));
}

TEST(PuzzleThemes, Issue29_Pin) {
    // Bb5 pins the knight on c6 to the king on e8.
    const Puzzle p = made("r1bqkbnr/ppp2ppp/2n5/3pp3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 0 1", "h7h6 f1b5");
    const auto t = puzzle_themes(p);
    EXPECT_TRUE(has(t, "pin")) << joined(t);
    EXPECT_TRUE(has(t, "oneMove")) << joined(t);
    EXPECT_TRUE(has(t, "opening")) << joined(t);
    EXPECT_FALSE(has(t, "fork")) << joined(t);
}

TEST(PuzzleThemes, Issue29_BackRankMate) {
    const Puzzle p = made("2r3k1/pp3ppp/3n4/8/8/8/P3RPPP/4R1K1 b - - 0 1", "d6c4 e2e8 c8e8 e1e8");
    const auto t = puzzle_themes(p);
    EXPECT_TRUE(has(t, "backRankMate")) << joined(t);
    EXPECT_TRUE(has(t, "mateIn2")) << joined(t);
    EXPECT_TRUE(has(t, "mate")) << joined(t);
    EXPECT_TRUE(has(t, "endgame")) << joined(t);
    EXPECT_FALSE(has(t, "rookEndgame")) << joined(t);  // a knight is on the board
    // Re8+ gives the rook back at once and takes nothing the king guarded.
    EXPECT_FALSE(has(t, "sacrifice")) << joined(t);
    EXPECT_FALSE(has(t, "fork")) << joined(t);
}

TEST(PuzzleThemes, Issue29_Skewer) {
    // Re1+ checks the king on e5, which steps aside, and the rook takes on e8.
    const Puzzle p = made("4r3/8/8/3k4/8/7K/8/7R b - - 0 1", "d5e5 h1e1 e5d6 e1e8");
    const auto t = puzzle_themes(p);
    EXPECT_TRUE(has(t, "skewer")) << joined(t);
    EXPECT_TRUE(has(t, "rookEndgame")) << joined(t);
}

TEST(PuzzleThemes, Issue29_DiscoveredAttack) {
    // The knight leaves e4 and the rook on e1 checks the king on e8.
    const Puzzle p = made("3k4/8/8/8/4N3/8/8/4R1K1 b - - 0 1", "d8e8 e4c5");
    const auto t = puzzle_themes(p);
    EXPECT_TRUE(has(t, "discoveredAttack")) << joined(t);
    EXPECT_FALSE(has(t, "skewer")) << joined(t);
}

TEST(PuzzleThemes, Issue29_PromotionAndPawnEndgame) {
    const Puzzle p = made("8/1P4k1/8/8/8/8/6K1/8 b - - 0 1", "g7f6 b7b8q");
    const auto t = puzzle_themes(p);
    EXPECT_TRUE(has(t, "promotion")) << joined(t);
    EXPECT_TRUE(has(t, "pawnEndgame")) << joined(t);
    EXPECT_TRUE(has(t, "crushing")) << joined(t);
}

TEST(PuzzleThemes, Issue29_HangingPieceAndRookEndgame) {
    // Rxa5 takes a rook nobody defends.
    const Puzzle p = made("6k1/5ppp/8/r7/8/8/5PPP/R5K1 b - - 0 1", "h7h6 a1a5");
    const auto t = puzzle_themes(p);
    EXPECT_TRUE(has(t, "hangingPiece")) << joined(t);
    EXPECT_TRUE(has(t, "rookEndgame")) << joined(t);
}

TEST(PuzzleThemes, Issue29_RatingEstimateGrowsWithLength) {
    const Puzzle one = made("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3", "g8f6 h5f7");
    const Puzzle two = made("2r3k1/pp3ppp/3n4/8/8/8/P3RPPP/4R1K1 b - - 0 1", "d6c4 e2e8 c8e8 e1e8");
    EXPECT_LT(estimate_rating(one), estimate_rating(two));
    EXPECT_GE(estimate_rating(one), 600);
    EXPECT_LE(estimate_rating(two), 2800);
}

}  // namespace
}  // namespace outpost::training

// Issue 29 item 2: the starter set reads back, every puzzle legal, one per position,
// ids from the position, and themes that the FEN and moves give again.
namespace outpost::training {
namespace {

TEST(PuzzleStarterSet, Issue29_StarterSetIsConsistent) {
    std::ifstream in(std::string(OUTPOST_TEST_DATA) + "/../../data/puzzles.csv", std::ios::binary);
    ASSERT_TRUE(in.good());
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto puzzles = read_puzzle_csv(text, "data/puzzles.csv");
    ASSERT_TRUE(puzzles.ok()) << puzzles.error().message;
    EXPECT_GE(puzzles->size(), 1000u);  // issue 29: at least 1,000
    std::set<std::string> keys, ids;
    for (const Puzzle& p : *puzzles) {
        EXPECT_TRUE(keys.insert(position_key(p.fen)).second) << p.id;
        EXPECT_TRUE(ids.insert(p.id).second) << p.id;
        EXPECT_EQ(p.id, puzzle_id(p.fen));
        EXPECT_EQ(p.themes, puzzle_themes(p)) << p.id;
        EXPECT_EQ(p.rating_deviation, 500);
        EXPECT_EQ(p.moves.size() % 2, 0u) << p.id;
    }
}

}  // namespace
}  // namespace outpost::training
