// Outpost — the evaluation: colour symmetry, trace consistency, sanity.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <cmath>

#include "chess/fen.h"
#include "engine/eval.h"
#include "engine/eval_weights.h"

using namespace outpost;
using namespace outpost::engine;

namespace {

const char* const Fens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "2r3k1/pp3ppp/2n1b3/q2pP3/3P4/P1rB1N2/5PPP/R2QR1K1 w - - 0 20",
    "8/p4pk1/1p4p1/2p4p/2P2P1P/1P4P1/P5K1/8 b - - 0 1",
    "6k1/8/8/8/8/8/1B6/NK6 w - - 0 1",
    "8/8/4k3/2b5/8/3B4/4K1P1/8 w - - 0 1",
};

Position mirrored(const Position& p) {
    Setup s = p.to_setup(), m;
    for (int sq = 0; sq < 64; ++sq) {
        const Piece pc = s.board[sq];
        if (pc != NO_PIECE) m.board[sq ^ 56] = make_piece(~color_of(pc), type_of(pc));
    }
    m.turn = ~s.turn;
    for (Bitboard b = s.castling_rooks; b;) m.castling_rooks |= square_bb(Square(pop_lsb(b) ^ 56));
    m.ep_square = s.ep_square == SQ_NONE ? SQ_NONE : Square(s.ep_square ^ 56);
    m.halfmove_clock = s.halfmove_clock;
    return Position::from_setup(m).value();
}

}  // namespace

TEST(EngineEval, ColourSymmetry) {
    for (const char* f : Fens) {
        const Position p = position_from_fen(f).value();
        EXPECT_EQ(evaluate(p), evaluate(mirrored(p))) << f;
    }
}

TEST(EngineEval, PawnTableGivesTheSameValue) {
    PawnTable pawns;
    for (int round = 0; round < 2; ++round)
        for (const char* f : Fens) {
            const Position p = position_from_fen(f).value();
            EXPECT_EQ(evaluate(p, &pawns), evaluate(p)) << f;
        }
}

TEST(EngineEval, TraceReproducesTheEvaluation) {
    for (const char* f : Fens) {
        const Position p = position_from_fen(f).value();
        EvalTrace t;
        const Value v = evaluate_traced(p, t);
        EXPECT_EQ(p.side_to_move() == WHITE ? v : -v, evaluate(p)) << f;
        double mg = 0, eg = 0;
        for (int i = 0; i < T_COUNT; ++i) {
            mg += t.coef[i] * EvalWeights[i].mg;
            eg += t.coef[i] * EvalWeights[i].eg;
        }
        const double linear = (mg * t.phase + eg * (PHASE_MAX - t.phase) * t.scale / 64.0) / PHASE_MAX;
        EXPECT_NEAR(linear, v, 4.0) << f;  // integer rounding of the scaled king attack
    }
}

TEST(EngineEval, MaterialDominates) {
    const Position up_queen = position_from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").value();
    EXPECT_GT(evaluate(up_queen), 700);
    const Position kbk = position_from_fen("8/8/4k3/8/8/3BK3/8/8 w - - 0 1").value();
    EXPECT_LT(std::abs(evaluate(kbk)), 60);  // a lone bishop cannot win
}
