// Outpost — the search's root: the shared state of the threads, a worker's setup,
// iterative deepening with aspiration windows, the histories' updates, the info
// lines, and the win/draw/loss model of a score (the tree itself: search.cpp).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/search.h"

#include <algorithm>
#include <cmath>

#include "chess/movegen.h"
#include "engine/movepick.h"
#include "engine/search_stack.h"

namespace outpost::engine {

std::uint64_t SearchShared::nodes_searched() const {
    std::uint64_t n = 0;
    for (const Worker* w : workers) n += w->nodes();
    return n;
}

Worker::Worker(int id)
    : id_(id),
      main_history_(std::make_unique<ButterflyHistory>()),
      capture_history_(std::make_unique<CaptureHistory>()),
      continuation_(std::make_unique<ContinuationHistory>()),
      counter_moves_(std::make_unique<CounterMoves>()) {
    clear();
}

void Worker::clear() {
    main_history_->clear();
    capture_history_->clear();
    continuation_->clear();
    counter_moves_->clear();
    pawns_.clear();
}

void Worker::set_root(const Position& root, const std::vector<Key>& history) {
    root_pos_ = root;
    keys_ = history;
    root_key_index_ = int(keys_.size());
    keys_.push_back(root.key());
    keys_.resize(keys_.size() + MAX_PLY + 4, 0);
}

bool Worker::is_draw(const Position& pos, const Stack* ss) const {
    // Fifty-move rule (R10), unless this very position is checkmate.
    if (pos.halfmove_clock() >= 100 && (!pos.in_check() || pos.has_legal_moves())) return true;
    if (pos.is_insufficient_material()) return true;
    // Repetition: a position repeated inside the search counts as a draw at once
    // (if repeating was good once, it can be repeated again); one that only
    // repeats a position of the game before the root needs a third occurrence, or
    // a side that is better could never return to a position seen once.
    const int end = std::min(pos.halfmove_clock(), ss->plies_from_null);
    const int index = root_key_index_ + ss->ply;
    int earlier = 0;
    for (int i = 4; i <= end && index - i >= 0; i += 2) {
        if (keys_[index - i] != pos.key()) continue;
        if (index - i >= root_key_index_ || ++earlier >= 2) return true;
    }
    return false;
}

void Worker::check_time() {
    if (--calls_until_check_ > 0) return;
    const Limits& limits = shared_->limits;
    calls_until_check_ = limits.nodes ? std::clamp<std::uint64_t>(limits.nodes / 64, 1, 1024) : 1024;
    if (shared_->pondering.load(std::memory_order_relaxed)) return;
    if (limits.nodes && shared_->nodes_searched() >= limits.nodes) shared_->stop = true;
    const TimePoint elapsed = shared_->elapsed();
    if (shared_->time.enabled() && elapsed >= shared_->time.maximum()) shared_->stop = true;
    if (shared_->think_cap_ms && elapsed >= shared_->think_cap_ms && completed_depth_ >= 1) shared_->stop = true;
}

void Worker::update_continuation(Stack* ss, Piece pc, Square to, int bonus) {
    // The move one ply and two plies before: the reply and the follow-up.
    for (int i : {1, 2})
        if ((ss - i)->current_move.is_ok() && (ss - i)->cont_hist) update_history((*(ss - i)->cont_hist)[pc][to], bonus);
}

void Worker::update_quiet_stats(const Position& pos, Stack* ss, Move best, int bonus, const Move* quiets,
                                int quiet_count) {
    const Color us = pos.side_to_move();
    if (ss->killers[0] != best) {
        ss->killers[1] = ss->killers[0];
        ss->killers[0] = best;
    }
    update_history(main_history_->at(us, best), bonus);
    update_continuation(ss, pos.piece_on(best.from()), best.to(), bonus);
    if ((ss - 1)->current_move.is_ok()) {
        const Move prev = (ss - 1)->current_move;
        const Square prev_to = prev.kind() == Move::CASTLING
                                   ? Position::castling_king_to(~us, prev.to() > prev.from() ? KING_SIDE : QUEEN_SIDE)
                                   : prev.to();
        counter_moves_->table[pos.piece_on(prev_to)][prev_to] = best;
    }
    // The quiet moves tried before the best one did not work here.
    for (int i = 0; i < quiet_count; ++i) {
        if (quiets[i] == best) continue;
        update_history(main_history_->at(us, quiets[i]), -bonus);
        update_continuation(ss, pos.piece_on(quiets[i].from()), quiets[i].to(), -bonus);
    }
}

void Worker::update_capture_stats(const Position& pos, Move best, int bonus, const Move* captures, int capture_count) {
    auto entry = [&](Move m) -> std::int16_t& {
        const PieceType victim = m.kind() == Move::EN_PASSANT ? PAWN
                                 : pos.empty(m.to())          ? PAWN  // promotions without capture
                                                              : type_of(pos.piece_on(m.to()));
        return capture_history_->table[pos.piece_on(m.from())][m.to()][victim];
    };
    if (best) update_history(entry(best), bonus);
    for (int i = 0; i < capture_count; ++i)
        if (captures[i] != best) update_history(entry(captures[i]), -bonus);
}

void Worker::iterative_deepening(SearchShared& shared) {
    shared_ = &shared;
    const bool main = id_ == 0;
    nodes_ = 0;
    calls_until_check_ = 1;
    completed_depth_ = 0;
    best_move_changes_ = 0;
    nmp_min_ply_ = 0;

    root_moves_.clear();
    for (Move m : legal_moves(root_pos_))
        if (shared.limits.searchmoves.empty() ||
            std::find(shared.limits.searchmoves.begin(), shared.limits.searchmoves.end(), m) !=
                shared.limits.searchmoves.end())
            root_moves_.emplace_back(m);
    if (root_moves_.empty()) return;

    Stack stack[MAX_PLY + 10];
    Stack* ss = stack + 7;
    for (int i = 0; i < MAX_PLY + 10; ++i) {
        stack[i] = Stack{};
        stack[i].ply = i - 7;
        stack[i].cont_hist = &continuation_->table[W_PAWN][SQ_A1];  // never written: no pawn moves to a1
    }
    ss->plies_from_null = root_pos_.halfmove_clock();

    const int multipv = std::min<int>(shared.multipv, int(root_moves_.size()));
    double best_move_instability = 0;
    Value previous_best = VALUE_NONE;

    // Helpers start one ply deeper every other thread, so that the threads spread
    // over different depths early and fill the table with varied work.
    const int max_depth = shared.limits.depth > 0 ? std::min(shared.limits.depth, MAX_PLY - 1) : MAX_PLY - 1;
    for (root_depth_ = 1 + (main ? 0 : id_ % 2); root_depth_ <= max_depth; ++root_depth_) {
        if (shared.stop) break;
        if (main) best_move_changes_ = 0;
        for (RootMove& rm : root_moves_) rm.previous_score = rm.score;

        for (pv_index_ = 0; pv_index_ < multipv && !shared.stop; ++pv_index_) {
            pv_last_ = int(root_moves_.size());
            sel_depth_ = 0;

            // Step 1. Aspiration window around the last score of this line: most
            // iterations confirm it, and a narrow window cuts off more.
            Value alpha = -VALUE_INFINITE, beta = VALUE_INFINITE;
            Value delta = 15;
            const Value avg = root_moves_[pv_index_].average_score;
            if (root_depth_ >= 4 && avg != -VALUE_INFINITE && !is_mate_score(avg)) {
                delta = 12 + avg * avg / 16384;
                alpha = std::max(avg - delta, -VALUE_INFINITE);
                beta = std::min(avg + delta, VALUE_INFINITE);
            }
            for (;;) {
                const Value v = search<ROOT>(root_pos_, ss, alpha, beta, root_depth_, false);
                std::stable_sort(root_moves_.begin() + pv_index_, root_moves_.end());
                if (shared.stop) break;
                if (v <= alpha) {
                    // Fail low: widen downwards, and pull beta in since the true
                    // score is below the old window.
                    beta = (alpha + beta) / 2;
                    alpha = std::max(v - delta, -VALUE_INFINITE);
                    if (main && shared.elapsed() > 3000 && shared.on_info)
                        shared.on_info(make_info(shared, pv_index_, root_depth_));
                } else if (v >= beta) {
                    beta = std::min(v + delta, VALUE_INFINITE);
                    if (main && shared.elapsed() > 3000 && shared.on_info)
                        shared.on_info(make_info(shared, pv_index_, root_depth_));
                } else {
                    break;
                }
                delta += delta / 2;
            }
            std::stable_sort(root_moves_.begin(), root_moves_.begin() + pv_index_ + 1);
            for (int i = 0; i <= pv_index_; ++i) {
                RootMove& rm = root_moves_[i];
                rm.average_score = rm.average_score == -VALUE_INFINITE ? rm.score : (2 * rm.score + rm.average_score) / 3;
            }
        }
        if (!shared.stop) completed_depth_ = root_depth_;
        if (!main) continue;

        // Report the completed iteration (a stopped one is reported only when it
        // found something: its first line was fully searched).
        if (shared.on_info && !shared.stop)
            for (int i = 0; i < multipv; ++i) shared.on_info(make_info(shared, i, root_depth_));
        if (shared.stop) break;

        const Value best = root_moves_[0].score;
        // Mate found within the requested number of moves.
        if (shared.limits.mate && best >= VALUE_MATE_IN_MAX_PLY && VALUE_MATE - best <= 2 * shared.limits.mate - 1) {
            shared.stop = true;
            break;
        }

        // A mate found long ago needs no deeper iterations.
        if (is_mate_score(best) && root_depth_ > 2 * (VALUE_MATE - std::abs(best)) + 8) break;

        // Step 2. Time: stop early when the best move is stable and the score is
        // not falling; think longer while it keeps changing.
        best_move_instability = best_move_instability / 2 + best_move_changes_;
        if (shared.time.enabled() && !shared.limits.infinite) {
            double falling = 1.0;
            if (previous_best != VALUE_NONE) falling = std::clamp(1.0 + (previous_best - best) / 100.0, 0.7, 1.6);
            const double instability = 1.0 + 0.7 * best_move_instability;
            double budget = double(shared.time.optimum()) * falling * instability;
            if (root_moves_.size() == 1) budget = std::min(budget, double(shared.time.optimum()) * 0.1);
            if (double(shared.elapsed()) > budget * 0.6) {
                // Another iteration would most likely not finish in time.
                if (shared.pondering) shared.stop_on_ponderhit = true;
                else shared.stop = true;
            }
        }
        previous_best = best;
    }
}

SearchInfo Worker::make_info(const SearchShared& shared, int line, int depth) const {
    SearchInfo info;
    const RootMove& rm = root_moves_[line];
    const bool updated = rm.score != -VALUE_INFINITE;
    const int d = updated ? depth : std::max(1, depth - 1);
    info.depth = d;
    info.seldepth = std::max(rm.seldepth, d);
    info.multipv = line + 1;
    info.score = updated ? rm.uci_score : rm.previous_score;
    if (info.score == -VALUE_INFINITE) info.score = 0;
    info.bound = !updated ? BOUND_EXACT : rm.lowerbound ? BOUND_LOWER : rm.upperbound ? BOUND_UPPER : BOUND_EXACT;
    info.nodes = shared.nodes_searched();
    info.time_ms = shared.elapsed();
    info.nps = info.nodes * 1000 / std::uint64_t(std::max<TimePoint>(1, info.time_ms));
    info.hashfull = shared.tt->hashfull();
    info.pv = rm.pv;
    return info;
}


void wdl_from_score(Value v, int& win, int& draw, int& loss) {
    if (v >= VALUE_MATE_IN_MAX_PLY) {
        win = 1000, draw = 0, loss = 0;
        return;
    }
    if (v <= VALUE_MATED_IN_MAX_PLY) {
        win = 0, draw = 0, loss = 1000;
        return;
    }
    // Two logistic curves, shifted by a draw margin: a pawn up is about a coin toss
    // between winning and drawing; two pawns up usually wins.
    constexpr double Margin = 120, Width = 60;
    const double w = 1.0 / (1.0 + std::exp((Margin - v) / Width));
    const double l = 1.0 / (1.0 + std::exp((Margin + v) / Width));
    win = int(std::lround(1000 * w));
    loss = int(std::lround(1000 * l));
    draw = 1000 - win - loss;
}

}  // namespace outpost::engine
