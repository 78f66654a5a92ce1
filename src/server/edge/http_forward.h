// Outpost — HTTP of the domains node (issue 26, docs/scaling.md): with several nodes,
// the routes of events, simuls and the analysis queue are answered by the one node that
// runs them now; a request for them that reaches another node is forwarded to it over
// the bus and its answer written here. Included by edge/server.cpp only.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// What crosses: the request as this node read it, after the edge's own checks here
// (edge_check: rate limits, the Host header against --host-name, a POST's content type,
// the body's size), with the account this node identified from the session cookie and
// the client's address (behind a trusted proxy, X-Forwarded-For as read here). The
// cookie does not cross: the domains node never identifies again, and a client cannot
// name an account to it (only a node's envelope does). The services' own CSRF check
// (Origin against Host and --allow-origin) runs there, on the Origin and Host this node
// received. The answer keeps the domains node's status, body and headers; X-Outpost-Node
// names this node (which answered the client), X-Outpost-Served-By the domains node.
#pragma once

#include "server/bus/cluster_bus.h"
#include "server/edge/http_answers.h"

namespace outpost::server::net {

static_assert(MaxForwardedBody == MaxHttpBody, "a forwarded request's body is bounded as a request's");

// The longest a request pool thread waits for the domains node (a round paired on a
// loaded machine answers within a few seconds).
constexpr std::chrono::seconds ForwardTimeout{10};

// The routes the domains node answers: the events', the simuls', a game's analysis.
inline bool domains_route(const HttpRequest& r) {
    if (EventService::handles(r) || SimulService::handles(r)) return true;
    const std::string path = split_target(r.target).first;
    return path.rfind("/api/v1/games/", 0) == 0 && path.ends_with("/analysis");
}

inline HttpResponse domains_away(const std::string& why) {
    return error_response({"unavailable", why, 503}, {{"Retry-After", "2"}});
}

// The answer of a request of the API (on the request pool: forwarding blocks it).
inline HttpResponse answer_here_or_forward(const Shared& shared, const HttpRequest& request) {
    auto* cluster = dynamic_cast<ClusterBus*>(shared.bus);
    if (!cluster || !domains_route(request) || cluster->runs_domains()) return dispatch(shared, request);
    const std::string there = cluster->domains_node();
    if (there.empty() || there == cluster->node())  // none known, or this node is taking them on
        return domains_away("events, simuls and analysis are moving to another node; try again in a few seconds");
    return cluster->forward_http(there, request, ForwardTimeout);
}

// The answer of a request another node forwarded here (on the request pool). Only the
// domains' routes, and only while this node runs them: it never forwards again (no
// loop between two nodes that disagree for a moment on who runs them).
inline HttpResponse answer_forwarded(const Shared& shared, const HttpRequest& request) {
    auto* cluster = dynamic_cast<ClusterBus*>(shared.bus);
    if (!domains_route(request)) return error_response({"not_found", "not a route answered for another node", 404});
    if (cluster && !cluster->runs_domains())
        return domains_away("events, simuls and analysis are moving to another node; try again in a few seconds");
    return dispatch(shared, request);
}

}  // namespace outpost::server::net
