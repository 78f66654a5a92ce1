// Outpost — the themes and the first rating of a puzzle (themes.h; docs/puzzles.md
// says what each theme means here).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "training/themes.h"

#include <algorithm>

#include "chess/bitboard.h"
#include "chess/fen.h"
#include "chess/uci.h"

namespace outpost::training {

namespace {

constexpr int PieceValue[PIECE_TYPE_NB] = {1, 3, 3, 5, 9, 100};

bool is_slider(PieceType pt) { return pt == BISHOP || pt == ROOK || pt == QUEEN; }

// The positions of the line: [0] the FEN, [i + 1] after moves[i]; and the moves.
struct Line {
    std::vector<Position> pos;
    std::vector<Move> moves;
    Color solver = WHITE;
    bool ok = false;
};

Line replay(const Puzzle& p) {
    Line line;
    auto start = position_from_fen(p.fen);
    if (!start) return line;
    line.pos.push_back(*start);
    for (const std::string& text : p.moves) {
        auto m = move_from_uci(line.pos.back(), text);
        if (!m) return line;
        line.moves.push_back(*m);
        line.pos.push_back(line.pos.back().after(*m));
    }
    line.ok = line.moves.size() >= 2;
    line.solver = ~start->side_to_move();
    return line;
}

// Opponent pieces (colour `them`) that the piece on `s` attacks.
Bitboard attacked_by(const Position& pos, Square s) {
    const Piece pc = pos.piece_on(s);
    const PieceType pt = type_of(pc);
    const Bitboard att = pt == PAWN ? pawn_attacks(color_of(pc), s) : attacks_bb(pt, s, pos.pieces());
    return att & pos.pieces(~color_of(pc));
}

bool defended(const Position& pos, Square s) {
    const Color owner = color_of(pos.piece_on(s));
    return pos.attackers_to(s) & pos.pieces(owner);
}

// The moved piece attacks two or more targets worth attacking (the king, a piece
// worth more than it, or an undefended piece other than a pawn), and the solver's
// next move takes one of them (a check that only leads to mate is not called a fork).
bool is_fork(const Line& l, std::size_t i) {
    if (i + 2 >= l.moves.size()) return false;
    const Position& after = l.pos[i + 1];
    const Move m = l.moves[i];
    const PieceType mover = type_of(after.piece_on(m.to()));
    if (mover == KING) return false;
    int targets = 0;
    Bitboard taken_squares = 0;
    for (Bitboard b = attacked_by(after, m.to()); b;) {
        const Square s = pop_lsb(b);
        const PieceType t = type_of(after.piece_on(s));
        if (t == PAWN) continue;
        if (t == KING || PieceValue[t] > PieceValue[mover] || !defended(after, s)) {
            ++targets;
            if (t != KING) taken_squares |= square_bb(s);
        }
    }
    const Move next = l.moves[i + 2];
    return targets >= 2 && l.pos[i + 2].is_capture(next) && (taken_squares & square_bb(next.to()));
}

// After the solver's move, the moved slider pins an opponent piece (not a pawn) to
// its king or to a more valuable piece behind it.
bool is_pin(const Position& after, Move m) {
    const Square from = m.to();
    const PieceType mover = type_of(after.piece_on(from));
    if (!is_slider(mover)) return false;
    const Color them = ~color_of(after.piece_on(from));
    for (Bitboard b = attacked_by(after, from); b;) {
        const Square front = pop_lsb(b);
        const PieceType ft = type_of(after.piece_on(front));
        if (ft == PAWN || ft == KING) continue;
        // What stands behind the front piece on the same ray.
        const Bitboard behind = attacks_bb(mover, from, after.pieces() ^ square_bb(front)) & ~attacks_bb(mover, from, after.pieces());
        const Bitboard on_ray = behind & line_bb(from, front) & after.pieces(them);
        if (!on_ray) continue;
        const PieceType bt = type_of(after.piece_on(lsb(on_ray)));
        if (bt == KING || PieceValue[bt] > PieceValue[ft]) return true;
    }
    return false;
}

// The solver's slider checks the king or attacks the queen; the piece moves away and
// the same slider takes what stood behind it.
bool is_skewer(const Line& l, std::size_t i) {
    if (i + 2 >= l.moves.size()) return false;
    const Position& after = l.pos[i + 1];
    const Move m = l.moves[i], reply = l.moves[i + 1], take = l.moves[i + 2];
    const PieceType mover = type_of(after.piece_on(m.to()));
    if (!is_slider(mover) || take.from() != m.to()) return false;
    const Piece front = after.piece_on(reply.from());
    const PieceType ft = type_of(front);
    if (ft != KING && ft != QUEEN) return false;
    if (!(attacked_by(after, m.to()) & square_bb(reply.from()))) return false;
    // reply.from lies between the slider and the square it then takes on.
    return l.pos[i + 2].is_capture(take) && (between_bb(m.to(), take.to()) & square_bb(reply.from())) &&
           PieceValue[type_of(l.pos[i + 2].piece_on(take.to()))] < PieceValue[ft];
}

// Moving the piece uncovers a line of another solver slider onto the king or a piece
// other than a pawn.
bool is_discovered_attack(const Position& before, const Position& after, Move m) {
    const Color us = before.side_to_move();
    Bitboard sliders = (after.pieces(us, BISHOP) | after.pieces(us, ROOK) | after.pieces(us, QUEEN)) & ~square_bb(m.to());
    while (sliders) {
        const Square s = pop_lsb(sliders);
        const Bitboard now = attacked_by(after, s) & ~after.pieces(~us, PAWN);
        const Bitboard then = attacks_bb(type_of(after.piece_on(s)), s, before.pieces());
        for (Bitboard n = now & ~then; n;) {
            const Square t = pop_lsb(n);
            if (between_bb(s, t) & square_bb(m.from())) return true;
        }
    }
    return false;
}

bool is_back_rank_mate(const Position& mated) {
    const Color loser = mated.side_to_move();
    const Square k = mated.king_square(loser);
    if (relative_rank(loser, rank_of(k)) != RANK_1) return false;
    const Bitboard checkers = mated.checkers();
    if (!checkers || more_than_one(checkers)) return false;
    const Square c = lsb(checkers);
    const PieceType ct = type_of(mated.piece_on(c));
    if ((ct != ROOK && ct != QUEEN) || rank_of(c) != rank_of(k)) return false;
    // The king is shut in by its own pieces on the rank in front.
    const Rank front = Rank(rank_of(k) + (loser == WHITE ? 1 : -1));
    const Bitboard escape = king_attacks(k) & rank_bb(front);
    return (escape & mated.pieces(loser)) == escape;
}

void add_phase(const Position& pos, std::vector<std::string>& themes) {
    Bitboard pieces = pos.pieces() & ~pos.pieces(PAWN) & ~pos.pieces(KING);
    if (popcount(pieces) <= 6) {
        themes.emplace_back("endgame");
        const bool q = pos.pieces(QUEEN), r = pos.pieces(ROOK), b = pos.pieces(BISHOP), n = pos.pieces(KNIGHT);
        if (!q && !r && !b && !n) themes.emplace_back("pawnEndgame");
        else if (r && !q && !b && !n) themes.emplace_back("rookEndgame");
        else if (q && !r && !b && !n) themes.emplace_back("queenEndgame");
        else if (b && !q && !r && !n) themes.emplace_back("bishopEndgame");
        else if (n && !q && !r && !b) themes.emplace_back("knightEndgame");
        else if (q && r && !b && !n) themes.emplace_back("queenRookEndgame");
    } else {
        themes.emplace_back(pos.fullmove_number() <= 12 ? "opening" : "middlegame");
    }
}

}  // namespace

int material(const Position& pos, Color c) {
    int sum = 0;
    for (PieceType pt : {PAWN, KNIGHT, BISHOP, ROOK, QUEEN}) sum += PieceValue[pt] * popcount(pos.pieces(c, pt));
    return sum;
}

std::vector<std::string> puzzle_themes(const Puzzle& p) {
    const Line l = replay(p);
    std::vector<std::string> themes;
    if (!l.ok) return themes;
    const std::size_t solver_count = l.moves.size() / 2;
    const Position& last = l.pos.back();
    const bool mate = last.is_checkmate();
    if (mate) {
        themes.emplace_back("mate");
        if (solver_count <= 5) themes.push_back("mateIn" + std::to_string(solver_count));
        if (is_back_rank_mate(last)) themes.emplace_back("backRankMate");
    }
    const int start_balance = balance(l.pos[1], l.solver);
    int lowest = start_balance;
    for (std::size_t i = 1; i < l.moves.size(); i += 2) {
        const Position& before = l.pos[i];
        const Position& after = l.pos[i + 1];
        const Move m = l.moves[i];
        if (m.kind() == Move::PROMOTION) themes.emplace_back("promotion");
        if (is_fork(l, i)) themes.emplace_back("fork");
        if (is_pin(after, m)) themes.emplace_back("pin");
        if (is_skewer(l, i)) themes.emplace_back("skewer");
        if (is_discovered_attack(before, after, m)) themes.emplace_back("discoveredAttack");
        // After each solver move, the material the solver has given up so far.
        lowest = std::min(lowest, balance(after, l.solver));
    }
    // The first solver move takes a piece nobody defended, in a short puzzle.
    const Move first = l.moves[1];
    if (solver_count <= 2 && l.pos[1].is_capture(first) && first.kind() != Move::EN_PASSANT) {
        const PieceType taken = type_of(l.pos[1].piece_on(first.to()));
        if (taken != PAWN && !defended(l.pos[1], first.to())) themes.emplace_back("hangingPiece");
    }
    if (lowest <= start_balance - 2) themes.emplace_back("sacrifice");
    add_phase(l.pos[1], themes);
    themes.emplace_back(solver_count == 1 ? "oneMove" : solver_count == 2 ? "short" : solver_count == 3 ? "long" : "veryLong");
    if (!mate) {
        const int gain = balance(last, l.solver) - balance(l.pos[0], l.solver);
        themes.emplace_back(gain >= 5 ? "crushing" : "advantage");
    }
    std::sort(themes.begin(), themes.end());
    themes.erase(std::unique(themes.begin(), themes.end()), themes.end());
    return themes;
}

int estimate_rating(const Puzzle& p) {
    const Line l = replay(p);
    if (!l.ok) return 1500;
    const int solver_count = int(l.moves.size() / 2);
    const std::vector<std::string> themes = puzzle_themes(p);
    auto has = [&themes](std::string_view t) { return std::find(themes.begin(), themes.end(), t) != themes.end(); };
    int rating = 1100 + 250 * (solver_count - 1);
    const Move first = l.moves[1];
    const bool check = l.pos[1].gives_check(first);
    const bool capture = l.pos[1].is_capture(first);
    if (!check && !capture) rating += 250;  // a quiet first move is the hardest to see
    else if (capture && !check && has("hangingPiece")) rating -= 250;
    if (has("sacrifice")) rating += 200;
    if (has("discoveredAttack") || has("skewer") || has("pin")) rating += 100;
    if (has("mateIn1")) rating -= 200;
    if (first.kind() == Move::PROMOTION && first.promotion() != QUEEN) rating += 300;  // underpromotion
    return std::clamp(rating, 600, 2800);
}

}  // namespace outpost::training
