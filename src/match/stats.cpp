// Outpost — match statistics.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "match/stats.h"

#include <cmath>

namespace outpost::match {

namespace {

// The 97.5% quantile of the standard normal distribution: a two-sided 95% interval.
constexpr double Z95 = 1.959963984540054;

struct Moments {
    double n = 0, mean = 0, variance = 0;  // variance of one sample
};

// With `regularise`, an outcome never seen counts as a thousandth of a game: without
// it, a run of identical results (every pair won 2-0) has zero variance and the SPRT
// could never decide, however one-sided the match.
Moments moments(const double* points, const int* counts, int k, bool regularise = false) {
    double c[5] = {};
    Moments m;
    for (int i = 0; i < k; ++i) m.n += counts[i];
    if (m.n == 0) return m;
    m.n = 0;
    for (int i = 0; i < k; ++i) {
        c[i] = regularise && counts[i] == 0 ? 1e-3 : counts[i];
        m.n += c[i];
    }
    for (int i = 0; i < k; ++i) m.mean += points[i] * c[i];
    m.mean /= m.n;
    for (int i = 0; i < k; ++i) m.variance += c[i] * (points[i] - m.mean) * (points[i] - m.mean);
    m.variance /= m.n;
    return m;
}

Moments trinomial_moments(const Trinomial& t, bool regularise = false) {
    const double points[3] = {1.0, 0.5, 0.0};
    const int counts[3] = {t.wins, t.draws, t.losses};
    return moments(points, counts, 3, regularise);
}

// Per pair, as a score per game (0, 0.25 .. 1) so that the mean is comparable with
// the trinomial one.
Moments pentanomial_moments(const Pentanomial& p, bool regularise = false) {
    const double points[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
    return moments(points, p.counts.data(), 5, regularise);
}

EloEstimate estimate(const Moments& m) {
    EloEstimate e;
    if (m.n == 0) return e;
    e.finite = m.mean > 0 && m.mean < 1;
    if (!e.finite) {
        e.elo = m.mean >= 1 ? INFINITY : -INFINITY;
        e.error = INFINITY;
        return e;
    }
    e.elo = elo_from_score(m.mean);
    const double half = Z95 * std::sqrt(m.variance / m.n);
    const double lo = m.mean - half, hi = m.mean + half;
    // Near 0 or 1 the interval leaves the range where Elo is finite.
    if (lo <= 0 || hi >= 1)
        e.error = INFINITY;
    else
        e.error = (elo_from_score(hi) - elo_from_score(lo)) / 2;
    return e;
}

double llr(const Moments& m, double elo0, double elo1) {
    if (m.n == 0 || m.variance <= 0) return 0;
    const double s0 = score_from_elo(elo0), s1 = score_from_elo(elo1);
    return m.n * (s1 - s0) * (2 * m.mean - s0 - s1) / (2 * m.variance);
}

}  // namespace

double elo_from_score(double score) { return -400.0 * std::log10(1.0 / score - 1.0); }
double score_from_elo(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }

double Trinomial::score() const { return games() ? (wins + 0.5 * draws) / games() : 0.0; }

void Pentanomial::add_pair(double points_first, double points_second) {
    const int halves = static_cast<int>(std::lround(2 * (points_first + points_second)));
    if (halves >= 0 && halves <= 4) ++counts[halves];
}

double likelihood_of_superiority(int wins, int losses) {
    if (wins + losses == 0) return 0.5;
    return 0.5 * (1.0 + std::erf((wins - losses) / std::sqrt(2.0 * (wins + losses))));
}

EloEstimate estimate_elo(const Trinomial& t) {
    EloEstimate e = estimate(trinomial_moments(t));
    e.los = likelihood_of_superiority(t.wins, t.losses);
    e.draw_ratio = t.games() ? double(t.draws) / t.games() : 0.0;
    return e;
}

EloEstimate estimate_elo(const Pentanomial& p) {
    EloEstimate e = estimate(pentanomial_moments(p));
    // Pairs say nothing about single wins and losses; LOS from the normal
    // approximation of the pair mean instead.
    const Moments m = pentanomial_moments(p);
    if (m.n > 0 && m.variance > 0)
        e.los = 0.5 * (1 + std::erf((m.mean - 0.5) / std::sqrt(2 * m.variance / m.n)));
    else if (m.n > 0)
        e.los = m.mean > 0.5 ? 1.0 : m.mean < 0.5 ? 0.0 : 0.5;
    e.draw_ratio = p.pairs() ? double(p.counts[2]) / p.pairs() : 0.0;
    return e;
}

double SprtConfig::lower_bound() const { return std::log(beta / (1 - alpha)); }
double SprtConfig::upper_bound() const { return std::log((1 - beta) / alpha); }

double sprt_llr(const Trinomial& t, double elo0, double elo1) { return llr(trinomial_moments(t, true), elo0, elo1); }
double sprt_llr(const Pentanomial& p, double elo0, double elo1) {
    return llr(pentanomial_moments(p, true), elo0, elo1);
}

SprtVerdict sprt_verdict(double llr_value, const SprtConfig& cfg) {
    if (llr_value >= cfg.upper_bound()) return SprtVerdict::ACCEPT_H1;
    if (llr_value <= cfg.lower_bound()) return SprtVerdict::ACCEPT_H0;
    return SprtVerdict::CONTINUE;
}

}  // namespace outpost::match
