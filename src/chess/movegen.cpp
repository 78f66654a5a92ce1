// Outpost — legal move generation.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "chess/movegen.h"

namespace outpost {
namespace {

// Where generated moves go. The same generator code fills a list or only counts;
// counting adds population counts of target sets instead of listing them, which is
// what makes bulk-counted perft fast.
struct ListSink {
    MoveList& list;
    void move(Move m) { list.push(m); }
    void targets(Square from, Bitboard to) {
        while (to) list.push(Move(from, pop_lsb(to)));
    }
    void pawn_targets(Bitboard to, int offset) {
        while (to) {
            Square t = pop_lsb(to);
            list.push(Move(Square(t - offset), t));
        }
    }
    void promotions(Bitboard to, int offset) {
        while (to) {
            Square t = pop_lsb(to);
            Square f = Square(t - offset);
            list.push(Move::make<Move::PROMOTION>(f, t, QUEEN));
            list.push(Move::make<Move::PROMOTION>(f, t, ROOK));
            list.push(Move::make<Move::PROMOTION>(f, t, BISHOP));
            list.push(Move::make<Move::PROMOTION>(f, t, KNIGHT));
        }
    }
};

struct CountSink {
    std::uint64_t n = 0;
    void move(Move) { ++n; }
    void targets(Square, Bitboard to) { n += unsigned(popcount(to)); }
    void pawn_targets(Bitboard to, int) { n += unsigned(popcount(to)); }
    void promotions(Bitboard to, int) { n += 4 * unsigned(popcount(to)); }
};

template <Color Them>
Bitboard attacked_squares(const Position& pos, Bitboard occupied) {
    Bitboard att = pawn_attacks_bb<Them>(pos.pieces(Them, PAWN));
    Bitboard b = pos.pieces(Them, KNIGHT);
    while (b) att |= knight_attacks(pop_lsb(b));
    b = pos.pieces(Them, BISHOP, QUEEN);
    while (b) att |= bishop_attacks(pop_lsb(b), occupied);
    b = pos.pieces(Them, ROOK, QUEEN);
    while (b) att |= rook_attacks(pop_lsb(b), occupied);
    return att | king_attacks(pos.king_square(Them));
}

template <Color Us, GenType Type, class Sink>
void generate_pawn_moves(const Position& pos, Sink& sink, Bitboard pawns, Bitboard check_mask, Bitboard pin_mask) {
    constexpr Color Them = ~Us;
    constexpr Direction Up = pawn_push(Us);
    constexpr Direction UpLeft = Us == WHITE ? NORTH_WEST : SOUTH_WEST;
    constexpr Direction UpRight = Us == WHITE ? NORTH_EAST : SOUTH_EAST;
    constexpr Bitboard Rank3 = Us == WHITE ? rank_bb(RANK_3) : rank_bb(RANK_6);
    constexpr Bitboard Rank8 = Us == WHITE ? RANK_8_BB : RANK_1_BB;
    constexpr bool Captures = Type != GenType::QUIETS;
    constexpr bool Quiets = Type != GenType::CAPTURES;

    const Bitboard empty = ~pos.pieces();
    const Bitboard enemies = pos.pieces(Them);
    const Bitboard allowed = check_mask & pin_mask;

    Bitboard push1 = shift<Up>(pawns) & empty;
    Bitboard push2 = shift<Up>(push1 & Rank3) & empty & allowed;
    push1 &= allowed;
    Bitboard cap_l = shift<UpLeft>(pawns) & enemies & allowed;
    Bitboard cap_r = shift<UpRight>(pawns) & enemies & allowed;

    if constexpr (Quiets) {
        sink.pawn_targets(push1 & ~Rank8, Up);
        sink.pawn_targets(push2, 2 * Up);
    }
    if constexpr (Captures) {
        sink.promotions(push1 & Rank8, Up);
        sink.promotions(cap_l & Rank8, UpLeft);
        sink.promotions(cap_r & Rank8, UpRight);
        sink.pawn_targets(cap_l & ~Rank8, UpLeft);
        sink.pawn_targets(cap_r & ~Rank8, UpRight);
    }
}

template <Color Us, GenType Type, class Sink>
void generate_moves(const Position& pos, Sink& sink) {
    constexpr Color Them = ~Us;
    constexpr bool Captures = Type != GenType::QUIETS;
    constexpr bool Quiets = Type != GenType::CAPTURES;

    const Square ksq = pos.king_square(Us);
    const Bitboard occupied = pos.pieces();
    const Bitboard theirs = pos.pieces(Them);
    const Bitboard checkers = pos.checkers();

    Bitboard target = 0;
    if constexpr (Captures) target |= theirs;
    if constexpr (Quiets) target |= ~occupied;

    // King moves: never onto a square the enemy attacks once the king has left its
    // square (so that sliding checkers still see through it).
    const Bitboard danger = attacked_squares<Them>(pos, occupied ^ square_bb(ksq));
    sink.targets(ksq, king_attacks(ksq) & target & ~danger);
    if (more_than_one(checkers)) return;

    // With one checker, other pieces must capture it or block its line.
    const Bitboard check_mask = checkers ? between_bb(ksq, lsb(checkers)) : ~Bitboard(0);

    // Pins: our pieces that stand alone between the king and an enemy slider.
    const Bitboard pinned = pos.pinned(Us);

    const Bitboard piece_target = target & check_mask;

    // Pawns: unpinned ones in bulk, pinned ones one by one along their pin line
    // (a pinned piece can never answer a check, so those only when not in check).
    generate_pawn_moves<Us, Type>(pos, sink, pos.pieces(Us, PAWN) & ~pinned, check_mask, ~Bitboard(0));
    if (!checkers) {
        Bitboard b = pos.pieces(Us, PAWN) & pinned;
        while (b) {
            Square s = pop_lsb(b);
            generate_pawn_moves<Us, Type>(pos, sink, square_bb(s), check_mask, line_bb(ksq, s));
        }
    }

    Bitboard b = pos.pieces(Us, KNIGHT) & ~pinned;
    while (b) {
        Square s = pop_lsb(b);
        sink.targets(s, knight_attacks(s) & piece_target);
    }
    b = pos.pieces(Us, BISHOP, QUEEN);
    while (b) {
        Square s = pop_lsb(b);
        Bitboard t = bishop_attacks(s, occupied) & piece_target;
        if (pinned & square_bb(s)) t &= line_bb(ksq, s);
        sink.targets(s, t);
    }
    b = pos.pieces(Us, ROOK, QUEEN);
    while (b) {
        Square s = pop_lsb(b);
        Bitboard t = rook_attacks(s, occupied) & piece_target;
        if (pinned & square_bb(s)) t &= line_bb(ksq, s);
        sink.targets(s, t);
    }

    // En passant: rare, so tested exactly by looking at the board after the capture
    // (this covers the horizontal pin that removes two pawns from one rank).
    if constexpr (Captures) {
        const Square ep = pos.pseudo_ep_square();
        if (ep != SQ_NONE) {
            const Square captured = Square(int(ep) - int(pawn_push(Us)));
            Bitboard from = pawn_attacks(Them, ep) & pos.pieces(Us, PAWN);
            while (from) {
                Square f = pop_lsb(from);
                Bitboard occ = (occupied ^ square_bb(f) ^ square_bb(captured)) | square_bb(ep);
                if (!(pos.attackers_to(ksq, occ) & theirs & ~square_bb(captured)))
                    sink.move(Move::make<Move::EN_PASSANT>(f, ep));
            }
        }
    }

    // Castling (R4, R16): the same code for classical and Chess960 castling.
    if constexpr (Quiets) {
        if (!checkers && (pos.castling_rights() & (Us == WHITE ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO))) {
            for (CastlingSide side : {KING_SIDE, QUEEN_SIDE}) {
                const Square rsq = pos.castling_rook(Us, side);
                if (rsq == SQ_NONE) continue;
                const Square kto = Position::castling_king_to(Us, side);
                const Square rto = Position::castling_rook_to(Us, side);
                const Bitboard movers = square_bb(ksq) | square_bb(rsq);
                const Bitboard king_path = between_bb(ksq, kto) | square_bb(kto);
                const Bitboard must_be_empty = (king_path | between_bb(rsq, rto) | square_bb(rto)) & ~movers;
                if ((occupied & must_be_empty) || (danger & king_path)) continue;
                // The castling rook may shield the king's destination along the
                // first rank (Chess960: rook on b1 or g1); look through it.
                if (rook_attacks(kto, occupied ^ movers) & pos.pieces(Them, ROOK, QUEEN)) continue;
                sink.move(Move::make<Move::CASTLING>(ksq, rsq));
            }
        }
    }
}

template <GenType Type, class Sink>
void generate_for(const Position& pos, Sink& sink) {
    if (pos.side_to_move() == WHITE)
        generate_moves<WHITE, Type>(pos, sink);
    else
        generate_moves<BLACK, Type>(pos, sink);
}

}  // namespace

void generate(GenType type, const Position& pos, MoveList& list) {
    ListSink sink{list};
    switch (type) {
    case GenType::ALL:
    case GenType::EVASIONS: generate_for<GenType::ALL>(pos, sink); break;
    case GenType::CAPTURES: generate_for<GenType::CAPTURES>(pos, sink); break;
    case GenType::QUIETS: generate_for<GenType::QUIETS>(pos, sink); break;
    }
}

std::uint64_t count_legal_moves(const Position& pos) {
    CountSink sink;
    generate_for<GenType::ALL>(pos, sink);
    return sink.n;
}

}  // namespace outpost
