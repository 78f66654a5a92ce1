// Outpost — static evaluation.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A tapered evaluation: every term is a (middlegame, endgame) pair, and the two sums
// are blended by the material left on the board (the game phase). The weights are
// in eval_weights.h and nowhere else.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "chess/position.h"
#include "engine/eval_terms.h"
#include "engine/score.h"

namespace outpost::engine {

// Cache of the pawn-structure part of the evaluation, one per search thread. Pawn
// structures repeat far more often than positions, and they are the costliest part.
class PawnTable {
public:
    struct Entry {
        Bitboard white = ~Bitboard(0);  // the exact pawn sets identify the entry
        Bitboard black = ~Bitboard(0);
        Score score;                    // white minus black
        Bitboard passed = 0;            // passed pawns of both colours
    };
    static constexpr std::size_t SIZE = 1 << 14;

    PawnTable() : entries_(std::make_unique<Entry[]>(SIZE)) {}
    Entry& slot(Bitboard white, Bitboard black) {
        const std::uint64_t h = (white * 0x9E3779B97F4A7C15ULL) ^ (black * 0xC2B2AE3D27D4EB4FULL);
        return entries_[(h ^ (h >> 29)) & (SIZE - 1)];
    }
    void clear() {
        for (std::size_t i = 0; i < SIZE; ++i) entries_[i] = Entry{};
    }

private:
    std::unique_ptr<Entry[]> entries_;
};

// The coefficients of each weight in one position's evaluation (white minus black),
// plus the phase and endgame scale that blend them: the evaluation is then
//   (sum c_i * mg_i * phase + sum c_i * eg_i * (24 - phase) * scale / 64) / 24.
struct EvalTrace {
    std::array<float, T_COUNT> coef{};
    int phase = 0;
    int scale = 64;
};

constexpr int PHASE_MAX = 24;

// The evaluation of pos for the side to move, in centipawns. `pawns` may be null.
Value evaluate(const Position& pos, PawnTable* pawns = nullptr);
// The same evaluation from white's point of view, recording the trace.
Value evaluate_traced(const Position& pos, EvalTrace& trace);

}  // namespace outpost::engine
