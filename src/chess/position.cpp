// Outpost — Position: validation, make move, position-level results.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "chess/position.h"

#include <string>

#include "chess/movegen.h"
#include "chess/zobrist.h"

namespace outpost {

Position Position::startpos() {
    Setup s;
    constexpr PieceType back[8] = {ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK};
    for (int f = 0; f < 8; ++f) {
        s.board[make_square(File(f), RANK_1)] = make_piece(WHITE, back[f]);
        s.board[make_square(File(f), RANK_2)] = W_PAWN;
        s.board[make_square(File(f), RANK_7)] = B_PAWN;
        s.board[make_square(File(f), RANK_8)] = make_piece(BLACK, back[f]);
    }
    s.castling_rooks = square_bb(SQ_A1) | square_bb(SQ_H1) | square_bb(SQ_A8) | square_bb(SQ_H8);
    return from_setup(s).value();
}

void Position::put_piece(Piece p, Square s) {
    board_[s] = p;
    by_type_[type_of(p)] |= square_bb(s);
    by_color_[color_of(p)] |= square_bb(s);
    key_ ^= zobrist::piece_square(p, s);
}

void Position::remove_piece(Square s) {
    Piece p = board_[s];
    by_type_[type_of(p)] ^= square_bb(s);
    by_color_[color_of(p)] ^= square_bb(s);
    board_[s] = NO_PIECE;
    key_ ^= zobrist::piece_square(p, s);
}

void Position::move_piece(Square from, Square to) {
    Piece p = board_[from];
    Bitboard fromto = square_bb(from) | square_bb(to);
    by_type_[type_of(p)] ^= fromto;
    by_color_[color_of(p)] ^= fromto;
    board_[from] = NO_PIECE;
    board_[to] = p;
    key_ ^= zobrist::piece_square(p, from) ^ zobrist::piece_square(p, to);
}

Bitboard Position::attackers_to(Square s, Bitboard occupied) const {
    return (pawn_attacks(BLACK, s) & pieces(WHITE, PAWN))
         | (pawn_attacks(WHITE, s) & pieces(BLACK, PAWN))
         | (knight_attacks(s) & by_type_[KNIGHT])
         | (bishop_attacks(s, occupied) & (by_type_[BISHOP] | by_type_[QUEEN]))
         | (rook_attacks(s, occupied) & (by_type_[ROOK] | by_type_[QUEEN]))
         | (king_attacks(s) & by_type_[KING]);
}

Bitboard Position::pinned(Color c) const {
    const Square ksq = king_square(c);
    const Bitboard theirs = pieces(~c);
    Bitboard result = 0;
    Bitboard snipers = (rook_attacks(ksq, theirs) & pieces(~c, ROOK, QUEEN))
                     | (bishop_attacks(ksq, theirs) & pieces(~c, BISHOP, QUEEN));
    while (snipers) {
        Square s = pop_lsb(snipers);
        Bitboard blockers = between_bb(ksq, s) & pieces() & ~square_bb(s);
        if (!more_than_one(blockers)) result |= blockers & pieces(c);
    }
    return result;
}

void Position::update_checkers() {
    checkers_ = attackers_to(king_square(side_)) & pieces(~side_);
}

void Position::set_castling_right(Color c, Square rook_sq) {
    const Square ksq = king_square(c);
    const CastlingSide side = rook_sq > ksq ? KING_SIDE : QUEEN_SIDE;
    const int bit = castling_bit(c, side);
    castling_rights_ |= bit;
    castling_rook_[2 * c + side] = rook_sq;
    castling_mask_[ksq] |= std::uint8_t(bit);
    castling_mask_[rook_sq] |= std::uint8_t(bit);
}

// Polyglot counts the en passant file only when a pawn of the side to move could
// capture pseudo-legally; we keep the square under the same condition.
void Position::set_ep_after_double_step(Square ep_target) {
    const Color mover = ~side_;  // called after side_ has been switched
    if (pawn_attacks(mover, ep_target) & pieces(side_, PAWN)) {
        ep_ = ep_target;
        key_ ^= zobrist::en_passant(file_of(ep_target));
    }
}

Key Position::compute_key() const {
    Key k = 0;
    for (int s = 0; s < 64; ++s)
        if (board_[s] != NO_PIECE) k ^= zobrist::piece_square(board_[s], Square(s));
    for (Color c : {WHITE, BLACK})
        for (CastlingSide side : {KING_SIDE, QUEEN_SIDE})
            if (can_castle(c, side)) k ^= zobrist::castling(c, side);
    if (ep_ != SQ_NONE) k ^= zobrist::en_passant(file_of(ep_));
    if (side_ == WHITE) k ^= zobrist::white_to_move();
    return k;
}

Result<Position> Position::from_setup(const Setup& setup, bool chess960) {
    Position pos;
    pos.board_.fill(NO_PIECE);
    pos.castling_mask_.fill(0);
    pos.chess960_ = chess960;
    pos.side_ = setup.turn;

    for (int i = 0; i < 64; ++i) {
        Piece p = setup.board[i];
        if (p == NO_PIECE) continue;
        if ((p & 7) >= PIECE_TYPE_NB || p > B_KING) return make_error("invalid piece code on " + square_name(Square(i)));
        pos.put_piece(p, Square(i));
    }

    // Kings.
    for (Color c : {WHITE, BLACK}) {
        int kings = popcount(pos.pieces(c, KING));
        if (kings == 0) return make_error(std::string("no ") + color_name(c, Capital::NO) + " king");
        if (kings > 1) return make_error(std::string("more than one ") + color_name(c, Capital::NO) + " king");
    }
    if (king_attacks(pos.king_square(WHITE)) & pos.pieces(BLACK, KING))
        return make_error("the kings stand on adjacent squares");

    // Pawns and piece counts.
    Bitboard back_rank_pawns = pos.pieces(PAWN) & (RANK_1_BB | RANK_8_BB);
    if (back_rank_pawns)
        return make_error("pawn on " + square_name(lsb(back_rank_pawns)) + " (pawns cannot stand on the first or eighth rank)");
    for (Color c : {WHITE, BLACK}) {
        if (popcount(pos.pieces(c, PAWN)) > 8)
            return make_error(std::string("more than 8 ") + color_name(c, Capital::NO) + " pawns");
        if (popcount(pos.pieces(c)) > 16)
            return make_error(std::string("more than 16 ") + color_name(c, Capital::NO) + " pieces");
    }

    // Check.
    if (pos.attackers_to(pos.king_square(~pos.side_)) & pos.pieces(pos.side_))
        return make_error(std::string("the side not to move (") + color_name(~pos.side_, Capital::NO) +
                          ") is in check");

    // Castling rights: each rook square must hold a rook of that colour on its back
    // rank with the king on the same rank, at most one right per side of the king.
    Bitboard rooks = setup.castling_rooks;
    while (rooks) {
        Square r = pop_lsb(rooks);
        Color c = rank_of(r) == RANK_1 ? WHITE : BLACK;
        if (rank_of(r) != RANK_1 && rank_of(r) != RANK_8)
            return make_error("castling right for " + square_name(r) + ", which is not on a back rank");
        if (pos.piece_on(r) != make_piece(c, ROOK))
            return make_error("castling right without a " + std::string(color_name(c, Capital::NO)) + " rook on " +
                              square_name(r));
        Square k = pos.king_square(c);
        if (rank_of(k) != rank_of(r))
            return make_error(std::string("castling right without the ") + color_name(c, Capital::NO) +
                              " king on its back rank");
        CastlingSide side = r > k ? KING_SIDE : QUEEN_SIDE;
        if (pos.castling_rook(c, side) != SQ_NONE)
            return make_error(std::string("two ") + color_name(c, Capital::NO) + " castling rights on the " +
                              (side == KING_SIDE ? "king" : "queen") + " side");
        if (!chess960) {
            if (k != relative_square(c, SQ_E1) || r != relative_square(c, side == KING_SIDE ? SQ_H1 : SQ_A1))
                return make_error(std::string("castling right for ") + color_name(c, Capital::NO) +
                                  " needs king and rook on their original squares (use Chess960 for other castling)");
        }
        pos.set_castling_right(c, r);
    }

    // En passant: the square behind a pawn of the side not to move that has just
    // made a double step.
    if (setup.ep_square != SQ_NONE) {
        Square ep = setup.ep_square;
        Color them = ~pos.side_;
        Square pushed = Square(ep + (them == WHITE ? 8 : -8));
        Square origin = Square(ep - (them == WHITE ? 8 : -8));
        if (!is_ok(ep) || rank_of(ep) != relative_rank(them, RANK_3))
            return make_error("impossible en passant square " + square_name(ep) + " (must be on rank " +
                              (them == WHITE ? "3" : "6") + " with " + color_name(pos.side_, Capital::NO) +
                              " to move)");
        if (pos.piece_on(pushed) != make_piece(them, PAWN))
            return make_error("impossible en passant square " + square_name(ep) + ": no " +
                              color_name(them, Capital::NO) + " pawn on " + square_name(pushed));
        if (!pos.empty(ep) || !pos.empty(origin))
            return make_error("impossible en passant square " + square_name(ep) + ": " + square_name(ep) + " and " +
                              square_name(origin) + " must be empty");
        if (pawn_attacks(them, ep) & pos.pieces(pos.side_, PAWN)) pos.ep_ = ep;
    }

    if (setup.halfmove_clock < 0) return make_error("negative halfmove clock");
    if (setup.fullmove_number < 1) return make_error("fullmove number must be at least 1");
    pos.halfmove_clock_ = std::uint16_t(std::min(setup.halfmove_clock, 65535));
    pos.fullmove_number_ = std::uint16_t(std::min(setup.fullmove_number, 65535));

    pos.update_checkers();
    if (popcount(pos.checkers_) > 2) return make_error("the side to move is in check from more than two pieces");
    pos.key_ = pos.compute_key();
    return pos;
}

Setup Position::to_setup() const {
    Setup s;
    s.board = board_;
    s.turn = side_;
    for (Square r : castling_rook_)
        if (r != SQ_NONE) s.castling_rooks |= square_bb(r);
    s.ep_square = ep_square();
    s.halfmove_clock = halfmove_clock_;
    s.fullmove_number = fullmove_number_;
    return s;
}

Square Position::ep_square() const {
    if (ep_ == SQ_NONE) return SQ_NONE;
    MoveList list;
    generate(GenType::CAPTURES, *this, list);
    for (Move m : list)
        if (m.kind() == Move::EN_PASSANT) return ep_;
    return SQ_NONE;
}

Key Position::repetition_key() const {
    if (ep_ != SQ_NONE && ep_square() == SQ_NONE) return key_ ^ zobrist::en_passant(file_of(ep_));
    return key_;
}

void Position::do_move(Move m) {
    const Color us = side_;
    const Color them = ~us;
    const Square from = m.from();
    const Square to = m.to();
    const Piece pc = board_[from];

    if (ep_ != SQ_NONE) {
        key_ ^= zobrist::en_passant(file_of(ep_));
        ep_ = SQ_NONE;
    }
    ++halfmove_clock_;

    if (m.kind() == Move::CASTLING) {
        const CastlingSide side = to > from ? KING_SIDE : QUEEN_SIDE;
        const Square kto = castling_king_to(us, side);
        const Square rto = castling_rook_to(us, side);
        const Piece rook = board_[to];
        remove_piece(from);
        remove_piece(to);
        put_piece(pc, kto);
        put_piece(rook, rto);
    } else {
        if (m.kind() == Move::EN_PASSANT) {
            remove_piece(Square(int(to) - int(pawn_push(us))));
            halfmove_clock_ = 0;
        } else if (board_[to] != NO_PIECE) {
            remove_piece(to);
            halfmove_clock_ = 0;
        }
        move_piece(from, to);
        if (type_of(pc) == PAWN) {
            halfmove_clock_ = 0;
            if (m.kind() == Move::PROMOTION) {
                remove_piece(to);
                put_piece(make_piece(us, m.promotion()), to);
            }
        }
    }

    if (const std::uint8_t lost = (castling_mask_[from] | castling_mask_[to]) & castling_rights_) {
        for (int i = 0; i < 4; ++i) {
            if (lost & (1 << i)) {
                key_ ^= zobrist::castling(Color(i >> 1), CastlingSide(i & 1));
                castling_rook_[i] = SQ_NONE;
            }
        }
        castling_rights_ &= std::uint8_t(~lost);
    }

    side_ = them;
    key_ ^= zobrist::white_to_move();
    if (us == BLACK) ++fullmove_number_;

    if (type_of(pc) == PAWN && (int(to) ^ int(from)) == 16) set_ep_after_double_step(Square((from + to) / 2));
    update_checkers();
}

void Position::do_null_move() {
    if (ep_ != SQ_NONE) {
        key_ ^= zobrist::en_passant(file_of(ep_));
        ep_ = SQ_NONE;
    }
    ++halfmove_clock_;
    if (side_ == BLACK) ++fullmove_number_;
    side_ = ~side_;
    key_ ^= zobrist::white_to_move();
    update_checkers();
}

// Exact for any 16-bit move, so that moves from outside the generator (an engine's
// hash table, killer moves, a client) can be tested without generating every move.
bool Position::is_legal(Move m) const {
    if (!m.is_ok()) return false;
    // Only a promotion carries a piece: the generator's other moves have those bits clear.
    if (m.kind() != Move::PROMOTION && (m.raw() & (3 << 12))) return false;
    const Color us = side_;
    const Square from = m.from(), to = m.to();
    const Piece pc = board_[from];
    if (pc == NO_PIECE || color_of(pc) != us) return false;

    // Castling and en passant are rare: compare against the generator.
    if (m.kind() == Move::CASTLING || m.kind() == Move::EN_PASSANT) {
        MoveList list;
        generate(m.kind() == Move::CASTLING ? GenType::QUIETS : GenType::CAPTURES, *this, list);
        return list.contains(m);
    }
    if (pieces(us) & square_bb(to)) return false;

    const PieceType pt = type_of(pc);
    const Bitboard occupied = pieces();
    const bool last_rank = relative_rank(us, rank_of(to)) == RANK_8;
    if (m.kind() == Move::PROMOTION && (pt != PAWN || !last_rank)) return false;

    if (pt == PAWN) {
        if (m.kind() == Move::NORMAL && last_rank) return false;
        const int up = int(pawn_push(us));
        const bool capture = pawn_attacks(us, from) & pieces(~us) & square_bb(to);
        const bool push1 = int(to) == int(from) + up && empty(to);
        const bool push2 = int(to) == int(from) + 2 * up && relative_rank(us, rank_of(from)) == RANK_2 && empty(to) &&
                           empty(Square(int(from) + up));
        if (!capture && !push1 && !push2) return false;
    } else if (!(attacks_bb(pt, from, occupied) & square_bb(to))) {
        return false;
    }

    // R5: the king may not stand on an attacked square (looking through its old square).
    if (pt == KING) return !(attackers_to(to, occupied ^ square_bb(from)) & pieces(~us));

    const Square ksq = king_square(us);
    if (checkers_) {
        if (more_than_one(checkers_)) return false;
        // between_bb includes the checker itself: block or capture.
        if (!(between_bb(ksq, lsb(checkers_)) & square_bb(to))) return false;
    }
    return !(pinned(us) & square_bb(from)) || aligned(ksq, from, to);
}

bool Position::gives_check(Move m) const {
    if (m.kind() != Move::NORMAL) return after(m).in_check();
    const Color us = side_;
    const Square from = m.from(), to = m.to();
    const Square ksq = king_square(~us);
    const PieceType pt = type_of(board_[from]);
    const Bitboard occupied = (pieces() ^ square_bb(from)) | square_bb(to);

    // Direct check.
    if (pt == PAWN) {
        if (pawn_attacks(us, to) & square_bb(ksq)) return true;
    } else if (pt != KING && (attacks_bb(pt, to, occupied) & square_bb(ksq))) {
        return true;
    }
    // Discovered check: a slider of ours sees the king once `from` is vacated.
    const Bitboard sliders = (bishop_attacks(ksq, occupied) & pieces(us, BISHOP, QUEEN)) |
                             (rook_attacks(ksq, occupied) & pieces(us, ROOK, QUEEN));
    return sliders & ~square_bb(to) & ~square_bb(from);
}

bool Position::has_legal_moves() const { return count_legal_moves(*this) != 0; }

bool Position::has_insufficient_material(Color c) const {
    // A pawn, a rook or a queen can always take part in a mate.
    if (pieces(c, PAWN) || pieces(c, ROOK) || pieces(c, QUEEN)) return false;
    const Bitboard minors = pieces(c, KNIGHT) | pieces(c, BISHOP);
    if (!minors) return true;  // a lone king
    if (pieces(c, KNIGHT))
        // One knight mates only where a piece of the mated side that cannot take it
        // blocks the king: a pawn, knight, bishop or rook can, a queen cannot.
        return !more_than_one(minors) && !(pieces(~c) & ~pieces(KING) & ~pieces(QUEEN));
    // Bishops: all on one colour, no pawn or knight anywhere to stand on the other
    // colour; a rook or queen next to the mated king could always interpose.
    return one_square_colour(pieces(BISHOP)) && !pieces(PAWN) && !pieces(KNIGHT);
}

bool Position::operator==(const Position& o) const {
    return board_ == o.board_ && side_ == o.side_ && castling_rights_ == o.castling_rights_ &&
           castling_rook_[0] == o.castling_rook_[0] && castling_rook_[1] == o.castling_rook_[1] &&
           castling_rook_[2] == o.castling_rook_[2] && castling_rook_[3] == o.castling_rook_[3] &&
           ep_ == o.ep_ && halfmove_clock_ == o.halfmove_clock_ && fullmove_number_ == o.fullmove_number_;
}

}  // namespace outpost
