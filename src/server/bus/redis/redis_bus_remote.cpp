// Outpost — the other nodes' messages on this node's channel (redis_bus.h): their
// connections' joins, messages and leaves for the games run here, and the answers to
// this node's connections from the games run there. Read as hostile (bus_envelope.h):
// a message that does not read is refused and logged, and the node goes on.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/bus/redis/redis_bus.h"
#include "server/bus/redis/http_envelope.h"
#include "server/bus/redis/redis_bus_proxy.h"
#include "server/observe/log.h"

namespace outpost::server::redis {

void RedisBus::on_node_message(const std::string& payload) {
    if (is_http_payload(payload)) return on_http_message(payload);  // redis_http.cpp
    auto e = decode(payload);
    if (!e) {
        // Logged at first and then once in a thousand: a flood does not flood the log.
        if (refused_.fetch_add(1) % 1000 == 0)
            log_event(LogLevel::WARN, "bus: a message between nodes was refused",
                      {{"error", e.error().message}, {"refused", std::int64_t(refused_.load())}});
        return;
    }
    switch (e->kind) {
    case Envelope::Kind::JOIN: return remote_join(*e);
    case Envelope::Kind::MESSAGE: return remote_message(*e);
    case Envelope::Kind::LEAVE: return remote_leave(*e);
    case Envelope::Kind::OUT: return deliver_out(*e);
    case Envelope::Kind::MOVED: return moved(*e);
    case Envelope::Kind::REPORT: return report_in(*e);  // redis_domains.cpp
    }
}

void RedisBus::remote_join(const Envelope& e) {
    auto at = Address::parse(e.address);
    if (!at) return;
    BusHandler* h = handler(at->topic);
    if (!h) return;
    if (at->topic != Topic::GAME && !runs_domains()) {  // not (or no longer) the domains node
        Envelope answer;
        answer.kind = Envelope::Kind::MOVED;
        answer.conn = e.conn;
        answer.address = e.address;
        return post(e.node, answer);
    }
    const std::pair<std::string, std::uint64_t> key{e.node, e.conn};
    std::shared_ptr<Proxy> old;
    {
        std::lock_guard lock(mutex_);
        if (auto it = remote_.find(key); it != remote_.end()) {
            old = it->second.proxy;
            remote_.erase(it);
        }
    }
    if (old) h->on_leave(*at, old.get());  // joined again (its node lost Redis, or re-routed)
    // Games follow their players (redis_follow.cpp): a game no connection of this node
    // follows goes to the joining one's node, which is told "moved" once it may take it.
    {
        // On its way to another node: told where it went once it is there (finish_hand_overs).
        constexpr std::size_t MaxWaiting = 10'000;
        std::lock_guard lock(mutex_);
        if (auto it = handing_.find(at->id); it != handing_.end()) {
            if (it->second.waiting.size() < MaxWaiting) it->second.waiting.emplace(e.node, e.conn);
            return;
        }
    }
    if (hands_over(e, *at)) return;
    auto proxy = std::make_shared<Proxy>(*this, e.node, e.conn, e.account);
    std::optional<Account> account;
    if (e.account > 0) {
        account.emplace();
        account->id = e.account;
        account->name = e.account_name;
    }
    auto seat = h->on_join(*at, proxy, Credentials{e.token, account ? &*account : nullptr, e.client});
    if (seat) {
        std::lock_guard lock(mutex_);
        remote_[key] = Remote{proxy, *at, *seat};
        return;
    }
    Envelope answer;
    answer.conn = e.conn;
    answer.address = e.address;
    if (seat.error().code == "unavailable") {
        answer.kind = Envelope::Kind::MOVED;  // not run here: its node finds who runs it
    } else {
        answer.kind = Envelope::Kind::OUT;
        answer.text = error_json(seat.error());
    }
    post(e.node, answer);
}

void RedisBus::remote_message(const Envelope& e) {
    std::optional<Remote> r;
    {
        std::lock_guard lock(mutex_);
        if (auto it = remote_.find({e.node, e.conn}); it != remote_.end()) r = it->second;
    }
    std::string handed_to;  // on its way to that node (redis_follow.cpp)
    if (auto at = Address::parse(e.address)) {
        std::lock_guard lock(mutex_);
        if (auto it = handing_.find(at->id); it != handing_.end()) handed_to = it->second.to;
    }
    if (!r || r->at.text() != e.address || !handed_to.empty()) {
        // Not joined here (the game left this node, is on its way to another, or this
        // node restarted): its node finds where the game runs, joins there and sends
        // this message there (it is answered with it, not played here nor lost).
        Envelope answer;
        answer.kind = Envelope::Kind::MOVED;
        answer.conn = e.conn;
        answer.address = e.address;
        answer.text = e.text;
        answer.to = handed_to;
        return post(e.node, answer);
    }
    BusHandler* h = handler(r->at.topic);
    if (!h) return;
    if (r->at.topic != Topic::GAME) return h->on_message(ClientIn{r->at, *r->proxy, r->seat, e.text, nullptr, e.lag_ms});
    auto message = read_client_message(e.text);
    if (!message) return r->proxy->deliver(std::make_shared<const std::string>(error_json(message.error())));
    h->on_message(ClientIn{r->at, *r->proxy, r->seat, e.text, &*message, e.lag_ms});
}

void RedisBus::remote_leave(const Envelope& e) {
    std::optional<Remote> r;
    {
        std::lock_guard lock(mutex_);
        if (auto it = remote_.find({e.node, e.conn}); it != remote_.end()) {
            r = std::move(it->second);
            remote_.erase(it);
        }
    }
    if (!r) return;
    if (BusHandler* h = handler(r->at.topic)) h->on_leave(r->at, r->proxy.get());
}

void RedisBus::deliver_out(const Envelope& e) {
    std::vector<std::shared_ptr<Subscriber>> to;
    {
        std::lock_guard lock(mutex_);
        const auto find = [&](std::uint64_t conn) {
            auto c = by_conn_.find(conn);
            if (c == by_conn_.end()) return;  // left meanwhile
            auto it = follows_.find(c->second);
            if (it == follows_.end()) return;
            if (auto who = it->second.who.lock()) to.push_back(std::move(who));
        };
        find(e.conn);
        for (std::uint64_t conn : e.also) find(conn);
    }
    if (to.empty()) return;
    auto text = std::make_shared<const std::string>(e.text);
    for (const auto& who : to) who->deliver(text);
}

void RedisBus::moved(const Envelope& e) {
    constexpr std::size_t MaxHeld = MaxHeldMessages;  // as hold()
    std::shared_ptr<Subscriber> here;    // joined here meanwhile: its message is played here
    std::shared_ptr<Subscriber> full;    // its held messages are too many: this one is refused
    Address at;
    {
        std::lock_guard lock(mutex_);
        // Handed here (games follow their players) for a connection that has left it
        // since: this node runs the game all the same, or no node would (step 3 of
        // redis_follow.cpp released its lease), its clocks stopped until someone asked.
        const auto orphan = [&] {
            if (e.to != node() || !e.text.empty()) return;
            if (auto a = Address::parse(e.address); a && a->topic == Topic::GAME) {
                orphans_.push_back(a->id);
                poke();
            }
        };
        auto c = by_conn_.find(e.conn);
        if (c == by_conn_.end()) return orphan();
        auto it = follows_.find(c->second);
        if (it == follows_.end() || it->second.at.text() != e.address) return orphan();
        Follow& f = it->second;
        // Games follow their players: handed here (it may be joined here already, the
        // watcher having found the lease free first): not moved again for a while.
        if (e.to == node() && e.text.empty()) moved_recently(f.at.id);
        if (f.owner == node()) {
            if (e.text.empty()) return;
            here = f.who.lock();
            at = f.at;
        } else {
            if (!e.text.empty()) {
                if (f.held.size() < MaxHeld) f.held.push_back(e.text);
                else full = f.who.lock();
            }
            f.hint = e.to == node() ? "" : e.to;
            f.owner.clear();
            if (e.text.empty()) {
                f.coming = {};  // it got where it went (or no node runs it): found now
            } else if (!e.to.empty()) {
                // A message that came back while its game is being handed on waits, with
                // the ones that come back behind it, for the moved message that says the
                // game got there (no poke: the watcher would find it still on its way).
                if (f.coming == std::chrono::steady_clock::time_point{}) f.coming = std::chrono::steady_clock::now();
                return;
            }
        }
    }
    if (full)  // more than a player sends while a game changes hands: said, not lost silently
        return full->deliver(std::make_shared<const std::string>(
            error_json({"unavailable", e.address + " is moving to another node: send it again in a moment", 503})));
    if (here) return send(at, *here, e.text);
    poke();
}

}  // namespace outpost::server::redis
