// Outpost — the hub and the admin page (SPEC D9): an arbiter's decision ends a game
// (FIDE 12.2.1 and 12.9: the arbiter, who ensures fair play, may declare a game lost,
// 12.9.6, or decide its score), and the list of the games being played. The admin
// room (server/admin) checks who asks and writes the audit log.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <algorithm>

#include "server/play/hub.h"

namespace outpost::server {

Answer<std::string> Hub::arbiter_decision(const std::string& id, std::string_view result, const std::string& reason) {
    std::optional<Color> winner;
    if (result == "1-0") winner = WHITE;
    else if (result == "0-1") winner = BLACK;
    else if (result != "1/2-1/2") return ProtocolError{"bad_request", "result must be 1-0, 0-1 or 1/2-1/2", 400};
    {
        std::lock_guard lock(mutex_);
        auto found = find(id);
        if (!found) return found.error();
        Room& r = *found.value();
        if (r.game.is_over())
            return ProtocolError{"game_over", "the game is over: " + describe(r.game.outcome()), 409};
        const int ply_before = r.game.ply();
        if (auto ended = r.game.arbiter_decision(winner); !ended)
            return ProtocolError{"not_allowed", ended.error().message, 409};
        if (r.clock) r.clock->stop();
        r.arbiter_reason = reason;
        commit(r, Change::STATE, ply_before);
    }
    return state_json(id);
}

std::vector<LiveGameView> Hub::live_game_views(size_t max) const {
    std::lock_guard lock(mutex_);
    std::vector<LiveGameView> out;
    for (const auto& [id, r] : rooms_) {
        if (r->game.is_over()) continue;
        out.push_back(LiveGameView{live_report(*r), int(r->subscribers.size())});
    }
    std::sort(out.begin(), out.end(), [](const LiveGameView& a, const LiveGameView& b) {
        return a.game.ply != b.game.ply ? a.game.ply > b.game.ply : a.game.id < b.game.id;
    });
    if (out.size() > max) out.resize(max);
    return out;
}

}  // namespace outpost::server
