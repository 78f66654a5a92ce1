// Position: checkmate and stalemate (R6; FIDE 1.2, 5.1.1, 5.2.1), dead positions by
// material (R7; FIDE 5.2.2), check (R5; FIDE 3.9, 3.10), and seeded random-playout
// properties of the move generator (FIDE 3). See docs/laws.md.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>

#include "chess/chess960.h"
#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/uci.h"

using namespace outpost;

namespace {

Position from(const std::string& fen) {
    auto pos = position_from_fen(fen);
    EXPECT_TRUE(pos.ok()) << fen << ": " << (pos.ok() ? "" : pos.error().message);
    return pos.ok() ? *pos : Position::startpos();
}

std::set<std::uint16_t> as_set(const MoveList& list) {
    std::set<std::uint16_t> s;
    for (Move m : list) s.insert(m.raw());
    return s;
}

// ---------------------------------------------------------------- R6

TEST(PositionR6, Checkmates) {
    for (const char* fen : {
             "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",  // fool's mate
             "6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1",                              // smothered mate
             "3R2k1/5ppp/8/8/8/8/8/6K1 b - - 0 1",                            // back rank
             "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1",                                // queen supported
             "4k3/4Q3/4K3/8/8/8/8/8 b - - 0 1",
             "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4",  // scholar's mate
         }) {
        const Position pos = from(fen);
        EXPECT_TRUE(pos.in_check()) << fen;
        EXPECT_TRUE(pos.is_checkmate()) << fen;
        EXPECT_FALSE(pos.is_stalemate()) << fen;
        EXPECT_FALSE(pos.has_legal_moves()) << fen;
        EXPECT_EQ(legal_moves(pos).size(), 0) << fen;
    }
}

TEST(PositionR6, Stalemates) {
    for (const char* fen : {
             "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
             "k7/8/1Q6/8/8/8/8/7K b - - 0 1",
             "8/8/8/8/8/6k1/6p1/6K1 w - - 0 1",           // king blocked by a pawn
             "5bnr/4p1pq/4Qpkr/7p/7P/4P3/PPPP1PP1/RNB1KBNR b KQ - 2 10",  // Sam Loyd's 10-move stalemate
         }) {
        const Position pos = from(fen);
        EXPECT_FALSE(pos.in_check()) << fen;
        EXPECT_TRUE(pos.is_stalemate()) << fen;
        EXPECT_FALSE(pos.is_checkmate()) << fen;
    }
}

TEST(PositionR6, CheckThatIsNotMate) {
    for (const char* fen : {
             "4k3/8/8/8/8/8/8/4K2R b - - 0 1",  // not even check
             "4k3/4Q3/8/8/8/8/8/4K3 b - - 0 1",  // the king takes the queen
             "r3k3/8/8/8/8/8/8/R3K3 b - - 0 1",
             "5r1k/5Npp/8/8/8/8/8/6K1 b - - 0 1",  // g8 is free: not smothered
             "4k3/8/8/8/8/8/8/4K2r w - - 0 1",     // in check, the king steps away
         }) {
        const Position pos = from(fen);
        EXPECT_FALSE(pos.is_checkmate()) << fen;
        EXPECT_FALSE(pos.is_stalemate()) << fen;
        EXPECT_TRUE(pos.has_legal_moves()) << fen;
    }
}

// R5: a pinned piece still gives check.
TEST(PositionR5, PinnedPieceStillGivesCheck) {
    // The black rook on e5 is pinned to its king by the rook on e1, and still
    // checks the white king on a5 along the fifth rank.
    const Position pos = from("4k3/8/8/K3r3/8/8/8/4R3 w - - 0 1");
    EXPECT_TRUE(pos.in_check());
    EXPECT_EQ(pos.checkers(), square_bb(SQ_E5));
    EXPECT_EQ(pos.pinned(BLACK), square_bb(SQ_E5));
    // The king may not step to b5, still on the rook's rank.
    EXPECT_FALSE(move_from_uci(pos, "a5b5").ok());
    EXPECT_TRUE(move_from_uci(pos, "a5b6").ok());
}

TEST(PositionR5, PinnedPiecesMoveOnlyAlongThePin) {
    const Position pos = from("4k3/4r3/8/1b6/8/3N4/4R3/4K3 w - - 0 1");
    // The rook on e2 is pinned by e7; the knight on d3 stands on no line to the king.
    EXPECT_EQ(pos.pinned(WHITE), square_bb(SQ_E2));
    for (Move m : legal_moves(pos))
        if (m.from() == SQ_E2) {
            EXPECT_EQ(file_of(m.to()), FILE_E) << move_to_uci(pos, m);
        }
}

TEST(PositionR5, IsLegalMatchesTheGeneratorForEveryMoveKind) {
    // Every from/to pair of every kind, in positions with pins, checks, castling and
    // en passant: Position::is_legal must agree with the legal move generator.
    for (const char* f : {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                          "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                          "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                          "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                          "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1", "4k3/8/8/8/8/8/6q1/R3K2R w KQ - 0 1"}) {
        const Position p = from(f);
        const MoveList legal = legal_moves(p);
        for (int sq_from = 0; sq_from < 64; ++sq_from)
            for (int sq_to = 0; sq_to < 64; ++sq_to)
                for (auto kind : {Move::NORMAL, Move::PROMOTION, Move::EN_PASSANT, Move::CASTLING}) {
                    for (int promo = 0; promo < (kind == Move::PROMOTION ? 4 : 1); ++promo) {
                        const Move m(std::uint16_t(kind | (promo << 12) | (sq_to << 6) | sq_from));
                        ASSERT_EQ(p.is_legal(m), legal.contains(m)) << f << " " << sq_from << "-" << sq_to;
                    }
                }
        for (Move m : legal) ASSERT_EQ(p.gives_check(m), p.after(m).in_check()) << f << " " << move_to_uci(p, m);
    }
}

// ---------------------------------------------------------------- R7

TEST(PositionR7, InsufficientMaterialFideCases) {
    // Square colours: a1 is dark; a square is dark when file + rank is even.
    const char* dead[] = {
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",           // K v K
        "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1",         // K+B v K
        "4k3/8/8/8/8/8/8/1N2K3 b - - 0 1",         // K+N v K
        "4kn2/8/8/8/8/8/8/4K3 w - - 0 1",          // K v K+N
        "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1",        // K+B (c1) v K+B (f8): both dark
        "2b1k3/8/8/8/8/8/8/3BK3 w - - 0 1",        // K+B (d1) v K+B (c8): both light
        "4k3/8/8/8/8/8/8/B1B1BK2 w - - 0 1",       // three white bishops, all dark
        "1b2k3/b7/8/8/8/8/8/B1B1BK2 w - - 0 1",    // many bishops of both sides, all dark
    };
    for (const char* fen : dead) EXPECT_TRUE(from(fen).is_insufficient_material()) << fen;
}

TEST(PositionR7, SufficientMaterial) {
    const char* alive[] = {
        "2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1",       // K+B (c1 dark) v K+B (c8 light): mate possible
        "4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1",        // K+N+N v K: cannot be forced, but mate exists
        "4kn2/8/8/8/8/8/8/1N2K3 w - - 0 1",        // K+N v K+N
        "4kn2/8/8/8/8/8/8/2B1K3 w - - 0 1",        // K+B v K+N
        "4k3/8/8/8/8/8/8/2BBK3 w - - 0 1",         // K+B+B on both colours v K
        "4k3/8/8/8/8/8/8/1NB1K3 w - - 0 1",        // K+B+N v K
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",         // a pawn
        "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",          // a rook
        "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",          // a queen
        "4k3/p7/8/8/8/8/8/2B1K3 w - - 0 1",        // K+B v K+P
        StartFen.data(),
    };
    for (const char* fen : alive) EXPECT_FALSE(from(fen).is_insufficient_material()) << fen;
}

// Per-side material (US Chess flag rule and dead-position shortcuts).
TEST(PositionR11, HasInsufficientMaterialPerSide) {
    struct Case {
        const char* fen;
        bool white, black;
    };
    const Case cases[] = {
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true, true},
        {"4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", true, true},         // K+N v lone K
        {"4k3/p7/8/8/8/8/8/1N2K3 w - - 0 1", false, false},      // K+N v K+P: the pawn can block
        {"4k3/8/8/8/8/8/8/2B1K3 w - - 0 1", true, true},
        {"4k3/p7/8/8/8/8/8/2B1K3 w - - 0 1", false, false},      // K+B v K+P
        {"2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false, false},     // opposite-coloured bishops
        {"4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true, true},        // same-coloured bishops
        {"4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", false, true},       // two knights
        {"4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false, true},
        {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false, true},
        // K+N v K+Q: a queen next to her king that a knight's check leaves free
        // always reaches the knight or leaves a flight square; no mate exists.
        {"3qk3/8/8/8/8/8/8/1N2K3 w - - 0 1", true, false},
        {"3rk3/8/8/8/8/8/8/1N2K3 w - - 0 1", false, false},      // K+N v K+R: the rook can block
    };
    for (const auto& c : cases) {
        const Position pos = from(c.fen);
        EXPECT_EQ(pos.has_insufficient_material(WHITE), c.white) << c.fen;
        EXPECT_EQ(pos.has_insufficient_material(BLACK), c.black) << c.fen;
    }
}

// ---------------------------------------------------------------- random playouts

// Seeded random games from the start position and from Chess960 starts; at every
// ply the generator's output is checked against several independent properties.
TEST(PositionR2, RandomPlayoutProperties) {
    std::mt19937_64 rng(0x0757A9);
    int plies = 0, checks = 0, mates = 0, stalemates = 0, ep_moves = 0, castlings = 0, promotions = 0;
    for (int game = 0; game < 400; ++game) {
        Position pos = game % 4 == 3 ? *chess960_position(int(rng() % 960)) : Position::startpos();
        for (int ply = 0; ply < 250; ++ply) {
            const std::string fen = to_fen(pos);
            SCOPED_TRACE(fen);
            const MoveList all = legal_moves(pos);

            // count_legal_moves agrees with the list.
            ASSERT_EQ(count_legal_moves(pos), std::uint64_t(all.size()));
            ASSERT_EQ(pos.has_legal_moves(), !all.empty());

            // CAPTURES and QUIETS partition ALL.
            MoveList captures, quiets;
            generate(GenType::CAPTURES, pos, captures);
            generate(GenType::QUIETS, pos, quiets);
            const auto all_set = as_set(all), cap_set = as_set(captures), quiet_set = as_set(quiets);
            ASSERT_EQ(all_set.size(), std::size_t(all.size())) << "duplicate moves";
            ASSERT_EQ(cap_set.size() + quiet_set.size(), all_set.size());
            std::set<std::uint16_t> united = cap_set;
            united.insert(quiet_set.begin(), quiet_set.end());
            ASSERT_EQ(united, all_set);
            for (Move m : captures)
                ASSERT_TRUE(pos.is_capture(m) || m.kind() == Move::PROMOTION) << move_to_uci(pos, m);
            for (Move m : quiets)
                ASSERT_FALSE(pos.is_capture(m) || m.kind() == Move::PROMOTION) << move_to_uci(pos, m);

            // EVASIONS is ALL when in check.
            if (pos.in_check()) {
                ++checks;
                MoveList evasions;
                generate(GenType::EVASIONS, pos, evasions);
                ASSERT_EQ(as_set(evasions), all_set);
            }

            // Every move is legal, moves a piece of the side to move, and never leaves
            // that side's king attacked.
            const Color us = pos.side_to_move();
            for (Move m : all) {
                ASSERT_TRUE(pos.is_legal(m)) << move_to_uci(pos, m);
                ASSERT_EQ(color_of(pos.piece_on(m.from())), us);
                const Position next = pos.after(m);
                ASSERT_FALSE(next.attackers_to(next.king_square(us)) & next.pieces(~us)) << move_to_uci(pos, m);
                ASSERT_EQ(next.side_to_move(), ~us);
                ASSERT_EQ(next.checkers(), next.attackers_to(next.king_square(~us)) & next.pieces(us));
                ASSERT_EQ(pos.gives_check(m), next.in_check());
            }

            // is_legal refuses arbitrary 16-bit values that are not generated.
            for (int i = 0; i < 8; ++i) {
                const Move junk{static_cast<std::uint16_t>(rng())};
                ASSERT_EQ(pos.is_legal(junk), all_set.count(junk.raw()) == 1) << junk.raw();
            }

            // FEN round trip.
            auto reread = position_from_fen(fen, pos.is_chess960());
            ASSERT_TRUE(reread.ok()) << reread.error().message;
            ASSERT_EQ(to_fen(*reread), fen);
            if (pos.ep_square() == pos.pseudo_ep_square()) {
                ASSERT_EQ(*reread, pos);
            }
            ASSERT_EQ(as_set(legal_moves(*reread)), all_set);

            if (all.empty()) {
                pos.in_check() ? ++mates : ++stalemates;
                ASSERT_EQ(pos.is_checkmate(), pos.in_check());
                ASSERT_EQ(pos.is_stalemate(), !pos.in_check());
                break;
            }
            // Prefer the rarer kinds of move now and then, so that they get exercised.
            Move m = all[int(rng() % std::uint64_t(all.size()))];
            if (rng() % 2)
                for (Move c : all)
                    if (c.kind() != Move::NORMAL) m = c;
            ep_moves += m.kind() == Move::EN_PASSANT;
            castlings += m.kind() == Move::CASTLING;
            promotions += m.kind() == Move::PROMOTION;

            // Clocks.
            const bool resets = pos.moved_piece_type(m) == PAWN || pos.is_capture(m);
            const Position next = pos.after(m);
            ASSERT_EQ(next.halfmove_clock(), resets ? 0 : pos.halfmove_clock() + 1);
            ASSERT_EQ(next.fullmove_number(), pos.fullmove_number() + (us == BLACK));
            pos = next;
            ++plies;
            if (pos.is_insufficient_material()) break;
        }
    }
    EXPECT_GT(plies, 20000);
    EXPECT_GT(checks, 100);
    EXPECT_GT(ep_moves, 10);
    EXPECT_GT(castlings, 100);
    EXPECT_GT(promotions, 10);
    EXPECT_GT(mates + stalemates, 0);
}

}  // namespace
