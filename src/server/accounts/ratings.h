// Outpost — ratings of accounts (SPEC P23): which games are rated, and what a rated
// game does to both players' ratings. The maths is club/glicko2.h; this file holds the
// server's rules around it, as lichess plays them:
// - one rating per account per class (bullet, blitz, rapid, classical, correspondence,
//   and one for every Chess960 game: club::rating_class);
// - a new account starts at lichess's 1500 / RD 500 / volatility 0.09 with τ = 0.75
//   (club::Glicko2Config::lichess(); glicko2.h's bare defaults are Glickman's
//   1500 / 350 / 0.06, not used here), and a rating is provisional while RD > 110;
// - every rated game is a rating period of its own; before it, each player's RD widens
//   for the time since their last rated game in the class, 0.21436 rating periods a day
//   (lichess's figure), never beyond 500;
// - each player is rated against the other's pre-game rating (widened the same way).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "chess/clock.h"
#include "chess/game.h"
#include "club/glicko2.h"
#include "server/stores/game_store.h"

namespace outpost::server {

const club::Glicko2Config& rating_config();
constexpr double RatingPeriodsPerDay = 0.21436;

// The class a game is rated in, or none for a game that is not rated: a rated game is
// not casual (the new-game field `casual`: false), has two different accounts in two
// human seats (no robot, not at one screen), a clock, and the initial position
// (standard, or a Chess960 start by its number).
std::optional<club::RatingClass> rated_class(const StoredGame& g);
// Whether a finished game changes the ratings: rated, and decided by play: an aborted
// game, or one in which a side has not made MinRatedPlies / 2 moves (`plies_played`
// from the start position), changes nothing (issue 25: two accounts trading one move
// and a resignation farmed 1,000 points in 30 games; lichess's rule is two moves each).
inline constexpr int MinRatedPlies = 4;
bool changes_ratings(const StoredGame& g, const Outcome& o, int plies_played);

// The rating class of a time control, by name ("blitz", …, "chess960"; club::rating_class,
// P23), or none for a game without a clock.
std::optional<std::string> rating_class_of(const TimeControl& tc, bool chess960);

// An account's rating in a class that it has no row for yet.
StoredRating initial_rating(std::string_view rating_class);
// The Glicko-2 rating at now_ms: the stored one with its RD widened for the time since
// its last rated game.
club::Glicko2Rating rating_at(const StoredRating& r, std::int64_t now_ms);
bool is_provisional(const StoredRating& r);

// What one finished game does to both ratings (white_score: 1, ½ or 0).
GameRating rate_game(std::string_view rating_class, std::int64_t white_account, const StoredRating& white,
                     std::int64_t black_account, const StoredRating& black, double white_score, std::int64_t now_ms);

}  // namespace outpost::server
