// Outpost — the hub and the deeper dead-position test (R7, FIDE 5.2.2): asking the
// watch after a move, and ending a game at the ply where it became dead.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The quick test runs after each move inside Game (a few milliseconds at worst); what
// it does not prove goes to the watch (dead_watch.h) on its own thread. When the watch
// proves a position dead the game ended there, at once (5.2.2): a move made since (the
// watch takes a fraction of a second, rarely seconds) is taken back with its clock
// time, and the players get the state, drawn by dead position (docs/laws.md).
#include "server/play/hub.h"

namespace outpost::server {

void Hub::ask_dead_position(Room& r, int ply_before) {
    const Game& g = r.game;
    if (!env_.check_dead_position || g.is_over() || g.ply() <= ply_before) return;
    DeadPositionRequest q;
    q.game_id = r.id();
    q.first_ply = std::max(ply_before + 1, r.preset_plies);
    const auto& positions = g.positions();
    q.positions.assign(positions.begin() + q.first_ply, positions.end());
    env_.check_dead_position(std::move(q));
}

void Hub::on_dead_position(const std::string& id, int ply, Key key) {
    std::lock_guard lock(mutex_);
    auto it = rooms_.find(id);
    if (it == rooms_.end()) return;
    Room& r = *it->second;
    Game& g = r.game;
    if (g.is_over() || ply < r.preset_plies || ply > g.ply()) return;
    // Taken back and played otherwise since the question was asked: not this game's.
    if (g.positions()[size_t(ply)].repetition_key() != key) return;
    const int ply_before = g.ply();
    if (ply < ply_before) {
        if (!r.take_back(ply_before - ply)) return;
        r.robot_request = 0;  // its answer would be for a position taken back
        if (env_.cancel_robot) env_.cancel_robot(r.id());
    }
    if (!g.declare_dead_position()) return;
    if (r.clock) r.clock->stop();
    commit(r, Change::STATE, ply_before);
}

}  // namespace outpost::server
