// Zobrist keys in the Polyglot layout, and the repetition key of R9.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "chess/chess960.h"
#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/uci.h"
#include "chess/zobrist.h"

using namespace outpost;

namespace {

Position play(const std::string& moves) {
    Position pos = Position::startpos();
    std::istringstream in(moves);
    std::string uci;
    while (in >> uci) {
        auto m = move_from_uci(pos, uci);
        EXPECT_TRUE(m.ok()) << uci;
        if (!m.ok()) break;
        pos.do_move(*m);
    }
    return pos;
}

// The Polyglot key computed from scratch with the published formula, independent
// of Position's own bookkeeping.
Key key_from_scratch(const Position& pos) {
    Key k = 0;
    for (int s = 0; s < 64; ++s) {
        const Piece p = pos.piece_on(Square(s));
        if (p == NO_PIECE) continue;
        const int kind = 2 * type_of(p) + (color_of(p) == WHITE);
        k ^= zobrist::Polyglot[64 * kind + s];
    }
    if (pos.can_castle(WHITE, KING_SIDE)) k ^= zobrist::Polyglot[768];
    if (pos.can_castle(WHITE, QUEEN_SIDE)) k ^= zobrist::Polyglot[769];
    if (pos.can_castle(BLACK, KING_SIDE)) k ^= zobrist::Polyglot[770];
    if (pos.can_castle(BLACK, QUEEN_SIDE)) k ^= zobrist::Polyglot[771];
    // Polyglot: the en passant file counts when a pawn of the side to move stands
    // beside the pawn that has just made a double step.
    if (pos.pseudo_ep_square() != SQ_NONE) k ^= zobrist::Polyglot[772 + file_of(pos.pseudo_ep_square())];
    if (pos.side_to_move() == WHITE) k ^= zobrist::Polyglot[780];
    return k;
}

// The published test keys of the Polyglot book format (see tests/data/polyglot_check.py).
TEST(ZobristR9, PolyglotTestKeys) {
    const std::pair<const char*, Key> cases[] = {
        {"", 0x463b96181691fc9cULL},
        {"e2e4", 0x823c9b50fd114196ULL},
        {"e2e4 d7d5", 0x0756b94461c50fb0ULL},
        {"e2e4 d7d5 e4e5", 0x662fafb965db29d4ULL},
        {"e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78ULL},
        {"e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1ULL},
        {"e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9ULL},
        {"a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637ULL},
        {"a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560ULL},
    };
    for (auto [moves, expected] : cases) {
        const Position pos = play(moves);
        EXPECT_EQ(pos.key(), expected) << "after '" << moves << "'";
        EXPECT_EQ(key_from_scratch(pos), expected) << "after '" << moves << "'";
    }
}

// The same keys from FEN: the positions the Polyglot specification lists.
TEST(ZobristR9, PolyglotTestKeysFromFen) {
    const std::pair<const char*, Key> cases[] = {
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b96181691fc9cULL},
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823c9b50fd114196ULL},
        {"rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756b94461c50fb0ULL},
        {"rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662fafb965db29d4ULL},
        {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22a48b5a8e47ff78ULL},
        {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3", 0x652a607ca3f242c1ULL},
        {"rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4", 0x00fdd303c946bdd9ULL},
        {"rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", 0x3c8123ea7b067637ULL},
        {"rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4", 0x5c3f9b829b279560ULL},
    };
    for (auto [fen, expected] : cases) {
        auto pos = position_from_fen(fen);
        ASSERT_TRUE(pos.ok()) << fen;
        EXPECT_EQ(pos->key(), expected) << fen;
    }
}

// The compiled table is the one in tests/data/polyglot.txt (checked against
// ISAAC-64 by polyglot_check.py).
TEST(ZobristR9, TableMatchesPolyglotFile) {
    std::ifstream in(std::string(OUTPOST_TEST_DATA) + "/polyglot.txt");
    std::string line;
    int i = 0;
    while (std::getline(in, line) && i < 781) {
        const Key k = std::stoull(line, nullptr, 16);
        EXPECT_EQ(zobrist::Polyglot[i], k) << "entry " << i;
        ++i;
    }
    EXPECT_EQ(i, 781);
    EXPECT_EQ(zobrist::Polyglot[0], 0x9D39247E33776D41ULL);
    EXPECT_EQ(zobrist::Polyglot[780], 0xF8D626AAAF278509ULL);
}

// The key kept by do_move equals the key computed from scratch, at every ply of
// seeded random games, standard and Chess960.
TEST(ZobristR9, IncrementalKeyEqualsRecomputedKeyOverRandomPlayouts) {
    std::mt19937_64 rng(0x5eed7);
    int plies = 0;
    for (int game = 0; game < 300; ++game) {
        Position pos = game % 3 == 2 ? *chess960_position(int(rng() % 960)) : Position::startpos();
        for (int ply = 0; ply < 200; ++ply) {
            const MoveList moves = legal_moves(pos);
            if (moves.empty()) break;
            pos.do_move(moves[int(rng() % std::uint64_t(moves.size()))]);
            ++plies;
            ASSERT_EQ(pos.key(), key_from_scratch(pos)) << to_fen(pos);

            // Rebuilt from its Setup (with the pseudo-legal en passant square that
            // Polyglot counts), the position has the same key.
            outpost::Setup s = pos.to_setup();
            s.ep_square = pos.pseudo_ep_square();
            auto rebuilt = Position::from_setup(s, pos.is_chess960());
            ASSERT_TRUE(rebuilt.ok()) << to_fen(pos) << ": " << rebuilt.error().message;
            ASSERT_EQ(rebuilt->key(), pos.key()) << to_fen(pos);

            // Through FEN (which writes only a legal en passant square) the
            // repetition key survives.
            auto reread = position_from_fen(to_fen(pos), pos.is_chess960());
            ASSERT_TRUE(reread.ok()) << to_fen(pos);
            ASSERT_EQ(reread->repetition_key(), pos.repetition_key()) << to_fen(pos);
            if (pos.ep_square() == pos.pseudo_ep_square()) {
                ASSERT_EQ(reread->key(), pos.key()) << to_fen(pos);
            }
        }
    }
    EXPECT_GT(plies, 20000);
}

TEST(ZobristR9, TranspositionsShareAKey) {
    EXPECT_EQ(play("g1f3 g8f6 f3g1 f6g8").key(), Position::startpos().key());
    EXPECT_EQ(play("e2e4 e7e5 g1f3 b8c6").key(), play("g1f3 b8c6 e2e4 e7e5").key());
    // Same board, different castling rights: different keys.
    EXPECT_NE(play("e2e4 e7e5 e1e2 e8e7 e2e1 e7e8").key(), play("e2e4 e7e5").key());
    // Same board, different side to move: different keys.
    EXPECT_NE(position_from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1")->key(),
              position_from_fen("4k3/8/8/8/8/8/8/4K3 b - - 0 1")->key());
}

// R9: an en passant right counts for repetition only when the capture is legal.
TEST(ZobristR9, RepetitionKeyIgnoresAnIllegalEnPassantRight) {
    // c6 is pseudo-legal (b5 stands beside c5) but exposes the king on a5.
    auto with_ep = position_from_fen("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1");
    auto without = position_from_fen("8/8/8/KPp4r/8/8/8/4k3 w - - 0 1");
    ASSERT_TRUE(with_ep.ok() && without.ok());
    EXPECT_EQ(with_ep->pseudo_ep_square(), SQ_C6);
    EXPECT_EQ(with_ep->ep_square(), SQ_NONE);
    EXPECT_NE(with_ep->key(), without->key()) << "Polyglot counts the pseudo-legal capture";
    EXPECT_EQ(with_ep->repetition_key(), without->repetition_key());
    EXPECT_EQ(without->repetition_key(), without->key());

    // A legal en passant capture makes the positions different for R9.
    auto legal_ep = position_from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    auto no_ep = position_from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3");
    ASSERT_TRUE(legal_ep.ok() && no_ep.ok());
    EXPECT_NE(legal_ep->repetition_key(), no_ep->repetition_key());
    EXPECT_EQ(legal_ep->repetition_key(), legal_ep->key());

    // A pawn that is not beside the double-stepped pawn gives no right at all.
    auto far = position_from_fen("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1");
    auto far_none = position_from_fen("4k3/8/8/3p4/8/8/8/4K3 w - - 0 1");
    EXPECT_EQ(far->key(), far_none->key());
}

// The same through play: after 1.e4 ... a double step next to a pinned pawn.
TEST(ZobristR9, RepetitionKeyAfterAPinnedDoubleStepInPlay) {
    // Black pawn c7-c5 next to the white pawn b5, which is pinned to a5 by h5.
    auto pos = position_from_fen("8/2p5/8/KP5r/8/8/8/4k3 b - - 0 1");
    ASSERT_TRUE(pos.ok());
    const Position after = pos->after(*move_from_uci(*pos, "c7c5"));
    auto reached_without_ep = position_from_fen("8/8/8/KPp4r/8/8/8/4k3 w - - 0 2");
    ASSERT_TRUE(reached_without_ep.ok());
    EXPECT_EQ(after.pseudo_ep_square(), SQ_C6);
    EXPECT_EQ(after.repetition_key(), reached_without_ep->repetition_key());
}

TEST(ZobristR9, NullMoveFlipsTheSideAndClearsEnPassant) {
    Position pos = play("e2e4 d7d5 e4e5 f7f5");  // White may take f6 en passant
    ASSERT_EQ(pos.pseudo_ep_square(), SQ_F6);
    const Key before = pos.key();
    pos.do_null_move();
    EXPECT_EQ(pos.side_to_move(), BLACK);
    EXPECT_EQ(pos.pseudo_ep_square(), SQ_NONE);
    EXPECT_EQ(pos.key(), before ^ zobrist::white_to_move() ^ zobrist::en_passant(FILE_F));
    EXPECT_EQ(pos.key(), key_from_scratch(pos));
}

}  // namespace
