// Outpost — match statistics: Elo difference with its 95% error, LOS, SPRT.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Elo here is the logistic model: a score s (points per game) means a rating
// difference of -400 log10(1/s - 1). The error comes from the variance of the
// per-game score (trinomial: win, draw, loss) or, when games come in pairs that
// share an opening with colours reversed, of the per-pair score (pentanomial:
// 0, 1/2, 1, 3/2, 2 points). Pairs cancel most of the opening's bias, so the
// pentanomial variance is the honest one for paired games.
#pragma once

#include <array>
#include <optional>
#include <string>

namespace outpost::match {

// Score (points per game, in (0, 1)) to Elo difference and back.
double elo_from_score(double score);
double score_from_elo(double elo);

struct Trinomial {
    int wins = 0, losses = 0, draws = 0;
    int games() const { return wins + losses + draws; }
    double score() const;  // points per game
};

// Pair results counted by the pair's points in half points: index 0 (0 points)
// to 4 (2 points).
struct Pentanomial {
    std::array<int, 5> counts{};
    int pairs() const { return counts[0] + counts[1] + counts[2] + counts[3] + counts[4]; }
    void add_pair(double points_first, double points_second);
};

struct EloEstimate {
    double elo = 0;    // centre
    double error = 0;  // half width of the 95% interval (symmetric in score)
    double los = 0.5;  // likelihood of superiority, 0..1
    double draw_ratio = 0;
    bool finite = false;  // false when the score is 0 or 1 (Elo is infinite)
};

EloEstimate estimate_elo(const Trinomial& t);
// LOS from wins and losses only (draws carry no information about who is better).
double likelihood_of_superiority(int wins, int losses);
// Elo and error from pairs (the centre is the same as the games' score gives).
EloEstimate estimate_elo(const Pentanomial& p);

struct SprtConfig {
    double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
    double lower_bound() const;  // ln(beta / (1 - alpha))
    double upper_bound() const;  // ln((1 - beta) / alpha)
};

enum class SprtVerdict { CONTINUE, ACCEPT_H0, ACCEPT_H1 };

// Log-likelihood ratio of H1 (elo = elo1) against H0 (elo = elo0), in the normal
// approximation of the generalised SPRT: with mean score m, per-sample variance v,
// n samples and s0, s1 the scores that elo0 and elo1 give,
//     LLR = n (s1 - s0) (2m - s0 - s1) / (2v).
// Outcomes not seen yet count as 0.001 of a sample, so that a one-sided run still
// decides; zero before the first result.
double sprt_llr(const Trinomial& t, double elo0, double elo1);
double sprt_llr(const Pentanomial& p, double elo0, double elo1);
SprtVerdict sprt_verdict(double llr, const SprtConfig& cfg);

}  // namespace outpost::match
