// Outpost — FEN reading and writing.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "chess/fen.h"

#include <charconv>
#include <vector>

namespace outpost {
namespace {

std::vector<std::string_view> split_fields(std::string_view s) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
        size_t j = i;
        while (j < s.size() && s[j] != ' ' && s[j] != '\t' && s[j] != '\n' && s[j] != '\r') ++j;
        if (j > i) out.push_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

int piece_from_char(char c) {
    switch (c) {
    case 'P': return W_PAWN; case 'N': return W_KNIGHT; case 'B': return W_BISHOP;
    case 'R': return W_ROOK; case 'Q': return W_QUEEN; case 'K': return W_KING;
    case 'p': return B_PAWN; case 'n': return B_KNIGHT; case 'b': return B_BISHOP;
    case 'r': return B_ROOK; case 'q': return B_QUEEN; case 'k': return B_KING;
    default: return -1;
    }
}

char piece_char(Piece p) {
    static constexpr char Chars[] = "PNBRQK";
    char c = Chars[type_of(p)];
    return color_of(p) == WHITE ? c : char(c - 'A' + 'a');
}

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

Result<int> parse_number(std::string_view field, const char* what) {
    int v = 0;
    auto [p, ec] = std::from_chars(field.data(), field.data() + field.size(), v);
    if (ec != std::errc() || p != field.data() + field.size())
        return make_error(std::string("FEN ") + what + " " + quoted(field) + " is not a number");
    return v;
}

// The rook a castling letter refers to. K/Q: the outermost rook on that side of the
// king (X-FEN); A-H: the rook on that file.
Result<Square> castling_rook_for(const Setup& s, char ch) {
    const Color c = (ch >= 'a' && ch <= 'z') ? BLACK : WHITE;
    const Rank back = c == WHITE ? RANK_1 : RANK_8;
    const char up = char(c == WHITE ? ch : ch - 'a' + 'A');
    const Piece rook = make_piece(c, ROOK), king = make_piece(c, KING);
    int kfile = -1;
    for (int f = 0; f < 8; ++f)
        if (s.board[make_square(File(f), back)] == king) kfile = f;
    if (kfile < 0)
        return make_error(std::string("FEN castling field: '") + ch + "' but no " + color_name(c, Capital::NO) +
                          " king on its back rank");
    if (up == 'K' || up == 'Q') {
        if (up == 'K') {
            for (int f = 7; f > kfile; --f)
                if (s.board[make_square(File(f), back)] == rook) return make_square(File(f), back);
        } else {
            for (int f = 0; f < kfile; ++f)
                if (s.board[make_square(File(f), back)] == rook) return make_square(File(f), back);
        }
        return make_error(std::string("FEN castling field: '") + ch + "' but no " + color_name(c, Capital::NO) +
                          " rook on the " + (up == 'K' ? "king" : "queen") + "'s side of the king");
    }
    if (up >= 'A' && up <= 'H') {
        Square sq = make_square(File(up - 'A'), back);
        if (s.board[sq] != rook)
            return make_error(std::string("FEN castling field: '") + ch + "' but no " + color_name(c, Capital::NO) +
                              " rook on " + square_name(sq));
        return sq;
    }
    return make_error(std::string("FEN castling field: unexpected character '") + ch + "'");
}

}  // namespace

Result<Setup> parse_fen(std::string_view fen) {
    const auto fields = split_fields(fen);
    if (fields.empty()) return make_error("empty FEN");
    if (fields.size() < 4) return make_error("FEN has " + std::to_string(fields.size()) + " fields; at least 4 are needed (board, side, castling, en passant)");
    if (fields.size() > 6) return make_error("FEN has " + std::to_string(fields.size()) + " fields; at most 6 are allowed");

    Setup s;
    // 1. Board, from rank 8 down to rank 1.
    int rank = 7, file = 0;
    const std::string_view board = fields[0];
    for (size_t i = 0; i < board.size(); ++i) {
        const char c = board[i];
        const std::string where = " at character " + std::to_string(i + 1) + " of the board field";
        if (c == '/') {
            if (file != 8) return make_error("FEN rank " + std::to_string(rank + 1) + " has " + std::to_string(file) + " squares, not 8" + where);
            if (rank == 0) return make_error("FEN board has more than 8 ranks" + where);
            --rank;
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
            if (file > 8) return make_error("FEN rank " + std::to_string(rank + 1) + " has more than 8 squares" + where);
        } else {
            int p = piece_from_char(c);
            if (p < 0) return make_error(std::string("FEN board: unexpected character '") + c + "'" + where);
            if (file >= 8) return make_error("FEN rank " + std::to_string(rank + 1) + " has more than 8 squares" + where);
            s.board[make_square(File(file), Rank(rank))] = Piece(p);
            ++file;
        }
    }
    if (rank != 0 || file != 8) return make_error("FEN board does not describe 8 ranks of 8 squares");

    // 2. Side to move.
    if (fields[1] == "w") s.turn = WHITE;
    else if (fields[1] == "b") s.turn = BLACK;
    else return make_error("FEN side to move " + quoted(fields[1]) + " must be 'w' or 'b'");

    // 3. Castling.
    if (fields[2] != "-") {
        for (char ch : fields[2]) {
            auto r = castling_rook_for(s, ch);
            if (!r) return r.error();
            if (s.castling_rooks & square_bb(*r)) return make_error(std::string("FEN castling field repeats '") + ch + "'");
            s.castling_rooks |= square_bb(*r);
        }
    }

    // 4. En passant.
    const std::string_view ep = fields[3];
    if (ep != "-") {
        if (ep.size() != 2 || ep[0] < 'a' || ep[0] > 'h' || ep[1] < '1' || ep[1] > '8')
            return make_error("FEN en passant field " + quoted(ep) + " is not a square or '-'");
        s.ep_square = make_square(File(ep[0] - 'a'), Rank(ep[1] - '1'));
    }

    // 5, 6. Clocks.
    if (fields.size() >= 5) {
        auto hm = parse_number(fields[4], "halfmove clock");
        if (!hm) return hm.error();
        s.halfmove_clock = *hm;
        if (s.halfmove_clock < 0) return make_error("FEN halfmove clock is negative");
    }
    if (fields.size() >= 6) {
        auto fm = parse_number(fields[5], "move number");
        if (!fm) return fm.error();
        s.fullmove_number = *fm;
        if (s.fullmove_number < 1) s.fullmove_number = 1;  // "0" is written by some tools
    }
    return s;
}

bool has_classical_castling(const Setup& setup) {
    Bitboard classical = square_bb(SQ_A1) | square_bb(SQ_H1) | square_bb(SQ_A8) | square_bb(SQ_H8);
    if (setup.castling_rooks & ~classical) return false;
    if ((setup.castling_rooks & (square_bb(SQ_A1) | square_bb(SQ_H1))) && setup.board[SQ_E1] != W_KING) return false;
    if ((setup.castling_rooks & (square_bb(SQ_A8) | square_bb(SQ_H8))) && setup.board[SQ_E8] != B_KING) return false;
    return true;
}

Result<Position> position_from_fen(std::string_view fen, bool chess960) {
    auto setup = parse_fen(fen);
    if (!setup) return setup.error();
    return Position::from_setup(*setup, chess960 || !has_classical_castling(*setup));
}

std::string to_fen(const Position& pos, CastlingNotation castling) {
    std::string out;
    for (int r = 7; r >= 0; --r) {
        int empty = 0;
        for (int f = 0; f < 8; ++f) {
            Piece p = pos.piece_on(make_square(File(f), Rank(r)));
            if (p == NO_PIECE) {
                ++empty;
                continue;
            }
            if (empty) out += char('0' + empty);
            empty = 0;
            out += piece_char(p);
        }
        if (empty) out += char('0' + empty);
        if (r) out += '/';
    }
    out += pos.side_to_move() == WHITE ? " w " : " b ";

    if (castling == CastlingNotation::AUTO) castling = pos.is_chess960() ? CastlingNotation::X_FEN : CastlingNotation::AUTO;
    size_t before = out.size();
    for (Color c : {WHITE, BLACK}) {
        for (CastlingSide side : {KING_SIDE, QUEEN_SIDE}) {
            Square r = pos.castling_rook(c, side);
            if (r == SQ_NONE) continue;
            char letter = side == KING_SIDE ? 'K' : 'Q';
            if (castling == CastlingNotation::SHREDDER) {
                letter = char('A' + file_of(r));
            } else if (castling == CastlingNotation::X_FEN) {
                // The outermost rook on that side is written K/Q; an inner one by file.
                Bitboard rooks = pos.pieces(c, ROOK) & rank_bb(r);
                Bitboard outer = side == KING_SIDE ? rooks & ~((square_bb(r) << 1) - 1) & ~square_bb(r)
                                                   : rooks & (square_bb(r) - 1);
                if (outer) letter = char('A' + file_of(r));
            }
            out += c == WHITE ? letter : char(letter - 'A' + 'a');
        }
    }
    if (out.size() == before) out += '-';
    out += ' ';
    out += square_name(pos.ep_square());
    out += ' ' + std::to_string(pos.halfmove_clock()) + ' ' + std::to_string(pos.fullmove_number());
    return out;
}

}  // namespace outpost
