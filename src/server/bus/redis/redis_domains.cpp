// Outpost — the domains node (redis_bus.h, docs/scaling.md): the lobby, events, simuls
// and the analysis queue run on one node at a time, the holder of the lease `domains`
// (PREFIX "lease:domains", a fencing token like a game's), renewed by the LeaseKeeper
// with the games' leases. A candidate node's watcher takes it when it is free (at the
// start, the first node to ask; after kill -9 of its holder, within the lease time and
// one watch period; at once after a SIGTERM hand-over, which releases it).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/bus/redis/redis_bus.h"
#include "server/observe/log.h"

namespace outpost::server::redis {

std::string RedisBus::domains_node() {
    if (keeper_ && keeper_->held(std::string(DomainsLease))) return node();
    auto h = lookups_.holder(DomainsLease);
    return h && *h ? (*h)->node : std::string();
}

bool RedisBus::runs_domains() { return runs_domains_.load(); }

void RedisBus::run_domains(DomainsChanged changed) {
    if (domains_candidate_.load()) return;  // once
    domains_changed_ = std::move(changed);
    domains_candidate_.store(true);
    poke();
}

void RedisBus::domains_tick() {
    if (!keeper_) return;
    const std::string name(DomainsLease);
    bool now = keeper_->held(name).has_value();
    if (!now && domains_candidate_.load()) {
        auto l = keeper_->take(name);  // the holder's grant when another node has it
        now = l && l->node == node();
        if (now)
            log_event(LogLevel::INFO, "bus: this node runs the lobby, events and simuls now",
                      {{"token", l->token}});
    }
    if (now == runs_domains_.load()) return;
    runs_domains_.store(now);
    if (domains_changed_) domains_changed_(now);
}

}  // namespace outpost::server::redis
