// Outpost — move-ordering statistics learnt during the search.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Every table holds small integers updated with "gravity": a bonus moves an entry
// toward +/-HISTORY_MAX and the entry's own size damps the step, so that old
// information fades and nothing overflows.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "chess/types.h"

namespace outpost::engine {

constexpr int HISTORY_MAX = 16384;

inline void update_history(std::int16_t& entry, int bonus) {
    const int clamped = std::clamp(bonus, -HISTORY_MAX, HISTORY_MAX);
    entry = std::int16_t(entry + clamped - entry * std::abs(clamped) / HISTORY_MAX);
}

// The bonus for a move that caused a cutoff at this depth (and the malus for the
// moves tried before it): deeper cutoffs are better evidence.
inline int history_bonus(int depth) { return std::min(16 * depth * depth + 32 * depth, 1600); }

// [colour][from * 64 + to]: quiet moves that cut off, whatever the position.
struct ButterflyHistory {
    std::int16_t table[COLOR_NB][SQUARE_NB * SQUARE_NB];
    std::int16_t& at(Color c, Move m) { return table[c][m.raw() & 0xFFF]; }
    void clear() { std::memset(table, 0, sizeof(table)); }
};

// [moved piece][to][captured piece type]: captures that cut off.
struct CaptureHistory {
    std::int16_t table[PIECE_NB][SQUARE_NB][PIECE_TYPE_NB];
    void clear() { std::memset(table, 0, sizeof(table)); }
};

// [piece][to] of a move, given the [piece][to] of the move one or two plies before:
// follow-ups that worked after that particular move.
using PieceToHistory = std::int16_t[PIECE_NB][SQUARE_NB];
struct ContinuationHistory {
    PieceToHistory table[PIECE_NB][SQUARE_NB];
    void clear() { std::memset(table, 0, sizeof(table)); }
};

// [piece][to] of the previous move: the move that refuted it last time.
struct CounterMoves {
    Move table[PIECE_NB][SQUARE_NB];
    void clear() {
        for (auto& row : table)
            for (Move& m : row) m = Move::none();
    }
};

}  // namespace outpost::engine
