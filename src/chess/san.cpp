// Outpost — SAN writing and tolerant reading.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "chess/san.h"

#include <algorithm>
#include <vector>

#include "chess/movegen.h"
#include "chess/uci.h"

namespace outpost {
namespace {

// PieceLetters is ordered K, Q, R, B, N; PieceType runs the other way from KNIGHT.
std::string_view letter_of(const PieceLetters& letters, PieceType pt) { return letters[size_t(KING - pt)]; }

const char* piece_name(PieceType pt) {
    static constexpr const char* Names[] = {"pawn", "knight", "bishop", "rook", "queen", "king"};
    return Names[pt];
}

std::string plural(PieceType pt) { return std::string(piece_name(pt)) + "s"; }

std::string file_name(File f) { return std::string(1, char('a' + f)); }
std::string rank_name(Rank r) { return std::string(1, char('1' + r)); }

// "b1 and f3", "b1, d4 and f3".
std::string list_squares(const std::vector<Square>& squares) {
    std::string out;
    for (size_t i = 0; i < squares.size(); ++i) {
        if (i > 0) out += i + 1 == squares.size() ? " and " : ", ";
        out += square_name(squares[i]);
    }
    return out;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

bool is_file_char(char c) { return c >= 'a' && c <= 'h'; }
bool is_rank_char(char c) { return c >= '1' && c <= '8'; }

PieceType promotion_piece(char c) {
    switch (c) {
    case 'Q': case 'q': return QUEEN;
    case 'R': case 'r': return ROOK;
    case 'B': case 'b': return BISHOP;
    case 'N': case 'n': return KNIGHT;
    default: return NO_PIECE_TYPE;
    }
}

// A leading piece letter. Lowercase letters are accepted where they cannot be files:
// 'b' is always the b-file (bxc3), so a bishop must be 'B'.
PieceType leading_piece(char c) {
    switch (c) {
    case 'K': case 'k': return KING;
    case 'Q': case 'q': return QUEEN;
    case 'R': case 'r': return ROOK;
    case 'B': return BISHOP;
    case 'N': case 'n': return KNIGHT;
    case 'P': case 'p': return PAWN;
    default: return NO_PIECE_TYPE;
    }
}

bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Removes what follows the move proper: check and mate signs, annotation glyphs and
// an en passant mark, in any order ("exd6 e.p.+", "Nf3!?", "Qh5+?!").
std::string_view strip_suffixes(std::string_view t) {
    for (bool changed = true; changed;) {
        changed = false;
        t = trim(t);
        while (!t.empty() && (t.back() == '+' || t.back() == '#' || t.back() == '!' || t.back() == '?')) {
            t.remove_suffix(1);
            changed = true;
        }
        for (std::string_view ep : {"e.p.", "e.p", "ep"}) {
            // Only after a rank digit: "ep" can otherwise not end a move.
            if (!ends_with(t, ep) || t.size() == ep.size()) continue;
            if (is_rank_char(trim(t.substr(0, t.size() - ep.size())).back())) {
                t.remove_suffix(ep.size());
                changed = true;
                break;
            }
        }
    }
    return t;
}

// The destination by which a legal move is written: the king's square for castling
// in standard chess (e1g1), the rook's square too (king takes rook, as in Chess960).
bool move_goes_to(const Position& pos, Move m, Square to) {
    if (m.to() == to) return true;
    if (m.kind() != Move::CASTLING || pos.is_chess960()) return false;
    // In Chess960 "Kg1" may be an ordinary king move, so only O-O names castling there.
    const CastlingSide side = m.to() > m.from() ? KING_SIDE : QUEEN_SIDE;
    return Position::castling_king_to(pos.side_to_move(), side) == to;
}

Result<Move> read_castling(const Position& pos, CastlingSide side, const std::string& shown) {
    for (Move m : legal_moves(pos))
        if (m.kind() == Move::CASTLING && (m.to() > m.from() ? KING_SIDE : QUEEN_SIDE) == side) return m;
    const Color us = pos.side_to_move();
    const std::string who = us == WHITE ? "white" : "black";
    const std::string where = side == KING_SIDE ? "kingside" : "queenside";
    if (!pos.can_castle(us, side))
        return make_error("illegal move " + shown + ": " + who + " has lost the right to castle " + where);
    if (pos.in_check()) return make_error("illegal move " + shown + ": " + who + " cannot castle out of check");
    return make_error("illegal move " + shown + ": " + who + " cannot castle " + where +
                      " now (a square between king and rook is occupied, or the king would pass through or land on "
                      "an attacked square)");
}

}  // namespace

std::optional<PieceLetters> piece_letters_for(std::string_view language) {
    if (language == "en") return EnglishLetters;
    if (language == "fi") return FinnishLetters;
    if (language == "de") return GermanLetters;
    if (language == "zh") return ChineseLetters;
    if (language == "th") return ThaiLetters;
    if (language == "ja") return JapaneseLetters;
    if (language == "mr") return MarathiLetters;
    if (language == "figurine") return WhiteFigurines;
    return std::nullopt;
}

std::string move_to_san(const Position& pos, Move m, const SanOptions& opts) {
    const MoveList legal = legal_moves(pos);
    if (!legal.contains(m)) return move_to_uci(pos, m);

    const PieceLetters& letters = pos.side_to_move() == WHITE ? opts.white : opts.black;
    std::string san;
    if (m.kind() == Move::CASTLING) {
        // Castling is king-takes-rook internally, so the rook's side names it (R16).
        san = m.to() > m.from() ? "O-O" : "O-O-O";
    } else {
        const PieceType pt = pos.moved_piece_type(m);
        const Square from = m.from(), to = m.to();
        const bool capture = pos.is_capture(m);
        if (pt == PAWN) {
            // Pawn captures name the origin file; en passant is written like any capture.
            if (capture) san = file_name(file_of(from)) + "x";
            san += square_name(to);
            if (m.kind() == Move::PROMOTION) {
                san += '=';
                san += letter_of(letters, m.promotion());
            }
        } else {
            san = letter_of(letters, pt);
            // R17: disambiguate among the legal moves of the same piece type to the same
            // square: by file if that tells them apart, else by rank, else by both.
            // Pinned pieces do not count, since their moves are not in the list.
            bool any = false, same_file = false, same_rank = false;
            for (Move o : legal) {
                if (o == m || o.to() != to || o.kind() == Move::CASTLING || o.from() == from) continue;
                if (pos.moved_piece_type(o) != pt) continue;
                any = true;
                same_file |= file_of(o.from()) == file_of(from);
                same_rank |= rank_of(o.from()) == rank_of(from);
            }
            if (any) {
                if (!same_file) san += file_name(file_of(from));
                else if (!same_rank) san += rank_name(rank_of(from));
                else san += square_name(from);
            }
            if (capture) san += 'x';
            san += square_name(to);
        }
    }
    const Position next = pos.after(m);
    if (next.in_check()) san += next.has_legal_moves() ? "+" : "#";
    return san;
}

Result<Move> move_from_san(const Position& pos, std::string_view text) {
    const std::string_view whole = trim(text);
    const std::string shown = "'" + std::string(whole) + "'";
    const auto unreadable = [&] { return make_error("unreadable move " + shown); };
    std::string_view t = strip_suffixes(whole);
    if (t.empty()) return unreadable();

    // 1. Castling: O-O, 0-0, o-o (and without the hyphens).
    {
        std::string c;
        for (char ch : t) c += (ch == '0' || ch == 'o') ? 'O' : ch;
        if (c == "O-O" || c == "OO") return read_castling(pos, KING_SIDE, shown);
        if (c == "O-O-O" || c == "OOO") return read_castling(pos, QUEEN_SIDE, shown);
    }

    // 2. Promotion at the end: e8=Q, e8Q, e8q, e8(Q), e8/Q.
    PieceType promo = NO_PIECE_TYPE;
    if (t.size() >= 4 && t.back() == ')' && t[t.size() - 3] == '(') {
        promo = promotion_piece(t[t.size() - 2]);
        if (promo == NO_PIECE_TYPE) return unreadable();
        t.remove_suffix(3);
    } else if (t.size() >= 3 && promotion_piece(t.back()) != NO_PIECE_TYPE) {
        promo = promotion_piece(t.back());
        t.remove_suffix(1);
        if (t.back() == '=' || t.back() == '/') t.remove_suffix(1);
        if (t.empty() || !is_rank_char(t.back())) return unreadable();
    }

    // 3. Piece letter, then squares: [file][rank][x|-|:]file rank.
    PieceType pt = leading_piece(t.front());
    const bool piece_given = pt != NO_PIECE_TYPE;
    if (piece_given) t.remove_prefix(1);
    std::string squares;
    for (char ch : t) {
        if (ch == 'x' || ch == 'X' || ch == ':' || ch == '-') continue;
        if (!is_file_char(ch) && !is_rank_char(ch)) return unreadable();
        squares += ch;
    }
    if (squares.size() < 2 || squares.size() > 4) return unreadable();
    const size_t n = squares.size();
    if (!is_file_char(squares[n - 2]) || !is_rank_char(squares[n - 1])) return unreadable();
    const Square to = make_square(File(squares[n - 2] - 'a'), Rank(squares[n - 1] - '1'));
    int from_file = -1, from_rank = -1;
    if (n == 3) {
        if (is_file_char(squares[0])) from_file = squares[0] - 'a';
        else from_rank = squares[0] - '1';
    } else if (n == 4) {
        if (!is_file_char(squares[0]) || !is_rank_char(squares[1])) return unreadable();
        from_file = squares[0] - 'a';
        from_rank = squares[1] - '1';
    }
    if (!piece_given) {
        // Long algebraic without a letter (g1f3, e1g1) names the piece by its square.
        pt = PAWN;
        if (from_file >= 0 && from_rank >= 0) {
            const Piece p = pos.piece_on(make_square(File(from_file), Rank(from_rank)));
            if (p != NO_PIECE) pt = type_of(p);
        }
    }
    if (promo != NO_PIECE_TYPE && pt != PAWN) return unreadable();

    // 4. Match against the legal moves.
    std::vector<Move> found;
    bool promotion_needed = false, promotion_refused = false;
    for (Move m : legal_moves(pos)) {
        if (pos.moved_piece_type(m) != pt || !move_goes_to(pos, m, to)) continue;
        if (from_file >= 0 && file_of(m.from()) != from_file) continue;
        if (from_rank >= 0 && rank_of(m.from()) != from_rank) continue;
        if ((m.kind() == Move::PROMOTION) != (promo != NO_PIECE_TYPE)) {
            (promo == NO_PIECE_TYPE ? promotion_needed : promotion_refused) = true;
            continue;
        }
        if (promo != NO_PIECE_TYPE && m.promotion() != promo) continue;
        found.push_back(m);
    }
    if (pt == PAWN && from_file < 0 && found.size() > 1) {
        // "d5" is the push when a pawn can also capture there; a capture needs its file.
        std::vector<Move> pushes;
        for (Move m : found)
            if (file_of(m.from()) == file_of(to)) pushes.push_back(m);
        if (!pushes.empty()) found = pushes;
    }
    if (found.size() == 1) return found.front();

    const std::string dest = square_name(to);
    if (found.size() > 1) {
        std::vector<Square> origins;
        for (Move m : found) origins.push_back(m.from());
        std::sort(origins.begin(), origins.end());
        return make_error("ambiguous move " + shown + ": " + plural(pt) + " on " + list_squares(origins) +
                          " can move to " + dest);
    }
    if (promotion_needed)
        return make_error("illegal move " + shown + ": a pawn reaching the last rank must promote (" + dest + "=Q)");
    if (promotion_refused)
        return make_error("illegal move " + shown + ": a pawn promotes only on reaching the last rank");
    std::string origin;
    if (from_file >= 0 && from_rank >= 0)
        origin = " on " + square_name(make_square(File(from_file), Rank(from_rank)));
    else if (from_file >= 0)
        origin = " on the " + file_name(File(from_file)) + "-file";
    else if (from_rank >= 0)
        origin = " on rank " + rank_name(Rank(from_rank));
    std::string why = "illegal move " + shown + ": no " + piece_name(pt) + origin + " can move to " + dest;
    if (pos.in_check()) why += std::string(" (") + (pos.side_to_move() == WHITE ? "white" : "black") + " is in check)";
    return make_error(why);
}

}  // namespace outpost
