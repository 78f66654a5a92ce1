// Outpost — bitboards and attack tables.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Sliding attacks come from one shared table indexed either by PEXT (BMI2) or by
// "fancy" magic multiplication. Both index the same layout; the choice is made at
// compile time (OUTPOST_USE_PEXT), because PEXT measured faster on the machines we
// target (see README, bench/perft) while magics are the portable fallback.
#pragma once

#include <bit>
#include <cassert>

#include "chess/types.h"

#if defined(__BMI2__) && !defined(OUTPOST_NO_PEXT)
#include <immintrin.h>
#define OUTPOST_USE_PEXT 1
#else
#define OUTPOST_USE_PEXT 0
#endif

namespace outpost {

constexpr Bitboard FILE_A_BB = 0x0101010101010101ULL;
constexpr Bitboard FILE_H_BB = FILE_A_BB << 7;
constexpr Bitboard RANK_1_BB = 0xFFULL;
constexpr Bitboard RANK_8_BB = RANK_1_BB << 56;
// Square colours (R1: a1 is dark, h1 light). A bishop never leaves its colour, and a
// pawn attacks squares of the colour it stands on.
constexpr Bitboard DARK_SQUARES_BB = 0xAA55AA55AA55AA55ULL;
constexpr Bitboard LIGHT_SQUARES_BB = ~DARK_SQUARES_BB;
// True when every square of b has one colour (also when b is empty).
constexpr bool one_square_colour(Bitboard b) { return !(b & DARK_SQUARES_BB) || !(b & LIGHT_SQUARES_BB); }

constexpr Bitboard file_bb(File f) { return FILE_A_BB << f; }
constexpr Bitboard rank_bb(Rank r) { return RANK_1_BB << (8 * r); }
constexpr Bitboard file_bb(Square s) { return file_bb(file_of(s)); }
constexpr Bitboard rank_bb(Square s) { return rank_bb(rank_of(s)); }

inline int popcount(Bitboard b) { return std::popcount(b); }
inline Square lsb(Bitboard b) {
    assert(b);
    return Square(std::countr_zero(b));
}
inline Square msb(Bitboard b) {
    assert(b);
    return Square(63 - std::countl_zero(b));
}
inline Square pop_lsb(Bitboard& b) {
    Square s = lsb(b);
    b &= b - 1;
    return s;
}
constexpr bool more_than_one(Bitboard b) { return b & (b - 1); }

enum Direction : int { NORTH = 8, SOUTH = -8, EAST = 1, WEST = -1,
                       NORTH_EAST = 9, NORTH_WEST = 7, SOUTH_EAST = -7, SOUTH_WEST = -9 };

template <Direction D>
constexpr Bitboard shift(Bitboard b) {
    if constexpr (D == NORTH) return b << 8;
    else if constexpr (D == SOUTH) return b >> 8;
    else if constexpr (D == EAST) return (b & ~FILE_H_BB) << 1;
    else if constexpr (D == WEST) return (b & ~FILE_A_BB) >> 1;
    else if constexpr (D == NORTH_EAST) return (b & ~FILE_H_BB) << 9;
    else if constexpr (D == NORTH_WEST) return (b & ~FILE_A_BB) << 7;
    else if constexpr (D == SOUTH_EAST) return (b & ~FILE_H_BB) >> 7;
    else return (b & ~FILE_A_BB) >> 9;
}

constexpr Direction pawn_push(Color c) { return c == WHITE ? NORTH : SOUTH; }

template <Color C>
constexpr Bitboard pawn_attacks_bb(Bitboard b) {
    return C == WHITE ? shift<NORTH_WEST>(b) | shift<NORTH_EAST>(b)
                      : shift<SOUTH_WEST>(b) | shift<SOUTH_EAST>(b);
}

namespace detail {

struct SlidingEntry {
    Bitboard* attacks;
    Bitboard mask;
#if !OUTPOST_USE_PEXT
    Bitboard magic;
    unsigned shift;
#endif
    unsigned index(Bitboard occupied) const {
#if OUTPOST_USE_PEXT
        return unsigned(_pext_u64(occupied, mask));
#else
        return unsigned(((occupied & mask) * magic) >> shift);
#endif
    }
};

extern SlidingEntry RookEntries[SQUARE_NB];
extern SlidingEntry BishopEntries[SQUARE_NB];
extern Bitboard PawnAttacks[COLOR_NB][SQUARE_NB];
extern Bitboard KnightAttacks[SQUARE_NB];
extern Bitboard KingAttacks[SQUARE_NB];
extern Bitboard BetweenBB[SQUARE_NB][SQUARE_NB];
extern Bitboard LineBB[SQUARE_NB][SQUARE_NB];

}  // namespace detail

inline Bitboard rook_attacks(Square s, Bitboard occupied) {
    const auto& e = detail::RookEntries[s];
    return e.attacks[e.index(occupied)];
}
inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
    const auto& e = detail::BishopEntries[s];
    return e.attacks[e.index(occupied)];
}
inline Bitboard queen_attacks(Square s, Bitboard occupied) {
    return rook_attacks(s, occupied) | bishop_attacks(s, occupied);
}
inline Bitboard knight_attacks(Square s) { return detail::KnightAttacks[s]; }
inline Bitboard king_attacks(Square s) { return detail::KingAttacks[s]; }
inline Bitboard pawn_attacks(Color c, Square s) { return detail::PawnAttacks[c][s]; }

// Attacks of a non-pawn piece type from s with the given occupancy.
inline Bitboard attacks_bb(PieceType pt, Square s, Bitboard occupied) {
    switch (pt) {
    case KNIGHT: return knight_attacks(s);
    case BISHOP: return bishop_attacks(s, occupied);
    case ROOK: return rook_attacks(s, occupied);
    case QUEEN: return queen_attacks(s, occupied);
    case KING: return king_attacks(s);
    default: return 0;
    }
}

// Squares strictly between a and b when they share a line, plus b itself; only b
// when they do not. This makes "between | checker" the evasion target set in one
// lookup.
inline Bitboard between_bb(Square a, Square b) { return detail::BetweenBB[a][b]; }
// The whole line (edge to edge) through a and b, or 0 when they share none.
inline Bitboard line_bb(Square a, Square b) { return detail::LineBB[a][b]; }
inline bool aligned(Square a, Square b, Square c) { return line_bb(a, b) & square_bb(c); }

// Builds the tables. Called once by a static initialiser in bitboard.cpp; calling it
// again is harmless.
void init_bitboards();

}  // namespace outpost
