// Outpost — Glicko-2 ratings (SPEC P23) against Glickman's worked example and
// the properties the system promises.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "club/glicko2.h"

using namespace outpost;
using namespace outpost::club;

// "Example of the Glicko-2 system" (Glickman): a 1500 / 200 / 0.06 player beats a
// 1400 / 30, loses to a 1550 / 100 and to a 1700 / 300, τ = 0.5. The paper rounds
// its intermediate values and prints 1464.06 / 151.52 / 0.05999; full precision
// gives 1464.0507 / 151.5165 / 0.0599960.
TEST(Glicko2P23, GlickmansWorkedExample) {
    Glicko2Config config = Glicko2Config::glickman();
    ASSERT_EQ(config.tau, 0.5);
    std::vector<Glicko2Game> games = {
        {{1400, 30, 0.06}, 1.0},
        {{1550, 100, 0.06}, 0.0},
        {{1700, 300, 0.06}, 0.0},
    };
    Glicko2Rating r = glicko2_update({1500, 200, 0.06}, games, config);
    EXPECT_NEAR(r.rating, 1464.06, 0.02);
    EXPECT_NEAR(r.deviation, 151.52, 0.01);
    EXPECT_NEAR(r.volatility, 0.05999, 0.00001);
    EXPECT_NEAR(r.volatility, 0.059996, 0.000001);
    EXPECT_NEAR(r.rating, 1464.0507, 0.0005);
    EXPECT_NEAR(r.deviation, 151.5165, 0.0005);
}

TEST(Glicko2P23, ExpectedScoreOfTheExample) {
    // The paper's table: E = 0.639, 0.432, 0.303 against the three opponents.
    Glicko2Rating p{1500, 200, 0.06};
    EXPECT_NEAR(glicko2_expected(p, {1400, 30, 0.06}), 0.639, 0.0005);
    EXPECT_NEAR(glicko2_expected(p, {1550, 100, 0.06}), 0.432, 0.0005);
    EXPECT_NEAR(glicko2_expected(p, {1700, 300, 0.06}), 0.303, 0.0005);
}

TEST(Glicko2P23, AWinAgainstAHigherRatedPlayerGainsMore) {
    Glicko2Config config = Glicko2Config::lichess();
    Glicko2Rating p{1600, 80, 0.06};
    std::vector<Glicko2Game> vs_low = {{{1400, 80, 0.06}, 1.0}};
    std::vector<Glicko2Game> vs_high = {{{1900, 80, 0.06}, 1.0}};
    double gain_low = glicko2_update(p, vs_low, config).rating - p.rating;
    double gain_high = glicko2_update(p, vs_high, config).rating - p.rating;
    EXPECT_GT(gain_low, 0.0);
    EXPECT_GT(gain_high, gain_low + 5.0);
    // And a loss against a lower-rated player costs more than against a higher.
    std::vector<Glicko2Game> lose_low = {{{1400, 80, 0.06}, 0.0}};
    std::vector<Glicko2Game> lose_high = {{{1900, 80, 0.06}, 0.0}};
    EXPECT_LT(glicko2_update(p, lose_low, config).rating, glicko2_update(p, lose_high, config).rating);
}

TEST(Glicko2P23, InactivityWidensTheDeviationUpToTheInitialOne) {
    Glicko2Config config = Glicko2Config::glickman();
    Glicko2Rating p{1700, 60, 0.06};
    Glicko2Rating one = glicko2_inactive(p, 1, config);
    EXPECT_EQ(one.rating, p.rating);
    EXPECT_EQ(one.volatility, p.volatility);
    EXPECT_NEAR(one.deviation, std::sqrt(60.0 * 60.0 + (0.06 * 173.7178) * (0.06 * 173.7178)), 1e-9);
    Glicko2Rating ten = glicko2_inactive(p, 10, config);
    EXPECT_GT(ten.deviation, one.deviation);
    Glicko2Rating forever = glicko2_inactive(p, 2000000000, config);
    EXPECT_NEAR(forever.deviation, 350.0, 1e-9);
    EXPECT_EQ(glicko2_update(p, {}, config), one);
}

TEST(Glicko2P23, ADrawBetweenEqualsChangesLittle) {
    Glicko2Config config = Glicko2Config::lichess();
    Glicko2Rating p{1800, 70, 0.06};
    std::vector<Glicko2Game> draw = {{p, 0.5}};
    Glicko2Rating r = glicko2_update(p, draw, config);
    EXPECT_NEAR(r.rating, 1800.0, 1e-9);
    EXPECT_LT(r.deviation, p.deviation);
    EXPECT_NEAR(r.volatility, 0.06, 0.001);
}

TEST(Glicko2P23, GamesNarrowTheDeviationAndSurprisesRaiseTheVolatility) {
    Glicko2Config config = Glicko2Config::lichess();
    Glicko2Rating p{1500, 50, 0.06};
    std::vector<Glicko2Game> upsets;
    for (int i = 0; i < 10; ++i) upsets.push_back({{2300, 50, 0.06}, 1.0});
    Glicko2Rating r = glicko2_update(p, upsets, config);
    EXPECT_GT(r.volatility, p.volatility);
    EXPECT_GT(r.rating, 1600.0);
    // With τ small the volatility moves less.
    Glicko2Config tight = config;
    tight.tau = 0.3;
    EXPECT_LT(glicko2_update(p, upsets, tight).volatility, r.volatility);
}

TEST(Glicko2P23, ProvisionalAboveDeviation110) {
    Glicko2Config config = Glicko2Config::lichess();
    EXPECT_TRUE(is_provisional(config.initial, config));
    EXPECT_TRUE(is_provisional({1500, 110.5, 0.06}, config));
    EXPECT_FALSE(is_provisional({1500, 110.0, 0.06}, config));
    EXPECT_FALSE(is_provisional({1500, 60, 0.06}, config));
}

TEST(Glicko2P23, RatingClassPerTimeControlClassAndChess960) {
    EXPECT_EQ(rating_class(TimeClass::BULLET, false), RatingClass::BULLET);
    EXPECT_EQ(rating_class(TimeClass::BLITZ, false), RatingClass::BLITZ);
    EXPECT_EQ(rating_class(TimeClass::RAPID, false), RatingClass::RAPID);
    EXPECT_EQ(rating_class(TimeClass::STANDARD, false), RatingClass::CLASSICAL);
    EXPECT_EQ(rating_class(TimeClass::CORRESPONDENCE, false), RatingClass::CORRESPONDENCE);
    EXPECT_EQ(rating_class(TimeClass::BLITZ, true), RatingClass::CHESS960);
    EXPECT_FALSE(rating_class(TimeClass::UNLIMITED, false).has_value());
    // Through the C4 classification of real time controls.
    auto tc = parse_time_control("3+2");
    ASSERT_TRUE(tc.ok());
    EXPECT_EQ(rating_class(tc->classify(), false), RatingClass::BLITZ);
    auto tc2 = parse_time_control("1+0");
    ASSERT_TRUE(tc2.ok());
    EXPECT_EQ(rating_class(tc2->classify(), false), RatingClass::BULLET);
    EXPECT_EQ(rating_class_name(RatingClass::CHESS960), "chess960");
}

TEST(Glicko2P23, BadParametersGiveAnAnswerNotAHang) {
    std::vector<Glicko2Game> games = {{{1400, 30, 0.06}, 1.0}, {{1700, 300, 0.06}, 0.0}};
    for (double tau : {0.0, -0.5, 1e-9}) {
        Glicko2Config config;
        config.tau = tau;
        (void)glicko2_update({1500, 200, 0.06}, games, config);
    }
    Glicko2Config config;
    (void)glicko2_update({1500, 0, 0.0}, games, config);
    (void)glicko2_update({1500, 200, 0.06}, std::vector<Glicko2Game>{{{1500, 0, 0.06}, 0.5}}, config);
    SUCCEED();
}

// lichess widens the deviation by elapsed time (a fraction of a period is a fraction
// of σ²): a whole period is exactly the paper's empty period; none changes nothing;
// more time widens more, never beyond the initial RD.
TEST(Glicko2P23, WideningByElapsedPeriods) {
    const Glicko2Config config = Glicko2Config::lichess();
    const Glicko2Rating p{1700.0, 80.0, 0.09};
    EXPECT_EQ(glicko2_widen(p, 0.0, config), p);
    EXPECT_EQ(glicko2_widen(p, -3.0, config), p);
    const Glicko2Rating one = glicko2_widen(p, 1.0, config);
    EXPECT_NEAR(one.deviation, glicko2_inactive(p, 1, config).deviation, 1e-9);
    const Glicko2Rating half = glicko2_widen(p, 0.5, config);
    EXPECT_GT(half.deviation, p.deviation);
    EXPECT_LT(half.deviation, one.deviation);
    EXPECT_NEAR(half.deviation * half.deviation, p.deviation * p.deviation + 0.5 * std::pow(0.09 * 173.7178, 2), 1e-6);
    EXPECT_DOUBLE_EQ(glicko2_widen(p, 1e12, config).deviation, 500.0);
    EXPECT_EQ(half.rating, p.rating);
    EXPECT_EQ(half.volatility, p.volatility);
}
