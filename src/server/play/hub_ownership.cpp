// Outpost — the hub's games when several nodes share them (issue 26, docs/scaling.md):
// a game read from storage runs here only with this node's lease on it; a lost lease
// takes the room out of memory; a game another node runs is read from storage.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/play/hub.h"

namespace outpost::server {

namespace {

ProtocolError run_elsewhere(const std::string& id) {
    return {"unavailable", "game " + id + " is run by another node", 503};
}

}  // namespace

Answer<std::unique_ptr<Room>> Hub::adopt(StoredGame stored) {
    const std::string id = stored.id;
    std::int64_t token = 0;
    if (env_.take_game) {
        auto taken = env_.take_game(id, stored.fence);
        if (!taken) return run_elsewhere(id);
        token = *taken;
        // FIDE 6.10-6.11 (docs/laws.md, "A node fails"): the time no node ran the game is
        // not the player's: the clock restarts from its last durable reading, now.
        if (stored.status == "ongoing") stored.turn_started_ms = env_.wall_ms();
    }
    auto room = room_from_stored(std::move(stored), env_.monotonic_ms, env_.wall_ms());
    if (!room) return ProtocolError{"internal", room.error().message, 500};
    (*room)->info.fence = token;
    if (env_.game_ended && (*room)->game.is_over()) env_.game_ended(id);  // kept at the slow pace
    fill_robot_elo(**room);
    return std::move(*room);
}

Answer<Room*> Hub::find_to_read(const std::string& id, std::unique_ptr<Room>& scratch) {
    auto found = find(id);
    if (found || found.error().code != "unavailable" || !storage_) return found;
    auto stored = storage_->load_game(id);
    if (!stored) return ProtocolError{"internal", "game " + id + " could not be read: " + stored.error().message, 500};
    if (!stored->has_value()) return found.error();
    auto room = room_from_stored(std::move(**stored), env_.monotonic_ms, env_.wall_ms());
    if (!room) return ProtocolError{"internal", room.error().message, 500};
    fill_robot_elo(**room);
    scratch = std::move(*room);
    return scratch.get();
}

std::vector<std::shared_ptr<Subscriber>> Hub::drop_locked(const std::string& id) {
    std::vector<std::shared_ptr<Subscriber>> followers;
    auto it = rooms_.find(id);
    if (it == rooms_.end()) return followers;
    Room& r = *it->second;
    for (const auto& [p, sub] : r.subscribers)
        if (auto s = sub.first.lock()) followers.push_back(std::move(s));
    uncount_open(r);
    forget_finished(id);
    rooms_.erase(it);  // its timer finds no room (on_timer) and does nothing
    return followers;
}

void Hub::after_drop(const std::string& id) {
    {
        std::lock_guard lock(failed_mutex_);
        failed_.erase(id);
    }
    if (env_.cancel_robot) env_.cancel_robot(id);
    if (env_.cancel_dead_position) env_.cancel_dead_position(id);
}

std::vector<std::shared_ptr<Subscriber>> Hub::drop_game(const std::string& id) {
    std::vector<std::shared_ptr<Subscriber>> followers;
    {
        std::lock_guard lock(mutex_);
        if (rooms_.count(id) == 0) return followers;
        followers = drop_locked(id);
    }
    after_drop(id);
    return followers;
}

std::optional<std::vector<std::shared_ptr<Subscriber>>> Hub::hand_over_game(const std::string& id,
                                                                           std::function<void()> durable) {
    std::vector<std::shared_ptr<Subscriber>> followers;
    {
        std::lock_guard lock(mutex_);
        auto it = rooms_.find(id);
        if (it == rooms_.end() || it->second->game.is_over()) return std::nullopt;
        Room& r = *it->second;
        // FIDE 6.10-6.11 (docs/laws.md): the clocks as they read now, with the time the
        // side to move has used here, are the last durable reading the next node starts
        // from (Hub::adopt restarts the running clock at its takeover): the time the
        // game spends between nodes is nobody's.
        writer_.submit(write_for(r, r.game.ply()), [](const Result<bool>&) {});
        followers = drop_locked(id);
        writer_.after_pending([durable = std::move(durable)](const Result<bool>&) { durable(); });
    }
    after_drop(id);
    return followers;
}

void Hub::take_over(const std::string& id) {
    std::lock_guard lock(mutex_);
    (void)find(id);  // adopts it when its lease is free (Hub::adopt)
}

std::vector<std::string> Hub::live_game_ids() const {
    std::lock_guard lock(mutex_);
    std::vector<std::string> ids;
    for (const auto& [id, r] : rooms_)
        if (!r->game.is_over()) ids.push_back(id);
    return ids;
}

}  // namespace outpost::server
