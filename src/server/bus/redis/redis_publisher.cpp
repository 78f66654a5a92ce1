// Outpost — what this node publishes to the others (redis_bus.h): one thread sends every
// message in the order posted, one PUBLISH each (a text for several connections of one
// node, posted one after the other, is one message); a client's message that reached nobody
// (its node died) is held for its connection, a game's report for the next domains node,
// and a node that nobody listens for any more is forgotten.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/bus/redis/redis_bus.h"

#include <set>
#include <tuple>

#include "server/bus/redis/redis_bus_proxy.h"
#include "server/bus/redis/redis_http.h"
#include "server/observe/log.h"

namespace outpost::server::redis {

namespace {

// At most this many messages wait for the publisher; beyond, they are dropped (and
// said): a Redis that is away must not grow a node's memory without bound.
constexpr std::size_t MaxWaiting = 200'000;

}  // namespace

void RedisBus::post(const std::string& to_node, const Envelope& e, std::uint64_t report_seq) {
    std::string payload = encode(e);
    {
        std::lock_guard lock(out_mutex_);
        if (stopping_) return;
        if (out_.size() >= MaxWaiting) {
            refused_.fetch_add(1);
            return;
        }
        Out o;
        o.channel = channel_of(to_node);
        o.payload = std::move(payload);
        if (e.kind == Envelope::Kind::MESSAGE && e.node == node()) o.conn = e.conn, o.text = e.text;
        if (e.kind == Envelope::Kind::REPORT) o.report = e.text, o.report_seq = report_seq;
        out_.push_back(std::move(o));
    }
    out_wake_.notify_one();
}

void RedisBus::post_out(const std::string& to_node, std::uint64_t conn, std::shared_ptr<const std::string> text) {
    std::string channel = channel_of(to_node);
    {
        std::lock_guard lock(out_mutex_);
        if (stopping_) return;
        // Joined to a message for the same node among the last ones waiting, all of this
        // same text (the hub gives it its followers one after the other, those of other
        // nodes in between): joined to one further back, it could overtake what this
        // connection was sent meanwhile.
        for (auto it = out_.rbegin(); it != out_.rend() && it->out_text == text; ++it) {
            if (it->channel == channel && it->out_conns.size() <= MaxAlsoConnections) {
                it->out_conns.push_back(conn);
                return;
            }
        }
        if (out_.size() >= MaxWaiting) {
            refused_.fetch_add(1);
            return;
        }
        Out o;
        o.channel = std::move(channel);
        o.out_text = std::move(text);
        o.out_conns.push_back(conn);
        out_.push_back(std::move(o));
    }
    out_wake_.notify_one();
}

void RedisBus::publisher() {
    std::deque<Out> batch;
    std::uint64_t failed = 0;
    for (;;) {
        {
            std::unique_lock lock(out_mutex_);
            out_wake_.wait(lock, [this] { return stopping_ || !out_.empty(); });
            if (stopping_ && out_.empty()) return;
            batch.swap(out_);
        }
        for (Out& o : batch) {  // the hub's texts, written out of the lock
            if (!o.out_text) continue;
            Envelope e;
            e.kind = Envelope::Kind::OUT;
            e.conn = o.out_conns.front();
            e.also.assign(o.out_conns.begin() + 1, o.out_conns.end());
            e.text = *o.out_text;
            o.payload = encode(e);
        }
        std::set<std::string> gone;  // nodes nobody listens for any more
        std::vector<std::pair<std::uint64_t, std::string>> unread;  // clients' messages that reached nobody
        std::vector<std::tuple<std::string, std::uint64_t, std::string>> unreported;  // games' reports no domains node got: node, number, report
        // Pipelined (one round trip a chunk): a busy node's reports and answers cost Redis
        // one read and one write for many, not one each.
        constexpr std::size_t Chunk = 256;
        std::vector<Result<long long>> results;
        results.reserve(batch.size());
        {
            std::vector<std::pair<std::string_view, std::string_view>> messages;
            for (std::size_t i = 0; i < batch.size(); i += Chunk) {
                messages.clear();
                for (std::size_t j = i; j < std::min(batch.size(), i + Chunk); ++j)
                    messages.emplace_back(batch[j].channel, batch[j].payload);
                for (auto& r : publish_all(publish_client_, messages)) results.push_back(std::move(r));
            }
        }
        for (std::size_t i = 0; i < batch.size(); ++i) {
            const Out& o = batch[i];
            const Result<long long>& r = results[i];
            if (!r && failed++ % 1000 == 0)
                log_event(LogLevel::WARN, "bus: a message between nodes was lost (Redis away)",
                          {{"error", r.error().message}, {"lost", std::int64_t(failed)}});
            if (o.http_call && (!r || *r == 0)) http_unreached(o.http_call);
            if (r && *r == 0) {
                gone.insert(o.channel.substr(channel_of("").size()));
                if (o.conn) unread.emplace_back(o.conn, o.text);
                if (!o.report.empty()) unreported.emplace_back(o.channel.substr(channel_of("").size()), o.report_seq, o.report);
            }
            if (!r && !o.report.empty()) unreported.emplace_back(o.channel.substr(channel_of("").size()), o.report_seq, o.report);
        }
        batch.clear();
        for (const std::string& n : gone) forget_node(n);
        // A connection's message to a node that is gone: held until the game runs again
        // somewhere (a player's move is not lost with the node that was to receive it).
        for (const auto& [conn, text] : unread) (void)hold(conn, nullptr, text);
        // A game's report that reached no domains node (it died, or Redis was away):
        // kept for the next one, which the watcher finds.
        for (auto& [to, seq, report] : unreported) report_unreached(to, seq, std::move(report));
    }
}

void RedisBus::forget_node(const std::string& gone) {
    // Its connections no longer follow the games here (their presence, the hub's
    // followers); were it only cut off from Redis, it joins them again when it is back.
    std::vector<Remote> left;
    {
        std::lock_guard lock(mutex_);
        for (auto it = remote_.begin(); it != remote_.end();) {
            if (it->first.first == gone) {
                left.push_back(std::move(it->second));
                it = remote_.erase(it);
            } else {
                ++it;
            }
        }
    }
    if (left.empty()) return;
    log_event(LogLevel::WARN, "bus: a node is gone; its connections leave this node's games",
              {{"node", gone}, {"connections", std::int64_t(left.size())}});
    for (const Remote& r : left)
        if (BusHandler* h = handler(r.at.topic)) h->on_leave(r.at, r.proxy.get());
}

}  // namespace outpost::server::redis
