// Outpost — Chess960 numbering.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "chess/chess960.h"

#include <array>
#include <string>

namespace outpost {
namespace {

// The back rank of start position n, by the standard numbering: n % 4 places the
// light-squared bishop on b, d, f or h; (n / 4) % 4 the dark-squared bishop on a,
// c, e or g; (n / 16) % 6 the queen on the n-th free square; n / 96 (0-9) the two
// knights on a pair of the five free squares; rook, king, rook fill the rest.
std::array<PieceType, 8> back_rank(int n) {
    std::array<PieceType, 8> r;
    r.fill(NO_PIECE_TYPE);
    r[size_t(2 * (n % 4) + 1)] = BISHOP;
    n /= 4;
    r[size_t(2 * (n % 4))] = BISHOP;
    n /= 4;
    auto place_on_free = [&](int index, PieceType pt) {
        for (auto& sq : r)
            if (sq == NO_PIECE_TYPE && index-- == 0) {
                sq = pt;
                return;
            }
    };
    place_on_free(n % 6, QUEEN);
    n /= 6;
    static constexpr int KnightPairs[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2},
                                              {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};
    // Place the second knight first so that the first index still counts free
    // squares as they were before either knight.
    place_on_free(KnightPairs[n][1], KNIGHT);
    place_on_free(KnightPairs[n][0], KNIGHT);
    place_on_free(0, ROOK);
    place_on_free(0, KING);
    place_on_free(0, ROOK);
    return r;
}

}  // namespace

Result<Position> chess960_position(int n) {
    if (n < 0 || n >= 960) return make_error("Chess960 position number " + std::to_string(n) + " is not in 0-959");
    const auto rank = back_rank(n);
    Setup s;
    for (int f = 0; f < 8; ++f) {
        s.board[make_square(File(f), RANK_1)] = make_piece(WHITE, rank[size_t(f)]);
        s.board[make_square(File(f), RANK_2)] = W_PAWN;
        s.board[make_square(File(f), RANK_7)] = B_PAWN;
        s.board[make_square(File(f), RANK_8)] = make_piece(BLACK, rank[size_t(f)]);
        if (rank[size_t(f)] == ROOK)
            s.castling_rooks |= square_bb(make_square(File(f), RANK_1)) | square_bb(make_square(File(f), RANK_8));
    }
    return Position::from_setup(s, true);
}

std::optional<int> chess960_number(const Position& pos) {
    if (pos.side_to_move() != WHITE) return std::nullopt;
    for (int n = 0; n < 960; ++n) {
        const auto rank = back_rank(n);
        bool same = true;
        for (int f = 0; f < 8 && same; ++f) {
            same = pos.piece_on(make_square(File(f), RANK_1)) == make_piece(WHITE, rank[size_t(f)]) &&
                   pos.piece_on(make_square(File(f), RANK_8)) == make_piece(BLACK, rank[size_t(f)]) &&
                   pos.piece_on(make_square(File(f), RANK_2)) == W_PAWN &&
                   pos.piece_on(make_square(File(f), RANK_7)) == B_PAWN;
        }
        if (same && popcount(pos.pieces()) == 32) return n;
    }
    return std::nullopt;
}

}  // namespace outpost
