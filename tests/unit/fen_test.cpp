// FEN, X-FEN and Shredder-FEN (N1) and the validation of Setup into Position.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "chess/chess960.h"
#include "chess/fen.h"

using namespace outpost;

namespace {

// The error message of position_from_fen, or "" when the FEN is accepted.
std::string fen_error(const std::string& fen, bool chess960 = false) {
    auto pos = position_from_fen(fen, chess960);
    return pos.ok() ? std::string() : pos.error().message;
}

std::string setup_error(const Setup& s, bool chess960 = false) {
    auto pos = Position::from_setup(s, chess960);
    return pos.ok() ? std::string() : pos.error().message;
}

Setup setup_of(const std::string& fen) {
    auto s = parse_fen(fen);
    EXPECT_TRUE(s.ok()) << fen << ": " << (s.ok() ? "" : s.error().message);
    return s.ok() ? *s : Setup{};
}

// Expects the FEN to be refused with a message that contains every fragment.
void expect_refused(const std::string& fen, std::initializer_list<const char*> fragments, bool chess960 = false) {
    const std::string message = fen_error(fen, chess960);
    ASSERT_FALSE(message.empty()) << "accepted: " << fen;
    for (const char* f : fragments) EXPECT_NE(message.find(f), std::string::npos) << fen << " -> \"" << message << "\"";
}

std::vector<std::string> epd_fens(const std::string& name) {
    std::vector<std::string> out;
    std::ifstream in(std::string(OUTPOST_TEST_DATA) + "/" + name);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        std::string fen = line.substr(0, line.find(';'));
        out.push_back(fen.substr(0, fen.find_last_not_of(' ') + 1));
    }
    return out;
}

// ---------------------------------------------------------------- round trips

TEST(FenN1, StartPositionRoundTrip) {
    auto pos = position_from_fen(StartFen);
    ASSERT_TRUE(pos.ok());
    EXPECT_EQ(*pos, Position::startpos());
    EXPECT_EQ(to_fen(*pos), StartFen);
    EXPECT_FALSE(pos->is_chess960());
}

// FEN keeps an en passant square only when the capture is legal (X-FEN); the EPD
// files, written by Stockfish, also keep pseudo-legal ones (the capture would expose
// the king). Those read back without the square, with the same repetition key.
TEST(FenN1, RoundTripEveryStandardEpdPosition) {
    const auto fens = epd_fens("standard.epd");
    ASSERT_GE(fens.size(), 100u);
    int dropped = 0;
    for (const auto& fen : fens) {
        auto pos = position_from_fen(fen);
        ASSERT_TRUE(pos.ok()) << fen << ": " << pos.error().message;
        std::string expected = fen;
        if (pos->ep_square() == SQ_NONE && pos->pseudo_ep_square() != SQ_NONE) {
            const std::string ep = " " + square_name(pos->pseudo_ep_square()) + " ";
            expected.replace(expected.find(ep), ep.size(), " - ");
            ++dropped;
        }
        EXPECT_EQ(to_fen(*pos), expected);
        auto again = position_from_fen(to_fen(*pos));
        ASSERT_TRUE(again.ok());
        EXPECT_EQ(to_fen(*again), expected);
        EXPECT_EQ(again->repetition_key(), pos->repetition_key()) << fen;
        if (expected == fen) {
            EXPECT_EQ(*again, *pos) << fen;
            EXPECT_EQ(again->key(), pos->key()) << fen;
        }
    }
    EXPECT_GT(dropped, 0) << "the file has pinned en passant positions";
}

TEST(FenN1, RoundTripEveryFischerEpdPositionInShredderFen) {
    const auto fens = epd_fens("fischer.epd");
    ASSERT_GE(fens.size(), 60u);
    for (const auto& fen : fens) {
        auto pos = position_from_fen(fen, true);
        ASSERT_TRUE(pos.ok()) << fen << ": " << pos.error().message;
        EXPECT_TRUE(pos->is_chess960());
        EXPECT_EQ(to_fen(*pos, CastlingNotation::SHREDDER), fen);
        // X-FEN output reads back to the same position.
        auto again = position_from_fen(to_fen(*pos, CastlingNotation::X_FEN), true);
        ASSERT_TRUE(again.ok()) << to_fen(*pos, CastlingNotation::X_FEN);
        EXPECT_EQ(*again, *pos) << fen;
    }
}

TEST(FenN1, ClocksAreKept) {
    const std::string fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 37 112";
    auto pos = position_from_fen(fen);
    ASSERT_TRUE(pos.ok());
    EXPECT_EQ(pos->halfmove_clock(), 37);
    EXPECT_EQ(pos->fullmove_number(), 112);
    EXPECT_EQ(to_fen(*pos), fen);
}

TEST(FenN1, ExtraWhitespaceIsTolerated) {
    auto pos = position_from_fen("  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\tw  KQkq -  0 1 \n");
    ASSERT_TRUE(pos.ok()) << pos.error().message;
    EXPECT_EQ(to_fen(*pos), StartFen);
}

// ---------------------------------------------------------------- EPD-style FEN

TEST(FenN1, FourFieldEpdFenDefaultsTheClocks) {
    auto pos = position_from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3");
    ASSERT_TRUE(pos.ok()) << pos.error().message;
    EXPECT_EQ(pos->halfmove_clock(), 0);
    EXPECT_EQ(pos->fullmove_number(), 1);
    EXPECT_EQ(pos->side_to_move(), BLACK);
    // No black pawn can take on e3, so the square is not part of the position.
    EXPECT_EQ(to_fen(*pos), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
}

TEST(FenN1, FiveFieldFenKeepsTheHalfmoveClock) {
    auto pos = position_from_fen("4k3/8/8/8/8/8/8/4K3 w - - 12");
    ASSERT_TRUE(pos.ok()) << pos.error().message;
    EXPECT_EQ(pos->halfmove_clock(), 12);
    EXPECT_EQ(pos->fullmove_number(), 1);
}

TEST(FenN1, MoveNumberZeroIsReadAsOne) {
    auto pos = position_from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 0");
    ASSERT_TRUE(pos.ok()) << pos.error().message;
    EXPECT_EQ(pos->fullmove_number(), 1);
}

// ---------------------------------------------------------------- en passant field

TEST(FenN1, LegalEnPassantSquareIsWritten) {
    const std::string fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    auto pos = position_from_fen(fen);
    ASSERT_TRUE(pos.ok());
    EXPECT_EQ(pos->ep_square(), SQ_F6);
    EXPECT_EQ(to_fen(*pos), fen);
}

TEST(FenN1, EnPassantSquareWithoutACapturerIsDropped) {
    auto pos = position_from_fen("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1");
    ASSERT_TRUE(pos.ok()) << pos.error().message;
    EXPECT_EQ(pos->ep_square(), SQ_NONE);
    EXPECT_EQ(pos->pseudo_ep_square(), SQ_NONE);
    EXPECT_EQ(to_fen(*pos), "4k3/8/8/3p4/8/8/8/4K3 w - - 0 1");
}

// The capture is pseudo-legal but exposes the king: the FEN omits the square, and
// only the Polyglot key (which counts pseudo-legal captures) differs.
TEST(FenN1, PinnedEnPassantSquareIsNotWritten) {
    auto pos = position_from_fen("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1");
    ASSERT_TRUE(pos.ok());
    EXPECT_EQ(pos->ep_square(), SQ_NONE);
    EXPECT_EQ(pos->pseudo_ep_square(), SQ_C6);
    EXPECT_EQ(to_fen(*pos), "8/8/8/KPp4r/8/8/8/4k3 w - - 0 1");
    auto again = position_from_fen(to_fen(*pos));
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(again->repetition_key(), pos->repetition_key());
}

// ---------------------------------------------------------------- X-FEN / Shredder-FEN

TEST(FenN1, StartPositionInEachCastlingNotation) {
    const Position start = Position::startpos();
    EXPECT_EQ(to_fen(start, CastlingNotation::AUTO), StartFen);
    EXPECT_EQ(to_fen(start, CastlingNotation::X_FEN), StartFen);
    EXPECT_EQ(to_fen(start, CastlingNotation::SHREDDER),
              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
}

TEST(FenN1, ShredderFenReadsAsClassicalWhenItIsClassical) {
    auto pos = position_from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
    ASSERT_TRUE(pos.ok()) << pos.error().message;
    EXPECT_EQ(*pos, Position::startpos());
    EXPECT_FALSE(pos->is_chess960());
}

TEST(FenN1, XFenAndShredderFenOfAChess960StartPosition) {
    auto pos = chess960_position(0);  // BBQNNRKR
    ASSERT_TRUE(pos.ok());
    EXPECT_EQ(to_fen(*pos), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
    EXPECT_EQ(to_fen(*pos, CastlingNotation::SHREDDER), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
    auto x = position_from_fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1", true);
    auto shredder = position_from_fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", true);
    ASSERT_TRUE(x.ok() && shredder.ok());
    EXPECT_EQ(*x, *pos);
    EXPECT_EQ(*shredder, *pos);
}

// X-FEN names an inner castling rook by its file, the outermost one by K/Q.
TEST(FenN1, XFenNamesInnerRooksByFile) {
    auto inner = position_from_fen("4k3/8/8/8/8/8/8/RR2K1RR w GB - 0 1", true);
    ASSERT_TRUE(inner.ok()) << inner.error().message;
    EXPECT_EQ(inner->castling_rook(WHITE, KING_SIDE), SQ_G1);
    EXPECT_EQ(inner->castling_rook(WHITE, QUEEN_SIDE), SQ_B1);
    EXPECT_EQ(to_fen(*inner, CastlingNotation::X_FEN), "4k3/8/8/8/8/8/8/RR2K1RR w GB - 0 1");
    EXPECT_EQ(to_fen(*inner, CastlingNotation::SHREDDER), "4k3/8/8/8/8/8/8/RR2K1RR w GB - 0 1");

    auto outer = position_from_fen("4k3/8/8/8/8/8/8/RR2K1RR w HA - 0 1", true);
    ASSERT_TRUE(outer.ok()) << outer.error().message;
    EXPECT_EQ(to_fen(*outer, CastlingNotation::X_FEN), "4k3/8/8/8/8/8/8/RR2K1RR w KQ - 0 1");
    EXPECT_EQ(to_fen(*outer, CastlingNotation::SHREDDER), "4k3/8/8/8/8/8/8/RR2K1RR w HA - 0 1");

    // K and Q read as the outermost rook.
    auto kq = position_from_fen("4k3/8/8/8/8/8/8/RR2K1RR w KQ - 0 1", true);
    ASSERT_TRUE(kq.ok());
    EXPECT_EQ(*kq, *outer);

    auto black = position_from_fen("rr2k1rr/8/8/8/8/8/8/4K3 b gb - 0 1", true);
    ASSERT_TRUE(black.ok()) << black.error().message;
    EXPECT_EQ(to_fen(*black, CastlingNotation::X_FEN), "rr2k1rr/8/8/8/8/8/8/4K3 b gb - 0 1");
    EXPECT_EQ(to_fen(*black, CastlingNotation::SHREDDER), "rr2k1rr/8/8/8/8/8/8/4K3 b gb - 0 1");
}

// Castling rights that only Chess960 rules can describe switch Chess960 mode on.
TEST(FenN1, NonClassicalCastlingRightsSelectChess960) {
    auto pos = position_from_fen("4k3/8/8/8/8/8/8/R3K1R1 w GA - 0 1");
    ASSERT_TRUE(pos.ok()) << pos.error().message;
    EXPECT_TRUE(pos->is_chess960());
    EXPECT_EQ(pos->castling_rook(WHITE, KING_SIDE), SQ_G1);
    EXPECT_EQ(pos->castling_rook(WHITE, QUEEN_SIDE), SQ_A1);
    // Without the Chess960 flag, from_setup itself refuses such rights.
    outpost::Setup s = setup_of("4k3/8/8/8/8/8/8/R3K1R1 w GA - 0 1");
    EXPECT_NE(setup_error(s, false).find("Chess960"), std::string::npos) << setup_error(s, false);
    EXPECT_EQ(setup_error(s, true), "");
}

// ---------------------------------------------------------------- validation errors

TEST(FenN1, RefusesTwoWhiteKings) {
    expect_refused("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", {"white king", "more than one"});
}

TEST(FenN1, RefusesTwoBlackKings) {
    expect_refused("k6k/8/8/8/8/8/8/4K3 w - - 0 1", {"black king", "more than one"});
}

TEST(FenN1, RefusesAMissingKing) {
    expect_refused("8/8/8/8/8/8/8/4K3 w - - 0 1", {"no black king"});
    expect_refused("4k3/8/8/8/8/8/8/8 w - - 0 1", {"no white king"});
    expect_refused("8/8/8/8/8/8/8/8 w - - 0 1", {"no white king"});
}

TEST(FenN1, RefusesPawnsOnTheFirstOrEighthRank) {
    expect_refused("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", {"pawn on a1"});
    expect_refused("3pk3/8/8/8/8/8/8/4K3 w - - 0 1", {"pawn on d8"});
    expect_refused("4k2P/8/8/8/8/8/8/4K3 w - - 0 1", {"pawn on h8"});
}

TEST(FenN1, RefusesSideNotToMoveInCheck) {
    expect_refused("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", {"side not to move", "(black)", "check"});
    expect_refused("4k3/8/8/8/8/8/8/r3K3 b - - 0 1", {"side not to move", "(white)", "check"});
    // The same boards with the checked side to move are fine.
    EXPECT_EQ(fen_error("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1"), "");
    EXPECT_EQ(fen_error("4k3/8/8/8/8/8/8/r3K3 w - - 0 1"), "");
}

TEST(FenN1, RefusesAdjacentKings) {
    expect_refused("8/8/8/8/8/8/3k4/4K3 w - - 0 1", {"kings", "adjacent"});
    expect_refused("8/8/8/8/8/8/8/3kK3 b - - 0 1", {"adjacent"});
}

TEST(FenN1, RefusesMoreThanEightPawns) {
    expect_refused("4k3/8/8/8/P7/8/PPPPPPPP/4K3 w - - 0 1", {"more than 8 white pawns"});
    expect_refused("4k3/pppppppp/8/7p/8/8/8/4K3 w - - 0 1", {"more than 8 black pawns"});
}

TEST(FenN1, RefusesMoreThanSixteenPieces) {
    expect_refused("4k3/8/8/8/8/NNNNNNNN/NNNNNNNN/4K3 w - - 0 1", {"more than 16 white pieces"});
}

TEST(FenN1, RefusesTripleCheck) {
    expect_refused("4k3/8/8/4r3/8/8/3q1q2/4K3 w - - 0 1", {"more than two"});
}

TEST(FenN1, RefusesCastlingRightsWithoutKingOrRook) {
    // Caught by the FEN reader, which has to find the rook a letter stands for.
    expect_refused("4k3/8/8/8/8/8/8/4K3 w K - 0 1", {"'K'", "no white rook"});
    EXPECT_EQ(fen_error("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"), "");
    expect_refused("4k3/8/8/8/8/8/4K3/R6R w KQ - 0 1", {"'K'", "no white king"});
    expect_refused("r3k3/8/8/8/8/8/8/4K3 w k - 0 1", {"'k'", "no black rook"});
    expect_refused("4k3/8/8/8/8/8/8/R3K3 w B - 0 1", {"no white rook on b1"});

    // Caught by Position::from_setup when a Setup is built by hand.
    outpost::Setup s = setup_of("4k3/8/8/8/8/8/8/R3K2R w - - 0 1");
    s.castling_rooks = square_bb(SQ_H1);
    EXPECT_EQ(setup_error(s), "");
    s.board[SQ_H1] = NO_PIECE;
    EXPECT_NE(setup_error(s).find("without a white rook on h1"), std::string::npos) << setup_error(s);

    s = setup_of("4k3/8/8/8/8/8/4K3/R6R w - - 0 1");
    s.castling_rooks = square_bb(SQ_A1);
    EXPECT_NE(setup_error(s, true).find("without the white king on its back rank"), std::string::npos)
        << setup_error(s, true);

    s = setup_of("4k3/8/8/8/7R/8/8/4K3 w - - 0 1");
    s.castling_rooks = square_bb(SQ_H4);
    EXPECT_NE(setup_error(s, true).find("not on a back rank"), std::string::npos) << setup_error(s, true);

    s = setup_of("4k3/8/8/8/8/8/8/4K1RR w - - 0 1");
    s.castling_rooks = square_bb(SQ_G1) | square_bb(SQ_H1);
    EXPECT_NE(setup_error(s, true).find("two white castling rights on the king side"), std::string::npos)
        << setup_error(s, true);

    s = setup_of("4k3/8/8/8/8/8/8/4K2r w - - 0 1");
    s.castling_rooks = square_bb(SQ_H1);  // a black rook on White's back rank
    EXPECT_FALSE(setup_error(s, true).empty());
}

TEST(FenN1, RefusesImpossibleEnPassantSquares) {
    // Wrong rank for the side to move.
    expect_refused("4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1", {"impossible en passant square e3", "rank 6"});
    expect_refused("4k3/8/8/3p4/8/8/8/4K3 b - d6 0 1", {"impossible en passant square d6", "rank 3"});
    // No pawn that could just have made the double step.
    expect_refused("4k3/8/8/8/8/8/8/4K3 w - d6 0 1", {"impossible en passant square d6", "no black pawn on d5"});
    // The squares the pawn passed must be empty.
    expect_refused("4k3/3n4/8/3p4/8/8/8/4K3 w - d6 0 1", {"impossible en passant square d6", "empty"});
    expect_refused("4k3/8/3n4/3p4/8/8/8/4K3 w - d6 0 1", {"impossible en passant square d6", "empty"});
}

TEST(FenN1, RefusesBadFields) {
    expect_refused("", {"empty"});
    expect_refused("   ", {"empty"});
    expect_refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", {"3 fields", "at least 4"});
    expect_refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", {"7 fields", "at most 6"});
    expect_refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", {"side to move", "'x'"});
    expect_refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", {"unexpected character 'X'"});
    expect_refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", {"more than 8 squares"});
    expect_refused("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", {"unexpected character '9'"});
    expect_refused("rnbqkbnr/pppppppp/72/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", {"rank 6", "more than 8 squares"});
    expect_refused("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", {"rank 7", "7 squares"});
    expect_refused("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", {"8 ranks"});
    expect_refused("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", {"more than 8 ranks"});
    expect_refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", {"en passant", "'e9'"});
    expect_refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e 0 1", {"en passant", "'e'"});
    expect_refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", {"halfmove clock", "'x'"});
    expect_refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 y", {"move number", "'y'"});
    expect_refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -3 1", {"halfmove clock", "negative"});
    expect_refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999999 1", {"halfmove clock"});
    expect_refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkZ - 0 1", {"castling", "'Z'"});
    expect_refused("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqK - 0 1", {"castling", "repeats"});
}

TEST(FenN1, RefusesInvalidPieceCodesInASetup) {
    outpost::Setup s = setup_of("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    s.board[SQ_D4] = Piece(6);
    EXPECT_NE(setup_error(s).find("invalid piece code on d4"), std::string::npos) << setup_error(s);
    s.board[SQ_D4] = Piece(200);
    EXPECT_NE(setup_error(s).find("invalid piece code"), std::string::npos) << setup_error(s);
}

TEST(FenN1, RefusesBadClocksInASetup) {
    outpost::Setup s = setup_of("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    s.halfmove_clock = -1;
    EXPECT_NE(setup_error(s).find("halfmove"), std::string::npos);
    s.halfmove_clock = 0;
    s.fullmove_number = 0;
    EXPECT_NE(setup_error(s).find("fullmove"), std::string::npos);
}

// ---------------------------------------------------------------- garbage

TEST(FenN1, NeverCrashesOnGarbage) {
    const std::vector<std::string> garbage = {
        "/", "//////////", "8/8/8/8/8/8/8/8", "w", "- - - -", "k w - -", "K7/8/8/8/8/8/8/7k",
        "8/8/8/8/8/8/8/8/8 w - - 0 1", "88/8/8/8/8/8/8/8 w - - 0 1", "0/8/8/8/8/8/8/8 w - - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 2 3",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqHAha - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w abcdefgh - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq a1 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq h8 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2147483647 2147483647",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -2147483648 -2147483648",
        std::string("rnbqkbnr/pppp\0ppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 57),
        "\xff\xfe\xfd w - - 0 1", "kkkkkkkk/8/8/8/8/8/8/KKKKKKKK w - - 0 1",
        "K7/8/8/8/8/8/8/k7 w HAha - 0 1", "RK6/8/8/8/8/8/8/rk6 w KQkq - 0 1",
    };
    for (const auto& g : garbage) {
        for (bool c960 : {false, true}) {
            auto pos = position_from_fen(g, c960);
            if (pos.ok())
                EXPECT_TRUE(position_from_fen(to_fen(*pos), c960).ok()) << g;
            else
                EXPECT_FALSE(pos.error().message.empty()) << g;
        }
    }
    // Random mutations of valid FENs (seeded).
    std::mt19937 rng(20240601);
    const std::string alphabet = "pnbrqkPNBRQK12345678/ wb-KQkqAHah0123456789ec";
    const auto fens = epd_fens("standard.epd");
    int accepted = 0;
    for (int i = 0; i < 20000; ++i) {
        std::string s = fens[rng() % fens.size()];
        const int edits = 1 + int(rng() % 4);
        for (int e = 0; e < edits; ++e) {
            const size_t at = rng() % (s.size() + 1);
            switch (rng() % 3) {
            case 0: s.insert(s.begin() + long(at), alphabet[rng() % alphabet.size()]); break;
            case 1: if (at < s.size()) s.erase(at, 1); break;
            default: if (at < s.size()) s[at] = char(rng() % 256); break;
            }
        }
        auto pos = position_from_fen(s, rng() % 2);
        if (!pos.ok()) {
            EXPECT_FALSE(pos.error().message.empty()) << s;
            continue;
        }
        ++accepted;
        auto again = position_from_fen(to_fen(*pos), pos->is_chess960());
        ASSERT_TRUE(again.ok()) << s << " -> " << to_fen(*pos) << ": " << again.error().message;
        EXPECT_EQ(to_fen(*again), to_fen(*pos)) << s;
    }
    EXPECT_GT(accepted, 100);
}

}  // namespace
