// UCI long algebraic move notation (N2): printing, parsing, promotions, castling
// in standard and Chess960 mode, and errors.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "chess/chess960.h"
#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/uci.h"

using namespace outpost;

namespace {

Position from(const std::string& fen, bool chess960 = false) {
    auto pos = position_from_fen(fen, chess960);
    EXPECT_TRUE(pos.ok()) << fen;
    return pos.ok() ? *pos : Position::startpos();
}

std::string parse_error(const Position& pos, const std::string& text) {
    auto m = move_from_uci(pos, text);
    return m.ok() ? std::string() : m.error().message;
}

const char* const PromotionFen = "4k3/1P6/8/8/8/8/6p1/4K2R w K - 0 1";

TEST(UciN2, PrintsPlainMoves) {
    EXPECT_EQ(move_to_uci(Move(SQ_E2, SQ_E4), false), "e2e4");
    EXPECT_EQ(move_to_uci(Move(SQ_G1, SQ_F3), true), "g1f3");
    EXPECT_EQ(move_to_uci(Move::make<Move::EN_PASSANT>(SQ_E5, SQ_D6), false), "e5d6");
    EXPECT_EQ(move_to_uci(Move::none(), false), "0000");
}

TEST(UciN2, PrintsPromotions) {
    EXPECT_EQ(move_to_uci(Move::make<Move::PROMOTION>(SQ_B7, SQ_B8, QUEEN), false), "b7b8q");
    EXPECT_EQ(move_to_uci(Move::make<Move::PROMOTION>(SQ_B7, SQ_A8, ROOK), false), "b7a8r");
    EXPECT_EQ(move_to_uci(Move::make<Move::PROMOTION>(SQ_G2, SQ_G1, BISHOP), false), "g2g1b");
    EXPECT_EQ(move_to_uci(Move::make<Move::PROMOTION>(SQ_G2, SQ_H1, KNIGHT), true), "g2h1n");
}

TEST(UciN2, PrintsCastlingInBothModes) {
    const Move oo = Move::make<Move::CASTLING>(SQ_E1, SQ_H1);
    const Move ooo = Move::make<Move::CASTLING>(SQ_E1, SQ_A1);
    const Move black_oo = Move::make<Move::CASTLING>(SQ_E8, SQ_H8);
    const Move black_ooo = Move::make<Move::CASTLING>(SQ_E8, SQ_A8);
    EXPECT_EQ(move_to_uci(oo, false), "e1g1");
    EXPECT_EQ(move_to_uci(ooo, false), "e1c1");
    EXPECT_EQ(move_to_uci(black_oo, false), "e8g8");
    EXPECT_EQ(move_to_uci(black_ooo, false), "e8c8");
    EXPECT_EQ(move_to_uci(oo, true), "e1h1");
    EXPECT_EQ(move_to_uci(ooo, true), "e1a1");
    EXPECT_EQ(move_to_uci(black_oo, true), "e8h8");
    EXPECT_EQ(move_to_uci(black_ooo, true), "e8a8");
    // The Position overload follows the position's mode.
    const Position standard = from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    const Position chess960 = from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", true);
    EXPECT_EQ(move_to_uci(standard, oo), "e1g1");
    EXPECT_EQ(move_to_uci(chess960, oo), "e1h1");
}

TEST(UciN2, ParsesPlainMoves) {
    const Position start = Position::startpos();
    auto m = move_from_uci(start, "e2e4");
    ASSERT_TRUE(m.ok());
    EXPECT_EQ(m->from(), SQ_E2);
    EXPECT_EQ(m->to(), SQ_E4);
    EXPECT_EQ(m->kind(), Move::NORMAL);
    EXPECT_TRUE(move_from_uci(start, "g1f3").ok());
    EXPECT_TRUE(move_from_uci(start, "b1a3").ok());
}

TEST(UciN2, ParsesEnPassant) {
    const Position pos = from("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    auto m = move_from_uci(pos, "e5f6");
    ASSERT_TRUE(m.ok());
    EXPECT_EQ(m->kind(), Move::EN_PASSANT);
    // d6 is no en passant square: the d-pawn moved two moves ago.
    EXPECT_FALSE(move_from_uci(pos, "e5d6").ok());
}

TEST(UciN2, ParsesEveryPromotionPiece) {
    const Position pos = from(PromotionFen);
    for (auto [text, pt] : {std::pair{"b7b8q", QUEEN}, {"b7b8r", ROOK}, {"b7b8b", BISHOP}, {"b7b8n", KNIGHT}}) {
        auto m = move_from_uci(pos, text);
        ASSERT_TRUE(m.ok()) << text;
        EXPECT_EQ(m->kind(), Move::PROMOTION);
        EXPECT_EQ(m->promotion(), pt) << text;
        EXPECT_EQ(move_to_uci(pos, *m), text);
    }
    const Position black = from("4k3/1P6/8/8/8/8/6p1/4K2R b K - 0 1");
    auto capture = move_from_uci(black, "g2h1q");
    ASSERT_TRUE(capture.ok());
    EXPECT_EQ(capture->to(), SQ_H1);
    EXPECT_EQ(capture->promotion(), QUEEN);
    EXPECT_TRUE(move_from_uci(black, "g2g1n").ok());
}

TEST(UciN2, PromotionNeedsItsPieceAndOnlyPromotionsTakeOne) {
    const Position pos = from(PromotionFen);
    EXPECT_NE(parse_error(pos, "b7b8").find("illegal"), std::string::npos);
    EXPECT_NE(parse_error(pos, "e1d1q").find("illegal"), std::string::npos);
    EXPECT_NE(parse_error(pos, "b7b8k").find("not a promotion piece"), std::string::npos) << parse_error(pos, "b7b8k");
    EXPECT_NE(parse_error(pos, "b7b8p").find("not a promotion piece"), std::string::npos);
}

TEST(UciN2, ParsesCastlingInStandardMode) {
    const Position pos = from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for (const char* text : {"e1g1", "e1h1"}) {
        auto m = move_from_uci(pos, text);
        ASSERT_TRUE(m.ok()) << text;
        EXPECT_EQ(m->kind(), Move::CASTLING) << text;
        EXPECT_EQ(m->to(), SQ_H1);
        EXPECT_EQ(move_to_uci(pos, *m), "e1g1");
    }
    for (const char* text : {"e1c1", "e1a1"}) {
        auto m = move_from_uci(pos, text);
        ASSERT_TRUE(m.ok()) << text;
        EXPECT_EQ(m->kind(), Move::CASTLING) << text;
        EXPECT_EQ(m->to(), SQ_A1);
        EXPECT_EQ(move_to_uci(pos, *m), "e1c1");
    }
    const Position black = from("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    EXPECT_EQ(move_from_uci(black, "e8g8")->kind(), Move::CASTLING);
    EXPECT_EQ(move_from_uci(black, "e8c8")->kind(), Move::CASTLING);
    // Without the right, e1g1 is neither castling nor a king move.
    const Position no_rights = from("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
    EXPECT_FALSE(move_from_uci(no_rights, "e1g1").ok());
    EXPECT_FALSE(move_from_uci(no_rights, "e1h1").ok());
}

TEST(UciN2, ParsesCastlingInChess960Mode) {
    const Position pos = *chess960_position(0);  // BBQNNRKR: castling not yet possible
    EXPECT_FALSE(move_from_uci(pos, "g1h1").ok());
    const Position open = from("4k3/8/8/8/8/8/8/1R4KR w HB - 0 1", true);
    auto oo = move_from_uci(open, "g1h1");
    ASSERT_TRUE(oo.ok()) << oo.error().message;
    EXPECT_EQ(oo->kind(), Move::CASTLING);
    EXPECT_EQ(move_to_uci(open, *oo), "g1h1");
    auto ooo = move_from_uci(open, "g1b1");
    ASSERT_TRUE(ooo.ok()) << ooo.error().message;
    EXPECT_EQ(ooo->kind(), Move::CASTLING);
    EXPECT_EQ(move_to_uci(open, *ooo), "g1b1");
    const Position after = open.after(*ooo);
    EXPECT_EQ(after.piece_on(SQ_C1), W_KING);
    EXPECT_EQ(after.piece_on(SQ_D1), W_ROOK);
    EXPECT_EQ(after.piece_on(SQ_H1), W_ROOK);
    EXPECT_FALSE(move_from_uci(open, "g1c1").ok());  // the classical form is not 960 notation
}

TEST(UciN2, RefusesMalformedText) {
    const Position start = Position::startpos();
    for (const char* text : {"", "e2", "e2e", "e2e4qq", "e2-e4", "0000", "i2e4", "e0e4", "e2e9", "E2E4", "e2 e4"}) {
        const std::string error = parse_error(start, text);
        EXPECT_FALSE(error.empty()) << "accepted '" << text << "'";
        EXPECT_NE(error.find(std::string("'") + text + "'"), std::string::npos) << error;
    }
    EXPECT_NE(parse_error(start, "e2e").find("4 or 5 characters"), std::string::npos);
    EXPECT_NE(parse_error(start, "i2e4").find("'i2' is not a square"), std::string::npos) << parse_error(start, "i2e4");
}

TEST(UciN2, RefusesIllegalMoves) {
    const Position start = Position::startpos();
    for (const char* text : {"e2e5", "e7e5", "e1e2", "a1a3", "d1h5", "e2d3", "g1g3", "a2a2"}) {
        const std::string error = parse_error(start, text);
        EXPECT_NE(error.find("illegal move"), std::string::npos) << text << ": " << error;
    }
    // A pinned piece may not move off the pin line.
    const Position pinned = from("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    EXPECT_FALSE(move_from_uci(pinned, "e2c3").ok());
}

// Every legal move of every EPD position prints and reads back to itself.
TEST(UciN2, RoundTripsEveryLegalMoveOfTheEpdPositions) {
    for (auto [file, chess960] : {std::pair{"standard.epd", false}, {"fischer.epd", true}}) {
        std::ifstream in(std::string(OUTPOST_TEST_DATA) + "/" + file);
        std::string line;
        int positions = 0;
        while (std::getline(in, line)) {
            const auto pos = position_from_fen(line.substr(0, line.find(';')), chess960);
            ASSERT_TRUE(pos.ok()) << line;
            ++positions;
            for (Move m : legal_moves(*pos)) {
                const std::string text = move_to_uci(*pos, m);
                auto back = move_from_uci(*pos, text);
                ASSERT_TRUE(back.ok()) << line << " " << text << ": " << back.error().message;
                EXPECT_EQ(*back, m) << line << " " << text;
            }
        }
        EXPECT_GT(positions, 50) << file;
    }
}

}  // namespace
