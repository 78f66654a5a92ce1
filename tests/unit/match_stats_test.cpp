// Outpost — match statistics against values computed by hand (see the comments).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <cmath>

#include "match/stats.h"

using namespace outpost::match;

TEST(MatchStats, EloFromScore) {
    // 0.75 -> 400 log10(3) = 190.849; symmetric around 0.5.
    EXPECT_NEAR(elo_from_score(0.75), 190.849, 1e-3);
    EXPECT_NEAR(elo_from_score(0.25), -190.849, 1e-3);
    EXPECT_NEAR(elo_from_score(0.5), 0.0, 1e-12);
    EXPECT_NEAR(score_from_elo(190.849), 0.75, 1e-6);
    EXPECT_NEAR(score_from_elo(5), 0.5071947, 1e-6);
}

TEST(MatchStats, TrinomialEloErrorLos) {
    // W 10, L 5, D 5: score 0.625, per-game variance
    // (10 * 0.375^2 + 5 * 0.625^2 + 5 * 0.125^2) / 20 = 0.171875,
    // 95% half width 1.95996 * sqrt(0.171875 / 20) = 0.181694,
    // error (Elo(0.806694) - Elo(0.443306)) / 2 = 143.875,
    // LOS 0.5 (1 + erf(5 / sqrt(30))) = 0.901647.
    Trinomial t{10, 5, 5};
    EXPECT_DOUBLE_EQ(t.score(), 0.625);
    const EloEstimate e = estimate_elo(t);
    EXPECT_TRUE(e.finite);
    EXPECT_NEAR(e.elo, 88.7395, 1e-3);
    EXPECT_NEAR(e.error, 143.875, 1e-2);
    EXPECT_NEAR(e.los, 0.901647, 1e-5);
    EXPECT_DOUBLE_EQ(e.draw_ratio, 0.25);
}

TEST(MatchStats, PerfectScoreIsInfinite) {
    const EloEstimate e = estimate_elo(Trinomial{3, 0, 0});
    EXPECT_FALSE(e.finite);
    EXPECT_TRUE(std::isinf(e.elo) && e.elo > 0);
    EXPECT_NEAR(likelihood_of_superiority(0, 0), 0.5, 1e-12);
}

TEST(MatchStats, Pentanomial) {
    // Pairs [1, 2, 5, 3, 1] at 0, 0.25, 0.5, 0.75, 1 per game: mean 0.520833,
    // Elo 14.4849, error 105.275, LOS 0.609587.
    Pentanomial p;
    p.counts = {1, 2, 5, 3, 1};
    const EloEstimate e = estimate_elo(p);
    EXPECT_NEAR(e.elo, 14.4849, 1e-3);
    EXPECT_NEAR(e.error, 105.275, 1e-2);
    EXPECT_NEAR(e.los, 0.609587, 1e-5);

    Pentanomial q;
    q.add_pair(1, 0.5);  // 1.5 points: index 3
    q.add_pair(0, 0);
    q.add_pair(0.5, 0.5);
    EXPECT_EQ(q.counts[3], 1);
    EXPECT_EQ(q.counts[0], 1);
    EXPECT_EQ(q.counts[2], 1);
    EXPECT_EQ(q.pairs(), 3);
}

TEST(MatchStats, SprtBoundsAndLlr) {
    SprtConfig cfg;  // elo0 0, elo1 5, alpha 0.05, beta 0.05
    EXPECT_NEAR(cfg.lower_bound(), -2.944439, 1e-6);
    EXPECT_NEAR(cfg.upper_bound(), 2.944439, 1e-6);
    cfg.beta = 0.1;
    EXPECT_NEAR(cfg.lower_bound(), std::log(0.1 / 0.95), 1e-12);

    // LLR = n (s1 - s0) (2m - s0 - s1) / (2v) with s0 = 0.5, s1 = 0.5071947:
    // trinomial W 10 L 5 D 5: 20 * 0.0071947 * 0.7428053 / 0.34375 = 0.101644.
    EXPECT_NEAR(sprt_llr(Trinomial{10, 5, 5}, 0, 5), 0.101644, 1e-5);
    // pentanomial [1, 2, 5, 3, 1]: 0.0221207.
    Pentanomial p;
    p.counts = {1, 2, 5, 3, 1};
    EXPECT_NEAR(sprt_llr(p, 0, 5), 0.0221207, 1e-6);
    // No games: no information. Only draws: evidence for H0 (no gain).
    EXPECT_EQ(sprt_llr(Trinomial{}, 0, 5), 0.0);
    EXPECT_LT(sprt_llr(Trinomial{0, 0, 4}, 0, 5), 0.0);
    // Only won pairs: variance zero without regularisation, yet H1 after a few pairs.
    Pentanomial won;
    won.counts = {0, 0, 0, 0, 3};
    EXPECT_EQ(sprt_verdict(sprt_llr(won, 0, 5), SprtConfig{}), SprtVerdict::ACCEPT_H1);
}

TEST(MatchStats, SprtVerdicts) {
    const SprtConfig cfg;
    EXPECT_EQ(sprt_verdict(3.0, cfg), SprtVerdict::ACCEPT_H1);
    EXPECT_EQ(sprt_verdict(-3.0, cfg), SprtVerdict::ACCEPT_H0);
    EXPECT_EQ(sprt_verdict(0.5, cfg), SprtVerdict::CONTINUE);
    // A strong engine against a weak one: H1 (elo >= 5) must be accepted quickly.
    EXPECT_EQ(sprt_verdict(sprt_llr(Trinomial{600, 100, 300}, 0, 5), cfg), SprtVerdict::ACCEPT_H1);
    // An even result over many games: H0.
    EXPECT_EQ(sprt_verdict(sprt_llr(Trinomial{10000, 10000, 10000}, 0, 5), cfg), SprtVerdict::ACCEPT_H0);
}
