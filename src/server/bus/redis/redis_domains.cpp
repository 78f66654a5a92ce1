// Outpost — the domains node (redis_bus.h, docs/scaling.md): the lobby, events, simuls
// and the analysis queue run on one node at a time, the holder of the lease `domains`
// (PREFIX "lease:domains", a fencing token like a game's), renewed by the LeaseKeeper
// with the games' leases. A candidate node's watcher takes it when it is free (at the
// start, the first node to ask; after kill -9 of its holder, within the lease time and
// one watch period; at once after a SIGTERM hand-over, which releases it). The other
// nodes forward their connections to the lobby and the simuls to it, as to a game's
// node, and publish their games' reports to it.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/bus/redis/redis_bus.h"
#include "server/bus/redis/redis_bus_proxy.h"
#include "server/observe/log.h"

namespace outpost::server::redis {

std::string RedisBus::domains_node() {
    if (runs_domains_.load()) return node();
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

void RedisBus::receive_reports(DomainsReport deliver) { reports_ = std::move(deliver); }

void RedisBus::fence_domains(ClaimFence claim) { claim_fence_ = std::move(claim); }

std::int64_t RedisBus::domains_token() {
    // Only once the token is written in the database (domains_tick sets runs_domains_
    // after taken_domains_fence): between the grant and its claim the lease is held but
    // not yet this node's to write under.
    if (!runs_domains_.load()) return -1;
    std::lock_guard lock(keeper_gone_);
    if (!keeper_) return -1;
    auto l = keeper_->valid(std::string(DomainsLease));
    return l ? l->token : -1;
}

std::optional<std::int64_t> RedisBus::taken_domains_fence(const Lease& grant) {
    const std::string name(DomainsLease);
    if (!claim_fence_) return grant.token;
    auto stored = claim_fence_(grant.token);
    if (stored && *stored > grant.token) {
        // Redis restarted empty: its counter goes past the stored token, and the lease is
        // taken again with a higher one (as a game's, take_game).
        log_event(LogLevel::WARN, "bus: the domains' fencing token was below the database's (Redis restarted?)",
                  {{"token", grant.token}, {"stored", *stored}});
        (void)leases_.raise_fence(*stored);
        (void)keeper_->give_up(name);
        auto again = keeper_->take(name);
        if (!again || again->node != node()) return std::nullopt;
        stored = claim_fence_(again->token);
        if (stored && *stored == again->token) return again->token;
    } else if (stored) {
        return grant.token;
    }
    // The database away (or a higher token again): not run here now; asked again next turn.
    log_event(LogLevel::WARN, "bus: the domains lease was given up: its fencing token could not be written",
              {{"error", stored ? std::string("a higher token is stored") : stored.error().message}});
    (void)keeper_->give_up(name);
    return std::nullopt;
}

std::optional<std::string> RedisBus::owner_at(const Address& at) {
    if (at.topic == Topic::GAME) return owner_of(at.id);
    if (runs_domains_.load()) return node();
    auto h = lookups_.holder(DomainsLease);
    if (!h) return std::nullopt;
    // Nobody, or this node before its watcher has told the edge (and loaded): wait.
    if (!*h || (*h)->node == node()) return std::string();
    return (*h)->node;
}

void RedisBus::domains_tick() {
    if (!keeper_) return;
    const std::string name(DomainsLease);
    bool now = keeper_->held(name).has_value();
    std::string holder = now ? node() : std::string();
    if (!now && domains_candidate_.load()) {
        auto l = keeper_->take(name);  // the holder's grant when another node has it
        if (l) holder = l->node;
        now = l && l->node == node();
        // Its token is written in the database before the events are read (a node
        // paused past its lease cannot write over what this one does next).
        std::optional<std::int64_t> token;
        if (now) token = taken_domains_fence(*l);
        if (now && !token) now = false, holder.clear();
        if (now)
            log_event(LogLevel::INFO, "bus: this node runs the lobby, events and simuls now", {{"token", *token}});
    } else if (!now) {
        auto h = lookups_.holder(DomainsLease);
        if (h && *h) holder = (*h)->node;
    }
    {
        std::lock_guard lock(domains_mutex_);
        domains_known_ = holder;
    }
    if (now != runs_domains_.load()) {
        runs_domains_.store(now);
        if (!now) domains_lost();
        if (domains_changed_) domains_changed_(now);
    }
    send_waiting_reports();
}

void RedisBus::domains_lost() {
    std::vector<Remote> left;
    std::vector<std::pair<Address, std::shared_ptr<Subscriber>>> own;
    {
        std::lock_guard lock(mutex_);
        for (auto it = remote_.begin(); it != remote_.end();) {
            if (it->second.at.topic != Topic::GAME) {
                left.push_back(std::move(it->second));
                it = remote_.erase(it);
            } else {
                ++it;
            }
        }
        for (auto& [key, f] : follows_) {
            if (f.at.topic == Topic::GAME || f.owner != node()) continue;
            f.owner.clear();
            if (auto who = f.who.lock()) own.emplace_back(f.at, std::move(who));
        }
    }
    log_event(LogLevel::WARN, "bus: this node no longer runs the lobby, events and simuls",
              {{"connections", std::int64_t(left.size() + own.size())}});
    for (const Remote& r : left) {
        if (BusHandler* h = handler(r.at.topic)) h->on_leave(r.at, r.proxy.get());
        Envelope e;
        e.kind = Envelope::Kind::MOVED;
        e.conn = r.proxy->conn();
        e.address = r.at.text();
        post(r.proxy->node(), e);
    }
    for (const auto& [at, who] : own)
        if (BusHandler* h = handler(at.topic)) h->on_leave(at, who.get());
    poke();
}

void RedisBus::hand_over_domains() {
    if (!keeper_ || !runs_domains_.load()) return;
    domains_candidate_.store(false);  // not taken again on the way out
    (void)keeper_->give_up(std::string(DomainsLease));
    runs_domains_.store(false);
    domains_lost();
    log_event(LogLevel::INFO, "bus: the domains handed over");
}

void RedisBus::report_to_domains(std::string json) {
    if (json.size() > MaxReportBytes) {
        reports_dropped_.fetch_add(1);
        return;
    }
    std::lock_guard lock(domains_mutex_);  // in the order made, those waiting first
    const std::uint64_t seq = ++next_report_seq_;
    if (!waiting_reports_.empty() || !send_report_locked(json, seq)) keep_report_locked(seq, std::move(json));
}

bool RedisBus::send_report_locked(const std::string& json, std::uint64_t seq) {
    if (runs_domains_.load()) {
        if (reports_) reports_(json);
        return true;
    }
    const std::string& to = domains_known_;
    if (to.empty() || to == node()) return false;  // none known now, or this node before it has loaded them
    if (to == reports_unreached_ && std::chrono::steady_clock::now() - reports_unreached_at_ < options_.lease)
        return false;  // it did not get the last ones: gone, its lease not yet run out
    Envelope e;
    e.kind = Envelope::Kind::REPORT;
    e.node = node();
    e.text = json;
    post(to, e, seq);
    return true;
}

void RedisBus::keep_report_locked(std::uint64_t seq, std::string json) {
    // Enough for every live game of a busy node to report once; a game's later report
    // says all an earlier one did, so losing the oldest loses least.
    constexpr std::size_t MaxWaitingReports = 20000;
    // In its place by number: one that reached nobody may come back from the publisher
    // after later ones were kept (they were made while it was on its way).
    auto at = waiting_reports_.end();
    while (at != waiting_reports_.begin() && std::prev(at)->seq > seq) --at;
    waiting_reports_.insert(at, WaitingReport{seq, std::move(json)});
    if (waiting_reports_.size() <= MaxWaitingReports) return;
    waiting_reports_.pop_front();
    if (reports_dropped_.fetch_add(1) % 1000 == 0)
        log_event(LogLevel::WARN, "bus: games' reports waiting for a domains node were dropped (too many)",
                  {{"dropped", std::int64_t(reports_dropped_.load())}});
}

void RedisBus::report_unreached(const std::string& to, std::uint64_t seq, std::string json) {
    std::lock_guard lock(domains_mutex_);
    reports_unreached_ = to;
    reports_unreached_at_ = std::chrono::steady_clock::now();
    keep_report_locked(seq, std::move(json));
}

void RedisBus::send_waiting_reports() {
    std::lock_guard lock(domains_mutex_);
    std::size_t sent = 0;
    while (!waiting_reports_.empty() && send_report_locked(waiting_reports_.front().json, waiting_reports_.front().seq)) {
        waiting_reports_.pop_front();
        ++sent;
    }
    if (sent > 0)
        log_event(LogLevel::INFO, "bus: games' reports that waited for a domains node sent",
                  {{"reports", std::int64_t(sent)}, {"to", runs_domains_.load() ? node() : domains_known_}});
}

void RedisBus::report_in(const Envelope& e) {
    // Sent before this node lost the domains: dropped, not sent on (two nodes that each
    // believe the other runs them must not pass it back and forth).
    if (!runs_domains_.load() || !reports_) {
        reports_dropped_.fetch_add(1);
        return;
    }
    reports_(e.text);
}

}  // namespace outpost::server::redis
