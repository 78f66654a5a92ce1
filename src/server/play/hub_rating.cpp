// Outpost — the hub's ratings at a game's end (P23): both ratings' changes, computed once per
// rated game and stored with its row; the ratings as last computed or read
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/play/hub.h"

#include <cstdio>

#include "server/accounts/ratings.h"
#include "server/observe/log.h"

namespace outpost::server {

void Hub::rate(Room& r) {
    if (r.info.rating || !storage_) return;
    if (!changes_ratings(r.info, r.game.outcome(), r.game.ply() - r.preset_plies)) return;
    const std::string cls(club::rating_class_name(*rated_class(r.info)));
    const std::int64_t accounts[2] = {r.info.white_account, r.info.black_account};
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
