// Issue 26 item 4 ("a front"), end to end with Debian's HAProxy and the shipped
// deploy/haproxy.cfg (tests/support/haproxy_server.h) in front of real nodes: a game
// played over a WebSocket through the front; requests about one game all go to one
// node (balanced by the game's id); the per-address limits hold behind the front (the
// nodes believe HAProxy's X-Forwarded-For, never one a client wrote, and the scheme
// HAProxy gives, never the client's); a node killed
// with kill -9 is taken out of rotation by the health check and new requests succeed
// on the other. The nodes here run on SQLite files of their own (one node, or two where
// no game has to be shared): what several nodes on one database add is tested with the
// bus (issue 26 items 2, 3).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "../support/haproxy_server.h"
#include "../support/serve_process.h"
#include "../support/temp_dir_test.h"
#include "../support/tls_client.h"  // connect_from

namespace {

using namespace outpost::test;
using nlohmann::json;

struct Created {
    int status = 0;
    std::string game, seat;
};

// POST /api/v1/games (an untimed hotseat game) from `source` to `port`.
Created create_game(const std::string& source, int port, const std::string& extra = "") {
    const int fd = connect_from(source, port);
    if (fd < 0) return {};
    Response r = http(fd, "POST", "/api/v1/games", R"({"v":1,"opponent":"hotseat","color":"white","time_control":"-"})",
                      "Content-Type: application/json\r\n" + extra);
    close(fd);
    Created c{r.status, "", ""};
    std::smatch m;
    if (std::regex_search(r.body, m, std::regex(R"re("game":"([A-Za-z0-9]+)".*"white":"([A-Za-z0-9]+)")re"))) {
        c.game = m[1];
        c.seat = m[2];
    }
    return c;
}

Response get(int port, const std::string& target) {
    const int fd = connect_to(port);
    Response r = http(fd, "GET", target);
    close(fd);
    return r;
}

// Plays the fool's mate in a hotseat game over a WebSocket to `port` (with the Origin
// of a page served through it); the final status, or what went wrong.
std::string play_fools_mate(int port, const Created& g) {
    const int fd = connect_to(port);
    std::string head;
    const int status = ws_handshake(fd, port, "/api/v1/ws?game=" + g.game + "&seat=" + g.seat,
                                    "http://127.0.0.1:" + std::to_string(port), &head);
    if (status != 101) {
        close(fd);
        return "(WebSocket refused: " + head + ")";
    }
    const std::vector<std::string> moves = {"f2f3", "e7e5", "g2g4", "d8h4"};
    std::string last_status;
    for (size_t ply = 0; ply < moves.size() && last_status.find('(') == std::string::npos; ++ply) {
        if (!ws_send(fd, json{{"v", 1}, {"t", "move"}, {"uci", moves[ply]}, {"ply", ply}}.dump())) {
            last_status = "(send failed)";
            break;
        }
        for (;;) {
            auto [op, text] = ws_read_data(fd, 10000);
            if (op != 1) {
                last_status = "(connection ended at ply " + std::to_string(ply) + ")";
                break;
            }
            const json msg = json::parse(text, nullptr, false);
            if (msg.value("t", "") == "error") {
                last_status = "(error: " + text + ")";
                break;
            }
            if (msg.value("t", "") != "move" || !msg.contains("game") || msg["game"].value("uci", "") != moves[ply]) continue;
            last_status = msg["game"].value("status", "");
            break;
        }
    }
    close(fd);
    return last_status;
}

// The servers (backend/node) of the HAProxy log's lines whose request contains `what`.
std::set<std::string> servers_of(const std::string& log, const std::string& what) {
    std::set<std::string> servers;
    std::istringstream lines(log);
    const std::regex server(R"( outpost (outpost_[a-z]+/node[0-9]+) )");
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (line.find(what) != std::string::npos && std::regex_search(line, m, server)) servers.insert(m[1]);
    }
    return servers;
}

// Waits (up to `seconds`) until HAProxy's health check says `server` has `status`.
bool wait_for_state(const HaproxyServer& front, const std::string& server, const std::string& status, double seconds) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(long(seconds * 1000));
    while (std::chrono::steady_clock::now() < until) {
        const auto states = front.server_states();
        const auto at = states.find(server);
        if (at != states.end() && at->second.rfind(status, 0) == 0) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
}

class HaproxyFrontIssue26 : public TempDirTest {};

TEST_F(HaproxyFrontIssue26, Item4AGameIsPlayedOverAWebSocketThroughTheFront) {
    ASSERT_TRUE(fs::exists("/usr/sbin/haproxy")) << "haproxy is missing: bash scripts/install-deps.sh";
    Server node({"--trust-proxy", "127.0.0.1"});
    ASSERT_GT(node.port, 0);
    HaproxyServer front({node.port});
    ASSERT_GT(front.pid, 0) << front.failure;
    ASSERT_TRUE(wait_for_state(front, "outpost_games/node1", "UP", 10)) << front.log_text();

    const Created g = create_game("127.0.0.2", front.port);
    ASSERT_EQ(g.status, 201);
    EXPECT_EQ(play_fools_mate(front.port, g), "checkmate");
    // The game as a spectator reads it through the front, and its PGN.
    const Response state = get(front.port, "/api/v1/games/" + g.game);
    ASSERT_EQ(state.status, 200) << state.body;
    const json j = json::parse(state.body, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << state.body;
    EXPECT_EQ(j["game"]["moves"], json({"f2f3", "e7e5", "g2g4", "d8h4"}));
    EXPECT_EQ(j["game"]["status"], "checkmate");
    const Response pgn = get(front.port, "/api/v1/games/" + g.game + "/pgn");
    EXPECT_EQ(pgn.status, 200);
    EXPECT_NE(pgn.body.find("1. f3 e5 2. g4 Qh4#"), std::string::npos) << pgn.body;
    // Bad input through the front: answered by the node, and the front goes on.
    EXPECT_EQ(get(front.port, "/api/v1/games/%00%ff/pgn").status / 100, 4);
    EXPECT_EQ(get(front.port, "/readyz").status, 200);
    EXPECT_EQ(get(front.port, "/api/v1/levels").status, 200);
}

TEST_F(HaproxyFrontIssue26, Item4RequestsAboutAGameGoToOneNodeByItsId) {
    Server a({}), b({});
    ASSERT_GT(a.port, 0);
    ASSERT_GT(b.port, 0);
    HaproxyServer front({a.port, b.port});
    ASSERT_GT(front.pid, 0) << front.failure;
    // The ids of made-up games (each node answers not_found): every request about one
    // id, its WebSocket's and its HTTP paths', goes to one node; and over 16 ids, both
    // nodes are used.
    std::set<std::string> used;
    for (int i = 0; i < 16; ++i) {
        const std::string id = "nosuchgame" + std::to_string(i);
        for (int k = 0; k < 3; ++k) {
            EXPECT_EQ(get(front.port, "/api/v1/games/" + id).status, 404);
            EXPECT_EQ(get(front.port, "/api/v1/games/" + id + "/pgn").status, 404);
            const int fd = connect_to(front.port);
            ws_handshake(fd, front.port, "/api/v1/ws?seat=x&game=" + id, "");
            close(fd);
        }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the last log lines
    const std::string log = front.log_text();
    for (int i = 0; i < 16; ++i) {
        const std::string id = "nosuchgame" + std::to_string(i);
        const auto servers = servers_of(log, id + " ");
        const auto with_path = servers_of(log, id + "/pgn");
        const auto ws = servers_of(log, "game=" + id + " ");
        std::set<std::string> all = servers;
        all.insert(with_path.begin(), with_path.end());
        all.insert(ws.begin(), ws.end());
        EXPECT_EQ(all.size(), 1u) << id << " went to several nodes:\n" << log;
        EXPECT_FALSE(ws.empty()) << "no log line of the WebSocket of " << id << ":\n" << log;
        for (const auto& s : all) used.insert(s.substr(s.find('/')));
    }
    EXPECT_EQ(used.size(), 2u) << "16 games' ids all hashed to one node:\n" << log;
    // Anything else goes round the nodes.
    for (int i = 0; i < 6; ++i) EXPECT_EQ(get(front.port, "/api/v1/levels").status, 200);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_EQ(servers_of(front.log_text(), "/api/v1/levels").size(), 2u) << front.log_text();
}

TEST_F(HaproxyFrontIssue26, Item4PerAddressLimitsHoldBehindTheFrontAndAForgedHeaderChangesNothing) {
    // One node, one open game per client address; its connections all come from
    // HAProxy at 127.0.0.1, which it trusts.
    Server node({"--trust-proxy", "127.0.0.1", "--max-open-games", "1"});
    ASSERT_GT(node.port, 0);
    HaproxyServer front({node.port});
    ASSERT_GT(front.pid, 0) << front.failure;
    const Created first = create_game("127.0.0.2", front.port);
    ASSERT_EQ(first.status, 201);
    EXPECT_EQ(create_game("127.0.0.2", front.port).status, 429) << "one player, two open games";
    EXPECT_EQ(create_game("127.0.0.3", front.port).status, 201) << "the second player was taken for the first";
    EXPECT_EQ(create_game("127.0.0.2", front.port, "X-Forwarded-For: 127.0.0.44\r\n").status, 429)
        << "a forged X-Forwarded-For was believed";
    EXPECT_EQ(create_game("127.0.0.2", front.port, "X-Forwarded-For: 127.0.0.45, 127.0.0.46\r\n").status, 429)
        << "a forged X-Forwarded-For was believed";
    EXPECT_EQ(create_game("127.0.0.2", front.port, "Forwarded: for=127.0.0.47\r\n").status, 429)
        << "a forged Forwarded was believed";
    EXPECT_EQ(play_fools_mate(front.port, first), "checkmate");
    EXPECT_EQ(create_game("127.0.0.2", front.port).status, 201) << "the finished game still counts";
}

// The HTTP rate of one address is counted at the front, over every node (issue 26 item 2,
// "the per-address limits" shared; docs/protocol.md, Limits per client address): the
// nodes here count nothing themselves, so only the front can refuse. It lets through
// the burst a node's bucket allows (400), and no more than the bucket allows in a
// minute (400 + 60 x 50): a node each would have let three times as many through.
TEST_F(HaproxyFrontIssue26, Item2TheFrontCountsAnAddresssRequestsToEveryNode) {
    Server a({"--trust-proxy", "127.0.0.1", "--no-client-limits"}), b({"--trust-proxy", "127.0.0.1", "--no-client-limits"});
    ASSERT_GT(a.port, 0);
    ASSERT_GT(b.port, 0);
    HaproxyServer front({a.port, b.port});
    ASSERT_GT(front.pid, 0) << front.failure;
    ASSERT_TRUE(wait_for_state(front, "outpost_games/node1", "UP", 10));
    ASSERT_TRUE(wait_for_state(front, "outpost_games/node2", "UP", 10));
    const auto get_from = [&](const std::string& source, const std::string& target, const std::string& extra = "") {
        const int fd = connect_from(source, front.port);
        Response r = http(fd, "GET", target, "", extra);
        close(fd);
        return r;
    };
    int passed = 0;
    Response refused;
    const auto started = std::chrono::steady_clock::now();
    for (int i = 0; i < 4000; ++i) {
        // Alternately a game's request (by its id's hash) and any node's.
        Response r = get_from("127.0.0.5", i % 2 ? "/api/v1/levels" : "/api/v1/games/nosuchgame" + std::to_string(i % 16));
        if (r.status == 429) {
            refused = r;
            break;
        }
        ASSERT_TRUE(r.status == 200 || r.status == 404) << i << ": " << r.head;
        ++passed;
    }
    ASSERT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(55)) << "the minute's window was not tested";
    EXPECT_GE(passed, 450) << "the front refused within the burst a node allows";
    EXPECT_LE(passed, 3400) << "the front let more through in a minute than a node's bucket does";
    ASSERT_EQ(refused.status, 429) << "4000 requests from one address and none refused";
    EXPECT_TRUE(std::regex_search(refused.head, std::regex("retry-after: 5", std::regex::icase))) << refused.head;
    EXPECT_FALSE(std::regex_search(refused.head, std::regex("x-outpost-node", std::regex::icase)))
        << "refused by a node, not the front: " << refused.head;
    const json body = json::parse(refused.body, nullptr, false);
    ASSERT_FALSE(body.is_discarded()) << refused.body;
    EXPECT_EQ(body.value("code", ""), "rate_limited");
    EXPECT_EQ(body.value("t", ""), "error");
    // A header the client writes does not make it another address.
    EXPECT_EQ(get_from("127.0.0.5", "/api/v1/levels", "X-Forwarded-For: 127.0.0.77\r\n").status, 429);
    // Another address is not refused.
    EXPECT_EQ(get_from("127.0.0.6", "/api/v1/levels").status, 200);
    // Both nodes answered the address's requests.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    std::set<std::string> nodes;
    for (const auto& s : servers_of(front.log_text(), "/api/v1/")) nodes.insert(s.substr(s.find('/')));
    EXPECT_EQ(nodes.size(), 2u) << front.log_text().substr(0, 2000);
}

TEST_F(HaproxyFrontIssue26, Item4AClientsOwnXForwardedProtoDoesNotReachTheNode) {
    // Over plain HTTP, a client that writes X-Forwarded-Proto: https must not make the
    // node believe the connection is secure (it would mark the session cookie Secure).
    Server node({"--trust-proxy", "127.0.0.1", "--password-cost", "cheapest"});
    ASSERT_GT(node.port, 0);
    HaproxyServer front({node.port});
    ASSERT_GT(front.pid, 0) << front.failure;
    const int fd = connect_to(front.port);
    Response r = http(fd, "POST", "/api/v1/account/signup", R"({"name":"behindhaproxy","password":"a long enough passphrase"})",
                      "Content-Type: application/json\r\nX-Forwarded-Proto: https\r\n");
    close(fd);
    ASSERT_EQ(r.status, 201) << r.body;
    // (HAProxy writes header names in lower case.)
    EXPECT_TRUE(std::regex_search(r.head, std::regex("set-cookie: ", std::regex::icase))) << r.head;
    EXPECT_FALSE(std::regex_search(r.head, std::regex("set-cookie: [^\r]*; secure", std::regex::icase))) << r.head;
    EXPECT_FALSE(std::regex_search(r.head, std::regex("strict-transport-security", std::regex::icase))) << r.head;
}

TEST_F(HaproxyFrontIssue26, Item4AKilledNodeIsTakenOutOfRotationAndRequestsSucceedOnTheOther) {
    Server a({}), b({});
    ASSERT_GT(a.port, 0);
    ASSERT_GT(b.port, 0);
    HaproxyServer front({a.port, b.port});
    ASSERT_GT(front.pid, 0) << front.failure;
    ASSERT_TRUE(wait_for_state(front, "outpost_games/node1", "UP", 10));
    ASSERT_TRUE(wait_for_state(front, "outpost_games/node2", "UP", 10));
    for (int i = 0; i < 4; ++i) EXPECT_EQ(create_game("127.0.0.2", front.port).status, 201);

    a.stop(SIGKILL);
    // Before the health check has noticed: a refused connection is sent to the other
    // node (redispatch), so no request fails.
    for (int i = 0; i < 6; ++i) EXPECT_EQ(create_game("127.0.0.2", front.port).status, 201) << "request " << i;
    // Taken out within 2 checks a second apart (and the backend that tracks it too).
    const auto killed_at = std::chrono::steady_clock::now();
    EXPECT_TRUE(wait_for_state(front, "outpost_games/node1", "DOWN", 5)) << front.command("show stat\n");
    EXPECT_TRUE(wait_for_state(front, "outpost_any/node1", "DOWN", 1)) << front.command("show stat\n");
    EXPECT_LT(std::chrono::steady_clock::now() - killed_at, std::chrono::seconds(5));
    EXPECT_EQ(front.server_states()["outpost_games/node2"], "UP");
    // A new request succeeds, on the other node, and a game's requests go there too.
    const std::string before = front.log_text();
    const Created g = create_game("127.0.0.2", front.port);
    ASSERT_EQ(g.status, 201);
    EXPECT_EQ(get(front.port, "/api/v1/games/" + g.game).status, 200) << "a game of node2 asked through the front";
    EXPECT_EQ(play_fools_mate(front.port, g), "checkmate");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const std::string after = front.log_text().substr(before.size());
    EXPECT_EQ(servers_of(after, "/api/v1/games"), (std::set<std::string>{"outpost_any/node2", "outpost_games/node2"}))
        << after;
}

}  // namespace
