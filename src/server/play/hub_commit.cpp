// Outpost — the way of every change in the hub: the room's write to the storage writer, and
// once it is durable the messages to everyone who follows the game (D3); the tasks of
// a game's end
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/play/hub.h"
#include "server/play/state_json.h"
#include "server/observe/metrics.h"

namespace outpost::server {

// --- Changes: storage, then messages --------------------------------------------------

GameWrite Hub::write_for(Room& r, int ply_before) const {
    GameWrite w;
    w.game = r.row(env_.wall_ms());
    const int ply = r.game.ply();
    if (ply < ply_before) {
        w.kind = GameWrite::TRUNCATE_MOVES;
        w.ply = ply;
    } else if (ply == ply_before + 1) {
        w.kind = GameWrite::APPEND_MOVE;
        w.move = r.stored_move(ply);
    } else {
        w.kind = GameWrite::UPDATE_GAME;
    }
    return w;
}

void Hub::commit(Room& r, Change change, int ply_before) {
    if (r.game.is_over()) {
        end_game_tasks(r);
        rate(r);
    }
    if (change != Change::NONE) {
        // The messages are made now (the state as it is at this change) and sent once
        // the change is durable (D3: nothing acknowledged is ever lost).
        const bool one_move = change == Change::MOVE && r.game.ply() == ply_before + 1;
        const Millis now = env_.monotonic_ms();
        std::shared_ptr<const std::string> per_seat[4];
        std::vector<std::pair<std::weak_ptr<Subscriber>, std::shared_ptr<const std::string>>> out;
        out.reserve(r.subscribers.size());
        for (auto it = r.subscribers.begin(); it != r.subscribers.end();) {
            if (it->second.first.expired()) {
                it = r.subscribers.erase(it);
                continue;
            }
            auto& msg = per_seat[size_t(it->second.second)];
            if (!msg)
                msg = std::make_shared<const std::string>(one_move ? write_move(r, it->second.second, now)
                                                                   : write_state(r, it->second.second, now, env_.node));
            out.emplace_back(it->second.first, msg);
            ++it;
        }
        const std::string id = r.id();
        std::vector<std::int64_t> rated;  // P23: whose cached ratings this write carries
        if (r.info.rating) rated = {r.info.rating->side[WHITE].account, r.info.rating->side[BLACK].account};
        // A player's move times its way to the acknowledgement (observe/metrics.h).
        const auto received = one_move ? move_received_ : std::nullopt;
        const bool over = r.game.is_over();
        writer_.submit(write_for(r, ply_before), [this, id, rated, one_move, received, over,
                                                  out = std::move(out)](const Result<bool>& ok) {
            if (!ok) {
                {
                    std::lock_guard lock(failed_mutex_);
                    failed_.insert(id);
                    stale_ratings_.insert(rated.begin(), rated.end());
                }
                auto err = std::make_shared<const std::string>(
                    error_json({"internal", "the last change could not be stored: " + ok.error().message, 500}));
                for (const auto& [weak, msg] : out)
                    if (auto s = weak.lock()) s->deliver(err);
                return;
            }
            for (const auto& [weak, msg] : out)
                if (auto s = weak.lock()) s->deliver(msg);
            // Issue 26: its end is durable; its lease is no longer renewed as a live game's.
            if (over && env_.game_ended) env_.game_ended(id);
            if (one_move) metrics().moves_total.inc();
            if (received)
                metrics().move_latency.observe(
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - *received).count());
        });
    }
    if (change != Change::NONE) report_live(r);
    touch(r);
    evict_finished();
    if (rooms_.count(r.id()) == 0) return;  // (evicted: a finished game nobody follows)
    schedule(r);
    maybe_ask_robot(r);
    if (change == Change::MOVE) ask_dead_position(r, ply_before);
}

void Hub::end_game_tasks(Room& r) {
    if (r.robot_request) {
        r.robot_request = 0;
        if (env_.cancel_robot) env_.cancel_robot(r.id());
    }
    if (env_.cancel_dead_position) env_.cancel_dead_position(r.id());
    uncount_open(r);
}

}  // namespace outpost::server
