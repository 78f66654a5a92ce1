// Outpost — judging moves after a game: the formulas (docs/analysis.md).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/judgement.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

namespace outpost::engine {

Eval Eval::from_search(Value v, Color side_to_move) {
    const int sign = side_to_move == WHITE ? 1 : -1;
    if (v >= VALUE_MATE_IN_MAX_PLY) return mate_in(sign * ((VALUE_MATE - v + 1) / 2));
    if (v <= VALUE_MATED_IN_MAX_PLY) return mate_in(-sign * ((VALUE_MATE + v + 1) / 2));
    return centipawns(sign * v);
}

Eval Eval::mated(Color loser) {
    Eval e;
    e.checkmated = true;
    e.mate = loser == WHITE ? -1 : 1;  // the sign says who won; never written as a count
    return e;
}

std::optional<Color> Eval::mating_side() const {
    if (mate > 0) return WHITE;
    if (mate < 0) return BLACK;
    return std::nullopt;
}

int Eval::cp_for(Color c) const {
    const int white = mate > 0 ? MateCp : mate < 0 ? -MateCp : std::clamp(cp, -MateCp, MateCp);
    return c == WHITE ? white : -white;
}

std::optional<std::string> eval_to_pgn(const Eval& e) {
    if (e.checkmated) return std::nullopt;
    if (e.mate != 0) return "#" + std::to_string(e.mate);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", e.cp / 100.0);
    std::string s = buf;
    return s == "-0.00" ? "0.00" : s;
}

double win_percent(const Eval& e, Color c) {
    const double chances = 2.0 / (1.0 + std::exp(-WinSlope * e.cp_for(c))) - 1.0;
    return 50.0 + 50.0 * chances;
}

int mark_nag(Mark m) {
    switch (m) {
        case Mark::INACCURACY: return 6;
        case Mark::MISTAKE: return 2;
        case Mark::BLUNDER: return 4;
        default: return 0;
    }
}

std::string_view mark_name(Mark m) {
    switch (m) {
        case Mark::INACCURACY: return "Inaccuracy";
        case Mark::MISTAKE: return "Mistake";
        case Mark::BLUNDER: return "Blunder";
        default: return "";
    }
}

namespace {

// The mark when a mate appears or vanishes, by how much (centipawns, the mover's
// view) the other evaluation leaves to the mover: still winning big after giving up
// a mate, or already lost big before walking into one, is less of an error.
Mark mate_mark(int margin_cp) {
    if (margin_cp >= MateBarelyCp) return Mark::INACCURACY;
    if (margin_cp >= MateMistakeCp) return Mark::MISTAKE;
    return Mark::BLUNDER;
}

}  // namespace

Mark judge_move(const Eval& before, const Eval& after, Color mover) {
    const std::optional<Color> mate_before = before.mating_side();
    const std::optional<Color> mate_after = after.mating_side();  // also the winner after a checkmate
    const Color them = ~mover;
    if (mate_before == mover) {
        if (mate_after == mover) return Mark::NONE;    // still mating (perhaps slower)
        if (mate_after == them) return Mark::BLUNDER;  // from mating to being mated
        return mate_mark(after.cp_for(mover));         // the mate is lost
    }
    if (mate_after == them) {
        if (mate_before == them) return Mark::NONE;  // was lost already
        return mate_mark(-before.cp_for(mover));     // walked into a mate
    }
    const double drop = win_percent(before, mover) - win_percent(after, mover);
    if (drop >= BlunderDrop) return Mark::BLUNDER;
    if (drop >= MistakeDrop) return Mark::MISTAKE;
    if (drop >= InaccuracyDrop) return Mark::INACCURACY;
    return Mark::NONE;
}

double move_accuracy(double win_before, double win_after) {
    if (win_after >= win_before) return 100.0;
    const double drop = win_before - win_after;
    const double raw = 103.1668100711649 * std::exp(-0.04354415386753951 * drop) - 3.166924740191411;
    return std::clamp(raw + 1.0, 0.0, 100.0);
}

namespace {

double standard_deviation(std::span<const double> xs) {
    double mean = 0;
    for (double x : xs) mean += x;
    mean /= double(xs.size());
    double var = 0;
    for (double x : xs) var += (x - mean) * (x - mean);
    return std::sqrt(var / double(xs.size()));
}

}  // namespace

std::array<double, COLOR_NB> game_accuracy(std::span<const Eval> evals, Color first_mover) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::array<double, COLOR_NB> result{nan, nan};
    if (evals.size() < 2) return result;
    const size_t plies = evals.size() - 1;

    std::vector<double> white_win;
    for (const Eval& e : evals) white_win.push_back(win_percent(e, WHITE));

    // Volatility weights: the standard deviation of White's winning chances over a
    // window of positions around each move (window: a tenth of the game, 2..8
    // positions; the first moves share the first window), clamped to 0.5..12. Moves
    // in a quiet stretch weigh less than moves where the game swings.
    const size_t window = std::clamp<size_t>(white_win.size() / 10, 2, 8);
    std::vector<double> weights;
    for (size_t ply = 0; ply < plies; ++ply) {
        const size_t first = ply + 2 > window ? std::min(ply + 2 - window, white_win.size() - window) : 0;
        const std::span<const double> xs(white_win.data() + first, window);
        weights.push_back(std::clamp(standard_deviation(xs), 0.5, 12.0));
    }

    for (Color side : {WHITE, BLACK}) {
        double weighted = 0, weight_sum = 0, inverse_sum = 0;
        int moves = 0;
        bool zero = false;
        for (size_t ply = 0; ply < plies; ++ply) {
            const Color mover = ply % 2 == 0 ? first_mover : ~first_mover;
            if (mover != side) continue;
            const double acc = move_accuracy(win_percent(evals[ply], side), win_percent(evals[ply + 1], side));
            weighted += acc * weights[ply];
            weight_sum += weights[ply];
            if (acc <= 0)
                zero = true;
            else
                inverse_sum += 1.0 / acc;
            ++moves;
        }
        if (moves == 0) continue;
        // A move of accuracy 0 makes the harmonic mean 0 (its limit).
        const double harmonic = zero ? 0.0 : moves / inverse_sum;
        result[side] = (weighted / weight_sum + harmonic) / 2.0;
    }
    return result;
}

}  // namespace outpost::engine
