// Outpost — the bus of several nodes on one Redis (redis_bus.h): this node's
// connections, routed to wherever their game runs, and the watcher of the games followed
// elsewhere. The other nodes' messages are read in redis_bus_remote.cpp, published in
// redis_publisher.cpp; this node's leases are kept in redis_leases_held.cpp.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/bus/redis/redis_bus.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>

#include "server/bus/redis/redis_bus_proxy.h"
#include "server/bus/redis/redis_http.h"
#include "server/observe/log.h"

namespace outpost::server::redis {

namespace {

ProtocolError no_address(const Address& at) { return {"not_found", "no such address: " + at.text(), 404}; }
ProtocolError bus_away() {
    return {"unavailable", "the bus between the nodes cannot be reached; try again in a few seconds", 503};
}
}  // namespace

RedisBus::RedisBus(Options options)
    : options_(std::move(options)),
      lease_client_(options_.where, options_.redis_timeout),
      lookup_client_(options_.where, options_.redis_timeout),
      publish_client_(options_.where, options_.redis_timeout),
      leases_(lease_client_, options_.node, options_.prefix),
      lookups_(lookup_client_, options_.node, options_.prefix),
      http_(std::make_shared<HttpCalls>()) {}

Result<std::unique_ptr<RedisBus>> RedisBus::open(Options options) {
    if (!LeaseTable::valid_node_name(options.node)) return make_error("--node: 1 to 64 of A-Z a-z 0-9 . _ -");
    std::unique_ptr<RedisBus> bus(new RedisBus(std::move(options)));
    RedisBus* b = bus.get();
    const std::string where = b->options_.where.text();
    for (RedisClient* c : {&b->lease_client_, &b->lookup_client_, &b->publish_client_})
        if (auto ok = c->connect(); !ok) return make_error("the bus at " + where + ": " + ok.error().message);
    b->keeper_ = std::make_unique<LeaseKeeper>(b->leases_, b->options_.lease,
                                               [b](const std::string& game) { b->on_lease_lost(game); },
                                               b->options_.finished_lease);
    b->publisher_ = std::thread([b] { b->publisher(); });
    b->watcher_ = std::thread([b] { b->watcher(); });
    b->subscriber_ = std::make_unique<RedisSubscriber>(
        b->options_.where, [b](const std::string&, const std::string& payload) { b->on_node_message(payload); },
        [b](bool up) { b->on_link(up); });
    b->subscriber_->subscribe(b->channel_of(b->node()));
    if (!b->subscriber_->wait_subscribed(std::chrono::seconds(3)))
        return make_error("the bus at " + where + ": could not subscribe to this node's channel");
    return bus;
}

RedisBus::~RedisBus() { stop(); }

void RedisBus::stop() {
    {
        std::scoped_lock lock(out_mutex_, watch_mutex_);
        if (stopping_ && !publisher_.joinable()) return;
        stopping_ = true;
    }
    out_wake_.notify_all();
    watch_wake_.notify_all();
    stop_http_calls();
    subscriber_.reset();
    if (watcher_.joinable()) watcher_.join();
    if (publisher_.joinable()) publisher_.join();
    std::lock_guard keeper(keeper_gone_);  // domains_token() is called from the stores' threads
    keeper_.reset();  // leases not handed over run out by themselves
}

void RedisBus::serve(Topic topic, BusHandler* owner) {
    std::lock_guard lock(mutex_);
    owners_[int(topic)] = owner;
}

BusHandler* RedisBus::handler(Topic t) const {
    std::lock_guard lock(mutex_);
    return int(t) < TopicCount ? owners_[int(t)] : nullptr;
}

void RedisBus::attach_games(DropGame drop, LiveGames live) {
    drop_ = std::move(drop);
    live_ = std::move(live);
}

std::optional<std::string> RedisBus::owner_of(const std::string& game) {
    if (!game.empty() && game[0] == '@') return std::nullopt;  // not a game's lease
    if (keeper_ && keeper_->held(game)) return node();
    auto h = lookups_.holder(game);
    if (!h) return std::nullopt;
    if (!*h) return node();  // nobody runs it: the hub here takes it
    return (*h)->node;
}

std::string RedisBus::node_of(const std::string& game) {
    if (!game.empty() && game[0] == '@') return {};
    if (keeper_ && keeper_->held(game)) return node();
    auto h = lookups_.holder(game);
    return h && *h ? (*h)->node : std::string();
}

Answer<Seat> RedisBus::join(const Address& at, const std::shared_ptr<Subscriber>& who, const Credentials& c) {
    BusHandler* h = handler(at.topic);
    if (!h || (at.topic == Topic::LOBBY && !at.id.empty())) return no_address(at);
    // A lease's name that is not a game's (redis_lease.h: DomainsLease) is no game.
    if (at.topic == Topic::GAME && (at.id.empty() || at.id[0] == '@')) return no_address(at);
    const FollowKey key{who.get(), at};
    Follow f;
    f.who = who;
    f.at = at;
    f.token = std::string(c.token);
    if (c.account) f.account = *c.account;
    f.client = c.client;
    {
        std::lock_guard lock(mutex_);
        f.conn = ++next_conn_;
        by_conn_[f.conn] = key;
        follows_[key] = f;
    }
    const auto forget = [this, &key, conn = f.conn] {
        std::lock_guard lock(mutex_);
        follows_.erase(key);
        by_conn_.erase(conn);
    };
    // Found by the watcher only once this is done (else both would join it there).
    struct Found {
        RedisBus& bus;
        const FollowKey& key;
        ~Found() {
            std::lock_guard lock(bus.mutex_);
            if (auto it = bus.follows_.find(key); it != bus.follows_.end()) it->second.finding = false;
        }
    } found{*this, key};
    auto owner = owner_at(at);
    if (!owner) {
        forget();
        return bus_away();
    }
    if (owner->empty()) return Seat::SPECTATOR;  // no domains node now: joined by the watcher once there is
    if (*owner == node()) {
        auto seat = h->on_join(at, who, c);
        if (seat) {
            std::lock_guard lock(mutex_);
            if (auto it = follows_.find(key); it != follows_.end()) it->second.owner = node(), it->second.seat = *seat;
            return seat;
        }
        if (seat.error().code != "unavailable") {
            forget();
            return seat;
        }
        // Another node took it meanwhile: joined there, or by the watcher in a moment.
        owner = owner_at(at);
        if (!owner || owner->empty() || *owner == node()) return Seat::SPECTATOR;
    }
    Envelope e;
    e.kind = Envelope::Kind::JOIN;
    e.node = node();
    e.conn = f.conn;
    e.address = at.text();
    e.token = f.token;
    e.account = f.account ? f.account->id : 0;
    e.account_name = f.account ? f.account->name : "";
    e.client = f.client;
    {
        std::lock_guard lock(mutex_);
        if (auto it = follows_.find(key); it != follows_.end()) it->second.owner = *owner;
    }
    post(*owner, e);
    return Seat::SPECTATOR;  // the owner answers the seat with the first state
}

bool RedisBus::route(const FollowKey& key) {
    Follow f;
    {
        std::lock_guard lock(mutex_);
        auto it = follows_.find(key);
        if (it == follows_.end()) return true;
        f = it->second;
    }
    auto who = f.who.lock();
    if (!who) return true;  // gone; its leave is on its way
    // Where a moved message said the game goes, before asking Redis (a node that does
    // not run it after all answers moved again).
    auto owner = !f.hint.empty() ? std::optional<std::string>(f.hint) : owner_at(f.at);
    if (!f.hint.empty()) {
        std::lock_guard lock(mutex_);
        if (auto it = follows_.find(key); it != follows_.end()) it->second.hint.clear();
    }
    if (!owner || owner->empty()) return false;
    if (*owner == node()) {
        BusHandler* h = handler(f.at.topic);
        if (!h) return true;
        std::lock_guard joining(joining_);
        {
            std::lock_guard lock(mutex_);
            auto it = follows_.find(key);
            if (it == follows_.end()) return true;
            it->second.joining = true;
        }
        auto seat = h->on_join(f.at, who, Credentials{f.token, f.account ? &*f.account : nullptr, f.client});
        const bool wait = !seat && seat.error().code == "unavailable";
        if (!seat && !wait) who->deliver(std::make_shared<const std::string>(error_json(seat.error())));
        {
            std::lock_guard lock(mutex_);
            if (auto it = follows_.find(key); it != follows_.end()) {
                it->second.joining = false;
                if (!wait) it->second.owner = node(), it->second.seat = seat ? *seat : Seat::SPECTATOR;
            }
        }
        if (!wait) send_held(key);
        return !wait;
    }
    Envelope e;
    e.kind = Envelope::Kind::JOIN;
    e.node = node();
    e.conn = f.conn;
    e.address = f.at.text();
    e.token = f.token;
    e.account = f.account ? f.account->id : 0;
    e.account_name = f.account ? f.account->name : "";
    e.client = f.client;
    {
        std::lock_guard lock(mutex_);
        auto it = follows_.find(key);
        if (it == follows_.end()) return true;
        it->second.owner = *owner;
    }
    post(*owner, e);
    send_held(key);  // after the join, in the same order on the owner's channel
    return true;
}

void RedisBus::send(const Address& at, Subscriber& from, std::string_view text, Millis lag_ms) {
    // Messages of this connection held while its game changed hands are on their way
    // (send_held): this one goes after them, never before.
    bool queued = false;
    {
        std::lock_guard lock(mutex_);
        auto it = follows_.find({&from, at});
        if (it != follows_.end() && !it->second.owner.empty() && (it->second.flushing || !it->second.held.empty()) &&
            it->second.held.size() < MaxHeldMessages) {
            it->second.held.push_back(std::string(text.substr(0, MaxForwardedMessage)));
            queued = true;
        }
    }
    if (queued) return send_held({&from, at});
    send_now(at, from, text, lag_ms);
}

void RedisBus::send_now(const Address& at, Subscriber& from, std::string_view text, Millis lag_ms) {
    BusHandler* h = nullptr;
    // What a message needs of its follow, copied out of the lock (not the whole Follow:
    // its token, account and held messages would be copied with every move).
    struct Sending {
        Seat seat = Seat::SPECTATOR;
        std::uint64_t conn = 0;
        std::string owner;
        bool joining = false;
    };
    std::optional<Sending> f;
    const FollowKey key{&from, at};
    const auto read = [&] {
        f.reset();
        if (auto it = follows_.find(key); it != follows_.end())
            f = Sending{it->second.seat, it->second.conn, it->second.owner, it->second.joining};
    };
    {
        std::lock_guard lock(mutex_);
        h = int(at.topic) < TopicCount ? owners_[int(at.topic)] : nullptr;
        read();
    }
    if (f && f->joining) {  // joined to this node's hub this moment: after its seat
        std::lock_guard joining(joining_);
        std::lock_guard lock(mutex_);
        read();
    }
    const auto answer = [&from](const ProtocolError& e) { from.deliver(std::make_shared<const std::string>(error_json(e))); };
    if (!h) return answer(no_address(at));
    if (!f) return answer({"not_joined", "join " + at.text() + " before sending to it", 409});
    if (f->owner == node()) {
        if (at.topic != Topic::GAME) return h->on_message(ClientIn{at, from, f->seat, text, nullptr, lag_ms});
        auto message = read_client_message(text);
        if (!message) return answer(message.error());
        return h->on_message(ClientIn{at, from, f->seat, text, &*message, lag_ms});
    }
    if (f->owner.empty()) {
        if (hold(0, &key, std::string(text.substr(0, MaxForwardedMessage)))) return;
        return answer({"unavailable", at.text() + " is moving to another node: send it again in a moment", 503});
    }
    Envelope e;
    e.kind = Envelope::Kind::MESSAGE;
    e.node = node();
    e.conn = f->conn;
    e.address = at.text();
    e.text = std::string(text.substr(0, MaxForwardedMessage));
    e.lag_ms = std::clamp<Millis>(lag_ms, 0, 60'000);
    post(f->owner, e);
}

void RedisBus::leave(const Address& at, const Subscriber* who) {
    std::optional<Follow> f;
    {
        std::lock_guard lock(mutex_);
        auto it = follows_.find({who, at});
        if (it == follows_.end()) return;
        f = std::move(it->second);
        follows_.erase(it);
        if (f->conn) by_conn_.erase(f->conn);
    }
    BusHandler* h = handler(at.topic);
    if (f->owner == node()) {
        if (h) h->on_leave(at, who);
    } else if (!f->owner.empty()) {
        Envelope e;
        e.kind = Envelope::Kind::LEAVE;
        e.node = node();
        e.conn = f->conn;
        e.address = at.text();
        post(f->owner, e);
    }
}

bool RedisBus::hold(std::uint64_t conn, const FollowKey* key, const std::string& text) {
    constexpr std::size_t MaxHeld = MaxHeldMessages;
    {
        std::lock_guard lock(mutex_);
        auto it = follows_.end();
        if (key) {
            it = follows_.find(*key);
        } else if (auto c = by_conn_.find(conn); c != by_conn_.end()) {
            it = follows_.find(c->second);
        }
        if (it == follows_.end() || it->second.held.size() >= MaxHeld) return false;
        it->second.held.push_back(text);
        it->second.owner.clear();  // the watcher finds where it runs now, at its pace
    }
    return true;
}

void RedisBus::send_held(const FollowKey& key) {
    // One thread at a time sends a follow's held messages, until none is left: what
    // another thread adds meanwhile (send(), a moved message) goes out after them.
    bool sending = false;
    for (;;) {
        std::vector<std::string> held;
        Follow f;
        {
            std::lock_guard lock(mutex_);
            auto it = follows_.find(key);
            if (it == follows_.end()) return;
            if (it->second.flushing && !sending) return;  // the other thread sends these too
            if (it->second.owner.empty() || it->second.held.empty()) {
                it->second.flushing = false;
                return;
            }
            it->second.flushing = sending = true;
            held.swap(it->second.held);
            f = it->second;
        }
        auto who = f.who.lock();
        if (!who) {
            std::lock_guard lock(mutex_);
            if (auto it = follows_.find(key); it != follows_.end()) it->second.flushing = false;
            return;
        }
        for (const std::string& text : held) send_now(f.at, *who, text);
    }
}

void RedisBus::watcher() {
    for (;;) {
        {
            std::unique_lock lock(watch_mutex_);
            watch_wake_.wait_for(lock, options_.watch_every, [this] { return stopping_ || poked_; });
            if (stopping_) return;
            poked_ = false;
        }
        domains_tick();
        // The addresses followed elsewhere, and the follows waiting for an owner.
        std::map<Address, std::string> elsewhere;  // address -> the owner as known
        std::vector<FollowKey> todo;
        {
            std::lock_guard lock(mutex_);
            const auto now = std::chrono::steady_clock::now();
            for (auto& [key, f] : follows_) {
                if (f.owner == node() || f.finding) continue;
                if (f.owner.empty()) {
                    if (f.coming != std::chrono::steady_clock::time_point{}) {
                        if (now - f.coming < options_.lease) continue;  // its game is on its way (moved())
                        f.coming = {};
                    }
                    todo.push_back(key);
                } else {
                    elsewhere.emplace(f.at, f.owner);
                }
            }
        }
        finish_hand_overs();
        take_orphans();
        {
            std::lock_guard lock(mutex_);
            const auto now = std::chrono::steady_clock::now();
            std::erase_if(recent_moves_, [&](const auto& r) { return now - r.second >= options_.follow_pause; });
            std::erase_if(handed_away_, [&](const auto& r) { return now - r.second >= options_.lease; });
        }
        // Who runs them now: every game in one round trip, the domains lease once.
        std::set<Address> changed;
        std::vector<std::string> games;
        games.reserve(elsewhere.size());
        for (const auto& [at, known] : elsewhere)
            if (at.topic == Topic::GAME) games.push_back(at.id);
        std::optional<std::map<std::string, std::string>> owners;
        if (!games.empty()) owners = owners_of(games);
        std::optional<std::optional<std::string>> domains;  // asked once a turn
        for (const auto& [at, known] : elsewhere) {
            std::optional<std::string> now;
            if (at.topic == Topic::GAME) {
                if (!owners) continue;  // Redis away: asked again next turn
                if (auto it = owners->find(at.id); it != owners->end()) now = it->second;
            } else {
                if (!domains) domains = owner_at(at);
                now = *domains;
            }
            if (now && *now != known) changed.insert(at);
        }
        if (!changed.empty()) {
            std::lock_guard lock(mutex_);
            for (const auto& [key, f] : follows_)
                if (f.owner != node() && !f.owner.empty() && !f.finding && changed.count(f.at)) todo.push_back(key);
        }
        for (const FollowKey& key : todo) (void)route(key);
    }
}

void RedisBus::poke() {
    {
        std::lock_guard lock(watch_mutex_);
        poked_ = true;
    }
    watch_wake_.notify_all();
}

void RedisBus::on_link(bool up) {
    if (!up) return;
    if (!linked_before_.exchange(true)) return;  // the first link, at the start
    // Redis came back: what was published meanwhile is lost, so every connection
    // following a game elsewhere joins it again (its owner sends a whole state).
    {
        std::lock_guard lock(mutex_);
        for (auto& [key, f] : follows_)
            if (f.owner != node()) f.owner.clear();
    }
    poke();
    log_event(LogLevel::INFO, "bus: Redis is back; following games elsewhere again");
}

}  // namespace outpost::server::redis
