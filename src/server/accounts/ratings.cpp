// Outpost — ratings of accounts (ratings.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/accounts/ratings.h"

#include <cmath>

#include "chess/chess960.h"
#include "chess/clock.h"
#include "chess/fen.h"

namespace outpost::server {

const club::Glicko2Config& rating_config() {
    static const club::Glicko2Config config = club::Glicko2Config::lichess();
    return config;
}

std::optional<club::RatingClass> rated_class(const StoredGame& g) {
    if (g.casual) return std::nullopt;
    if (g.white_kind != "human" || g.black_kind != "human" || g.white_token == g.black_token) return std::nullopt;
    if (g.white_account <= 0 || g.black_account <= 0 || g.white_account == g.black_account) return std::nullopt;
    auto tc = parse_time_control(g.time_control);
    if (!tc) return std::nullopt;
    const bool chess960 = g.variant == "chess960";
    if (chess960) {
        if (g.chess960 < 0) return std::nullopt;  // from a position, not a start of the 960
    } else {
        static const std::string Start = to_fen(Position::startpos());
        if (g.initial_fen != Start) return std::nullopt;
    }
    return club::rating_class(tc->classify(), chess960);
}

bool changes_ratings(const StoredGame& g, const Outcome& o, int plies_played) {
    if (o.reason == Status::ONGOING || o.reason == Status::ABORTED) return false;
    return plies_played >= MinRatedPlies && rated_class(g).has_value();
}

std::optional<std::string> rating_class_of(const TimeControl& tc, bool chess960) {
    auto c = club::rating_class(tc.classify(), chess960);
    if (!c) return std::nullopt;
    return std::string(club::rating_class_name(*c));
}

StoredRating initial_rating(std::string_view rating_class) {
    const club::Glicko2Rating& i = rating_config().initial;
    return StoredRating{std::string(rating_class), i.rating, i.deviation, i.volatility, 0, 0};
}

club::Glicko2Rating rating_at(const StoredRating& r, std::int64_t now_ms) {
    const club::Glicko2Rating stored{r.rating, r.deviation, r.volatility};
    if (r.last_ms <= 0 || now_ms <= r.last_ms) return stored;
    const double days = double(now_ms - r.last_ms) / 86'400'000.0;
    return club::glicko2_widen(stored, days * RatingPeriodsPerDay, rating_config());
}

bool is_provisional(const StoredRating& r) { return r.deviation > rating_config().provisional_deviation; }

GameRating rate_game(std::string_view rating_class, std::int64_t white_account, const StoredRating& white,
                     std::int64_t black_account, const StoredRating& black, double white_score, std::int64_t now_ms) {
    const club::Glicko2Rating pre[2] = {rating_at(white, now_ms), rating_at(black, now_ms)};
    const StoredRating* stored[2] = {&white, &black};
    const std::int64_t accounts[2] = {white_account, black_account};
    const double scores[2] = {white_score, 1.0 - white_score};
    GameRating out;
    out.rating_class = std::string(rating_class);
    for (int c = 0; c < 2; ++c) {
        const club::Glicko2Game game{pre[1 - c], scores[c]};
        const club::Glicko2Rating post = club::glicko2_update(pre[c], {&game, 1}, rating_config());
        GameRating::Side& s = out.side[c];
        s.account = accounts[c];
        s.before = int(std::lround(stored[c]->rating));
        s.provisional = club::is_provisional(pre[c], rating_config());
        s.after = StoredRating{out.rating_class, post.rating, post.deviation, post.volatility, stored[c]->games + 1, now_ms};
        s.diff = int(std::lround(post.rating)) - s.before;
    }
    return out;
}

}  // namespace outpost::server
