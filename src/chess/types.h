// Outpost — the vocabulary of the rules core: colours, pieces, squares, moves.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

namespace outpost {

using Bitboard = std::uint64_t;
using Key = std::uint64_t;

enum Color : std::uint8_t { WHITE, BLACK, COLOR_NB = 2 };

constexpr Color operator~(Color c) { return Color(c ^ 1); }

// The one place colours get their names: "white" / "black" inside a sentence,
// "White" / "Black" at its start. The case is always spelt out at the call.
enum class Capital : bool { NO, YES };
constexpr const char* color_name(Color c, Capital cap) {
    if (cap == Capital::YES) return c == WHITE ? "White" : "Black";
    return c == WHITE ? "white" : "black";
}

enum PieceType : std::uint8_t {
    PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPE_NB = 6, NO_PIECE_TYPE = 7
};

// Piece = colour * 8 + type, so that type and colour are cheap to extract.
enum Piece : std::uint8_t {
    W_PAWN = 0, W_KNIGHT, W_BISHOP, W_ROOK, W_QUEEN, W_KING,
    B_PAWN = 8, B_KNIGHT, B_BISHOP, B_ROOK, B_QUEEN, B_KING,
    NO_PIECE = 16, PIECE_NB = 16
};

constexpr Piece make_piece(Color c, PieceType pt) { return Piece((c << 3) | pt); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }

// Squares are numbered a1 = 0, b1 = 1, ..., h8 = 63 (little-endian rank-file).
enum Square : std::uint8_t {
    SQ_A1, SQ_B1, SQ_C1, SQ_D1, SQ_E1, SQ_F1, SQ_G1, SQ_H1,
    SQ_A2, SQ_B2, SQ_C2, SQ_D2, SQ_E2, SQ_F2, SQ_G2, SQ_H2,
    SQ_A3, SQ_B3, SQ_C3, SQ_D3, SQ_E3, SQ_F3, SQ_G3, SQ_H3,
    SQ_A4, SQ_B4, SQ_C4, SQ_D4, SQ_E4, SQ_F4, SQ_G4, SQ_H4,
    SQ_A5, SQ_B5, SQ_C5, SQ_D5, SQ_E5, SQ_F5, SQ_G5, SQ_H5,
    SQ_A6, SQ_B6, SQ_C6, SQ_D6, SQ_E6, SQ_F6, SQ_G6, SQ_H6,
    SQ_A7, SQ_B7, SQ_C7, SQ_D7, SQ_E7, SQ_F7, SQ_G7, SQ_H7,
    SQ_A8, SQ_B8, SQ_C8, SQ_D8, SQ_E8, SQ_F8, SQ_G8, SQ_H8,
    SQ_NONE = 64, SQUARE_NB = 64
};

enum File : std::uint8_t { FILE_A, FILE_B, FILE_C, FILE_D, FILE_E, FILE_F, FILE_G, FILE_H, FILE_NB };
enum Rank : std::uint8_t { RANK_1, RANK_2, RANK_3, RANK_4, RANK_5, RANK_6, RANK_7, RANK_8, RANK_NB };

constexpr Square make_square(File f, Rank r) { return Square((r << 3) | f); }
constexpr File file_of(Square s) { return File(s & 7); }
constexpr Rank rank_of(Square s) { return Rank(s >> 3); }
constexpr bool is_ok(Square s) { return s < SQUARE_NB; }
// The rank as seen from colour c's side of the board (RANK_1 is c's back rank).
constexpr Rank relative_rank(Color c, Rank r) { return Rank(r ^ (c * 7)); }
constexpr Square relative_square(Color c, Square s) { return Square(s ^ (c * 56)); }

constexpr Bitboard square_bb(Square s) { return Bitboard(1) << s; }

// Castling sides. A castling right is identified by colour and side; the rook's
// starting square is stored by the Position (it varies in Chess960).
enum CastlingSide : std::uint8_t { KING_SIDE, QUEEN_SIDE, CASTLING_SIDE_NB = 2 };

// Castling rights bit set: bit (2 * colour + side).
enum CastlingRights : std::uint8_t {
    NO_CASTLING = 0,
    WHITE_OO = 1, WHITE_OOO = 2, BLACK_OO = 4, BLACK_OOO = 8,
    ALL_CASTLING = 15
};
constexpr int castling_bit(Color c, CastlingSide s) { return 1 << (2 * c + s); }

// A move is 16 bits:
//   bits  0-5   origin square
//   bits  6-11  destination square (for castling: the square of the castling rook,
//               "king takes own rook", which is unambiguous in Chess960 too)
//   bits 12-13  promotion piece type minus KNIGHT (knight 0 .. queen 3)
//   bits 14-15  kind: NORMAL, PROMOTION, EN_PASSANT, CASTLING
// Move::none() (0) and Move::null() (from == to == b1) are never legal moves.
class Move {
public:
    enum Kind : std::uint16_t { NORMAL = 0, PROMOTION = 1 << 14, EN_PASSANT = 2 << 14, CASTLING = 3 << 14 };

    constexpr Move() = default;
    constexpr explicit Move(std::uint16_t raw) : data_(raw) {}
    constexpr Move(Square from, Square to) : data_(std::uint16_t(from | (to << 6))) {}

    template <Kind K>
    static constexpr Move make(Square from, Square to, PieceType promo = KNIGHT) {
        return Move(std::uint16_t(K | ((promo - KNIGHT) << 12) | (to << 6) | from));
    }
    static constexpr Move none() { return Move(); }
    static constexpr Move null() { return Move(std::uint16_t(65)); }

    constexpr Square from() const { return Square(data_ & 0x3F); }
    constexpr Square to() const { return Square((data_ >> 6) & 0x3F); }
    constexpr Kind kind() const { return Kind(data_ & (3 << 14)); }
    constexpr PieceType promotion() const { return PieceType(((data_ >> 12) & 3) + KNIGHT); }
    constexpr std::uint16_t raw() const { return data_; }
    constexpr bool is_ok() const { return from() != to(); }
    constexpr explicit operator bool() const { return data_ != 0; }
    constexpr bool operator==(const Move&) const = default;

private:
    std::uint16_t data_ = 0;
};

// A fixed-capacity move list: no heap use in the hot path. 218 is the known maximum
// number of legal moves in a chess position; 256 leaves room.
struct MoveList {
    static constexpr int CAPACITY = 256;
    Move moves[CAPACITY];
    int count = 0;

    void push(Move m) { moves[count++] = m; }
    int size() const { return count; }
    bool empty() const { return count == 0; }
    const Move* begin() const { return moves; }
    const Move* end() const { return moves + count; }
    Move* begin() { return moves; }
    Move* end() { return moves + count; }
    Move operator[](int i) const { return moves[i]; }
    bool contains(Move m) const {
        for (int i = 0; i < count; ++i)
            if (moves[i] == m) return true;
        return false;
    }
};

inline std::string square_name(Square s) {
    if (!is_ok(s)) return "-";
    return {char('a' + file_of(s)), char('1' + rank_of(s))};
}

}  // namespace outpost
