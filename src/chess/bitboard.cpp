// Outpost — attack table construction.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "chess/bitboard.h"

#include <cstdlib>

namespace outpost {
namespace detail {

SlidingEntry RookEntries[SQUARE_NB];
SlidingEntry BishopEntries[SQUARE_NB];
Bitboard PawnAttacks[COLOR_NB][SQUARE_NB];
Bitboard KnightAttacks[SQUARE_NB];
Bitboard KingAttacks[SQUARE_NB];
Bitboard BetweenBB[SQUARE_NB][SQUARE_NB];
Bitboard LineBB[SQUARE_NB][SQUARE_NB];

namespace {

// 0x19000 rook entries and 0x1480 bishop entries: the sum over squares of
// 2^(relevant occupancy bits).
Bitboard RookTable[0x19000];
Bitboard BishopTable[0x1480];

constexpr int RookDirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int BishopDirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

bool on_board(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

// Ray-walking attack generation, used only to fill the tables.
Bitboard slow_attacks(const int (&dirs)[4][2], Square s, Bitboard occupied) {
    Bitboard att = 0;
    for (const auto& d : dirs) {
        int f = file_of(s) + d[0], r = rank_of(s) + d[1];
        while (on_board(f, r)) {
            Bitboard b = square_bb(make_square(File(f), Rank(r)));
            att |= b;
            if (occupied & b) break;
            f += d[0];
            r += d[1];
        }
    }
    return att;
}

Bitboard step_attacks(Square s, const int (*steps)[2], int n) {
    Bitboard att = 0;
    for (int i = 0; i < n; ++i) {
        int f = file_of(s) + steps[i][0], r = rank_of(s) + steps[i][1];
        if (on_board(f, r)) att |= square_bb(make_square(File(f), Rank(r)));
    }
    return att;
}

#if !OUTPOST_USE_PEXT
// xorshift64* — a small deterministic generator for the magic search.
struct Prng {
    std::uint64_t s;
    std::uint64_t next() {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 2685821657736338717ULL;
    }
    std::uint64_t sparse() { return next() & next() & next(); }
};
#endif

void init_sliding(const int (&dirs)[4][2], SlidingEntry* entries, Bitboard* table) {
    Bitboard occupancy[4096], reference[4096];
#if !OUTPOST_USE_PEXT
    int epoch[4096] = {};
    int current = 0;
    Prng rng{0x9E3779B97F4A7C15ULL};
#endif
    Bitboard* next = table;
    for (int sq = 0; sq < 64; ++sq) {
        Square s = Square(sq);
        // Edges are irrelevant to occupancy unless the piece stands on them.
        Bitboard edges = ((RANK_1_BB | RANK_8_BB) & ~rank_bb(s)) | ((FILE_A_BB | FILE_H_BB) & ~file_bb(s));
        SlidingEntry& e = entries[sq];
        e.mask = slow_attacks(dirs, s, 0) & ~edges;
        e.attacks = next;
        int size = 0;
        Bitboard b = 0;
        // Carry-Rippler enumeration of every subset of the mask.
        do {
            occupancy[size] = b;
            reference[size] = slow_attacks(dirs, s, b);
            ++size;
            b = (b - e.mask) & e.mask;
        } while (b);
        next += size;
#if OUTPOST_USE_PEXT
        for (int i = 0; i < size; ++i) e.attacks[_pext_u64(occupancy[i], e.mask)] = reference[i];
#else
        e.shift = unsigned(64 - popcount(e.mask));
        for (;;) {
            do e.magic = rng.sparse();
            while (popcount((e.magic * e.mask) >> 56) < 6);
            ++current;
            int i = 0;
            for (; i < size; ++i) {
                unsigned idx = e.index(occupancy[i]);
                if (epoch[idx] < current) {
                    epoch[idx] = current;
                    e.attacks[idx] = reference[i];
                } else if (e.attacks[idx] != reference[i])
                    break;
            }
            if (i == size) break;
        }
#endif
    }
}

}  // namespace
}  // namespace detail

void init_bitboards() {
    using namespace detail;
    static constexpr int KnightSteps[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static constexpr int KingSteps[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static constexpr int WhitePawnSteps[2][2] = {{-1, 1}, {1, 1}};
    static constexpr int BlackPawnSteps[2][2] = {{-1, -1}, {1, -1}};

    init_sliding(RookDirs, RookEntries, RookTable);
    init_sliding(BishopDirs, BishopEntries, BishopTable);

    for (int sq = 0; sq < 64; ++sq) {
        Square s = Square(sq);
        KnightAttacks[s] = step_attacks(s, KnightSteps, 8);
        KingAttacks[s] = step_attacks(s, KingSteps, 8);
        PawnAttacks[WHITE][s] = step_attacks(s, WhitePawnSteps, 2);
        PawnAttacks[BLACK][s] = step_attacks(s, BlackPawnSteps, 2);
    }
    for (int a = 0; a < 64; ++a) {
        for (int b = 0; b < 64; ++b) {
            Square sa = Square(a), sb = Square(b);
            BetweenBB[a][b] = square_bb(sb);
            LineBB[a][b] = 0;
            if (a == b) continue;
            for (PieceType pt : {BISHOP, ROOK}) {
                if (attacks_bb(pt, sa, 0) & square_bb(sb)) {
                    LineBB[a][b] = (attacks_bb(pt, sa, 0) & attacks_bb(pt, sb, 0)) | square_bb(sa) | square_bb(sb);
                    BetweenBB[a][b] |= attacks_bb(pt, sa, square_bb(sb)) & attacks_bb(pt, sb, square_bb(sa));
                }
            }
        }
    }
}

namespace {
struct BitboardInit {
    BitboardInit() { init_bitboards(); }
} bitboard_init;
}  // namespace

}  // namespace outpost
