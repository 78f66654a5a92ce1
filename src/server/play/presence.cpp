// Outpost — presence (SPEC P22).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/play/presence.h"

#include <algorithm>

namespace outpost::server {

const char* presence_name(PresenceState s) {
    switch (s) {
    case PresenceState::ONLINE: return "online";
    case PresenceState::AWAY: return "away";
    case PresenceState::GONE: return "gone";
    }
    return "online";
}

SeatPresence seat_presence(const Room& r, Color c, Millis now) {
    if (r.robot(c)) return {};
    bool any = false, visible = false;
    for (const auto& [p, sub] : r.subscribers) {
        if (sub.first.expired() || !(sub.second == Seat::BOTH || seat_color(sub.second) == c)) continue;
        any = true;
        visible = visible || r.away.count(p) == 0;
    }
    if (!any) return {PresenceState::GONE, std::max<Millis>(0, now - r.absent_since[c])};
    return {visible ? PresenceState::ONLINE : PresenceState::AWAY, 0};
}

// The rule is the hub's (Hub::handle for claims): the side to move has had no
// connection and no move for abandonment_ms, in a game that is not correspondence
// and not adjourned.
std::optional<Millis> abandonment_claim_in(const Room& r, Millis now, Millis abandonment_ms) {
    if (r.game.is_over() || !r.invite() || r.game.ply() < 2) return std::nullopt;
    // C3: the deadline decides a correspondence game; R18: nobody is to move while a
    // sealed move waits. The hub refuses those claims, so nothing counts down.
    if (r.correspondence() || r.waiting_for_resumption()) return std::nullopt;
    const Color absent = r.game.side_to_move();
    if (r.connected(absent)) return std::nullopt;
    const Millis waited = std::min(now - r.turn_began, now - r.absent_since[absent]);
    return std::max<Millis>(0, abandonment_ms - waited);
}

}  // namespace outpost::server
