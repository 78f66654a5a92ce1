// Outpost — Glicko-2 ratings (SPEC P23), as Mark Glickman's "Example of the
// Glicko-2 system" defines them: a rating, a rating deviation (RD) and a
// volatility per player; games collected in rating periods; the new volatility
// found with the Illinois algorithm (the paper's step 5); the RD widened by the
// volatility for every period without games.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "chess/clock.h"

namespace outpost::club {

struct Glicko2Rating {
    double rating = 1500.0;
    double deviation = 350.0;
    double volatility = 0.06;
    bool operator==(const Glicko2Rating&) const = default;
};

struct Glicko2Config {
    // τ constrains the change of volatility over time; Glickman suggests 0.3 to
    // 1.2 (his worked example uses 0.5); lichess uses 0.75.
    double tau = 0.75;
    // A new player's rating; the RD never grows beyond initial.deviation.
    Glicko2Rating initial{};
    // Convergence tolerance of the volatility iteration (the paper's ε).
    double epsilon = 0.000001;
    // RD above this marks a rating provisional (lichess: 110).
    double provisional_deviation = 110.0;

    // Glickman's values: 1500 / 350 / 0.06, τ = 0.5 as in his example.
    static Glicko2Config glickman();
    // lichess's published defaults: 1500 / 500 / 0.09, τ = 0.75, provisional > 110.
    static Glicko2Config lichess();
};

// One game of a rating period: the opponent's pre-period rating and the score
// (1 win, 0.5 draw, 0 loss).
struct Glicko2Game {
    Glicko2Rating opponent;
    double score = 0.0;
};

// The rating after one rating period with these games (none: only the RD widens).
Glicko2Rating glicko2_update(const Glicko2Rating& player, std::span<const Glicko2Game> games,
                             const Glicko2Config& config);

// The rating after `periods` rating periods without games: each widens the RD as
// φ* = sqrt(φ² + σ²), never beyond the initial RD.
Glicko2Rating glicko2_inactive(const Glicko2Rating& player, int periods, const Glicko2Config& config);

// The same for a fractional number of periods (lichess counts a player's inactivity by
// elapsed time, 0.21436 periods a day): φ* = sqrt(φ² + periods·σ²), never beyond the
// initial RD (nor below the RD given). periods ≤ 0 changes nothing.
Glicko2Rating glicko2_widen(const Glicko2Rating& player, double periods, const Glicko2Config& config);

inline bool is_provisional(const Glicko2Rating& r, const Glicko2Config& config) {
    return r.deviation > config.provisional_deviation;
}

// The expected score of `player` against `opponent` (the paper's E(μ, μj, φj)).
double glicko2_expected(const Glicko2Rating& player, const Glicko2Rating& opponent);

// A player has one rating per class (P23): by the time control's C4 class, and a
// separate one for Chess960 at any time control.
enum class RatingClass : std::uint8_t { BULLET, BLITZ, RAPID, CLASSICAL, CORRESPONDENCE, CHESS960, RATING_CLASS_NB };
std::string_view rating_class_name(RatingClass c);  // "bullet", …, "chess960"
// The class a game counts for; none for a game without a clock (not rated).
std::optional<RatingClass> rating_class(TimeClass time_class, bool chess960);

}  // namespace outpost::club
