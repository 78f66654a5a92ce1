// Perft over the EPD suites (R2-R5, R16; FIDE 3.1-3.10 and Guidelines II, see
// docs/laws.md) at shallow depths, plus named regression positions. Deeper depths of
// the same files run in tests/slow/perft_deep_test.cpp.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// tests/data/standard.epd and fischer.epd hold lines `FEN ;D1 n ;D2 n ...` whose
// counts come from Stockfish (tests/data/gen_perft_epd.py). Each line is one
// parameterised test, named after its line number; the FEN is printed with every
// failure. fischer.epd uses Shredder-FEN and is read in Chess960 mode.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "../support/perft_epd.h"
#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/perft.h"
#include "chess/uci.h"

using namespace outpost;

namespace {

using test::epd_entry_name;
using test::EpdEntry;
using test::load_perft_epd;
using test::UnitPerftNodeCap;

class PerftEpd : public testing::TestWithParam<EpdEntry> {};

TEST_P(PerftEpd, ShallowDepthsMatchStockfish) {
    const EpdEntry& e = GetParam();
    ASSERT_FALSE(e.counts.empty()) << e.file << ":" << e.line << " has no ;Dn counts";
    auto pos = position_from_fen(e.fen, e.chess960);
    ASSERT_TRUE(pos.ok()) << e.fen << ": " << pos.error().message;
    for (auto [depth, expected] : e.counts) {
        if (expected > UnitPerftNodeCap) continue;
        EXPECT_EQ(perft(*pos, depth), expected) << e.file << ":" << e.line << " depth " << depth << " " << e.fen;
    }
}

// Both files exist and are not silently empty (a missing file would instantiate
// no tests at all).
TEST(PerftR2, EpdFilesAreLoaded) {
    EXPECT_GE(load_perft_epd("standard.epd", false).size(), 100u);
    EXPECT_GE(load_perft_epd("fischer.epd", true).size(), 60u);
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(PerftR2Standard, PerftEpd, testing::ValuesIn(load_perft_epd("standard.epd", false)),
                         epd_entry_name);
INSTANTIATE_TEST_SUITE_P(PerftR16Fischer, PerftEpd, testing::ValuesIn(load_perft_epd("fischer.epd", true)),
                         epd_entry_name);

namespace {

// perft(depth) == sum of perft_divide, and divide lists each legal move once.
TEST(PerftR2, DivideSumsToPerft) {
    const auto pos = position_from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    ASSERT_TRUE(pos.ok());
    const auto divide = perft_divide(*pos, 3);
    std::uint64_t sum = 0;
    for (const auto& [move, count] : divide) sum += count;
    EXPECT_EQ(sum, 97862u);
    EXPECT_EQ(divide.size(), 48u);
    EXPECT_EQ(perft(*pos, 0), 1u);
    EXPECT_EQ(perft(*pos, 1), 48u);
}

// Named regression positions: each count is Stockfish 15.1's `go perft`.
struct Regression {
    const char* name;
    const char* fen;
    bool chess960;
    int depth;
    std::uint64_t nodes;
    int depth1;  // legal moves at the root
};

void check(const Regression& r) {
    SCOPED_TRACE(std::string(r.name) + ": " + r.fen);
    auto pos = position_from_fen(r.fen, r.chess960);
    ASSERT_TRUE(pos.ok()) << pos.error().message;
    EXPECT_EQ(perft(*pos, 1), std::uint64_t(r.depth1));
    EXPECT_EQ(perft(*pos, r.depth), r.nodes);
}

bool has_move(const Position& pos, const char* uci) {
    auto m = move_from_uci(pos, uci);
    return m.ok() && legal_moves(pos).contains(*m);
}

// R3: the capturing pawn and the captured pawn both leave the fifth rank, which
// opens the rank between king and rook.
TEST(PerftR3, EnPassantHorizontalPin) {
    check({"ep horizontal pin", "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1", false, 5, 33070, 4});
    auto pos = position_from_fen("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1");
    EXPECT_FALSE(has_move(*pos, "b5c6"));
    EXPECT_EQ(pos->ep_square(), SQ_NONE) << "the en passant capture is illegal, so no ep square counts";
}

// R3/R5: a pawn pinned on a diagonal may not capture en passant off that diagonal...
TEST(PerftR3, EnPassantDiagonalPinOffTheLine) {
    check({"ep diagonal pin, off line", "7b/8/8/3pP3/8/8/1K6/4k3 w - d6 0 1", false, 5, 24899, 8});
}

// ...but may capture along it.
TEST(PerftR3, EnPassantDiagonalPinAlongTheLine) {
    check({"ep diagonal pin, along line", "1b6/8/8/3pP3/8/8/7K/4k3 w - d6 0 1", false, 5, 17370, 6});
    auto pos = position_from_fen("1b6/8/8/3pP3/8/8/7K/4k3 w - d6 0 1");
    EXPECT_TRUE(has_move(*pos, "e5d6"));
}

// R3/R5: en passant removes a pawn that gives check.
TEST(PerftR3, EnPassantCapturesTheChecker) {
    check({"ep captures checker", "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", false, 5, 17879, 9});
    auto pos = position_from_fen("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
    ASSERT_TRUE(pos->in_check());
    EXPECT_TRUE(has_move(*pos, "e4d3"));
}

// R16: the king already stands on g1; castling moves only the rook.
TEST(PerftR16, CastlingKingDoesNotMove) {
    check({"960 king does not move", "4k3/8/8/8/8/8/8/6KR w H - 0 1", true, 4, 5571, 12});
    auto pos = position_from_fen("4k3/8/8/8/8/8/8/6KR w H - 0 1", true);
    ASSERT_TRUE(has_move(*pos, "g1h1"));
    auto after = pos->after(*move_from_uci(*pos, "g1h1"));
    EXPECT_EQ(after.piece_on(SQ_G1), W_KING);
    EXPECT_EQ(after.piece_on(SQ_F1), W_ROOK);
    EXPECT_TRUE(after.empty(SQ_H1));
    EXPECT_FALSE(after.can_castle(WHITE, KING_SIDE));
}

// R16: the castling rook stands on the king's destination square.
TEST(PerftR16, CastlingRookOnKingDestination) {
    check({"960 rook on king destination", "4k3/8/8/8/8/8/8/R3K1R1 w GA - 0 1", true, 4, 15941, 26});
    auto pos = position_from_fen("4k3/8/8/8/8/8/8/R3K1R1 w GA - 0 1", true);
    auto after = pos->after(*move_from_uci(*pos, "e1g1"));
    EXPECT_EQ(after.piece_on(SQ_G1), W_KING);
    EXPECT_EQ(after.piece_on(SQ_F1), W_ROOK);
    EXPECT_TRUE(after.empty(SQ_E1));
}

// R16: king and rook swap squares (king d1, rook c1, O-O-O).
TEST(PerftR16, CastlingKingAndRookSwap) {
    check({"960 king and rook swap", "4k3/8/8/8/8/8/8/2RK3R w HC - 0 1", true, 4, 14843, 25});
    auto pos = position_from_fen("4k3/8/8/8/8/8/8/2RK3R w HC - 0 1", true);
    auto after = pos->after(*move_from_uci(*pos, "d1c1"));
    EXPECT_EQ(after.piece_on(SQ_C1), W_KING);
    EXPECT_EQ(after.piece_on(SQ_D1), W_ROOK);
    after = pos->after(*move_from_uci(*pos, "d1h1"));
    EXPECT_EQ(after.piece_on(SQ_G1), W_KING);
    EXPECT_EQ(after.piece_on(SQ_F1), W_ROOK);
}

// R16: the castling rook shields the king from a queen on a1 along the first rank;
// once the rook has gone to d1 the king on c1 would stand in check.
TEST(PerftR16, CastlingRookShieldsKingAlongFirstRank) {
    check({"960 rook shields king", "4k3/8/8/8/8/8/8/qRK5 w B - 0 1", true, 4, 19079, 4});
    auto pos = position_from_fen("4k3/8/8/8/8/8/8/qRK5 w B - 0 1", true);
    EXPECT_FALSE(has_move(*pos, "c1b1"));
}

// R16: castling as the very first move of a Chess960 game (king f1, rook g1).
TEST(PerftR16, CastlingOnTheFirstMove) {
    check({"960 castling on move 1", "rnbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/RNBBQKRN w GAga - 0 1", true, 5, 4857777,
           20});
    auto pos = position_from_fen("rnbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/RNBBQKRN w GAga - 0 1", true);
    EXPECT_TRUE(has_move(*pos, "f1g1"));
}

}  // namespace
