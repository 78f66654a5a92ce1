// Outpost — Glicko-2 ratings (SPEC P23). Step numbers follow Glickman's paper.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "club/glicko2.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace outpost::club {

namespace {

// The Glicko-2 scale: μ = (r − 1500) / 173.7178, φ = RD / 173.7178 (step 2).
constexpr double Scale = 173.7178;

double g(double phi) { return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi)); }

double expected(double mu, double mu_j, double phi_j) { return 1.0 / (1.0 + std::exp(-g(phi_j) * (mu - mu_j))); }

}  // namespace

Glicko2Config Glicko2Config::glickman() {
    Glicko2Config c;
    c.tau = 0.5;
    c.initial = {1500.0, 350.0, 0.06};
    return c;
}

Glicko2Config Glicko2Config::lichess() {
    Glicko2Config c;
    c.tau = 0.75;
    c.initial = {1500.0, 500.0, 0.09};
    c.provisional_deviation = 110.0;
    return c;
}

double glicko2_expected(const Glicko2Rating& player, const Glicko2Rating& opponent) {
    return expected((player.rating - 1500.0) / Scale, (opponent.rating - 1500.0) / Scale, opponent.deviation / Scale);
}

Glicko2Rating glicko2_update(const Glicko2Rating& player, std::span<const Glicko2Game> games,
                             const Glicko2Config& config) {
    const double max_phi = config.initial.deviation / Scale;
    // Step 2: to the Glicko-2 scale.
    const double mu = (player.rating - 1500.0) / Scale;
    const double phi = player.deviation / Scale;
    const double sigma = player.volatility;

    if (games.empty()) {
        // A period without games: only the deviation grows (the paper's last note).
        double phi_star = std::min(std::sqrt(phi * phi + sigma * sigma), std::max(max_phi, phi));
        return {player.rating, phi_star * Scale, sigma};
    }

    // Steps 3 and 4: the estimated variance v and the improvement Δ.
    double v_inv = 0.0, delta_sum = 0.0;
    for (const Glicko2Game& game : games) {
        double mu_j = (game.opponent.rating - 1500.0) / Scale;
        double phi_j = game.opponent.deviation / Scale;
        double gj = g(phi_j);
        double e = expected(mu, mu_j, phi_j);
        v_inv += gj * gj * e * (1.0 - e);
        delta_sum += gj * (game.score - e);
    }
    const double v = 1.0 / v_inv;
    const double delta = v * delta_sum;

    // Step 5: the new volatility, the root of f by the Illinois algorithm.
    const double a = std::log(sigma * sigma);
    const double tau = config.tau;
    auto f = [&](double x) {
        double ex = std::exp(x);
        double d = phi * phi + v + ex;
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
    };
    double A = a;
    double B;
    if (delta * delta > phi * phi + v) {
        B = std::log(delta * delta - phi * phi - v);
    } else {
        // f grows without bound as x falls, so this ends for any τ > 0; the cap
        // keeps a τ ≤ 0 from turning it into an endless loop.
        int k = 1;
        while (f(a - k * tau) < 0.0 && k < 100000) ++k;
        B = a - k * tau;
    }
    double fA = f(A), fB = f(B);
    // The bracket holds the root and halves at worst every other step; the cap
    // only guards against a non-finite input.
    for (int iter = 0; std::abs(B - A) > config.epsilon && iter < 1000; ++iter) {
        double C = A + (A - B) * fA / (fB - fA);
        double fC = f(C);
        if (fC * fB <= 0.0) {
            A = B;
            fA = fB;
        } else {
            fA /= 2.0;
        }
        B = C;
        fB = fC;
    }
    const double sigma_new = std::exp(A / 2.0);

    // Steps 6 and 7: the pre-period deviation, then the new deviation and rating.
    const double phi_star = std::sqrt(phi * phi + sigma_new * sigma_new);
    const double phi_new = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    const double mu_new = mu + phi_new * phi_new * delta_sum;

    // Step 8: back to the Glicko scale.
    return {Scale * mu_new + 1500.0, Scale * phi_new, sigma_new};
}

Glicko2Rating glicko2_inactive(const Glicko2Rating& player, int periods, const Glicko2Config& config) {
    Glicko2Rating r = player;
    for (int i = 0; i < periods; ++i) {
        Glicko2Rating next = glicko2_update(r, {}, config);
        if (next == r) break;  // at the cap: later periods change nothing
        r = next;
    }
    return r;
}

Glicko2Rating glicko2_widen(const Glicko2Rating& player, double periods, const Glicko2Config& config) {
    if (!(periods > 0.0)) return player;
    const double phi = player.deviation / Scale, sigma = player.volatility;
    const double max_phi = std::max(config.initial.deviation / Scale, phi);
    const double phi_star = std::min(std::sqrt(phi * phi + periods * sigma * sigma), max_phi);
    return {player.rating, phi_star * Scale, sigma};
}

std::string_view rating_class_name(RatingClass c) {
    switch (c) {
        case RatingClass::BULLET: return "bullet";
        case RatingClass::BLITZ: return "blitz";
        case RatingClass::RAPID: return "rapid";
        case RatingClass::CLASSICAL: return "classical";
        case RatingClass::CORRESPONDENCE: return "correspondence";
        case RatingClass::CHESS960: return "chess960";
        case RatingClass::RATING_CLASS_NB: break;
    }
    return "?";
}

std::optional<RatingClass> rating_class(TimeClass time_class, bool chess960) {
    if (time_class == TimeClass::UNLIMITED) return std::nullopt;
    if (chess960) return RatingClass::CHESS960;
    switch (time_class) {
        case TimeClass::BULLET: return RatingClass::BULLET;
        case TimeClass::BLITZ: return RatingClass::BLITZ;
        case TimeClass::RAPID: return RatingClass::RAPID;
        case TimeClass::STANDARD: return RatingClass::CLASSICAL;
        case TimeClass::CORRESPONDENCE: return RatingClass::CORRESPONDENCE;
        case TimeClass::UNLIMITED: break;
    }
    return std::nullopt;
}

}  // namespace outpost::club
