// Outpost — this node's games' leases (redis_bus.h, docs/scaling.md): a game taken with a
// fencing token above every one that wrote it, kept at a slow pace once ended, released
// once forgotten; a lease lost (another node runs the game now) and the SIGTERM
// hand-over, both of which tell the followers' nodes where the game went.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/bus/redis/redis_bus.h"

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "server/bus/redis/redis_bus_proxy.h"
#include "server/observe/log.h"

namespace outpost::server::redis {

std::optional<std::int64_t> RedisBus::take_game(const std::string& game, std::int64_t stored_fence) {
    // handing: on its way to another node; leaving: SIGTERM handed every game over.
    if (!keeper_ || game.empty() || game[0] == '@' || handing(game) || leaving_) return std::nullopt;
    const auto before = keeper_->held(game);
    auto l = keeper_->take(game);
    if (!l) {
        log_event(LogLevel::WARN, "bus: a game's lease could not be taken", {{"game", game}, {"error", l.error().message}});
        return std::nullopt;
    }
    if (l->node != node()) return std::nullopt;
    // A new grant has a token above every one that wrote the game; our own grant,
    // extended, the one it had.
    if (l->token > stored_fence || (before && before->token == l->token)) return l->token;
    // Not above the database's: Redis restarted empty. The counter goes past them.
    (void)leases_.raise_fence(stored_fence);
    (void)keeper_->give_up(game);
    l = keeper_->take(game);
    if (!l || l->node != node() || l->token <= stored_fence) return std::nullopt;
    return l->token;
}

void RedisBus::game_ended(const std::string& game) {
    if (keeper_ && !game.empty() && game[0] != '@') keeper_->park(game);
}

void RedisBus::game_forgotten(const std::string& game) {
    if (keeper_ && !game.empty() && game[0] != '@') keeper_->forget(game);
}

void RedisBus::on_lease_lost(const std::string& game) {
    if (game == DomainsLease) {  // the watcher tells the edge, at once
        log_event(LogLevel::WARN, "bus: this node lost the domains lease");
        return poke();
    }
    log_event(LogLevel::WARN, "bus: this node lost a game's lease; another node runs it", {{"game", game}});
    std::vector<std::shared_ptr<Subscriber>> followers;
    if (drop_) followers = drop_(game);
    release_followers(game, followers);
}

void RedisBus::release_followers(const std::string& game, const std::vector<std::shared_ptr<Subscriber>>& followers,
                                 const std::string& to) {
    const Address at = Address::game(game);
    for (const auto& s : followers) {
        if (auto* p = dynamic_cast<Proxy*>(s.get())) {
            Envelope e;
            e.kind = Envelope::Kind::MOVED;
            e.conn = p->conn();
            e.address = at.text();
            e.to = to;
            post(p->node(), e);
            std::lock_guard lock(mutex_);
            remote_.erase({p->node(), p->conn()});
            continue;
        }
        std::lock_guard lock(mutex_);
        if (auto it = follows_.find({s.get(), at}); it != follows_.end()) it->second.owner.clear();
    }
    poke();
}

void RedisBus::hand_over() {
    hand_over_domains();  // redis_domains.cpp
    if (!drop_ || !live_ || !keeper_) return;
    leaving_ = true;
    const auto games = live_();
    // FIDE 6.10-6.11 (docs/laws.md): as when a game follows its players, each game's
    // clocks as they read now are written, and its lease is given up once that write is
    // durable, so that the next node charges the side to move the time it used here
    // (from the last move's reading it would be given that time back). Dropped first
    // either way: nothing more is written from here.
    struct Durable {
        std::mutex mutex;
        std::condition_variable cv;
        size_t waiting = 0;
    };
    auto durable = std::make_shared<Durable>();
    std::vector<std::pair<std::string, std::vector<std::shared_ptr<Subscriber>>>> dropped;
    for (const std::string& game : games) {
        std::optional<std::vector<std::shared_ptr<Subscriber>>> followers;
        if (hand_over_) {
            {
                std::lock_guard lock(durable->mutex);
                ++durable->waiting;
            }
            followers = hand_over_(game, [durable] {
                std::lock_guard lock(durable->mutex);
                --durable->waiting;
                durable->cv.notify_all();
            });
            if (!followers) {  // not a live game here (ended meanwhile): nothing written
                std::lock_guard lock(durable->mutex);
                --durable->waiting;
            }
        }
        if (!followers) followers = drop_(game);
        dropped.emplace_back(game, std::move(*followers));
    }
    {
        // Group commit makes this a few milliseconds; a database that does not answer
        // must not hold the stop (the lease then hands over the last durable reading).
        std::unique_lock lock(durable->mutex);
        if (!durable->cv.wait_for(lock, std::chrono::milliseconds(800), [&] { return durable->waiting == 0; }))
            log_event(LogLevel::WARN, "bus: clocks of handed-over games not durable in 0.8 s, their leases given up anyway",
                      {{"games", std::int64_t(durable->waiting)}});
    }
    for (const auto& [game, followers] : dropped) {
        (void)keeper_->give_up(game);
        release_followers(game, followers);
    }
    keeper_->give_up_all();
    log_event(LogLevel::INFO, "bus: games handed over", {{"games", std::int64_t(games.size())}});
}

}  // namespace outpost::server::redis
