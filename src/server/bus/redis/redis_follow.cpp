// Outpost — games follow their players (redis_bus.h, docs/scaling.md): a game this node
// runs that no connection of its own follows moves to the node of a connection that
// joins it from there, so that the front's hash by game id puts its moves on its owner.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The steps, when another node's join reaches this node (A) for such a game:
//  1. The game is marked as handed over (handing_): a message of a remote connection for
//     it is answered "moved" with the message itself, which its node holds and sends
//     where the game runs next; another join waits for step 3; the hub may not take it
//     again (take_game).
//  2. The hub writes its clocks as they read now and drops the room (Hub::hand_over_game);
//     once that write and every one before it are durable (the acknowledgements already
//     sent to the followers, in order before what follows) ...
//  3. ... the watcher's thread releases the lease and tells every follower's node, the
//     joining one first, "moved" with the node it goes to. The joining node (B) finds the
//     lease free, takes the game from the database (Hub::adopt: the side to move's clock
//     restarts from the reading of step 2) and joins its connections to its own hub. If
//     the joining connection has left meanwhile, B takes the game all the same
//     (take_orphans), or no node would run it.
// No ping-pong: a game with a connection on A never moves, and a game moves at most once
// per `follow_pause` (counted on both nodes: A when it hands it, B when it is told).
#include "server/bus/redis/redis_bus.h"

#include "server/bus/redis/redis_bus_proxy.h"
#include "server/observe/log.h"

namespace outpost::server::redis {

void RedisBus::attach_hand_over(HandOverGame hand_over) { hand_over_ = std::move(hand_over); }
void RedisBus::attach_take_over(TakeGame take) { take_over_ = std::move(take); }

void RedisBus::take_orphans() {
    std::vector<std::string> games;
    {
        std::lock_guard lock(mutex_);
        games.swap(orphans_);
    }
    if (!take_over_) return;
    for (const std::string& game : games) {
        log_event(LogLevel::DEBUG, "bus: a game handed here for a connection that left is run here", {{"game", game}});
        take_over_(game);  // a no-op when another node took it meanwhile
    }
}

bool RedisBus::handing(const std::string& game) const {
    std::lock_guard lock(mutex_);
    if (handing_.count(game)) return true;
    auto it = handed_away_.find(game);
    return it != handed_away_.end() && std::chrono::steady_clock::now() - it->second < options_.lease;
}

void RedisBus::moved_recently(const std::string& game) { recent_moves_[game] = std::chrono::steady_clock::now(); }

bool RedisBus::hands_over(const Envelope& join, const Address& at) {
    if (!options_.follow_players || !hand_over_ || !keeper_ || at.topic != Topic::GAME) return false;
    if (join.node == node() || !keeper_->live(at.id)) return false;  // finished games stay (a rematch)
    {
        std::lock_guard lock(mutex_);
        if (handing_.count(at.id)) return false;
        if (auto r = recent_moves_.find(at.id);
            r != recent_moves_.end() && std::chrono::steady_clock::now() - r->second < options_.follow_pause)
            return false;
        // A connection of this node follows it (joined, or being joined): it stays.
        for (const auto& [key, f] : follows_)
            if (f.at == at) return false;
        Handing h;
        h.to = join.node;
        h.conn = join.conn;
        handing_[at.id] = std::move(h);
        moved_recently(at.id);
    }
    auto followers = hand_over_(at.id, [this, game = at.id] {
        std::lock_guard lock(mutex_);
        auto it = handing_.find(game);
        if (it == handing_.end()) return;
        it->second.durable = true;
        if (it->second.dropped) finishing_.push_back(game), poke();
    });
    std::lock_guard lock(mutex_);
    auto it = handing_.find(at.id);
    if (!followers) {  // not a live game in the hub (ended meanwhile): joined as usual
        if (it != handing_.end()) handing_.erase(it);
        recent_moves_.erase(at.id);
        return false;
    }
    it->second.followers = std::move(*followers);
    it->second.dropped = true;
    if (it->second.durable) finishing_.push_back(at.id), poke();
    log_event(LogLevel::DEBUG, "bus: a game follows its players to another node", {{"game", at.id}, {"node", join.node}});
    return true;
}

void RedisBus::finish_hand_overs() {
    std::vector<std::string> games;
    {
        std::lock_guard lock(mutex_);
        games.swap(finishing_);
    }
    for (const std::string& game : games) {
        Handing h;
        {
            std::lock_guard lock(mutex_);
            auto it = handing_.find(game);
            if (it == handing_.end()) continue;
            h = std::move(it->second);
        }
        // Released only now: every write of it is durable, so the next node reads them all.
        if (auto released = keeper_->give_up(game); !released)
            log_event(LogLevel::WARN, "bus: a handed-over game's lease could not be released (it runs out by itself)",
                      {{"game", game}, {"error", released.error().message}});
        Envelope e;
        e.kind = Envelope::Kind::MOVED;
        e.conn = h.conn;
        e.address = Address::game(game).text();
        e.to = h.to;
        post(h.to, e);  // the joining connection first: its node takes the game
        release_followers(game, h.followers, h.to);
        for (const auto& [waiting_node, conn] : h.waiting) {
            e.conn = conn;
            post(waiting_node, e);
        }
        {
            std::lock_guard lock(mutex_);
            handing_.erase(game);
            handed_away_[game] = std::chrono::steady_clock::now();
        }
        moved_away_.fetch_add(1);
    }
}

std::optional<std::map<std::string, std::string>> RedisBus::owners_of(const std::vector<std::string>& games) {
    std::map<std::string, std::string> out;
    std::vector<std::string> ask;
    for (const std::string& g : games) {
        if (keeper_ && keeper_->held(g)) out[g] = node();
        else ask.push_back(g);
    }
    auto holders = lookups_.holders(ask);
    if (!holders) return std::nullopt;
    for (std::size_t i = 0; i < ask.size(); ++i) out[ask[i]] = (*holders)[i] ? (*holders)[i]->node : node();
    return out;
}

}  // namespace outpost::server::redis
