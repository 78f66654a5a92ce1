// Outpost — dead positions and mating ability: the static proofs and the front door.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Two static proofs that a side can never mate, both cheap enough to run at every
// node of the helpmate search (helpmate.cpp), which they prune:
//  1. Material (Position::has_insufficient_material): the per-side rule.
//  2. A frozen pawn structure. When no pawn can ever move (each is blocked by a pawn
//     that is itself blocked) and no pawn can ever capture or be captured, the pawns
//     are walls for good. Every other piece then moves inside a region that we can
//     flood-fill through the walls; if some region touches a square where a pawn
//     could take it, or lets a piece take a pawn, the pawns are not permanent and the
//     proof gives up. Otherwise the winner can mate only if one of its pieces can
//     some day attack a square of the losing king's region; if none can, the winner
//     can never even give check. This covers bishops locked to one colour by a chain
//     of pawns on the other colour, rooks and knights shut behind their own pawns,
//     and kings on either side of a blocked chain. Pieces that cannot move now (a
//     king shut in a corner by its own pawn and enemy pawns) are first supposed to
//     stay for good, walls like the frozen pawns; the proof stands only if the
//     structure it finds confirms that none of them can ever move or be taken.
#include "chess/dead_position.h"

#include "chess/helpmate.h"
#include "chess/movegen.h"

namespace outpost {
namespace {

Bitboard king_step(Bitboard b) {
    const Bitboard h = b | shift<EAST>(b) | shift<WEST>(b);
    return h | shift<NORTH>(h) | shift<SOUTH>(h);
}

Bitboard knight_step(Bitboard b) {
    Bitboard out = 0;
    while (b) out |= knight_attacks(pop_lsb(b));
    return out;
}

Bitboard slider_step(PieceType pt, Bitboard from, Bitboard walls) {
    Bitboard out = 0;
    while (from) out |= attacks_bb(pt, pop_lsb(from), walls);
    return out;
}

Bitboard pawn_attacks_of(Color c, Bitboard b) {
    return c == WHITE ? pawn_attacks_bb<WHITE>(b) : pawn_attacks_bb<BLACK>(b);
}

// Where the pawns can ever be, given pawns that a piece may take (`gone`: perhaps
// there, perhaps not) and provided no pawn ever captures (which the caller checks).
// Frozen: a pawn that is there for good and can never move, because the square
// ahead holds a frozen pawn. Every other pawn walks up its file until it meets a
// frozen pawn or an enemy pawn that is there for good (which only comes toward it);
// it may stand on any square on the way. Own pawns and pawns that may be gone are
// walked past: that only makes a span larger than it can be, never smaller.
// False when some pawn could reach its last rank (a promotion changes everything).
struct PawnSpans {
    Bitboard frozen = 0;
    Bitboard span[COLOR_NB] = {0, 0};  // squares a pawn of that colour may stand on
    Bitboard of[SQUARE_NB] = {};      // per pawn (by its square): its squares
};

bool pawn_spans(const Position& pos, Bitboard gone, Bitboard stuck, PawnSpans& out) {
    const Bitboard wp = pos.pieces(WHITE, PAWN) & ~gone, bp = pos.pieces(BLACK, PAWN) & ~gone;
    Bitboard frozen = wp | bp;
    for (;;) {
        const Bitboard block = frozen | stuck;
        const Bitboard next = (wp & frozen & shift<SOUTH>(block)) | (bp & frozen & shift<NORTH>(block));
        if (next == frozen) break;
        frozen = next;
    }
    out.frozen = frozen;
    for (Color c : {WHITE, BLACK}) {
        const Bitboard stops = frozen | stuck | (pos.pieces(~c, PAWN) & ~gone);
        for (Bitboard b = pos.pieces(c, PAWN); b;) {
            const Square from = pop_lsb(b);
            Bitboard span = square_bb(from);
            if (!(frozen & square_bb(from))) {
                for (Square s = from;;) {
                    const Square t = Square(int(s) + int(pawn_push(c)));
                    if (square_bb(t) & stops) break;
                    if (relative_rank(c, rank_of(t)) == RANK_8) return false;  // it could promote
                    span |= square_bb(t);
                    s = t;
                }
            }
            out.of[from] = span;
            out.span[c] |= span;
        }
    }
    return true;
}

// The pawns of `c` that may stand on one of `squares`.
Bitboard pawns_meeting(const Position& pos, const PawnSpans& ps, Color c, Bitboard squares) {
    Bitboard out = 0;
    for (Bitboard b = pos.pieces(c, PAWN); b;) {
        const Square s = pop_lsb(b);
        if (ps.of[s] & squares) out |= square_bb(s);
    }
    return out;
}

// A static proof that `side` can never mate, on a pawn structure that can only
// change by pieces taking pawns: no pawn can promote or capture, whatever happens.
// Frozen pawns are walls; the squares a moving pawn may pass stay open (a larger
// region than the truth, which only weakens the proof). Every piece then moves in a
// region found by flood fill; a king never enters a square a frozen enemy pawn
// attacks. A pawn that a piece or a king may take is perhaps gone: the analysis is
// repeated with it so (no longer a wall; the pawns it held may move on), until no
// new pawn can be taken. A piece that can never leave its square and never be taken
// guards the squares next to it for good, like a frozen pawn. The proof gives up where a pawn could take something or
// promote. Then the winner mates on a square s of the loser king's region only if
//   - one of its pieces or pawns can attack s, and
//   - every flight square of s (a square of the region next to s) is attacked by the
//     winner or blocked by a piece or pawn of the loser: the flight squares that no
//     piece or pawn of the winner can ever attack, less those its king attacks from
//     one square of its region not next to s, need as many of the loser's units that
//     can ever stand on one of them.
// If no square passes, the winner can never mate.
//
// `stuck` is a hypothesis: pieces (a king too) that never move and are never taken.
// They are walls like the frozen pawns, and a pawn they stand in front of is frozen.
// The proof holds only if the hypothesis holds in the structure it finds: each of
// them has its own square as region and no unit, king or pawn of the other side can
// ever reach it (then, by induction over the moves of any game, none of them ever
// moves or is taken). When the proof would succeed but some of them fail this test,
// they are returned in `refuted` and the caller tries again without them.
bool blocked_structure_proof(const Position& pos, Color side, Bitboard stuck, Bitboard& refuted) {
    const Color loser = ~side;
    Bitboard gone = 0;
    Bitboard piece_guard[COLOR_NB] = {0, 0};  // squares held for good by pieces that never move
    for (;;) {
        PawnSpans ps;
        if (!pawn_spans(pos, gone, stuck, ps)) return false;
        const Bitboard walls = ps.frozen | stuck;
        const Bitboard pawn_reach[COLOR_NB] = {pawn_attacks_of(WHITE, ps.span[WHITE]),
                                               pawn_attacks_of(BLACK, ps.span[BLACK])};
        if ((pawn_reach[WHITE] & ps.span[BLACK]) || (pawn_reach[BLACK] & ps.span[WHITE])) return false;
        const Bitboard frozen_guard[COLOR_NB] = {pawn_attacks_of(WHITE, ps.frozen & pos.pieces(WHITE)),
                                                 pawn_attacks_of(BLACK, ps.frozen & pos.pieces(BLACK))};
        // A king that never moves keeps the other king off the squares next to it.
        Bitboard stuck_king_guard[COLOR_NB] = {0, 0};
        for (Color c : {WHITE, BLACK})
            if (stuck & square_bb(pos.king_square(c))) stuck_king_guard[c] = king_attacks(pos.king_square(c));
        const Bitboard guard[COLOR_NB] = {frozen_guard[WHITE] | piece_guard[WHITE] | stuck_king_guard[WHITE],
                                          frozen_guard[BLACK] | piece_guard[BLACK] | stuck_king_guard[BLACK]};

        Bitboard taken = 0;                        // pawns a piece may take
        Bitboard winner_reach = pawn_reach[side];  // squares the winner's units may attack
        Bitboard king_region[COLOR_NB] = {0, 0};
        Bitboard loser_regions[32];
        int loser_units = 0;
        struct Unit {
            Square s;
            Color c;
            PieceType pt;
            Bitboard region, reach;
        };
        Unit units[32];
        int n_units = 0;
        for (Color c : {WHITE, BLACK}) {
            for (Bitboard pieces = pos.pieces(c) & ~pos.pieces(c, PAWN); pieces;) {
                const Square s = pop_lsb(pieces);
                const PieceType pt = type_of(pos.piece_on(s));
                Bitboard region = square_bb(s);
                if (pt == KING) {
                    const Bitboard closed = walls | guard[~c];
                    for (Bitboard grown = region;; region = grown) {
                        grown = region | (king_step(region) & ~closed);
                        if (grown == region) break;
                    }
                    taken |= pawns_meeting(pos, ps, ~c, king_step(region) & ~guard[~c]);
                    king_region[c] = region;
                    continue;
                }
                Bitboard reach;
                for (;;) {
                    reach = pt == KNIGHT ? knight_step(region) : slider_step(pt, region, walls);
                    const Bitboard grown = region | (reach & ~walls);
                    if (grown == region) break;
                    region = grown;
                }
                if (region & pawn_reach[~c]) return false;  // a pawn may take it
                taken |= pawns_meeting(pos, ps, ~c, reach);
                if (n_units == 32) return false;  // (more pieces than a game can have)
                units[n_units++] = {s, c, pt, region, reach};
                if (c == side) winner_reach |= reach;
                else loser_regions[loser_units++] = region;
            }
        }
        // A piece shut in on its square by walls that no enemy piece or king can ever
        // take holds the squares next to it for good (nothing can come between): the
        // enemy king never enters them nor takes a pawn there. Repeat with them.
        Bitboard held[COLOR_NB] = {0, 0};
        for (int i = 0; i < n_units; ++i) {
            const Unit& u = units[i];
            if (u.region != square_bb(u.s)) continue;
            bool takeable = king_step(king_region[~u.c]) & square_bb(u.s) & ~frozen_guard[u.c];
            for (int j = 0; j < n_units && !takeable; ++j) takeable = units[j].c != u.c && (units[j].reach & square_bb(u.s));
            if (!takeable) held[u.c] |= u.pt == KNIGHT ? knight_attacks(u.s) : u.reach & king_attacks(u.s);
        }
        if ((held[WHITE] & ~piece_guard[WHITE]) || (held[BLACK] & ~piece_guard[BLACK])) {
            piece_guard[WHITE] |= held[WHITE];
            piece_guard[BLACK] |= held[BLACK];
            continue;
        }
        if (taken & ~gone) {
            gone |= taken;
            piece_guard[WHITE] = piece_guard[BLACK] = 0;  // the walls changed: found again
            continue;
        }
        // The hypothesis `stuck`: each such piece keeps its square and nothing of the
        // other side can ever reach it.
        auto proved = [&] {
            Bitboard reach_of[COLOR_NB] = {pawn_reach[WHITE], pawn_reach[BLACK]};
            Bitboard moves = 0;
            for (int i = 0; i < n_units; ++i) {
                reach_of[units[i].c] |= units[i].reach;
                if (units[i].region != square_bb(units[i].s)) moves |= square_bb(units[i].s);
            }
            for (Color c : {WHITE, BLACK}) {
                const Bitboard k = square_bb(pos.king_square(c));
                if (king_region[c] != k) moves |= k;
                const Bitboard takers = reach_of[~c] | (king_step(king_region[~c]) & ~frozen_guard[c]);
                refuted |= stuck & pos.pieces(c) & (takers | moves);
            }
            return true;
        };
        const Bitboard loser_king_region = king_region[loser];
        if (!(winner_reach & loser_king_region)) return proved();  // never even a check
        for (Bitboard b = pos.pieces(loser, PAWN) & ~ps.frozen; b;) {
            if (loser_units == 32) return false;
            loser_regions[loser_units++] = ps.of[pop_lsb(b)];
        }
        const Bitboard winner_king_region = king_region[side];
        for (Bitboard targets = winner_reach & loser_king_region; targets;) {
            const Square s = pop_lsb(targets);
            // Flight squares no piece or pawn of the winner can ever attack: the
            // winner's king (never next to s) covers some of them from one square,
            // the loser's units must stand on the rest.
            const Bitboard open = king_attacks(s) & loser_king_region & ~winner_reach;
            auto blockable = [&](Bitboard rest) {
                int blockers = 0;
                for (int i = 0; i < loser_units; ++i) blockers += (loser_regions[i] & rest) != 0;
                return blockers >= popcount(rest);
            };
            if (blockable(open)) return false;  // a mate on s is not ruled out
            for (Bitboard w = winner_king_region & king_step(open) & ~king_step(square_bb(s)); w;)
                if (blockable(open & ~king_attacks(pop_lsb(w)))) return false;
        }
        return proved();
    }
}

// Pieces that cannot move in `pos` (every move of theirs lands on a piece of their
// own; for a king, also on squares the enemy pawns attack), kings without a castling
// right: the first hypothesis of pieces that never move.
Bitboard immobile_now(const Position& pos) {
    Bitboard out = 0;
    for (Color c : {WHITE, BLACK}) {
        const Bitboard own = pos.pieces(c);
        const Bitboard pawn_guard = pawn_attacks_of(~c, pos.pieces(~c, PAWN));
        for (Bitboard b = own & ~pos.pieces(c, PAWN); b;) {
            const Square s = pop_lsb(b);
            const PieceType pt = type_of(pos.piece_on(s));
            if (pt == KING) {
                if (pos.can_castle(c, KING_SIDE) || pos.can_castle(c, QUEEN_SIDE)) continue;
                if (!(king_attacks(s) & ~own & ~pawn_guard)) out |= square_bb(s);
            } else if (!(attacks_bb(pt, s, pos.pieces()) & ~own)) {
                out |= square_bb(s);
            }
        }
    }
    return out;
}

// The proof above, first with the pieces that cannot move now supposed never to move
// (fewer each time the structure refutes some of them), then without the hypothesis.
bool blocked_structure_cannot_mate(const Position& pos, Color side) {
    if (!pos.pieces(PAWN) || pos.ep_square() != SQ_NONE) return false;
    for (Bitboard stuck = immobile_now(pos); stuck;) {
        Bitboard refuted = 0;
        if (!blocked_structure_proof(pos, side, stuck, refuted)) break;
        if (!refuted) return true;
        stuck &= ~refuted;
    }
    Bitboard refuted = 0;
    return blocked_structure_proof(pos, side, 0, refuted);
}

}  // namespace

bool statically_cannot_mate(const Position& pos, Color side) {
    return pos.has_insufficient_material(side) || blocked_structure_cannot_mate(pos, side);
}

MateAnswer can_checkmate(const Position& pos, Color side, const MateBudget& budget) {
    if (pos.side_to_move() == ~side && pos.is_checkmate()) return {MateAbility::CAN_MATE, {}, 0};  // mated already
    if (statically_cannot_mate(pos, side)) return {MateAbility::CANNOT_MATE, {}, 0};
    return detail::helpmate_search(pos, side, budget);
}

Unwinnability analyse_unwinnability(const Position& pos, const MateBudget& budget) {
    return {can_checkmate(pos, WHITE, budget), can_checkmate(pos, BLACK, budget)};
}

Deadness dead_position(const Position& pos, const MateBudget& budget) {
    // Statics for both sides first: most live positions are settled by the search
    // for the first side, most dead ones by statics alone.
    const bool white_cannot = statically_cannot_mate(pos, WHITE);
    const bool black_cannot = statically_cannot_mate(pos, BLACK);
    if (white_cannot && black_cannot) return Deadness::DEAD;
    bool unknown = false;
    // The side to move's opponent first: a mate right after the mover's move is the
    // commonest short helpmate in a real game.
    for (Color c : {~pos.side_to_move(), pos.side_to_move()}) {
        if (c == WHITE ? white_cannot : black_cannot) continue;
        const MateAnswer a = can_checkmate(pos, c, budget);
        if (a.ability == MateAbility::CAN_MATE) return Deadness::ALIVE;
        if (a.ability == MateAbility::UNKNOWN) unknown = true;
    }
    return unknown ? Deadness::UNKNOWN : Deadness::DEAD;
}

Deadness dead_position_after_move(const Position& pos, std::uint64_t budget) {
    // Few enough moves that the positions reachable in a few plies stay within a
    // small budget; measured on the published vectors and self-play games.
    constexpr std::uint64_t MaxMovesForSearch = 8;
    if (statically_cannot_mate(pos, WHITE) && statically_cannot_mate(pos, BLACK)) return Deadness::DEAD;
    if (count_legal_moves(pos) > MaxMovesForSearch) return Deadness::UNKNOWN;
    return dead_position(pos, {budget, {}});
}

Deadness dead_position_deep(const Position& pos) { return dead_position(pos, {DeepDeadPositionBudget, {}}); }

bool uscf_insufficient_material_to_win(const Position& pos, Color side) {
    if (pos.pieces(side, PAWN) || pos.pieces(side, ROOK) || pos.pieces(side, QUEEN)) return false;
    const int knights = popcount(pos.pieces(side, KNIGHT)), bishops = popcount(pos.pieces(side, BISHOP));
    if (knights + bishops <= 1) return true;
    return bishops == 0 && knights == 2 && pos.pieces(~side) == pos.pieces(~side, KING);
}

}  // namespace outpost
