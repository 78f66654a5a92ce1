// Outpost — the tree search: the principal variation search and the quiescence search
// at its leaves (the root and iterative deepening: search_root.cpp).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Iterative deepening with aspiration windows around a principal variation search
// (PVS) in fail-soft negamax form, with a quiescence search at the leaves. Pruning
// and reduction margins below are our own first choices, to be refined by testing;
// where a heuristic's worth was measured, the comment says so.
#include "engine/search.h"
#include "engine/search_stack.h"

#include <algorithm>
#include <cmath>

#include "chess/movegen.h"
#include "engine/movepick.h"
#include "engine/see.h"

namespace outpost::engine {


namespace {

// Late move reductions grow with the logarithms of both depth and move number:
// the later a move comes in a well-ordered list, and the deeper the remaining
// search, the less likely it is to matter.
struct Reductions {
    int table[64][64];
    Reductions() {
        for (int d = 0; d < 64; ++d)
            for (int m = 0; m < 64; ++m)
                table[d][m] = d && m ? int(0.7 + std::log(double(d)) * std::log(double(m)) / 2.3) : 0;
    }
    int operator()(int depth, int move_count) const { return table[std::min(depth, 63)][std::min(move_count, 63)]; }
};
const Reductions LmrTable;

bool has_non_pawn_material(const Position& pos, Color c) {
    return pos.pieces(c) & ~pos.pieces(c, PAWN) & ~pos.pieces(c, KING);
}

Value draw_value() { return VALUE_DRAW; }

}  // namespace


template <Worker::NodeType Nt>
Value Worker::search(const Position& pos, Stack* ss, Value alpha, Value beta, int depth, bool cut_node) {
    constexpr bool pv_node = Nt != NON_PV;
    constexpr bool root_node = Nt == ROOT;

    // Step 1. Quiescence at the horizon.
    if (depth <= 0) return qsearch<pv_node ? PV : NON_PV>(pos, ss, alpha, beta, 0);

    const int ply = ss->ply;
    const bool in_check = pos.in_check();
    const Color us = pos.side_to_move();
    ss->in_check = in_check;
    ss->move_count = 0;
    (ss + 1)->killers[0] = (ss + 1)->killers[1] = Move::none();
    (ss + 1)->excluded = Move::none();
    (ss + 2)->killers[0] = (ss + 2)->killers[1] = Move::none();
    if (pv_node) {
        pv_length_[ply] = 0;
        sel_depth_ = std::max(sel_depth_, ply + 1);
    }
    nodes_.fetch_add(1, std::memory_order_relaxed);
    if (id_ == 0) check_time();

    if (!root_node) {
        // Step 2. Aborted search, draws and the maximum ply.
        if (shared_->stop.load(std::memory_order_relaxed)) return 0;
        if (is_draw(pos, ss)) return draw_value();
        if (ply >= MAX_PLY - 1) return in_check ? 0 : evaluate_here(pos);

        // Step 3. Mate distance pruning: a mate found closer to the root has
        // already set a bound that no deeper line can beat.
        alpha = std::max(mated_in(ply), alpha);
        beta = std::min(mate_in(ply + 1), beta);
        if (alpha >= beta) return alpha;
    }

    // Step 4. Transposition table lookup.
    const Move excluded = ss->excluded;
    TTData tt;
    TTEntry* tt_writer = nullptr;
    const bool tt_hit = shared_->tt->probe(pos.key(), tt, tt_writer) && !excluded;
    const Value tt_value = tt_hit ? value_from_tt(tt.value, ply) : VALUE_NONE;
    const Move tt_move = root_node ? root_moves_[pv_index_].move : tt_hit ? tt.move : Move::none();
    const bool tt_capture = tt_move && pos.is_capture(tt_move);
    ss->tt_pv = excluded ? ss->tt_pv : pv_node || (tt_hit && tt.is_pv);

    // A deep enough result with a usable bound ends the node, except in PV nodes
    // (whose exact line we want) and close to the fifty-move limit (where the
    // stored value may be wrong for this path).
    if (!pv_node && tt_hit && tt.depth >= depth && tt_value != VALUE_NONE && pos.halfmove_clock() < 90 &&
        (tt.bound & (tt_value >= beta ? BOUND_LOWER : BOUND_UPPER))) {
        if (tt_move && tt_value >= beta && !tt_capture && tt_move.kind() != Move::PROMOTION && pos.is_legal(tt_move))
            update_quiet_stats(pos, ss, tt_move, history_bonus(depth), nullptr, 0);
        return tt_value;
    }

    // Step 5. Static evaluation, and whether it improves on two plies ago.
    Value eval;
    bool improving = false;
    if (in_check) {
        ss->static_eval = eval = VALUE_NONE;
    } else if (excluded) {
        eval = ss->static_eval;  // computed by the enclosing search of this node
    } else {
        ss->static_eval = eval = tt_hit && tt.eval != VALUE_NONE ? tt.eval : evaluate_here(pos);
        if (!tt_hit) tt_writer->save(pos.key(), VALUE_NONE, ss->tt_pv, BOUND_NONE, DEPTH_ENTRY_OFFSET + 1, Move::none(),
                                     eval, shared_->tt->generation());
        // The table's search value is a better estimate when its bound allows.
        if (tt_value != VALUE_NONE && (tt.bound & (tt_value > eval ? BOUND_LOWER : BOUND_UPPER))) eval = tt_value;
    }
    if (!in_check) {
        if ((ss - 2)->static_eval != VALUE_NONE) improving = ss->static_eval > (ss - 2)->static_eval;
        else if ((ss - 4)->static_eval != VALUE_NONE) improving = ss->static_eval > (ss - 4)->static_eval;
        else improving = true;
    }

    const bool prunable = !pv_node && !in_check && !excluded;

    // Step 6. Razoring: far below alpha at low depth, only a tactic can help, and
    // the quiescence search looks for exactly that.
    if (prunable && depth <= 3 && eval + 250 * depth < alpha) {
        const Value v = qsearch<NON_PV>(pos, ss, alpha - 1, alpha, 0);
        if (v < alpha) return v;
    }

    // Step 7. Reverse futility pruning: far enough above beta that a quiet move of
    // ours is unlikely to lose it all at this depth.
    if (prunable && depth <= 8 && eval - 80 * (depth - improving) >= beta && eval < VALUE_MATE_IN_MAX_PLY &&
        beta > VALUE_MATED_IN_MAX_PLY)
        return (eval + beta) / 2;

    // Step 8. Null move pruning: if passing still leaves us above beta, a real
    // move will too — except in zugzwang, which is why the side to move needs a
    // piece, and why deep cutoffs are verified with a normal reduced search.
    if (prunable && cut_node && (ss - 1)->current_move != Move::null() && eval >= beta &&
        ss->static_eval >= beta - 15 * depth + 120 && depth >= 3 && ply >= nmp_min_ply_ &&
        has_non_pawn_material(pos, us) && beta > VALUE_MATED_IN_MAX_PLY) {
        const int r = 3 + depth / 3 + std::min((eval - beta) / 200, 3);
        Position child = pos;
        child.do_null_move();
        ss->current_move = Move::null();
        ss->cont_hist = &continuation_->table[W_PAWN][SQ_A1];
        (ss + 1)->plies_from_null = 0;
        keys_[root_key_index_ + ply + 1] = child.key();
        Value v = -search<NON_PV>(child, ss + 1, -beta, -beta + 1, depth - r, false);
        if (shared_->stop.load(std::memory_order_relaxed)) return 0;
        if (v >= beta && v < VALUE_MATE_IN_MAX_PLY) {
            if (nmp_min_ply_ || depth < 12) return v;
            // Verification: search on without null moves for the next plies.
            nmp_min_ply_ = ply + 3 * (depth - r) / 4;
            const Value verified = search<NON_PV>(pos, ss, beta - 1, beta, depth - r, false);
            nmp_min_ply_ = 0;
            if (verified >= beta) return v;
        }
    }

    // Step 9. ProbCut: a capture that beats beta by a margin in a reduced search
    // would almost surely beat beta in a full one.
    const Value probcut_beta = beta + 200 - 50 * improving;
    if (prunable && depth >= 5 && std::abs(beta) < VALUE_MATE_IN_MAX_PLY &&
        !(tt_hit && tt.depth >= depth - 3 && tt_value != VALUE_NONE && tt_value < probcut_beta)) {
        MovePicker mp(pos, tt_move, probcut_beta - ss->static_eval, capture_history_.get());
        while (Move m = mp.next_move()) {
            Position child = pos.after(m);
            ss->current_move = m;
            ss->cont_hist = &continuation_->table[pos.piece_on(m.from())][m.to()];
            (ss + 1)->plies_from_null = ss->plies_from_null + 1;
            keys_[root_key_index_ + ply + 1] = child.key();
            Value v = -qsearch<NON_PV>(child, ss + 1, -probcut_beta, -probcut_beta + 1, 0);
            if (v >= probcut_beta) v = -search<NON_PV>(child, ss + 1, -probcut_beta, -probcut_beta + 1, depth - 4, !cut_node);
            if (shared_->stop.load(std::memory_order_relaxed)) return 0;
            if (v >= probcut_beta) {
                tt_writer->save(pos.key(), value_to_tt(v, ply), ss->tt_pv, BOUND_LOWER, depth - 3, m, ss->static_eval,
                                shared_->tt->generation());
                return v;
            }
        }
    }

    // Step 10. Internal iterative reduction: without a hash move this node was
    // never searched, so the first search of it is cheaper and guides the next.
    if (!root_node && !tt_move && depth >= 4 && (pv_node || cut_node)) --depth;

    // Step 11. The move loop.
    const PieceToHistory* cont[2] = {(ss - 1)->cont_hist, (ss - 2)->cont_hist};
    Move counter = Move::none();
    if ((ss - 1)->current_move.is_ok()) {
        const Move prev = (ss - 1)->current_move;
        const Square prev_to = prev.kind() == Move::CASTLING
                                   ? Position::castling_king_to(~us, prev.to() > prev.from() ? KING_SIDE : QUEEN_SIDE)
                                   : prev.to();
        counter = counter_moves_->table[pos.piece_on(prev_to)][prev_to];
    }
    MovePicker mp(pos, tt_move, main_history_.get(), capture_history_.get(), cont, ss->killers[0], ss->killers[1],
                  counter);

    Value best_value = -VALUE_INFINITE;
    Move best_move = Move::none();
    Move quiets[32], captures[32];
    int quiet_count = 0, capture_count = 0, move_count = 0;
    bool overlooked_any = false;
    const Oversight& oversight = shared_->oversight;
    const bool skill_on = oversight.enabled();

    while (Move m = mp.next_move()) {
        if (m == excluded) continue;
        if (root_node && std::find_if(root_moves_.begin() + pv_index_, root_moves_.begin() + pv_last_,
                                      [m](const RootMove& rm) { return rm.move == m; }) == root_moves_.begin() + pv_last_)
            continue;

        const bool capture = pos.is_capture(m) || m.kind() == Move::PROMOTION;
        // A weak level does not see some captures (skill.h).
        if (skill_on && !root_node && !in_check && capture && oversight.overlooks(pos.key(), m, ply % 2 == 1)) {
            overlooked_any = true;
            continue;
        }

        ss->move_count = ++move_count;
        const Piece moved = pos.piece_on(m.from());
        const bool check = pos.gives_check(m);
        int new_depth = depth - 1;
        const int history = capture ? 0
                                    : main_history_->at(us, m) + (cont[0] ? (*cont[0])[moved][m.to()] : 0) +
                                          (cont[1] ? (*cont[1])[moved][m.to()] : 0);

        // Step 12. Pruning at shallow depth, once a move has saved us from mate.
        if (!root_node && best_value > VALUE_MATED_IN_MAX_PLY && has_non_pawn_material(pos, us)) {
            const int lmr_depth = std::max(new_depth - LmrTable(depth, move_count), 0);
            if (!capture && !check) {
                // Late move pruning: in a well-ordered list, quiet moves this late
                // almost never cut off at low depth.
                if (move_count >= (3 + depth * depth) / (2 - improving)) {
                    mp.skip_quiet_moves();
                    continue;
                }
                // Moves with a bad record at low depth.
                if (lmr_depth < 4 && history < -3000 * depth) continue;
                // Futility: even a good positional gain would not reach alpha.
                if (!in_check && lmr_depth < 7 && ss->static_eval + 100 + 110 * lmr_depth <= alpha) continue;
                // Quiet moves that put a piece where it is lost.
                if (!see_ge(pos, m, -20 * lmr_depth * lmr_depth)) continue;
            } else if (depth < 7 && !see_ge(pos, m, -90 * depth)) {
                // Captures and checks that lose too much material.
                continue;
            }
        }

        // Step 13. Extensions.
        int extension = 0;
        if (ply < 2 * root_depth_) {
            // Singular extension: when the hash move beats every alternative by a
            // margin, it is the only move here and deserves a deeper look.
            if (!root_node && depth >= 7 && m == tt_move && !excluded && (tt.bound & BOUND_LOWER) &&
                tt.depth >= depth - 3 && tt_value != VALUE_NONE && std::abs(tt_value) < VALUE_MATE_IN_MAX_PLY) {
                const Value singular_beta = tt_value - 2 * depth;
                ss->excluded = m;
                const Value v = search<NON_PV>(pos, ss, singular_beta - 1, singular_beta, (depth - 1) / 2, cut_node);
                ss->excluded = Move::none();
                if (v < singular_beta) extension = 1;
                else if (singular_beta >= beta) return singular_beta;  // several moves beat beta: multi-cut
                else if (tt_value >= beta) extension = -1;
            } else if (check && see_ge(pos, m, 0)) {
                // Check extension: a safe check often starts a forcing line whose
                // end lies beyond the horizon.
                extension = 1;
            }
        }
        new_depth += extension;

        // Step 14. Make the move.
        Position child = pos.after(m);
        shared_->tt->prefetch(child.key());
        ss->current_move = m;
        ss->cont_hist = &continuation_->table[moved][m.to()];
        (ss + 1)->plies_from_null = ss->plies_from_null + 1;
        keys_[root_key_index_ + ply + 1] = child.key();

        // Step 15. Late move reductions, then a null-window search, then a full
        // window one for PV nodes whose move turned out interesting.
        Value v = -VALUE_INFINITE;
        if (depth >= 2 && move_count > 1 + root_node && (!capture || !ss->tt_pv)) {
            int r = LmrTable(depth, move_count);
            r += !improving;
            r += cut_node;
            r -= ss->tt_pv;
            r -= pv_node;
            r -= check;
            r += tt_capture && !capture;
            if (m == ss->killers[0] || m == ss->killers[1] || m == counter) --r;
            if (!capture) r -= std::clamp(history / 6000, -2, 2);
            else r -= 1;
            const int d = std::clamp(new_depth - r, 1, new_depth + 1);
            v = -search<NON_PV>(child, ss + 1, -(alpha + 1), -alpha, d, true);
            if (v > alpha && d < new_depth) v = -search<NON_PV>(child, ss + 1, -(alpha + 1), -alpha, new_depth, !cut_node);
        } else if (!pv_node || move_count > 1) {
            v = -search<NON_PV>(child, ss + 1, -(alpha + 1), -alpha, new_depth, !cut_node);
        }
        if (pv_node && (move_count == 1 || (v > alpha && (root_node || v < beta)))) {
            pv_length_[ply + 1] = 0;
            v = -search<PV>(child, ss + 1, -beta, -alpha, new_depth, false);
        }

        // Step 16. A stopped search returns nothing trustworthy.
        if (shared_->stop.load(std::memory_order_relaxed)) return 0;

        if (root_node) {
            RootMove& rm = *std::find_if(root_moves_.begin(), root_moves_.end(),
                                         [m](const RootMove& r) { return r.move == m; });
            if (move_count == 1 || v > alpha) {
                rm.score = rm.uci_score = v;
                rm.seldepth = sel_depth_;
                rm.lowerbound = v >= beta;
                rm.upperbound = v <= alpha;
                rm.pv.assign(1, m);
                for (int i = 0; i < pv_length_[ply + 1]; ++i) rm.pv.push_back(pv_table_[ply + 1][i]);
                if (move_count > 1 && id_ == 0) ++best_move_changes_;
            } else {
                rm.score = -VALUE_INFINITE;  // keeps its place behind the searched ones
            }
        }

        // Step 17. New best move.
        if (v > best_value) {
            best_value = v;
            if (v > alpha) {
                best_move = m;
                if (pv_node && !root_node) {
                    pv_table_[ply][0] = m;
                    const int len = pv_length_[ply + 1];
                    for (int i = 0; i < len; ++i) pv_table_[ply][i + 1] = pv_table_[ply + 1][i];
                    pv_length_[ply] = len + 1;
                } else if (root_node) {
                    pv_table_[ply][0] = m;
                    pv_length_[ply] = 1;
                }
                if (v >= beta) break;
                alpha = v;
            }
        }
        if (m != best_move) {
            if (capture && capture_count < 32) captures[capture_count++] = m;
            else if (!capture && quiet_count < 32) quiets[quiet_count++] = m;
        }
    }

    // Step 18. No legal move: mate or stalemate (or only overlooked moves, which a
    // weak level treats as a quiet position).
    if (move_count == 0) {
        if (excluded) return alpha;
        if (overlooked_any) return ss->static_eval != VALUE_NONE ? ss->static_eval : 0;
        return in_check ? mated_in(ply) : draw_value();
    }
    if (best_value == -VALUE_INFINITE) best_value = alpha;  // every move was pruned

    // Step 19. Learn from a cutoff.
    if (best_move && best_value >= beta) {
        const int bonus = history_bonus(depth + (best_value > beta + 100));
        if (!(pos.is_capture(best_move) || best_move.kind() == Move::PROMOTION)) {
            update_quiet_stats(pos, ss, best_move, bonus, quiets, quiet_count);
            update_capture_stats(pos, Move::none(), bonus, captures, capture_count);
        } else {
            update_capture_stats(pos, best_move, bonus, captures, capture_count);
        }
    }

    // Step 20. Store the result.
    if (!excluded && !(root_node && pv_index_ > 0)) {
        const Bound bound = best_value >= beta ? BOUND_LOWER : pv_node && best_move ? BOUND_EXACT : BOUND_UPPER;
        tt_writer->save(pos.key(), value_to_tt(best_value, ply), ss->tt_pv, bound, depth, best_move,
                        ss->static_eval, shared_->tt->generation());
    }
    return best_value;
}

template <Worker::NodeType Nt>
Value Worker::qsearch(const Position& pos, Stack* ss, Value alpha, Value beta, int depth) {
    constexpr bool pv_node = Nt == PV;
    const int ply = ss->ply;
    const bool in_check = pos.in_check();
    ss->in_check = in_check;
    if (pv_node) {
        pv_length_[ply] = 0;
        sel_depth_ = std::max(sel_depth_, ply + 1);
    }
    nodes_.fetch_add(1, std::memory_order_relaxed);
    if (id_ == 0) check_time();

    if (shared_->stop.load(std::memory_order_relaxed)) return 0;
    if (is_draw(pos, ss)) return draw_value();
    if (ply >= MAX_PLY - 1) return in_check ? 0 : evaluate_here(pos);

    // Quiescence entries count as depth 0 in check (all evasions searched) and -1
    // otherwise (captures only).
    const int tt_depth = in_check || depth >= 0 ? 0 : -1;
    TTData tt;
    TTEntry* tt_writer = nullptr;
    const bool tt_hit = shared_->tt->probe(pos.key(), tt, tt_writer);
    const Value tt_value = tt_hit ? value_from_tt(tt.value, ply) : VALUE_NONE;
    if (!pv_node && tt_hit && tt.depth >= tt_depth && tt_value != VALUE_NONE &&
        (tt.bound & (tt_value >= beta ? BOUND_LOWER : BOUND_UPPER)))
        return tt_value;

    // Stand pat: outside check the side to move may decline every capture.
    Value best_value, futility_base;
    if (in_check) {
        ss->static_eval = VALUE_NONE;
        best_value = futility_base = -VALUE_INFINITE;
    } else {
        ss->static_eval = best_value = tt_hit && tt.eval != VALUE_NONE ? tt.eval : evaluate_here(pos);
        if (tt_value != VALUE_NONE && (tt.bound & (tt_value > best_value ? BOUND_LOWER : BOUND_UPPER)))
            best_value = tt_value;
        if (best_value >= beta) {
            if (!tt_hit)
                tt_writer->save(pos.key(), value_to_tt(best_value, ply), false, BOUND_LOWER, DEPTH_ENTRY_OFFSET + 1,
                                Move::none(), ss->static_eval, shared_->tt->generation());
            return best_value;
        }
        if (best_value > alpha) alpha = best_value;
        futility_base = ss->static_eval + 150;
    }

    const PieceToHistory* cont[2] = {(ss - 1)->cont_hist, (ss - 2)->cont_hist};
    MovePicker mp(pos, tt.move, main_history_.get(), capture_history_.get(), cont);
    Move best_move = Move::none();
    int move_count = 0;
    bool overlooked_any = false;
    const Oversight& oversight = shared_->oversight;
    const bool skill_on = oversight.enabled();

    while (Move m = mp.next_move()) {
        const bool capture = pos.is_capture(m) || m.kind() == Move::PROMOTION;
        if (skill_on && !in_check && oversight.overlooks(pos.key(), m, ply % 2 == 1)) {
            overlooked_any = true;
            continue;
        }
        ++move_count;
        if (best_value > VALUE_MATED_IN_MAX_PLY && !in_check) {
            const bool check = pos.gives_check(m);
            // Futility: even winning the captured piece for free would not reach alpha.
            if (!check && m.kind() != Move::PROMOTION && futility_base > -VALUE_INFINITE) {
                const PieceType victim = m.kind() == Move::EN_PASSANT ? PAWN : type_of(pos.piece_on(m.to()));
                const Value futility = futility_base + SeeValue[victim];
                if (futility <= alpha) {
                    best_value = std::max(best_value, futility);
                    continue;
                }
            }
            // SEE pruning: captures that lose material are not worth a node here.
            if (!see_ge(pos, m, 0)) continue;
        }
        // In check, once one evasion holds, quiet evasions are rarely better.
        if (in_check && best_value > VALUE_MATED_IN_MAX_PLY && !capture && move_count > 2) continue;

        Position child = pos.after(m);
        shared_->tt->prefetch(child.key());
        ss->current_move = m;
        ss->cont_hist = &continuation_->table[pos.piece_on(m.from())][m.to()];
        (ss + 1)->plies_from_null = ss->plies_from_null + 1;
        keys_[root_key_index_ + ply + 1] = child.key();
        const Value v = -qsearch<Nt>(child, ss + 1, -beta, -alpha, depth - 1);
        if (shared_->stop.load(std::memory_order_relaxed)) return 0;

        if (v > best_value) {
            best_value = v;
            if (v > alpha) {
                best_move = m;
                if (pv_node) {
                    pv_table_[ply][0] = m;
                    const int len = pv_length_[ply + 1];
                    for (int i = 0; i < len; ++i) pv_table_[ply][i + 1] = pv_table_[ply + 1][i];
                    pv_length_[ply] = len + 1;
                }
                if (v >= beta) break;
                alpha = v;
            }
        }
    }

    if (in_check && best_value == -VALUE_INFINITE) {
        if (overlooked_any || move_count > 0) return alpha;  // not reached: evasions are never overlooked
        return mated_in(ply);
    }

    tt_writer->save(pos.key(), value_to_tt(best_value, ply), false, best_value >= beta ? BOUND_LOWER : BOUND_UPPER,
                    tt_depth, best_move, ss->static_eval, shared_->tt->generation());
    return best_value;
}


// The root's call (search_root.cpp) is the only one from outside this file.
template Value Worker::search<Worker::ROOT>(const Position&, Stack*, Value, Value, int, bool);

}  // namespace outpost::engine
