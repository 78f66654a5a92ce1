// Outpost — a bus shared by several nodes (issue 26, docs/scaling.md): what it adds to
// the Bus of one process. The edge and the executable see this interface only; its
// implementation on Redis (server/bus/redis/redis_bus.h) is chosen by the executable.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "server/bus/bus.h"
#include "server/common/http.h"

namespace outpost::server {

// A request forwarded to another node (forward_http) is bounded as the edge bounds its
// own (MaxHttpBody, checked there), and its answer names the node that served it in
// this header (X-Outpost-Node names the node the client talks to).
inline constexpr std::size_t MaxForwardedBody = 64 * 1024;
inline constexpr char ServedByHeader[] = "X-Outpost-Served-By";

class ClusterBus : public Bus {
public:
    // The owner of the games on this node (the hub): `drop` takes a game out of its
    // memory and answers the connections that followed it; `live` names its games.
    using DropGame = std::function<std::vector<std::shared_ptr<Subscriber>>(const std::string& game)>;
    using LiveGames = std::function<std::vector<std::string>()>;
    virtual void attach_games(DropGame drop, LiveGames live) = 0;
    // Games follow their players (docs/scaling.md): the hub hands one live game over to
    // another node: its clocks as they read now are written, the room leaves memory and
    // its followers are answered; `durable` runs (on the writer's thread, never blocking)
    // once everything written of the game is durable. None: not a live game here.
    using HandOverGame = std::function<std::optional<std::vector<std::shared_ptr<Subscriber>>>(
        const std::string& game, std::function<void()> durable)>;
    virtual void attach_hand_over(HandOverGame) {}
    // The hub runs game `game` here from now on, if no node runs it (its lease free): a
    // game handed to this node for a connection that left before it arrived.
    using TakeGame = std::function<void(const std::string& game)>;
    virtual void attach_take_over(TakeGame) {}
    // Before this node runs a game (HubEnv::take_game): its lease's fencing token, or
    // none when another node runs it (or the bus cannot be reached).
    virtual std::optional<std::int64_t> take_game(const std::string& game, std::int64_t stored_fence) = 0;
    // A game this node runs ended (its end is durable): its lease is kept at a slow
    // pace while the game stays in memory (a rematch offer reaches one room) ...
    virtual void game_ended(const std::string& game) = 0;
    // ... and released when the game leaves this node's memory. Neither blocks.
    virtual void game_forgotten(const std::string& game) = 0;
    // The node that runs a game now ("": nobody, or the bus cannot be reached).
    virtual std::string node_of(const std::string& game) = 0;
    // The node that runs the lobby, events, simuls and the analysis queue now ("": none
    // known, e.g. Redis away). Never blocks longer than the bus's Redis timeout.
    virtual std::string domains_node() = 0;
    // Whether this node runs them now.
    virtual bool runs_domains() = 0;
    // This node is a candidate for running them (one lease `domains` held by one node at
    // a time, with a fencing token): `changed(true)` when it gains the lease (the edge
    // loads events and simuls and starts their pulse), `changed(false)` when it loses it.
    // Called on one bus thread, in order; a node that never calls this never runs them.
    using DomainsChanged = std::function<void(bool runs)>;
    virtual void run_domains(DomainsChanged changed) = 0;
    // Fencing of the domains' writes (stores/domains_fence.h). `claim(token)` raises the
    // stored token to the new grant's before `changed(true)`, and answers the stored one
    // after (above the grant's when Redis restarted empty: the bus takes a higher one).
    // Set before run_domains.
    using ClaimFence = std::function<Result<std::int64_t>(std::int64_t token)>;
    virtual void fence_domains(ClaimFence claim) = 0;
    // The token the events' and simuls' stores write under: the domains lease's while
    // this node holds it (and its grant has not run out), else -1 (refused).
    virtual std::int64_t domains_token() = 0;
    // A game's report (the hub's LiveGame as JSON, play/live_game_json.h) for the lobby,
    // events and simuls of the domains node: published to it, in this node's order, and
    // handed there to `receive_reports`' callback (on the bus's thread: it must not
    // block). Never blocks; dropped (and counted) when no domains node is known: a
    // node that gains the domains recovers events' results from the database.
    virtual void report_to_domains(std::string json) = 0;
    using DomainsReport = std::function<void(const std::string& json)>;
    virtual void receive_reports(DomainsReport deliver) = 0;
    // SIGTERM: every game this node runs is dropped and its lease released at once, and
    // the nodes of its followers told, so that another node takes it over now.
    virtual void hand_over() = 0;
    // Stops the bus's threads (before the owner of the games goes away).
    virtual void stop() = 0;
    virtual const std::string& node() const = 0;

    // HTTP of the domains node (docs/scaling.md): a request that another node must
    // answer. On a request pool thread (it blocks): sent to `node`, and its answer
    // awaited; a node that is gone, Redis away or no answer within `timeout` is 503
    // `unavailable` with Retry-After, never a hang. The request carries the account
    // this node identified (the cookie is not sent) and the client's address.
    virtual HttpResponse forward_http(const std::string& node, const HttpRequest& request,
                                      std::chrono::milliseconds timeout) = 0;
    // Who answers the requests other nodes forward here: called on the bus's thread, it
    // must not block (the edge posts the request to its request pool) and calls `reply`
    // once, on any thread. None (nullptr): they are answered 503 `unavailable`.
    using HttpReply = std::function<void(HttpResponse)>;
    using HttpAnswerer = std::function<void(HttpRequest, HttpReply)>;
    virtual void answer_http(HttpAnswerer answerer) = 0;
};

}  // namespace outpost::server
