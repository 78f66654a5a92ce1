// Outpost — the bus of several nodes on one Redis (issue 26, docs/scaling.md): any node
// serves any game; the node that holds a game's lease runs it, and the others forward
// their connections' joins, messages and leaves to it.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A connection on node B to a game that node A runs: B publishes the join (with the
// credentials), each message and the leave on A's channel `PREFIX node:A`, as
// Envelopes (bus_envelope.h). A joins a proxy Subscriber to its hub for it, whose
// deliveries A publishes on B's channel, tagged with the connection's number; B hands
// them to the connection. Each node publishes from one thread on one connection, and
// Redis keeps the order of one publisher's messages: the hub's order (an acknowledgement
// after its move is durable, never overtaken) holds across nodes. A remote join
// answers its seat later: the first state (or an error) comes through the proxy.
//
// Who runs a game: the lease (redis_lease.h), taken by the hub through take_game()
// when it makes a game or reads one from storage, renewed by the LeaseKeeper. A node
// watches the games its connections follow elsewhere (every `watch_every`): when the
// owner's lease is gone (it died, or released it on SIGTERM) the follower's node
// takes the game from the database and joins its connections again; when another node
// holds it, they join there. A lease this node lost makes the hub drop the room; its
// followers are joined again wherever it runs now. The lobby, events and simuls run on
// one node at a time, the holder of the lease `domains` (redis_domains.cpp).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <unordered_map>

#include "server/bus/cluster_bus.h"
#include "server/bus/redis/bus_envelope.h"
#include "server/bus/redis/lease_keeper.h"
#include "server/bus/redis/redis_channels.h"

namespace outpost::server::redis {

struct HttpCalls;

class RedisBus final : public ClusterBus {
public:
    struct Options {
        Endpoint where;
        std::string node;
        std::string prefix = "outpost:";
        std::chrono::milliseconds lease{3000};         // renewed every third of it
        std::chrono::milliseconds finished_lease{60000};  // a finished game's, likewise
        std::chrono::milliseconds watch_every{250};    // the followers' check of their games' owners
        std::chrono::milliseconds redis_timeout{500};  // the longest a caller waits for Redis
        // Games follow their players (redis_follow.cpp): a game with no connection of
        // this node moves to the node of a connection that joins it from there, at most
        // once per `follow_pause` a game (on each of the two nodes).
        bool follow_players = true;
        std::chrono::milliseconds follow_pause{10000};
    };
    // Connects and subscribes to this node's channel; an unreachable Redis is an error.
    static Result<std::unique_ptr<RedisBus>> open(Options options);
    ~RedisBus() override;

    void serve(Topic topic, BusHandler* owner) override;
    Answer<Seat> join(const Address& at, const std::shared_ptr<Subscriber>& who, const Credentials& c) override;
    void send(const Address& at, Subscriber& from, std::string_view text, Millis lag_ms = 0) override;
    void leave(const Address& at, const Subscriber* who) override;

    void attach_games(DropGame drop, LiveGames live) override;
    void attach_hand_over(HandOverGame hand_over) override;
    void attach_take_over(TakeGame take) override;
    std::optional<std::int64_t> take_game(const std::string& game, std::int64_t stored_fence) override;
    std::string node_of(const std::string& game) override;
    void game_ended(const std::string& game) override;
    void game_forgotten(const std::string& game) override;
    std::string domains_node() override;  // redis_domains.cpp
    bool runs_domains() override;
    void run_domains(DomainsChanged changed) override;
    void fence_domains(ClaimFence claim) override;
    std::int64_t domains_token() override;
    void report_to_domains(std::string json) override;
    void receive_reports(DomainsReport deliver) override;
    void hand_over() override;
    void stop() override;
    const std::string& node() const override { return options_.node; }
    HttpResponse forward_http(const std::string& node, const HttpRequest& request,
                              std::chrono::milliseconds timeout) override;  // redis_http.cpp
    void answer_http(HttpAnswerer answerer) override;

    // For tests and metrics.
    std::uint64_t refused_messages() const { return refused_.load(); }
    std::uint64_t games_moved_away() const { return moved_away_.load(); }  // handed to their players' node
    std::size_t leases_held() const { return keeper_->size(); }
    std::size_t leases_parked() const { return keeper_->parked_size(); }
    std::uint64_t reports_dropped() const { return reports_dropped_.load(); }

private:
    explicit RedisBus(Options options);
    class Proxy;
    // A connection of this node following an address.
    struct Follow {
        std::weak_ptr<Subscriber> who;
        Address at;
        std::string token;
        std::optional<Account> account;
        std::string client;
        std::uint64_t conn = 0;
        std::string owner;  // the node that runs its game as last known ("": to find)
        Seat seat = Seat::SPECTATOR;
        bool joining = false;  // being joined to this node's hub (route()): its seat comes
        bool finding = true;   // join() is finding its owner: not the watcher's yet
        // Its messages sent while its game changes hands (its node died: what was sent
        // there reached nobody), sent again once it is joined where the game runs now.
        std::vector<std::string> held;
        bool flushing = false;  // a thread is sending `held` (send_held): new ones queue behind
        std::string hint;  // where its game is being handed (a moved message said), tried first
        // Set when a message came back because its game is being handed to `hint` (or
        // here): the watcher waits for the moved message that says it got there before it
        // sends them again (sent back earlier, they would come back behind later ones).
        // Waited for one lease at most (the node handing it may die).
        std::chrono::steady_clock::time_point coming{};
    };
    // A game this node is handing to the node its players are on (redis_follow.cpp).
    struct Handing {
        std::string to;          // the joining connection's node
        std::uint64_t conn = 0;  // ... and its number there
        std::vector<std::shared_ptr<Subscriber>> followers;
        std::set<std::pair<std::string, std::uint64_t>> waiting;  // other joins meanwhile (node, connection)
        bool dropped = false, durable = false;  // both: the watcher finishes it
    };
    // A message on its way to another node's channel; a client's message (conn != 0)
    // that reaches nobody there is held for its connection (Follow::held).
    struct Out {
        std::string channel, payload;
        std::uint64_t conn = 0;
        std::string text;
        std::uint64_t http_call = 0;  // a forwarded HTTP request: answered 503 when it reaches nobody
        std::string report;           // a game's report: kept for the next domains node when it reaches nobody
        std::uint64_t report_seq = 0;  // ... in the place of its number
        // A text of the hub's for connections of one node (post_out): encoded by the
        // publisher, as one OUT message for them all.
        std::shared_ptr<const std::string> out_text;
        std::vector<std::uint64_t> out_conns;
    };
    using FollowKey = std::pair<const Subscriber*, Address>;
    struct FollowKeyHash {
        std::size_t operator()(const FollowKey& k) const noexcept {
            const std::size_t h = std::hash<const Subscriber*>{}(k.first) ^ (std::size_t(k.second.topic) << 1);
            return h ^ (std::hash<std::string>{}(k.second.id) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
        }
    };
    // A connection of another node following a game run here.
    struct Remote {
        std::shared_ptr<Proxy> proxy;
        Address at;
        Seat seat = Seat::SPECTATOR;
    };

    std::string channel_of(const std::string& node) const { return options_.prefix + "node:" + node; }
    // The node that runs a game now: this one when it holds the lease or nobody does
    // (the hub then takes it); none when Redis cannot be reached.
    std::optional<std::string> owner_of(const std::string& game);
    // The node that serves an address now: a game's as above; the lobby's, an event's
    // and a simul's is the domains node ("": none now, the follow waits for one).
    std::optional<std::string> owner_at(const Address& at);
    // Joins a follow of a game where its game runs now; false when it must wait (the
    // game is changing hands, Redis is away).
    bool route(const FollowKey& key);
    // In order, never blocking. A game's report carries its number (report_to_domains):
    // one that reaches nobody waits again in its place among the others.
    void post(const std::string& node, const Envelope& e, std::uint64_t report_seq = 0);
    // A text for a connection of `node` (Proxy::deliver). The same text for another of
    // its connections, while it still waits among the last ones posted, joins the same
    // message: a move to a game's followers on that node is one PUBLISH, however many
    // they are (Envelope::also).
    void post_out(const std::string& node, std::uint64_t conn, std::shared_ptr<const std::string> text);
    void publisher();
    void watcher();
    void poke();
    void forget_node(const std::string& gone);  // nobody listens on its channel
    // Holds a connection's message for the game's next node; false when it holds enough.
    bool hold(std::uint64_t conn, const FollowKey* key, const std::string& text);
    void send_held(const FollowKey& key);
    // send() past the held messages' queue: the message as it is routed now.
    void send_now(const Address& at, Subscriber& from, std::string_view text, Millis lag_ms = 0);
    static constexpr std::size_t MaxHeldMessages = 16;  // a connection's, while its game changes hands  // once joined where the game runs now
    void on_node_message(const std::string& payload);  // redis_bus_remote.cpp
    void on_link(bool up);
    void on_http_message(const std::string& payload);  // redis_http.cpp
    void http_unreached(std::uint64_t call);
    void stop_http_calls();
    void on_lease_lost(const std::string& game);
    // `to`: the node the game is handed to, if known (the moved message says it).
    void release_followers(const std::string& game, const std::vector<std::shared_ptr<Subscriber>>& followers,
                           const std::string& to = "");
    void remote_join(const Envelope& e);
    void remote_message(const Envelope& e);
    void remote_leave(const Envelope& e);
    void deliver_out(const Envelope& e);
    void moved(const Envelope& e);
    BusHandler* handler(Topic t) const;
    // The watcher's turn for the domains lease: taken when free (a candidate node only),
    // and the edge told when this node gains or loses it (redis_domains.cpp).
    void domains_tick();
    // This node no longer runs the domains: the connections following the lobby and the
    // simuls here (its own and other nodes') leave them and look for the new node.
    void domains_lost();
    void hand_over_domains();  // SIGTERM: the lease released, its followers told
    void report_in(const Envelope& e);
    // redis_follow.cpp: whether a remote join moves its game here to there, and the steps.
    bool hands_over(const Envelope& join, const Address& at);
    void finish_hand_overs();                       // on the watcher's thread
    void take_orphans();                            // on the watcher's thread
    bool handing(const std::string& game) const;  // or handed away a moment ago
    void moved_recently(const std::string& game);   // under mutex_
    // The owners of many games in one round trip (this node for a game nobody holds);
    // none when Redis cannot be reached.
    std::optional<std::map<std::string, std::string>> owners_of(const std::vector<std::string>& games);

    Options options_;
    RedisClient lease_client_, lookup_client_, publish_client_;
    LeaseTable leases_, lookups_;
    std::unique_ptr<LeaseKeeper> keeper_;
    std::mutex keeper_gone_;  // held by stop() as it resets keeper_, and by domains_token()
    DropGame drop_;
    LiveGames live_;
    HandOverGame hand_over_;
    TakeGame take_over_;

    mutable std::mutex mutex_;
    // Held while a follow is joined to this node's hub again (route()): a message of that
    // connection waits for its seat rather than overtaking the join (its first state
    // may reach the client before on_join returns).
    std::mutex joining_;
    BusHandler* owners_[TopicCount] = {};
    // Found with each message a connection sends (send()): hashed, not a tree.
    std::unordered_map<FollowKey, Follow, FollowKeyHash> follows_;
    std::unordered_map<std::uint64_t, FollowKey> by_conn_;
    std::map<std::pair<std::string, std::uint64_t>, Remote> remote_;
    std::uint64_t next_conn_ = 0;
    std::map<std::string, Handing> handing_;  // games on their way to another node
    // When each game last moved here or from here (follow_pause), pruned by the watcher.
    std::unordered_map<std::string, std::chrono::steady_clock::time_point> recent_moves_;
    std::vector<std::string> finishing_;      // handing_ ready for the watcher
    // Games handed here for a connection that left meanwhile: the watcher has the hub
    // take them, or they would run on no node until someone asked for them.
    std::vector<std::string> orphans_;
    // Games handed to another node, for a lease's time: not taken back here meanwhile
    // (a join that reaches this node before the other took the lease would else take it
    // back; were that node dead, the lease's expiry would take as long).
    std::unordered_map<std::string, std::chrono::steady_clock::time_point> handed_away_;
    std::atomic<std::uint64_t> moved_away_{0};

    std::mutex out_mutex_;
    std::condition_variable out_wake_;
    std::deque<Out> out_;
    std::mutex watch_mutex_;
    std::condition_variable watch_wake_;
    bool stopping_ = false;
    bool poked_ = false;  // the watcher looks now (a game moved), not at its next turn
    std::atomic<bool> linked_before_{false};
    // SIGTERM: every game handed over; none taken again here (this node's own
    // connections would else take their games back from it while it stops).
    std::atomic<bool> leaving_{false};
    DomainsChanged domains_changed_;            // set once, before domains_candidate_
    ClaimFence claim_fence_;                    // likewise
    // The grant's token this node runs the domains under (claimed in the database).
    std::optional<std::int64_t> taken_domains_fence(const Lease& grant);
    std::atomic<bool> domains_candidate_{false};
    std::atomic<bool> runs_domains_{false};     // as last told to the edge
    DomainsReport reports_;                     // set before serving
    std::mutex domains_mutex_;
    std::string domains_known_;                 // the domains node at the watcher's last turn
    std::atomic<std::uint64_t> reports_dropped_{0};
    // Reports made while no node ran the domains, or sent to one that was gone: sent
    // when a domains node is known again (the watcher), the oldest dropped past a bound.
    // Each with its number, in the order made: a report that comes back from the
    // publisher (it reached nobody) goes back in its place, before those made after it.
    struct WaitingReport {
        std::uint64_t seq = 0;
        std::string json;
    };
    std::deque<WaitingReport> waiting_reports_;  // under domains_mutex_
    std::uint64_t next_report_seq_ = 0;          // likewise
    std::string reports_unreached_;            // the node the last unreached report was for, and when
    std::chrono::steady_clock::time_point reports_unreached_at_;
    bool send_report_locked(const std::string& json, std::uint64_t seq);  // false: no domains node to send it to now
    void keep_report_locked(std::uint64_t seq, std::string json);
    void report_unreached(const std::string& to, std::uint64_t seq, std::string json);  // the publisher's
    void send_waiting_reports();                                     // the watcher's
    std::atomic<std::uint64_t> refused_{0};
    std::shared_ptr<HttpCalls> http_;  // redis_http.h
    std::thread publisher_, watcher_;
    std::unique_ptr<RedisSubscriber> subscriber_;  // last: its thread calls the above
};

}  // namespace outpost::server::redis
