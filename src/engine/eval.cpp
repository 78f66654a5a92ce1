// Outpost — static evaluation.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/eval.h"

#include <algorithm>
#include <cstdlib>

#include "engine/eval_weights.h"

namespace outpost::engine {
namespace {

// How much of the king-zone attack counts with n attacking pieces (/64): a lone
// attacker rarely mates, several together often do.
constexpr int AttackScale[8] = {0, 16, 40, 56, 64, 64, 64, 64};

constexpr Bitboard adjacent_files(File f) {
    return (f > FILE_A ? file_bb(File(f - 1)) : 0) | (f < FILE_H ? file_bb(File(f + 1)) : 0);
}

// Squares in front of s, from colour c's point of view, on the same file.
inline Bitboard forward_file(Color c, Square s) {
    const Bitboard f = file_bb(s);
    return c == WHITE ? f & ~((square_bb(s) << 1) - 1) & ~square_bb(s) : f & (square_bb(s) - 1);
}
// Ranks strictly in front of s for colour c.
inline Bitboard forward_ranks(Color c, Square s) {
    const int r = rank_of(s);
    return c == WHITE ? (r == 7 ? 0 : ~Bitboard(0) << (8 * (r + 1))) : (r == 0 ? 0 : ~Bitboard(0) >> (8 * (8 - r)));
}
// Squares a pawn of colour c on s may one day attack: adjacent files, in front.
inline Bitboard pawn_attack_span(Color c, Square s) { return forward_ranks(c, s) & adjacent_files(file_of(s)); }
// Where enemy pawns must be absent for a pawn on s to be passed.
inline Bitboard passed_span(Color c, Square s) { return pawn_attack_span(c, s) | forward_file(c, s); }

inline int distance(Square a, Square b) {
    return std::max(std::abs(file_of(a) - file_of(b)), std::abs(rank_of(a) - rank_of(b)));
}
inline int psqt_index(Color c, Square s) {
    const int f = file_of(s);
    return relative_rank(c, rank_of(s)) * 4 + std::min(f, 7 - f);
}
inline Bitboard pawn_attacks_of(Color c, Bitboard b) {
    return c == WHITE ? pawn_attacks_bb<WHITE>(b) : pawn_attacks_bb<BLACK>(b);
}

template <bool Trace>
class Evaluator {
public:
    Evaluator(const Position& p, PawnTable* pawns, EvalTrace* trace) : pos_(p), pawns_(pawns), trace_(trace) {}

    // White's point of view.
    Value run() {
        init();
        material_and_squares();
        pawn_structure();
        for (Color c : {WHITE, BLACK}) {
            pieces<KNIGHT>(c);
            pieces<BISHOP>(c);
            pieces<ROOK>(c);
            pieces<QUEEN>(c);
        }
        for (Color c : {WHITE, BLACK}) {
            king_safety(c);
            threats(c);
            passed_pawns(c);
        }
        add(pos_.side_to_move(), T_TEMPO);

        const Score s = score_[WHITE] - score_[BLACK];
        const int phase = game_phase();
        const int scale = endgame_scale(s.eg);
        if constexpr (Trace) {
            trace_->phase = phase;
            trace_->scale = scale;
        }
        const int v = (s.mg * phase + s.eg * (PHASE_MAX - phase) * scale / 64) / PHASE_MAX;
        return std::clamp(v, -VALUE_EVAL_MAX, VALUE_EVAL_MAX);
    }

private:
    void add(Color c, int term, int count = 1) {
        score_[c] += EvalWeights[term] * count;
        if constexpr (Trace) trace_->coef[term] += float(c == WHITE ? count : -count);
    }
    // count * scale64 / 64 times the weight: the king attack, whose size depends on
    // how many pieces take part.
    void add_scaled(Color c, int term, int count, int scale64) {
        const Score w = EvalWeights[term];
        score_[c] += Score(w.mg * count * scale64 / 64, w.eg * count * scale64 / 64);
        if constexpr (Trace) trace_->coef[term] += float(c == WHITE ? 1 : -1) * float(count * scale64) / 64.0f;
    }

    void init() {
        occupied_ = pos_.pieces();
        for (Color c : {WHITE, BLACK}) {
            const Square ksq = pos_.king_square(c);
            attacked_by_[c][PAWN] = pawn_attacks_of(c, pos_.pieces(c, PAWN));
            attacked_by_[c][KING] = king_attacks(ksq);
            attacked_[c] = attacked_by_[c][PAWN] | attacked_by_[c][KING];
            attacked2_[c] = attacked_by_[c][PAWN] & attacked_by_[c][KING];
            // The king's neighbourhood plus the squares two steps in front of it,
            // from where attacks on the shelter start.
            Bitboard zone = king_attacks(ksq) | square_bb(ksq);
            zone |= c == WHITE ? shift<NORTH>(zone) : shift<SOUTH>(zone);
            king_zone_[c] = zone;
            pinned_[c] = pos_.pinned(c);
        }
        for (Color c : {WHITE, BLACK})
            mobility_area_[c] = ~(pos_.pieces(c, PAWN) | pos_.pieces(c, KING) | attacked_by_[~c][PAWN]);
    }

    void material_and_squares() {
        for (Color c : {WHITE, BLACK}) {
            for (PieceType pt : {PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING}) {
                Bitboard b = pos_.pieces(c, pt);
                if (pt != KING) add(c, T_MATERIAL + int(pt), popcount(b));
                while (b) add(c, T_PSQT + int(pt) * 32 + psqt_index(c, pop_lsb(b)));
            }
        }
    }

    void pawn_structure() {
        const Bitboard wp = pos_.pieces(WHITE, PAWN), bp = pos_.pieces(BLACK, PAWN);
        PawnTable::Entry* entry = nullptr;
        if (!Trace && pawns_) {
            entry = &pawns_->slot(wp, bp);
            if (entry->white == wp && entry->black == bp) {
                score_[WHITE] += entry->score;
                passed_ = entry->passed;
                return;
            }
        }
        const Score before = score_[WHITE] - score_[BLACK];
        pawns(WHITE);
        pawns(BLACK);
        if (entry) {
            entry->white = wp;
            entry->black = bp;
            entry->score = score_[WHITE] - score_[BLACK] - before;
            entry->passed = passed_;
        }
    }

    void pawns(Color c) {
        const Bitboard ours = pos_.pieces(c, PAWN), theirs = pos_.pieces(~c, PAWN);
        const int up = int(pawn_push(c));
        Bitboard b = ours;
        while (b) {
            const Square s = pop_lsb(b);
            const File f = file_of(s);
            const int rr = relative_rank(c, rank_of(s));
            const Square stop = Square(int(s) + up);
            const Bitboard neighbours = ours & adjacent_files(f);
            const bool supported = pawn_attacks(~c, s) & ours;
            const bool phalanx = neighbours & rank_bb(rank_of(s));

            if (forward_file(c, s) & ours) add(c, T_PAWN_DOUBLED);
            if (!neighbours) {
                add(c, T_PAWN_ISOLATED);
            } else if (!(neighbours & ~forward_ranks(c, s)) && (pawn_attacks(c, stop) & theirs)) {
                // No friendly pawn level with or behind it can ever defend it, and
                // advancing walks into an enemy pawn's capture.
                add(c, T_PAWN_BACKWARD);
            }
            if (supported || phalanx) add(c, T_PAWN_CONNECTED + rr);
            if (!(passed_span(c, s) & theirs) && !(forward_file(c, s) & ours)) {
                passed_ |= square_bb(s);
                add(c, T_PASSED + rr);
            }
        }
    }

    template <PieceType Pt>
    void pieces(Color c) {
        const Color them = ~c;
        const Square ksq = pos_.king_square(c);
        Bitboard b = pos_.pieces(c, Pt);
        while (b) {
            const Square s = pop_lsb(b);
            // Sliders see through their own batteries (queen behind bishop, rooks
            // doubled): those squares are really under their control.
            Bitboard att;
            if constexpr (Pt == KNIGHT) att = knight_attacks(s);
            else if constexpr (Pt == BISHOP) att = bishop_attacks(s, occupied_ ^ pos_.pieces(c, QUEEN));
            else if constexpr (Pt == ROOK) att = rook_attacks(s, occupied_ ^ pos_.pieces(c, QUEEN) ^ pos_.pieces(c, ROOK));
            else att = queen_attacks(s, occupied_);
            if (pinned_[c] & square_bb(s)) att &= line_bb(ksq, s);

            attacked2_[c] |= attacked_[c] & att;
            attacked_[c] |= att;
            attacked_by_[c][Pt] |= att;
            if (att & king_zone_[them]) {
                ++king_attackers_[c];
                king_attack_squares_[c][Pt - KNIGHT] += popcount(att & king_zone_[them]);
            }
            const int mob = popcount(att & mobility_area_[c]);
            if constexpr (Pt == KNIGHT) add(c, T_MOB_KNIGHT + mob);
            else if constexpr (Pt == BISHOP) add(c, T_MOB_BISHOP + mob);
            else if constexpr (Pt == ROOK) add(c, T_MOB_ROOK + mob);
            else add(c, T_MOB_QUEEN + mob);

            if constexpr (Pt == KNIGHT || Pt == BISHOP) {
                const int rr = relative_rank(c, rank_of(s));
                if (rr >= RANK_4 && rr <= RANK_6 && (attacked_by_[c][PAWN] & square_bb(s)) &&
                    !(pawn_attack_span(c, s) & pos_.pieces(them, PAWN)))
                    add(c, Pt == KNIGHT ? T_KNIGHT_OUTPOST : T_BISHOP_OUTPOST);
            }
            if constexpr (Pt == ROOK) {
                const Bitboard file = file_bb(s);
                if (!(file & pos_.pieces(c, PAWN)))
                    add(c, (file & pos_.pieces(them, PAWN)) ? T_ROOK_SEMI_OPEN : T_ROOK_OPEN);
                // The seventh rank counts when it holds enemy pawns or cuts off the king.
                if (relative_rank(c, rank_of(s)) == RANK_7 &&
                    ((pos_.pieces(them, PAWN) & rank_bb(rank_of(s))) ||
                     relative_rank(c, rank_of(pos_.king_square(them))) == RANK_8))
                    add(c, T_ROOK_SEVENTH);
            }
        }
        if constexpr (Pt == BISHOP) {
            if (!one_square_colour(pos_.pieces(c, BISHOP))) add(c, T_BISHOP_PAIR);
        }
    }

    // King safety, scored for the attacker c against the enemy king, plus the
    // shelter of c's own king.
    void king_safety(Color c) {
        const Color them = ~c;
        const Square their_king = pos_.king_square(them);
        const int n = std::min(king_attackers_[c], 7);
        for (int i = 0; i < 4; ++i)
            if (king_attack_squares_[c][i]) add_scaled(c, T_KING_ATTACK + i, king_attack_squares_[c][i], AttackScale[n]);

        // Checks from squares the defender does not control.
        const Bitboard safe = ~attacked_[them] & ~pos_.pieces(c);
        const Bitboard bishop_lines = bishop_attacks(their_king, occupied_);
        const Bitboard rook_lines = rook_attacks(their_king, occupied_);
        if (const int k = popcount(knight_attacks(their_king) & attacked_by_[c][KNIGHT] & safe)) add(c, T_SAFE_CHECK + 0, k);
        if (const int k = popcount(bishop_lines & attacked_by_[c][BISHOP] & safe)) add(c, T_SAFE_CHECK + 1, k);
        if (const int k = popcount(rook_lines & attacked_by_[c][ROOK] & safe)) add(c, T_SAFE_CHECK + 2, k);
        if (const int k = popcount((bishop_lines | rook_lines) & attacked_by_[c][QUEEN] & safe)) add(c, T_SAFE_CHECK + 3, k);

        // Own pawn shelter on the king's file and the files beside it.
        const Square ksq = pos_.king_square(c);
        const int kf = std::clamp(int(file_of(ksq)), 1, 6);
        const Bitboard ours = pos_.pieces(c, PAWN), theirs = pos_.pieces(them, PAWN);
        for (int f = kf - 1; f <= kf + 1; ++f) {
            const Bitboard file = file_bb(File(f));
            const Bitboard shield = ours & file & (forward_ranks(c, ksq) | rank_bb(rank_of(ksq)));
            int idx = 2;
            if (shield) {
                const Square nearest = c == WHITE ? lsb(shield) : msb(shield);
                const int d = std::abs(int(rank_of(nearest)) - int(rank_of(ksq)));
                idx = d <= 1 ? 0 : d == 2 ? 1 : 2;
            }
            add(c, T_KING_SHIELD + idx);
            if (!(file & ours)) add(c, (file & theirs) ? T_KING_SEMI_OPEN : T_KING_OPEN_FILE);
        }
    }

    void threats(Color c) {
        const Color them = ~c;
        const Bitboard non_pawns = pos_.pieces(them) & ~pos_.pieces(them, PAWN) & ~pos_.pieces(them, KING);
        if (const int k = popcount(attacked_by_[c][PAWN] & non_pawns)) add(c, T_THREAT_BY_PAWN, k);

        // Pawns defended by pawns are no real target for pieces.
        const Bitboard targets = (pos_.pieces(them) & ~pos_.pieces(them, KING)) &
                                 ~(pos_.pieces(them, PAWN) & attacked_by_[them][PAWN]);
        Bitboard b = targets & (attacked_by_[c][KNIGHT] | attacked_by_[c][BISHOP]);
        while (b) add(c, T_THREAT_BY_MINOR + int(type_of(pos_.piece_on(pop_lsb(b)))));
        b = targets & attacked_by_[c][ROOK];
        while (b) add(c, T_THREAT_BY_ROOK + int(type_of(pos_.piece_on(pop_lsb(b)))));
        if (const int k = popcount(non_pawns & attacked_[c] & ~attacked_[them])) add(c, T_HANGING, k);
    }

    void passed_pawns(Color c) {
        Bitboard b = passed_ & pos_.pieces(c, PAWN);
        const Square own_king = pos_.king_square(c), their_king = pos_.king_square(~c);
        while (b) {
            const Square s = pop_lsb(b);
            const int rr = relative_rank(c, rank_of(s));
            if (!(forward_file(c, s) & occupied_)) add(c, T_PASSED_FREE + rr);
            // The kings matter once the pawn is advanced: escort and stop.
            const int weight = std::max(0, rr - 2);
            if (weight) {
                const Square stop = Square(int(s) + int(pawn_push(c)));
                add(c, T_PASSED_OWN_KING, distance(own_king, stop) * weight);
                add(c, T_PASSED_ENEMY_KING, distance(their_king, stop) * weight);
            }
        }
    }

    int game_phase() const {
        const int p = popcount(pos_.pieces(KNIGHT)) + popcount(pos_.pieces(BISHOP)) +
                      2 * popcount(pos_.pieces(ROOK)) + 4 * popcount(pos_.pieces(QUEEN));
        return std::min(p, PHASE_MAX);
    }

    // Endgames the material count overrates (/64).
    int endgame_scale(int eg) const {
        const Color strong = eg > 0 ? WHITE : BLACK;
        const Color weak = ~strong;
        auto non_pawn = [this](Color c) {
            return 3 * popcount(pos_.pieces(c, KNIGHT) | pos_.pieces(c, BISHOP)) + 5 * popcount(pos_.pieces(c, ROOK)) +
                   9 * popcount(pos_.pieces(c, QUEEN));
        };
        // Without pawns, an edge of a minor piece or less rarely wins.
        if (!pos_.pieces(strong, PAWN) && non_pawn(strong) - non_pawn(weak) <= 3) return non_pawn(strong) <= 3 ? 0 : 16;
        // Bishops of opposite colours alone with pawns: notoriously drawish.
        const Bitboard wb = pos_.pieces(WHITE, BISHOP), bb = pos_.pieces(BLACK, BISHOP);
        if (popcount(wb) == 1 && popcount(bb) == 1 && !pos_.pieces(KNIGHT) && !pos_.pieces(ROOK) &&
            !pos_.pieces(QUEEN) && bool(wb & DARK_SQUARES_BB) != bool(bb & DARK_SQUARES_BB))
            return 32;
        return 64;
    }

    const Position& pos_;
    PawnTable* pawns_;
    EvalTrace* trace_;
    Score score_[COLOR_NB];
    Bitboard occupied_ = 0;
    Bitboard attacked_by_[COLOR_NB][PIECE_TYPE_NB] = {};
    Bitboard attacked_[COLOR_NB] = {};
    Bitboard attacked2_[COLOR_NB] = {};
    Bitboard king_zone_[COLOR_NB] = {};
    Bitboard mobility_area_[COLOR_NB] = {};
    Bitboard pinned_[COLOR_NB] = {};
    Bitboard passed_ = 0;
    int king_attackers_[COLOR_NB] = {};
    int king_attack_squares_[COLOR_NB][4] = {};
};

}  // namespace

Value evaluate(const Position& pos, PawnTable* pawns) {
    const Value v = Evaluator<false>(pos, pawns, nullptr).run();
    return pos.side_to_move() == WHITE ? v : -v;
}

Value evaluate_traced(const Position& pos, EvalTrace& trace) {
    trace = EvalTrace{};
    return Evaluator<true>(pos, nullptr, &trace).run();
}

}  // namespace outpost::engine
