// Outpost — UCI move notation.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "chess/uci.h"

#include "chess/movegen.h"

namespace outpost {

std::string move_to_uci(Move m, bool chess960) {
    if (!m) return "0000";
    Square to = m.to();
    if (m.kind() == Move::CASTLING && !chess960) {
        Color c = rank_of(m.from()) == RANK_1 ? WHITE : BLACK;
        to = Position::castling_king_to(c, to > m.from() ? KING_SIDE : QUEEN_SIDE);
    }
    std::string s = square_name(m.from()) + square_name(to);
    if (m.kind() == Move::PROMOTION) s += "nbrq"[m.promotion() - KNIGHT];
    return s;
}

Result<Move> move_from_uci(const Position& pos, std::string_view text) {
    const std::string shown = "'" + std::string(text) + "'";
    if (text.size() < 4 || text.size() > 5)
        return make_error("UCI move " + shown + " must have 4 or 5 characters (e2e4, e7e8q)");
    for (int i : {0, 2})
        if (text[i] < 'a' || text[i] > 'h' || text[i + 1] < '1' || text[i + 1] > '8')
            return make_error("UCI move " + shown + ": '" + std::string(text.substr(i, 2)) + "' is not a square");
    const Square from = make_square(File(text[0] - 'a'), Rank(text[1] - '1'));
    const Square to = make_square(File(text[2] - 'a'), Rank(text[3] - '1'));
    PieceType promo = NO_PIECE_TYPE;
    if (text.size() == 5) {
        switch (text[4]) {
        case 'n': case 'N': promo = KNIGHT; break;
        case 'b': case 'B': promo = BISHOP; break;
        case 'r': case 'R': promo = ROOK; break;
        case 'q': case 'Q': promo = QUEEN; break;
        default: return make_error("UCI move " + shown + ": '" + text[4] + "' is not a promotion piece (n, b, r, q)");
        }
    }
    for (Move m : legal_moves(pos)) {
        if (m.from() != from) continue;
        if (m.kind() == Move::PROMOTION) {
            if (m.to() == to && m.promotion() == promo) return m;
            continue;
        }
        if (promo != NO_PIECE_TYPE) continue;
        if (m.kind() == Move::CASTLING) {
            if (m.to() == to) return m;  // king takes own rook: accepted in both modes
            if (!pos.is_chess960()) {
                Color c = pos.side_to_move();
                if (to == Position::castling_king_to(c, m.to() > from ? KING_SIDE : QUEEN_SIDE)) return m;
            }
            continue;
        }
        if (m.to() == to) return m;
    }
    return make_error("illegal move " + shown + " in this position");
}

}  // namespace outpost
