// Outpost — the hub's link to the robot: its name and strength, asking it for a move, and
// taking the answer to the outstanding request only
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/play/hub.h"

namespace outpost::server {

std::string Hub::levels_json() const { return env_.levels_json ? env_.levels_json() : R"({"v":1,"levels":[]})"; }

std::string Hub::robot_name(int level, int elo) const {
    return level ? "Outpost level " + std::to_string(level) : "Outpost " + std::to_string(elo) + " Elo";
}

// Rows of older versions stored no Elo for a level robot.
void Hub::fill_robot_elo(Room& r) const {
    if (r.info.robot_level && !r.info.robot_elo && env_.level_elo) r.info.robot_elo = env_.level_elo(r.info.robot_level);
}

void Hub::maybe_ask_robot(Room& r) {
    if (r.game.is_over() || !env_.ask_robot) return;
    const Color turn = r.game.side_to_move();
    if (!r.robot(turn) || r.robot_request) return;
    RobotRequest req;
    req.game_id = r.id();
    req.request_id = r.robot_request = ++next_robot_request_;
    req.asked_at_ms = env_.monotonic_ms();
    req.ply = r.game.ply();
    req.start = r.game.start_position();
    req.moves = r.game.moves();
    req.level = r.info.robot_level;
    req.elo = r.info.robot_level ? 0 : r.info.robot_elo;
    req.instant = r.robot_instant;
    // Issue 25: the human's account, else the address that made the game.
    const std::int64_t human = turn == WHITE ? r.info.black_account : r.info.white_account;
    std::string address = r.client.substr(0, r.client.find(' '));  // without its account (open_keys)
    if (address.ends_with("/correspondence")) address.resize(address.size() - std::string_view("/correspondence").size());
    req.owner = human ? "account:" + std::to_string(human) : address.empty() ? "" : "address:" + address;
    if (r.clock && !r.clock->time_control().correspondence()) {
        const Period& p = r.clock->time_control().periods.front();
        req.my_time = std::max<Millis>(0, r.clock->remaining(turn));
        req.their_time = std::max<Millis>(0, r.clock->remaining(~turn));
        req.my_inc = req.their_inc = p.increment + p.delay;
    }
    env_.ask_robot(std::move(req));
}

void Hub::on_robot_move(const std::string& id, std::uint64_t request_id, Move move) {
    std::lock_guard lock(mutex_);
    auto it = rooms_.find(id);
    if (it == rooms_.end()) return;
    Room& r = *it->second;
    // Only the answer to the outstanding request counts: an answer computed for a position
    // that was since taken back (same ply count, other position) is stale.
    if (request_id == 0 || request_id != r.robot_request) return;
    r.robot_request = 0;
    if (r.game.is_over() || !r.robot(r.game.side_to_move())) return;
    const int ply = r.game.ply();
    const bool was_over = r.game.is_over();
    auto done = r.play(r.game.side_to_move(), move, std::nullopt, 0, env_.wall_ms(), env_.monotonic_ms());
    if (!done) {
        // A flag that fell is news; a robot that cannot move legally has lost its mind:
        // it is asked again.
        commit(r, !was_over && r.game.is_over() ? Change::STATE : Change::NONE, ply);
        return;
    }
    commit(r, Change::MOVE, ply);
}

}  // namespace outpost::server
