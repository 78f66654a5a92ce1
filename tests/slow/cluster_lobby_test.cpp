// Outpost — issue 26, "Many machines", item 6: the lobby across nodes, against the real
// thing (tests/support/cluster.h: `outpost serve --bus … --database …` nodes on the
// test's own PostgreSQL and Redis). One node runs the lobby, events and simuls (the
// holder of the lease `domains`); a seek posted by a lobby WebSocket on another node is
// accepted by a lobby WebSocket on a third, both players get the game and play; a game
// run by another node is in the lobby's list (its node's reports reach it); kill -9
// of the domains node: another runs them within 5 s and a new seek and accept pair.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <iostream>

#include "../support/cluster.h"
#include "server/bus/redis/redis_lease.h"

namespace {

using namespace outpost::test;
namespace redis = outpost::server::redis;

// The node that holds the domains lease now ("": none), read from Redis as the nodes do.
std::string domains_holder(const std::string& redis_url) {
    auto where = redis::Endpoint::parse(redis_url);
    if (!where) return "";
    redis::RedisClient client(*where, std::chrono::milliseconds(500));
    if (!client.connect()) return "";
    redis::LeaseTable table(client, "test", "outpost:");
    auto h = table.holder(redis::DomainsLease);
    return h && *h ? (*h)->node : "";
}

std::string wait_for_holder(const std::string& redis_url, const std::string& not_this, int ms) {
    const auto end = Clock::now() + std::chrono::milliseconds(ms);
    while (Clock::now() < end) {
        auto h = domains_holder(redis_url);
        if (!h.empty() && h != not_this) return h;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return "";
}

int lobby_ws(int port) {
    auto [fd, status] = ws_open(port, "/api/v1/lobby", "");
    return status == 101 ? fd : -1;
}

struct Paired {
    std::string game, seat, color;
};

// A seek posted on `seeker`'s socket and accepted on `accepter`'s: both told their game.
// The seek is posted again while the lobby is moving to another node (an error comes).
testing::AssertionResult pair_up(int seeker, int accepter, Paired& s, Paired& a) {
    const auto end = Clock::now() + std::chrono::seconds(15);
    std::string seek;
    while (seek.empty() && Clock::now() < end) {
        ws_send(seeker, json{{"v", 1}, {"t", "seek"}, {"time_control", "5+0"}, {"name", "Seeker"}}.dump());
        auto m = until(seeker, "lobby", [](const json& j) { return j.contains("mine") && !j["mine"].empty(); }, 1000);
        if (m) seek = (*m)["mine"][0];
    }
    if (seek.empty()) return testing::AssertionFailure() << "the seek was never listed as the seeker's";
    // The others see it at the lobby's next beat; accepted (again while it moves).
    std::optional<json> mine;
    while (!mine && Clock::now() < end) {
        if (!until(accepter, "lobby", [&](const json& j) {
                for (const json& x : j.value("seeks", json::array()))
                    if (x.value("id", "") == seek) return true;
                return false;
            }, 2000))
            continue;
        ws_send(accepter, json{{"v", 1}, {"t", "accept"}, {"seek", seek}, {"name", "Accepter"}}.dump());
        mine = until(accepter, "paired", {}, 3000);
    }
    if (!mine) return testing::AssertionFailure() << "the accepter was never paired";
    auto theirs = until(seeker, "paired", {}, 5000);
    if (!theirs) return testing::AssertionFailure() << "the seeker was never told of the game";
    a = {(*mine)["game"], (*mine)["seat"], mine->value("color", "")};
    s = {(*theirs)["game"], (*theirs)["seat"], theirs->value("color", "")};
    if (a.game != s.game) return testing::AssertionFailure() << "two games: " << a.game << " and " << s.game;
    return testing::AssertionSuccess();
}

// Both players open the game on their own nodes and play two moves.
testing::AssertionResult play_it(int seeker_port, int accepter_port, const Paired& s, const Paired& a) {
    const bool seeker_white = s.color == "white";
    const int sw = ws(seeker_port, s.game, s.seat), aw = ws(accepter_port, a.game, a.seat);
    if (sw < 0 || aw < 0) return testing::AssertionFailure() << "a game socket did not open";
    if (!until(sw, "state") || !until(aw, "state")) return testing::AssertionFailure() << "no first state";
    auto r = seeker_white ? play(sw, aw, 0, 2) : play(aw, sw, 0, 2);
    close(sw);
    close(aw);
    return r;
}

TEST(ClusterLobby, Issue26ItemSixASeekOnOneNodeIsAcceptedOnAnotherAndTheLobbySurvivesKillNine) {
    OUTPOST_REQUIRE_POSTGRES();
    Cluster c;
    ASSERT_FALSE(c.url.empty());
    for (const char* n : {"a", "b", "c"}) ASSERT_GT(c.start(n).port, 0) << "node " << n << " did not start";
    const std::string first = wait_for_holder(c.redis.url(), "", 5000);
    ASSERT_FALSE(first.empty()) << "no node runs the domains";
    // The seeker and the accepter on the two nodes that do not run them: both forwarded.
    std::vector<std::string> others;
    for (const char* n : {"a", "b", "c"})
        if (n != first) others.push_back(n);
    const int seeker = lobby_ws(c.port(others[0])), accepter = lobby_ws(c.port(others[1]));
    ASSERT_GE(seeker, 0);
    ASSERT_GE(accepter, 0);
    ASSERT_TRUE(until(seeker, "lobby"));
    ASSERT_TRUE(until(accepter, "lobby"));
    Paired s, a;
    ASSERT_TRUE(pair_up(seeker, accepter, s, a));
    EXPECT_NE(s.color, a.color);
    ASSERT_TRUE(play_it(c.port(others[0]), c.port(others[1]), s, a));

    // A game run by a node that does not run the domains is in the lobby's list of games
    // being played: its node's reports reach the domains node.
    auto [id, white, black] = invite_game(c.port(others[0]));
    ASSERT_FALSE(id.empty());
    {
        const int w = ws(c.port(others[0]), id, white), b = ws(c.port(others[0]), id, black);
        ASSERT_TRUE(until(w, "state"));
        ASSERT_TRUE(until(b, "state"));
        ASSERT_TRUE(play(w, b, 0, 2));
        close(w);
        close(b);
    }
    const auto listed = [&id](const json& j) {
        for (const json& g : j.value("games", json::array()))
            if (g.value("id", "") == id) return true;
        return false;
    };
    EXPECT_TRUE(until(accepter, "lobby", listed, 5000)) << "game " << id << " of node " << others[0]
                                                        << " is not in the lobby of node " << first;

    // kill -9 of the domains node: another runs them within 5 s (the lease's 3 s and
    // the watchers' beat), and the lobby sockets, joined there by their nodes, pair again.
    const auto killed = Clock::now();
    c.nodes.at(first)->stop(SIGKILL);
    const std::string next_node = wait_for_holder(c.redis.url(), first, 8000);
    const double took = std::chrono::duration<double>(Clock::now() - killed).count();
    ASSERT_FALSE(next_node.empty()) << "no node took the domains over";
    std::cout << "[ cluster ] kill -9 of the domains node " << first << ": node " << next_node
              << " runs the lobby after " << took << " s" << std::endl;
    EXPECT_LT(took, 5.0);
    Paired s2, a2;
    ASSERT_TRUE(pair_up(seeker, accepter, s2, a2));
    EXPECT_NE(s2.game, s.game);
    ASSERT_TRUE(play_it(c.port(others[0]), c.port(others[1]), s2, a2));
    close(seeker);
    close(accepter);
}

}  // namespace
