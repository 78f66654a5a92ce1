// Chess960 (R16; FIDE Laws, Guidelines II): start position numbering, castling rules,
// and the UCI king-takes-rook castling notation (N2). See docs/laws.md.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "chess/chess960.h"
#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/uci.h"

using namespace outpost;

namespace {

// The white back rank of a position as letters, a to h.
std::string back_rank(const Position& pos) {
    std::string out;
    for (int f = 0; f < 8; ++f) {
        const Piece p = pos.piece_on(make_square(File(f), RANK_1));
        out += p == NO_PIECE ? '.' : "PNBRQK"[type_of(p)];
    }
    return out;
}

Position fen960(const std::string& fen) {
    auto pos = position_from_fen(fen, true);
    EXPECT_TRUE(pos.ok()) << fen << ": " << (pos.ok() ? "" : pos.error().message);
    return pos.ok() ? *pos : Position::startpos();
}

bool can_play(const Position& pos, const std::string& uci) {
    auto m = move_from_uci(pos, uci);
    return m.ok() && legal_moves(pos).contains(*m);
}

int castling_moves(const Position& pos) {
    int n = 0;
    for (Move m : legal_moves(pos)) n += m.kind() == Move::CASTLING;
    return n;
}

// ---------------------------------------------------------------- numbering

TEST(Chess960R16, Number518IsTheClassicalStartPosition) {
    auto pos = chess960_position(518);
    ASSERT_TRUE(pos.ok());
    EXPECT_EQ(back_rank(*pos), "RNBQKBNR");
    EXPECT_EQ(*pos, Position::startpos());
    EXPECT_TRUE(pos->is_chess960());
    EXPECT_EQ(chess960_number(Position::startpos()), 518);
}

TEST(Chess960R16, KnownNumbers) {
    // The standard (Scharnagl) numbering.
    const std::pair<int, const char*> known[] = {
        {0, "BBQNNRKR"}, {1, "BQNBNRKR"}, {2, "BQNNRBKR"}, {3, "BQNNRKRB"}, {4, "QBBNNRKR"},
        {518, "RNBQKBNR"}, {959, "RKRNNQBB"},
    };
    for (auto [n, rank] : known) {
        auto pos = chess960_position(n);
        ASSERT_TRUE(pos.ok()) << n;
        EXPECT_EQ(back_rank(*pos), rank) << n;
    }
    EXPECT_EQ(to_fen(*chess960_position(0)), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
    EXPECT_EQ(to_fen(*chess960_position(959), CastlingNotation::SHREDDER),
              "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1");
}

TEST(Chess960R16, All960StartPositionsAreDistinctValidAndNumbered) {
    std::set<std::string> seen;
    constexpr Bitboard DarkSquares = 0xAA55AA55AA55AA55ULL;
    for (int n = 0; n < 960; ++n) {
        SCOPED_TRACE("position " + std::to_string(n));
        auto pos = chess960_position(n);
        ASSERT_TRUE(pos.ok()) << pos.error().message;
        const std::string rank = back_rank(*pos);
        EXPECT_TRUE(seen.insert(rank).second) << rank << " appears twice";

        // One king, one queen, two of each of rook, bishop, knight.
        EXPECT_EQ(popcount(pos->pieces(WHITE, KING)), 1);
        EXPECT_EQ(popcount(pos->pieces(WHITE, QUEEN)), 1);
        EXPECT_EQ(popcount(pos->pieces(WHITE, ROOK)), 2);
        EXPECT_EQ(popcount(pos->pieces(WHITE, BISHOP)), 2);
        EXPECT_EQ(popcount(pos->pieces(WHITE, KNIGHT)), 2);
        EXPECT_EQ(pos->pieces(WHITE, PAWN), rank_bb(RANK_2));
        EXPECT_EQ(pos->pieces(BLACK, PAWN), rank_bb(RANK_7));
        EXPECT_EQ(popcount(pos->pieces()), 32);

        // Bishops on opposite colours.
        const Bitboard bishops = pos->pieces(WHITE, BISHOP);
        EXPECT_EQ(popcount(bishops & DarkSquares), 1) << rank;

        // King between the rooks, which hold the castling rights.
        const Square k = pos->king_square(WHITE);
        const Square r_low = lsb(pos->pieces(WHITE, ROOK)), r_high = msb(pos->pieces(WHITE, ROOK));
        EXPECT_LT(r_low, k);
        EXPECT_LT(k, r_high);
        EXPECT_EQ(pos->castling_rook(WHITE, QUEEN_SIDE), r_low);
        EXPECT_EQ(pos->castling_rook(WHITE, KING_SIDE), r_high);
        EXPECT_EQ(pos->castling_rights(), ALL_CASTLING);

        // Black mirrors White.
        for (int f = 0; f < 8; ++f) {
            const Piece w = pos->piece_on(make_square(File(f), RANK_1));
            EXPECT_EQ(pos->piece_on(make_square(File(f), RANK_8)), make_piece(BLACK, type_of(w)));
        }
        EXPECT_EQ(pos->side_to_move(), WHITE);
        EXPECT_TRUE(pos->is_chess960());

        // The number is the inverse, also after a FEN round trip.
        EXPECT_EQ(chess960_number(*pos), n);
        EXPECT_EQ(chess960_number(fen960(to_fen(*pos))), n);
    }
    EXPECT_EQ(seen.size(), 960u);
}

TEST(Chess960R16, NumbersOutsideTheRangeAreRefused) {
    for (int n : {-1, 960, 100000}) {
        auto pos = chess960_position(n);
        ASSERT_FALSE(pos.ok()) << n;
        EXPECT_NE(pos.error().message.find("0-959"), std::string::npos) << pos.error().message;
    }
}

TEST(Chess960R16, NonStartPositionsHaveNoNumber) {
    Position pos = *chess960_position(100);
    pos.do_move(*move_from_uci(pos, "e2e4"));
    EXPECT_EQ(chess960_number(pos), std::nullopt);
    EXPECT_EQ(chess960_number(fen960("4k3/8/8/8/8/8/8/4K3 w - - 0 1")), std::nullopt);
}

// ---------------------------------------------------------------- castling rules

TEST(Chess960R16, CastlingPutsKingAndRookOnTheClassicalSquares) {
    // King b1 and rook a1 (O-O-O), rook h1 (O-O), everything else cleared.
    Position pos = fen960("r5kr/8/8/8/8/8/8/RK5R w HAha - 0 1");
    Position oo = pos.after(*move_from_uci(pos, "b1h1"));
    EXPECT_EQ(oo.piece_on(SQ_G1), W_KING);
    EXPECT_EQ(oo.piece_on(SQ_F1), W_ROOK);
    EXPECT_TRUE(oo.empty(SQ_B1) && oo.empty(SQ_H1));
    EXPECT_EQ(oo.castling_rights() & (WHITE_OO | WHITE_OOO), 0);
    Position ooo = pos.after(*move_from_uci(pos, "b1a1"));
    EXPECT_EQ(ooo.piece_on(SQ_C1), W_KING);
    EXPECT_EQ(ooo.piece_on(SQ_D1), W_ROOK);
    EXPECT_TRUE(ooo.empty(SQ_A1) && ooo.empty(SQ_B1));

    // Black: king g8, rook a8 (O-O-O, the king crosses to c8) and h8 (O-O, the king
    // stays on g8).
    pos = fen960("r5kr/8/8/8/8/8/8/RK5R b HAha - 0 1");
    Position black_ooo = pos.after(*move_from_uci(pos, "g8a8"));
    EXPECT_EQ(black_ooo.piece_on(SQ_C8), B_KING);
    EXPECT_EQ(black_ooo.piece_on(SQ_D8), B_ROOK);
    Position black_oo = pos.after(*move_from_uci(pos, "g8h8"));
    EXPECT_EQ(black_oo.piece_on(SQ_G8), B_KING);
    EXPECT_EQ(black_oo.piece_on(SQ_F8), B_ROOK);
}

TEST(Chess960R16, SquaresBetweenMustBeEmptyExceptForKingAndRook) {
    // A knight on the rook's destination d1.
    EXPECT_FALSE(can_play(fen960("4k3/8/8/8/8/8/8/RK1N4 w A - 0 1"), "b1a1"));
    EXPECT_TRUE(can_play(fen960("4k3/8/8/8/8/8/8/RK2N3 w A - 0 1"), "b1a1"));
    // A knight on the king's destination g1.
    EXPECT_FALSE(can_play(fen960("4k3/8/8/8/8/8/8/5KNR w H - 0 1"), "f1h1"));
    // A knight on the king's path (e1) of a long walk b1 -> g1.
    EXPECT_FALSE(can_play(fen960("4k3/8/8/8/8/8/8/1K2N2R w H - 0 1"), "b1h1"));
    EXPECT_TRUE(can_play(fen960("k7/8/8/8/8/8/8/1K5R w H - 0 1"), "b1h1"));
    // A piece between the rook and its destination (rook a1 -> d1 through b1, c1).
    EXPECT_FALSE(can_play(fen960("4k3/8/8/8/8/8/8/RBK5 w A - 0 1"), "c1a1"));
    EXPECT_TRUE(can_play(fen960("4k3/8/8/8/8/8/8/R1K5 w A - 0 1"), "c1a1"));
}

TEST(Chess960R16, KingMayNotBeInCheckPassOrLandOnAnAttackedSquare) {
    // In check from b8.
    EXPECT_FALSE(can_play(fen960("1r2k3/8/8/8/8/8/8/RK6 w A - 0 1"), "b1a1"));
    // Lands on c1, attacked from c8.
    EXPECT_FALSE(can_play(fen960("2r1k3/8/8/8/8/8/8/RK6 w A - 0 1"), "b1a1"));
    // Passes d1 on the way b1 -> g1.
    EXPECT_FALSE(can_play(fen960("k2r4/8/8/8/8/8/8/1K5R w H - 0 1"), "b1h1"));
    // Only the rook's destination d1 is attacked: that is allowed.
    EXPECT_TRUE(can_play(fen960("3rk3/8/8/8/8/8/8/RK6 w A - 0 1"), "b1a1"));
    // The rook passes an attacked square (b1 on its way a1 -> d1): allowed.
    EXPECT_TRUE(can_play(fen960("1r2k3/8/8/8/8/8/8/R1K5 w A - 0 1"), "c1a1"));
}

TEST(Chess960R16, RightsAreLostWhenKingOrRookMoves) {
    Position pos = fen960("r5kr/8/8/8/8/8/8/RK5R w HAha - 0 1");
    Position rook_moved = pos.after(*move_from_uci(pos, "h1h2"));
    EXPECT_FALSE(rook_moved.can_castle(WHITE, KING_SIDE));
    EXPECT_TRUE(rook_moved.can_castle(WHITE, QUEEN_SIDE));
    EXPECT_TRUE(rook_moved.can_castle(BLACK, KING_SIDE) && rook_moved.can_castle(BLACK, QUEEN_SIDE));
    EXPECT_EQ(to_fen(rook_moved, CastlingNotation::SHREDDER), "r5kr/8/8/8/8/8/7R/RK6 b Aha - 1 1");

    Position king_moved = pos.after(*move_from_uci(pos, "b1c1"));
    EXPECT_FALSE(king_moved.can_castle(WHITE, KING_SIDE) || king_moved.can_castle(WHITE, QUEEN_SIDE));

    // A rook captured on its square takes the right with it.
    Position capture = fen960("r5kr/8/8/8/8/8/8/RK5R b HAha - 0 1");
    capture = capture.after(*move_from_uci(capture, "h8h1"));
    EXPECT_FALSE(capture.can_castle(WHITE, KING_SIDE));
    EXPECT_TRUE(capture.can_castle(WHITE, QUEEN_SIDE));
    EXPECT_FALSE(capture.can_castle(BLACK, KING_SIDE));
    EXPECT_TRUE(capture.can_castle(BLACK, QUEEN_SIDE));
}

// Only one of the two castlings, or castling on the very first move (R16).
TEST(Chess960R16, CastlingAvailabilityFromStartPositions) {
    int starts_with_castling = 0;
    for (int n = 0; n < 960; ++n) {
        const Position pos = *chess960_position(n);
        const int c = castling_moves(pos);
        EXPECT_LE(c, 1) << n;  // at most one side's squares can be clear on move 1
        starts_with_castling += c;
        // Castling on move 1 needs king and rook side by side with the king's
        // destination being the rook's square (f/g or d/c), or king already there.
        if (c == 1) {
            const std::string rank = back_rank(pos);
            EXPECT_TRUE(rank.substr(5, 2) == "KR" || rank.substr(2, 2) == "RK") << n << " " << rank;
        }
    }
    EXPECT_GT(starts_with_castling, 0);
    // RNBBQKRN: O-O (f1 -> g1, g1 -> f1) is legal at once.
    Position pos = *position_from_fen("rnbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/RNBBQKRN w GAga - 0 1", true);
    EXPECT_TRUE(can_play(pos, "f1g1"));
}

// ---------------------------------------------------------------- N2 king takes rook

TEST(UciN2, Chess960CastlingIsKingTakesRook) {
    Position pos = fen960("r5kr/8/8/8/8/8/8/RK5R w HAha - 0 1");
    for (Move m : legal_moves(pos)) {
        if (m.kind() != Move::CASTLING) continue;
        const std::string uci = move_to_uci(pos, m);
        EXPECT_TRUE(uci == "b1h1" || uci == "b1a1") << uci;
        EXPECT_EQ(move_from_uci(pos, uci).value(), m);
    }
    EXPECT_EQ(castling_moves(pos), 2);
    // b1c1 is a plain king step, not castling, in Chess960 mode.
    auto step = move_from_uci(pos, "b1c1");
    ASSERT_TRUE(step.ok());
    EXPECT_NE(step->kind(), Move::CASTLING);
    EXPECT_FALSE(move_from_uci(pos, "b1g1").ok());
}

TEST(UciN2, ClassicalStartInChess960ModeOnlyAcceptsKingTakesRook) {
    Position pos = fen960("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    ASSERT_TRUE(pos.is_chess960());
    auto oo = move_from_uci(pos, "e1h1");
    ASSERT_TRUE(oo.ok());
    EXPECT_EQ(oo->kind(), Move::CASTLING);
    EXPECT_EQ(move_to_uci(pos, *oo), "e1h1");
    EXPECT_FALSE(move_from_uci(pos, "e1g1").ok());
    EXPECT_FALSE(move_from_uci(pos, "e1c1").ok());
    EXPECT_EQ(move_to_uci(*move_from_uci(pos, "e1a1"), true), "e1a1");
    EXPECT_EQ(move_to_uci(*move_from_uci(pos, "e1a1"), false), "e1c1");
}

// A king step onto the square next to the castling rook and castling itself are
// different moves with different UCI text.
TEST(UciN2, KingStepAndCastlingAreDistinguished) {
    Position pos = fen960("4k3/8/8/8/8/8/8/5K1R w H - 0 1");
    auto step = move_from_uci(pos, "f1g1");
    auto castle = move_from_uci(pos, "f1h1");
    ASSERT_TRUE(step.ok() && castle.ok());
    EXPECT_EQ(step->kind(), Move::NORMAL);
    EXPECT_EQ(castle->kind(), Move::CASTLING);
    const Position a = pos.after(*step), b = pos.after(*castle);
    EXPECT_EQ(a.piece_on(SQ_H1), W_ROOK);
    EXPECT_EQ(b.piece_on(SQ_F1), W_ROOK);
    EXPECT_EQ(a.piece_on(SQ_G1), W_KING);
    EXPECT_EQ(b.piece_on(SQ_G1), W_KING);
}

}  // namespace
