// Outpost — the open-games cap counted by every node (shared_open_cap.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/play/shared_open_cap.h"

#include <limits>

namespace outpost::server {

SharedOpenCap::SharedOpenCap(SharedLimits* limits, const std::vector<std::string>& keys, std::string token,
                             const std::function<Cap(const std::string&)>& cap_of)
    : limits_(limits), token_(std::move(token)) {
    if (!limits_) return;
    for (const std::string& key : keys) {
        const Cap cap = cap_of(key);
        if (cap.games >= std::numeric_limits<int>::max() / 2) continue;  // no cap (--max-open-games 0)
        auto held = limits_->reserve_open_game(key, token_, cap.games, cap.max_age_ms);
        if (!held) continue;  // Redis away: this node's count alone
        if (!*held) {
            refused_.emplace(key, cap.games);
            give_back();
            return;
        }
        held_.push_back(key);
    }
}

SharedOpenCap::~SharedOpenCap() { give_back(); }

void SharedOpenCap::made(const std::string& game_id) {
    for (const std::string& key : held_) (void)limits_->settle_open_game(key, token_, game_id);
    held_.clear();
}

void SharedOpenCap::give_back() {
    for (const std::string& key : held_) (void)limits_->settle_open_game(key, token_, "");
    held_.clear();
}

}  // namespace outpost::server
