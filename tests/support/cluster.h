// Outpost — the fixture of the cluster tests (issue 26): one PostgreSQL database, one
// Redis and `outpost serve --bus … --node NAME` nodes started by name
// (tests/support: loopback, temporary folders, stopped even when a test fails), and the
// WebSocket helpers the cluster test files share.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "postgres_server.h"
#include "redis_server.h"
#include "serve_process.h"
#include "server/stores/postgres/pg_stores.h"

namespace outpost::test {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// A cluster: one PostgreSQL database, one Redis, nodes started by name.
struct Cluster {
    std::string url;
    RedisServer redis;
    std::map<std::string, std::unique_ptr<Server>> nodes;
    Cluster() {
        std::string why;
        url = PostgresServer::get().create_database(why);
    }
    ~Cluster() {
        nodes.clear();
        if (!url.empty()) PostgresServer::get().drop_database(url);
    }
    // `extra`: more options of `outpost serve` for this node.
    Server& start(const std::string& name, const std::vector<std::string>& extra = {}) {
        std::vector<std::string> args{"--no-client-limits", "--database", url, "--bus", redis.url(), "--node", name};
        args.insert(args.end(), extra.begin(), extra.end());
        nodes[name] = std::make_unique<Server>(args);
        return *nodes[name];
    }
    int port(const std::string& name) { return nodes.at(name)->port; }
};

// A new invite game made on `port` (5 minutes each): id, white's token, black's token.
inline std::tuple<std::string, std::string, std::string> invite_game(int port, std::string* head = nullptr) {
    int fd = connect_to(port);
    auto r = http(fd, "POST", "/api/v1/games",
                  R"({"v":1,"opponent":"invite","color":"white","time_control":"5+0","name":"W","opponent_name":"B"})",
                  "Content-Type: application/json\r\n");
    close(fd);
    if (head) *head = r.head;
    json j = json::parse(r.body, nullptr, false);
    if (j.is_discarded() || !j.contains("seats")) return {};
    return {j["game"], j["seats"]["white"], j["seats"]["black"]};
}

// The game's state as a node answers it over HTTP.
inline json http_state(int port, const std::string& id) {
    int fd = connect_to(port);
    auto r = http(fd, "GET", "/api/v1/games/" + id);
    close(fd);
    json j = json::parse(r.body, nullptr, false);
    return j.is_discarded() ? json() : j["game"];
}

// The next JSON message on a WebSocket before `end` (none: closed, or nothing by then);
// the server's pings are answered on the way and do not extend the wait.
inline std::optional<json> next(int fd, Clock::time_point end) {
    while (Clock::now() < end) {
        const int left = int(std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()).count());
        auto [op, text] = ws_read(fd, std::max(1, left));
        if (op == 9) {
            ws_send(fd, text, 10);
            continue;
        }
        if (op == 10) continue;
        if (op != 1) return std::nullopt;
        json j = json::parse(text, nullptr, false);
        if (!j.is_discarded()) return j;
    }
    return std::nullopt;
}

// Reads until a message of kind `t` (and `pred`) comes; the messages read meanwhile in `seen`.
inline std::optional<json> until(int fd, const std::string& t, const std::function<bool(const json&)>& pred = {},
                          int ms = 10000, std::vector<json>* seen = nullptr) {
    const auto end = Clock::now() + std::chrono::milliseconds(ms);
    while (auto m = next(fd, end)) {
        if (seen) seen->push_back(*m);
        if ((*m)["t"] == t && (!pred || pred(*m))) return m;
    }
    return std::nullopt;
}

inline int ws(int port, const std::string& game, const std::string& seat) {
    auto [fd, status] = ws_open(port, "/api/v1/ws?game=" + game + (seat.empty() ? "" : "&seat=" + seat), "");
    return status == 101 ? fd : -1;
}

inline bool send_move(int fd, const std::string& uci, int ply) {
    return ws_send(fd, json{{"v", 1}, {"t", "move"}, {"uci", uci}, {"ply", ply}}.dump());
}

inline std::vector<std::string> stored_moves(const std::string& url, const std::string& id) {
    auto store = outpost::server::postgres::open_games(url);
    if (!store) return {"cannot open: " + store.error().message};
    auto g = (*store)->load_game(id);
    if (!g || !g->has_value()) return {"no game " + id};
    std::vector<std::string> out;
    for (const auto& m : (*g)->moves) out.push_back(m.uci);
    return out;
}

inline const char* const Moves[] = {"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "d2d3", "f8c5", "c2c3", "d7d6",
                             "e1g1", "e8g8", "b1d2", "a7a6", "a2a4", "h7h6"};

// Plays Moves[from..to) with white on `w` and black on `b`, each mover waiting for its
// acknowledgement (the `move` message of its ply): false with the reason if one fails.
inline testing::AssertionResult play(int w, int b, int from, int to) {
    for (int ply = from; ply < to; ++ply) {
        const int fd = ply % 2 == 0 ? w : b;
        if (!send_move(fd, Moves[ply], ply)) return testing::AssertionFailure() << "send failed at ply " << ply;
        std::vector<json> seen;
        auto ack = until(fd, "move", [ply](const json& m) { return m["game"]["ply"] == ply + 1; }, 10000, &seen);
        if (!ack) {
            auto failure = testing::AssertionFailure() << "no acknowledgement of ply " << ply + 1 << "; came:";
            for (const json& m : seen) failure << " " << m.dump().substr(0, 200);
            return failure;
        }
    }
    return testing::AssertionSuccess();
}

}  // namespace outpost::test
