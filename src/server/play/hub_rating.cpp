// Outpost — the hub's ratings at a game's end (P23): both ratings' changes, computed once per
// rated game and stored with its row; the ratings as last computed or read
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/play/hub.h"

#include <algorithm>
#include <cstdio>

#include "server/accounts/ratings.h"
#include "server/observe/log.h"

namespace outpost::server {

void Hub::rate(Room& r) {
    if (r.info.rating || !storage_) return;
    if (!changes_ratings(r.info, r.game.outcome(), r.game.ply() - r.preset_plies)) return;
    const std::string cls(club::rating_class_name(*rated_class(r.info)));
    const std::int64_t accounts[2] = {r.info.white_account, r.info.black_account};
    if (pair_rated_too_often(accounts[0], accounts[1])) {
        log_event(LogLevel::INFO, "a rated game changes no rating: the pair's games today are rated already",
                  {{"game", r.id()}});
        return;
    }
    StoredRating now[2];
    for (int c = 0; c < 2; ++c) {
        auto got = current_rating(accounts[c], cls);
        if (!got) {
            // The game stands; only its ratings are lost (said, not guessed).
            log_event(LogLevel::ERROR, "a game is not rated", {{"game", r.id()}, {"error", got.error().message}});
            return;
        }
        now[c] = *got;
    }
    r.info.rating = rate_game(cls, accounts[0], now[0], accounts[1], now[1], score_for(r.game.outcome(), WHITE), env_.wall_ms());
    for (int c = 0; c < 2; ++c) ratings_[{accounts[c], cls}] = r.info.rating->side[c].after;
    rated_pairs_[std::minmax(accounts[0], accounts[1])].push_back(env_.wall_ms());
}

// Issue 25: two accounts of one person traded 30 resignations for 2018 against 982.
bool Hub::pair_rated_too_often(std::int64_t a, std::int64_t b) {
    const int cap = env_.max_rated_games_per_pair_per_day;
    if (cap <= 0) return false;
    constexpr std::int64_t Day = 24 * 3'600'000LL;
    const std::int64_t since = env_.wall_ms() - Day;
    if (rated_pairs_.size() > 4096)  // pairs with nothing in the last day are forgotten
        std::erase_if(rated_pairs_, [&](const auto& e) { return e.second.empty() || e.second.back() <= since; });
    auto it = rated_pairs_.find(std::minmax(a, b));
    if (it == rated_pairs_.end()) {
        // A pair first seen since the start: its rated games of the last day as stored
        // (a restart forgets nothing); from then on the hub adds those it rates itself.
        std::vector<std::int64_t> stored;
        if (auto got = storage_->rated_games_between(a, b, since + 1)) stored = std::move(*got);
        else log_event(LogLevel::WARN, "the rated games of a pair could not be read: counted from now on",
                       {{"error", got.error().message}});
        it = rated_pairs_.emplace(std::minmax(a, b), std::move(stored)).first;
    }
    std::erase_if(it->second, [&](std::int64_t at) { return at <= since; });
    return int(it->second.size()) >= cap;
}

Result<std::optional<StoredRating>> Hub::rating_of(std::int64_t account, const std::string& rating_class) {
    std::lock_guard lock(mutex_);
    if (!storage_ || !account) return std::optional<StoredRating>{};
    auto r = current_rating(account, rating_class);
    if (!r) return r.error();
    if (r->games == 0) return std::optional<StoredRating>{};  // the initial rating: no rated game yet
    return std::optional<StoredRating>{*r};
}

Result<StoredRating> Hub::current_rating(std::int64_t account, const std::string& rating_class) {
    bool stale;
    {
        std::lock_guard lock(failed_mutex_);
        stale = stale_ratings_.erase(account) > 0;
    }
    if (stale) std::erase_if(ratings_, [&](const auto& e) { return e.first.first == account; });
    if (auto it = ratings_.find({account, rating_class}); it != ratings_.end()) return it->second;
    auto stored = storage_->ratings_of(account);
    if (!stored) return stored.error();
    for (const StoredRating& x : *stored) ratings_.try_emplace({account, x.rating_class}, x);
    if (auto it = ratings_.find({account, rating_class}); it != ratings_.end()) return it->second;
    return initial_rating(rating_class);
}

}  // namespace outpost::server
