// Outpost — the hub's clocks and timers: the lag credited to a move (C5), the timer of each
// game (flag, first move R14, adjournment R18), and what happens when it rings
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/play/hub.h"

#include <algorithm>

namespace outpost::server {

// C5: the lag credited is what the server measured on the connection; the client's own
// estimate may lower it, never raise it (a claimed 300 ms let a client play without its
// clock running). At most max_lag_credit_ms a move; the clock's LagQuota bounds it over
// many moves.
Millis Hub::credited_lag(Millis measured, std::optional<int> claimed) const {
    Millis lag = std::max<Millis>(0, measured);
    if (claimed) lag = std::min<Millis>(lag, std::max(0, *claimed));
    return std::min(lag, env_.max_lag_credit_ms);
}

void Hub::schedule(Room& r) {
    if (r.game.is_over() || !env_.call_back_in) return;
    const Millis now = env_.monotonic_ms();
    if (r.waiting_for_resumption()) {  // R18: the agreed time, or a look for the arbiter's
        Millis d = env_.arbiter_poll_ms;
        if (r.adjourned->resume_at_ms) d = std::min<Millis>(d, std::max<Millis>(0, r.adjourned->resume_at_ms - env_.wall_ms()) + 1);
        env_.call_back_in(r.id(), d);
        return;
    }
    if (r.clock && r.clock->running()) {
        const Color c = *r.clock->running_side();
        env_.call_back_in(r.id(), std::max<Millis>(0, r.clock->remaining(c) + r.clock->delay_left(c)) + 1);
    } else if (r.game.ply() < 2) {
        const Millis limit = first_move_limit(r);
        env_.call_back_in(r.id(), std::max<Millis>(0, r.turn_began + limit - now) + 1);
    }
}

bool Hub::check_timeouts(Room& r) {
    if (r.game.is_over()) return false;
    if (r.waiting_for_resumption()) return check_resumption(r);
    if (r.check_flag()) return true;
    if (r.clock && r.clock->running()) return false;
    // R14, online default: no first moves in time abort the game without result; a
    // robot or hotseat game that was never started leaves after unstarted_abort_ms.
    // On an event's or a simul's board the side to move loses by forfeit instead.
    if (r.game.ply() < 2 && env_.monotonic_ms() - r.turn_began >= first_move_limit(r)) {
        if (!r.forfeits_first_move()) (void)r.game.abort();
        else (void)r.game.forfeit(r.game.side_to_move());
        if (r.clock) r.clock->stop();
        return true;
    }
    return false;
}

Millis Hub::first_move_limit(const Room& r) const {
    const std::string& rule = r.info.first_move;
    if (r.awaiting_friend()) return env_.invite_wait_ms;
    if (rule.empty() || rule == "invite") return r.invite() ? env_.first_move_timeout_ms : env_.unstarted_abort_ms;
    const Color mover = r.game.side_to_move();
    // A simul's host walks from board to board: the host's first move has the long limit.
    if ((rule == "forfeit-host-white" && mover == WHITE) || (rule == "forfeit-host-black" && mover == BLACK))
        return env_.unstarted_abort_ms;
    return env_.first_move_timeout_ms;
}

void Hub::on_timer(const std::string& id) {
    std::lock_guard lock(mutex_);
    auto it = rooms_.find(id);
    if (it == rooms_.end()) return;
    Room& r = *it->second;
    const int ply = r.game.ply();
    if (check_timeouts(r)) commit(r, Change::STATE, ply);
    else schedule(r);
}

}  // namespace outpost::server
