// Outpost — puzzles in the lichess puzzle CSV (issue 29, SPEC T1): the columns, the
// quoting, and every bad field refused with its line, column and reason.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include "training/puzzle_csv.h"

using namespace outpost::training;

namespace {

// A row of the lichess puzzle database's shape: Black's last move, then White mates.
const char* MateRow =
    "00sHx,q3k1nr/1pp1nQpp/3p4/1P2p3/4P3/B1PP1b2/B5PP/5K2 b k - 0 17,e8d7 a2e6 d7d8 f7f8,1760,80,83,72,"
    "mate mateIn2 middlegame short,https://lichess.org/yyznGmXs/black#34,Italian_Game Italian_Game_Classical_Variation";

Puzzle mate_puzzle() {
    auto row = parse_puzzle_csv_line(MateRow, 2);
    EXPECT_TRUE(row.ok()) << (row.ok() ? "" : row.error().message);
    return **row;
}

}  // namespace

TEST(PuzzleCsvIssue29, ReadsALichessRowColumnByColumn) {
    const Puzzle p = mate_puzzle();
    EXPECT_EQ(p.id, "00sHx");
    EXPECT_EQ(p.moves, (std::vector<std::string>{"e8d7", "a2e6", "d7d8", "f7f8"}));
    EXPECT_EQ(p.rating, 1760);
    EXPECT_EQ(p.rating_deviation, 80);
    EXPECT_EQ(p.popularity, 83);
    EXPECT_EQ(p.nb_plays, 72);
    EXPECT_EQ(p.themes, (std::vector<std::string>{"mate", "mateIn2", "middlegame", "short"}));
    EXPECT_EQ(p.opening_tags.size(), 2u);
    EXPECT_EQ(solver_moves(p), 2);
}

TEST(PuzzleCsvIssue29, WritesWhatItReadsAndQuotesACommaInAGameUrl) {
    Puzzle p = mate_puzzle();
    EXPECT_EQ(to_csv_line(p), MateRow);
    p.game_url = "club, 2026.pgn#3:34";
    p.opening_tags.clear();
    const std::string line = to_csv_line(p);
    EXPECT_NE(line.find("\"club, 2026.pgn#3:34\""), std::string::npos);
    auto back = parse_puzzle_csv_line(line, 1);
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ((*back)->game_url, p.game_url);
    EXPECT_TRUE((*back)->opening_tags.empty());
}

TEST(PuzzleCsvIssue29, AFileWithItsHeaderAndWindowsLineEnds) {
    const std::string text = std::string(puzzle_csv_header()) + "\r\n" + MateRow + "\r\n\r\n";
    auto all = read_puzzle_csv(text, "p.csv");
    ASSERT_TRUE(all.ok()) << all.error().message;
    EXPECT_EQ(all->size(), 1u);
}

TEST(PuzzleCsvIssue29, BadFieldsAreRefusedWithLineColumnAndReason) {
    auto err = [](const std::string& text) {
        auto r = read_puzzle_csv(text, "p.csv");
        return r.ok() ? std::string("accepted") : r.error().message;
    };
    const std::string head = std::string(puzzle_csv_header()) + "\n";
    std::string row = MateRow;
    // An illegal FEN (two white kings).
    std::string bad_fen = row;
    bad_fen.replace(bad_fen.find("5K2"), 3, "4KK2");
    EXPECT_NE(err(head + bad_fen).find("p.csv: line 2: column FEN"), std::string::npos) << err(head + bad_fen);
    // A move that is not legal where it is played.
    std::string bad_move = row;
    bad_move.replace(bad_move.find("a2e6"), 4, "a2a4");
    EXPECT_NE(err(head + bad_move).find("line 2: column Moves: move 2 'a2a4'"), std::string::npos) << err(head + bad_move);
    // An odd number of moves: the line must end with the solver's move.
    std::string odd = row;
    odd.replace(odd.find(" f7f8"), 5, "");
    EXPECT_NE(err(odd).find("line 1: column Moves: 3 moves"), std::string::npos) << err(odd);
    // Numbers.
    std::string rating = row;
    rating.replace(rating.find(",1760,"), 6, ",17x0,");
    EXPECT_NE(err(rating).find("column Rating: '17x0'"), std::string::npos) << err(rating);
    // Columns and quotes.
    EXPECT_NE(err("a,b,c").find("line 1: 3 columns"), std::string::npos);
    EXPECT_NE(err("\"abc,1").find("not closed"), std::string::npos);
    EXPECT_NE(err("ab\"c,1").find("character 3: a quote inside"), std::string::npos);
    // A Chess960 position.
    std::string c960 = "x1,bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9,g1f2 f6e4,1500,80,0,0,,,";
    EXPECT_NE(err(c960).find("column FEN"), std::string::npos) << err(c960);
    // An id with a space or a theme with punctuation.
    std::string id = row;
    id.replace(0, 5, "00 sH");
    EXPECT_NE(err(id).find("column PuzzleId"), std::string::npos);
    std::string theme = row;
    theme.replace(theme.find("short"), 5, "sh<rt");
    EXPECT_NE(err(theme).find("column Themes"), std::string::npos);
}

TEST(PuzzleCsvIssue29, TheSamePositionComparesTheFirstFourFenFields) {
    EXPECT_EQ(position_key("8/8/8/8/8/8/k7/K7 w - - 0 1"), position_key("8/8/8/8/8/8/k7/K7 w - - 12 40"));
    EXPECT_NE(position_key("8/8/8/8/8/8/k7/K7 w - - 0 1"), position_key("8/8/8/8/8/8/k7/K7 b - - 0 1"));
    EXPECT_EQ(position_key("8/8/8/8/8/8/k7/K7 w - - 0 1"), "8/8/8/8/8/8/k7/K7 w - -");
}
