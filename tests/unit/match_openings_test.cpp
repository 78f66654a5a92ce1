// Outpost — opening files for matches (EPD and PGN), including the shipped sets.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <set>

#include "chess/fen.h"
#include "chess/uci.h"
#include "match/openings.h"

using namespace outpost;
using namespace outpost::match;

TEST(MatchOpenings, EpdWithOperationsAndCounters) {
    const std::string text =
        "# a comment\n"
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\r\n"
        "\n"
        "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\n";
    auto book = parse_epd(text, "t.epd", false);
    ASSERT_TRUE(book) << book.error().message;
    ASSERT_EQ(book->size(), 2u);
    EXPECT_EQ((*book)[0].root.side_to_move(), BLACK);
    EXPECT_TRUE((*book)[0].moves.empty());
}

TEST(MatchOpenings, EpdErrorsNameTheLine) {
    auto book = parse_epd("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\nnot a fen at all\n", "t.epd", false);
    ASSERT_FALSE(book);
    EXPECT_EQ(book.error().message.rfind("t.epd:2: ", 0), 0u) << book.error().message;
    EXPECT_FALSE(parse_epd("", "empty.epd", false));
}

TEST(MatchOpenings, PgnMovesCutAtPlies) {
    const std::string text =
        "[Event \"a\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n"
        "[Event \"b\"]\n[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n[SetUp \"1\"]\n\n"
        "1. d4 {a comment} d5 (1... Nf6) 2. c4 *\n";
    auto book = parse_pgn(text, "t.pgn", 4, false);
    ASSERT_TRUE(book) << book.error().message;
    ASSERT_EQ(book->size(), 2u);
    ASSERT_EQ((*book)[0].moves.size(), 4u);
    EXPECT_EQ(move_to_uci((*book)[0].root, (*book)[0].moves[0]), "e2e4");
    ASSERT_EQ((*book)[1].moves.size(), 3u);

    auto bad = parse_pgn("1. e4 e5 2. Ke3 *\n", "bad.pgn", 0, false);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().message.rfind("bad.pgn: ", 0), 0u) << bad.error().message;
}

TEST(MatchOpenings, ShippedSetsAreLegalDistinctAndAgree) {
    const std::string dir = std::string(OUTPOST_TEST_DATA) + "/openings/";
    auto epd = load_epd(dir + "outpost-balanced.epd", false);
    ASSERT_TRUE(epd) << epd.error().message;
    auto pgn = load_pgn(dir + "outpost-balanced.pgn", 0, false);
    ASSERT_TRUE(pgn) << pgn.error().message;
    EXPECT_GE(epd->size(), 50u);
    ASSERT_EQ(epd->size(), pgn->size());
    std::set<std::string> seen;
    for (std::size_t i = 0; i < epd->size(); ++i) {
        Position end = (*pgn)[i].root;
        for (Move m : (*pgn)[i].moves) end.do_move(m);
        const std::string fen = to_fen((*epd)[i].root);
        // The EPD has no move counters; compare the first four fields.
        EXPECT_EQ(to_fen(end).substr(0, to_fen(end).rfind(' ', to_fen(end).rfind(' ') - 1)),
                  fen.substr(0, fen.rfind(' ', fen.rfind(' ') - 1)))
            << "opening " << i + 1;
        EXPECT_TRUE(seen.insert(fen).second) << "duplicate opening " << fen;
    }
}
