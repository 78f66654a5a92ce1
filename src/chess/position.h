// Outpost — Setup (unvalidated) and Position (validated, playable).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Parsing FEN gives a Setup; Position::from_setup checks it and returns either a
// Position or an Error that says what is wrong. A Position is always legal: one king
// each, the side not to move not in check, castling rights backed by king and rook,
// an en passant square only where a pawn has just made a double step.
//
// Moves are applied by copy-make: a Position is a small value (about 180 bytes) and
// do_move updates it in place, so a search keeps the parent by copying first. We
// chose this over make/unmake because it keeps undo information out of the hot path
// and perft measured no slower with it (see bench/perft).
#pragma once

#include <array>

#include "chess/bitboard.h"
#include "chess/result.h"
#include "chess/types.h"

namespace outpost {

// A position as read from FEN or built by hand, not yet checked.
struct Setup {
    std::array<Piece, SQUARE_NB> board;
    Color turn = WHITE;
    // Squares of the rooks that keep a castling right (as in chessops): this
    // describes standard and Chess960 castling alike.
    Bitboard castling_rooks = 0;
    Square ep_square = SQ_NONE;
    int halfmove_clock = 0;
    int fullmove_number = 1;

    Setup() { board.fill(NO_PIECE); }
    bool operator==(const Setup&) const = default;
};

class Position {
public:
    // The classical start position.
    static Position startpos();
    // Validates a setup. chess960 selects Chess960 castling semantics for notation
    // (king-takes-rook in UCI, X-FEN output); the rules of castling themselves are
    // the same code for both, because classical castling is a special case.
    static Result<Position> from_setup(const Setup& setup, bool chess960 = false);

    Setup to_setup() const;

    // Board queries.
    Piece piece_on(Square s) const { return board_[s]; }
    bool empty(Square s) const { return board_[s] == NO_PIECE; }
    Bitboard pieces() const { return by_color_[WHITE] | by_color_[BLACK]; }
    Bitboard pieces(Color c) const { return by_color_[c]; }
    Bitboard pieces(PieceType pt) const { return by_type_[pt]; }
    Bitboard pieces(Color c, PieceType pt) const { return by_color_[c] & by_type_[pt]; }
    Bitboard pieces(Color c, PieceType a, PieceType b) const { return by_color_[c] & (by_type_[a] | by_type_[b]); }
    Square king_square(Color c) const { return lsb(pieces(c, KING)); }
    Color side_to_move() const { return side_; }
    bool is_chess960() const { return chess960_; }
    void set_chess960(bool v) { chess960_ = v; }

    // Castling: the rook square for a right still held, or SQ_NONE.
    Square castling_rook(Color c, CastlingSide side) const { return castling_rook_[2 * c + side]; }
    bool can_castle(Color c, CastlingSide side) const { return castling_rights_ & castling_bit(c, side); }
    int castling_rights() const { return castling_rights_; }
    // Where king and rook end up when castling (the classical squares, R4/R16).
    static Square castling_king_to(Color c, CastlingSide side) {
        return relative_square(c, side == KING_SIDE ? SQ_G1 : SQ_C1);
    }
    static Square castling_rook_to(Color c, CastlingSide side) {
        return relative_square(c, side == KING_SIDE ? SQ_F1 : SQ_D1);
    }

    // The en passant target square when an en passant capture is actually legal
    // (R9: only then does the right count), else SQ_NONE.
    Square ep_square() const;
    // The square behind a pawn that has just made a double step when a pawn of the
    // side to move stands beside it, legal or not: Polyglot keys count this one.
    Square pseudo_ep_square() const { return ep_; }

    int halfmove_clock() const { return halfmove_clock_; }
    int fullmove_number() const { return fullmove_number_; }
    // Plies since the start of the game implied by the fullmove number.
    int game_ply() const { return 2 * (fullmove_number_ - 1) + (side_ == BLACK); }

    // The Polyglot key of the position.
    Key key() const { return key_; }
    // A key for repetition (R9): like key() but the en passant file counts only when
    // the capture is legal.
    Key repetition_key() const;

    // Attacks and check.
    Bitboard checkers() const { return checkers_; }
    bool in_check() const { return checkers_ != 0; }
    Bitboard attackers_to(Square s, Bitboard occupied) const;
    Bitboard attackers_to(Square s) const { return attackers_to(s, pieces()); }
    // Pieces of colour c that are pinned to their own king.
    Bitboard pinned(Color c) const;

    // Moves. do_move takes a legal move (from the generator or is_legal).
    void do_move(Move m);
    Position after(Move m) const {
        Position p = *this;
        p.do_move(m);
        return p;
    }
    // Passes the turn (engines' null move): only when not in check.
    void do_null_move();
    // Whether m is a legal move here: exact for every 16-bit value, and cheap for the
    // common kinds (engines test hash and killer moves with it).
    bool is_legal(Move m) const;
    bool is_capture(Move m) const {
        return m.kind() == Move::EN_PASSANT || (m.kind() != Move::CASTLING && !empty(m.to()));
    }
    // Whether the legal move m gives check, without making it (castling, en passant
    // and promotions are made on a copy).
    bool gives_check(Move m) const;
    PieceType moved_piece_type(Move m) const { return type_of(board_[m.from()]); }

    // Results decided by the position alone (R6, R7).
    bool has_legal_moves() const;
    bool is_checkmate() const { return in_check() && !has_legal_moves(); }
    bool is_stalemate() const { return !in_check() && !has_legal_moves(); }
    // Whether colour c lacks the material ever to mate, whatever the moves (the rule
    // lichess's scalachess and chessops use): a lone king; a lone knight against a
    // king with nothing but queens (a queen cannot block a knight's mate without
    // taking the knight); bishops, when every bishop on the board stands on one
    // colour and there are no pawns or knights to block on the other colour.
    bool has_insufficient_material(Color c) const;
    // The FIDE material cases of a dead position (R7), derived from the rule per side:
    // K v K, K+B v K, K+N v K, and bishops all on one colour on both sides.
    bool is_insufficient_material() const {
        return has_insufficient_material(WHITE) && has_insufficient_material(BLACK);
    }

    bool operator==(const Position& o) const;

private:
    void put_piece(Piece p, Square s);
    void remove_piece(Square s);
    void move_piece(Square from, Square to);
    void set_castling_right(Color c, Square rook_sq);
    void set_ep_after_double_step(Square ep_target);
    void update_checkers();
    Key compute_key() const;

    Bitboard by_type_[PIECE_TYPE_NB] = {};
    Bitboard by_color_[COLOR_NB] = {};
    Bitboard checkers_ = 0;
    Key key_ = 0;
    std::array<Piece, SQUARE_NB> board_;
    // Rights lost when a piece leaves or enters a square (king and rook squares).
    std::array<std::uint8_t, SQUARE_NB> castling_mask_;
    Square castling_rook_[4] = {SQ_NONE, SQ_NONE, SQ_NONE, SQ_NONE};
    std::uint8_t castling_rights_ = 0;
    Color side_ = WHITE;
    Square ep_ = SQ_NONE;
    bool chess960_ = false;
    std::uint16_t halfmove_clock_ = 0;
    std::uint16_t fullmove_number_ = 1;
};

}  // namespace outpost
