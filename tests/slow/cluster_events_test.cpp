// Outpost — events across nodes (issue 26, docs/scaling.md "HTTP of the domains node"):
// a Swiss round whose boards run on different nodes. One PostgreSQL, one Redis, three
// `outpost serve` nodes (tests/support/cluster.h). The organiser and the players talk to
// whichever node they reach; the events' routes are answered by the domains node
// (X-Outpost-Served-By) and written by the node the client asked (X-Outpost-Node).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <csignal>
#include <regex>
#include <set>
#include <thread>

#include "../support/cluster.h"

using namespace outpost::test;

namespace {

const std::string JsonType = "Content-Type: application/json\r\n";

std::string cookie_of(const Response& r) {
    std::smatch m;
    std::regex_search(r.head, m, std::regex("outpost_session=([^;\\r\\n]+)"));
    return m.size() > 1 ? std::string(m[1]) : std::string();
}

std::string with_cookie(const std::string& cookie) { return JsonType + "Cookie: outpost_session=" + cookie + "\r\n"; }

std::string header(const Response& r, const std::string& name) {
    std::smatch m;
    std::regex_search(r.head, m, std::regex("\r\n" + name + ": ([^\r\n]*)", std::regex::icase));
    return m.size() > 1 ? std::string(m[1]) : std::string();
}

// One request on a connection of its own.
Response ask(int port, const std::string& method, const std::string& target, const std::string& body = "",
             const std::string& cookie = "") {
    const int fd = connect_to(port);
    Response r = http(fd, method, target, body, cookie.empty() ? (method == "POST" ? JsonType : "") : with_cookie(cookie));
    close(fd);
    return r;
}

std::string sign_up(int port, const std::string& name) {
    const Response r = ask(port, "POST", "/api/v1/account/signup",
                           R"({"name":")" + name + R"(","password":"Swiss-across-nodes-for-)" + name + R"("})");
    return r.status == 201 ? cookie_of(r) : std::string();
}

// Asks until `ok` holds for the answer (or `ms` passed); the last answer.
Response ask_until(const std::function<bool(const Response&)>& ok, int ms, int port, const std::string& method,
                   const std::string& target, const std::string& body = "", const std::string& cookie = "") {
    const auto end = Clock::now() + std::chrono::milliseconds(ms);
    Response r;
    do {
        r = ask(port, method, target, body, cookie);
        if (ok(r)) return r;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    } while (Clock::now() < end);
    return r;
}

// A player's WebSocket to a game's seat, signed in (the seat is the account's).
int ws_signed_in(int port, const std::string& game, const std::string& seat, const std::string& cookie) {
    const int fd = connect_to(port);
    if (fd < 0) return -1;
    std::string req = upgrade_request(port, "/api/v1/ws?game=" + game + "&seat=" + seat, "");
    req.insert(req.size() - 2, "Cookie: outpost_session=" + cookie + "\r\n");
    if (!send_all(fd, req)) return -1;
    std::string head;
    while (head.find("\r\n\r\n") == std::string::npos) {
        std::string more = read_some(fd, 1);  // byte by byte: leave the frames after it unread
        if (more.empty()) break;
        head += more;
    }
    if (head.size() < 12 || head.substr(9, 3) != "101") {
        close(fd);
        return -1;
    }
    return fd;
}

struct Board {
    int number = 0;
    std::string game, white_seat, black_seat, white_cookie, black_cookie;
    int white = -1, black = -1;  // the players' WebSockets
    std::string node;            // the node that runs the game
};

}  // namespace

TEST(ClusterEvents, Issue26ASwissRoundWhoseBoardsRunOnDifferentNodes) {
    OUTPOST_REQUIRE_POSTGRES();
    Cluster c;
    ASSERT_FALSE(c.url.empty());
    const auto start = [&c](const std::string& name) {
        c.nodes[name] = std::make_unique<Server>(std::vector<std::string>{
            "--no-client-limits", "--password-cost", "cheapest", "--database", c.url, "--bus", c.redis.url(), "--node", name});
        return c.nodes[name]->port;
    };
    // a first: it takes the domains (the events run there) before b and c start.
    ASSERT_GT(start("a"), 0);
    Response r = ask_until([](const Response& x) { return x.status == 200; }, 10000, c.port("a"), "GET", "/api/v1/events");
    ASSERT_EQ(r.status, 200) << "node a does not answer the events: " << r.body;
    ASSERT_GT(start("b"), 0);
    ASSERT_GT(start("c"), 0);
    const std::vector<std::string> names = {"a", "b", "c"};

    // The organiser on b; four players, signed up and joining on different nodes.
    const std::string organiser = sign_up(c.port("b"), "organiser26");
    ASSERT_FALSE(organiser.empty());
    r = ask(c.port("b"), "POST", "/api/v1/events",
            R"({"name":"Swiss on nodes","system":"swiss","rounds":3,"time_control":"5+3","mode":"online"})", organiser);
    ASSERT_EQ(r.status, 201) << r.body;
    EXPECT_EQ(header(r, "X-Outpost-Node"), "b");
    EXPECT_EQ(header(r, "X-Outpost-Served-By"), "a") << r.head;
    const json made = json::parse(r.body, nullptr, false);
    ASSERT_TRUE(made.is_object() && made.contains("id"));
    const std::string event = "/api/v1/events/" + made["id"].dump();
    std::vector<std::string> players;
    for (int i = 0; i < 4; ++i) {
        const int port = c.port(names[i % 3]);
        players.push_back(sign_up(port, "swiss26p" + std::to_string(i)));
        ASSERT_FALSE(players.back().empty()) << i;
        r = ask(port, "POST", event + "/join", "{}", players.back());
        ASSERT_EQ(r.status, 200) << i << ": " << r.body;
    }
    // A cookie that is no session is no account on the domains node either.
    r = ask(c.port("c"), "POST", event + "/join", "{}", "forged-session-cookie");
    EXPECT_EQ(r.status, 401) << r.body;
    EXPECT_EQ(header(r, "X-Outpost-Served-By"), "a");

    // Round 1, started on c.
    r = ask(c.port("c"), "POST", event + "/rounds", "{}", organiser);
    ASSERT_EQ(r.status, 201) << r.body;
    EXPECT_EQ(header(r, "X-Outpost-Node"), "c");
    EXPECT_EQ(header(r, "X-Outpost-Served-By"), "a");

    // Each player reads the seat of their own board (the event as they see it).
    std::map<int, Board> boards;
    for (int i = 0; i < 4; ++i) {
        r = ask(c.port(names[i % 3]), "GET", event, "", players[i]);
        ASSERT_EQ(r.status, 200) << r.body;
        const json e = json::parse(r.body, nullptr, false);
        ASSERT_TRUE(e.is_object() && e["pairings"].is_array() && e["pairings"].size() == 1) << r.body;
        for (const json& b : e["pairings"][0]["boards"]) {
            if (!b.contains("seat")) continue;
            Board& board = boards[b["board"].get<int>()];
            board.number = b["board"];
            board.game = b["game"];
            const bool white = b["white"]["name"] == "swiss26p" + std::to_string(i);
            (white ? board.white_seat : board.black_seat) = b["seat"];
            (white ? board.white_cookie : board.black_cookie) = players[i];
        }
    }
    ASSERT_EQ(boards.size(), 2u);
    // Board 1's players on b, board 2's on c.
    const std::map<int, std::string> player_node = {{1, "b"}, {2, "c"}};
    for (auto& [n, b] : boards) {
        ASSERT_FALSE(b.white_seat.empty() || b.black_seat.empty()) << "board " << n;
        b.white = ws_signed_in(c.port(player_node.at(n)), b.game, b.white_seat, b.white_cookie);
        b.black = ws_signed_in(c.port(player_node.at(n)), b.game, b.black_seat, b.black_cookie);
        ASSERT_GE(b.white, 0);
        ASSERT_GE(b.black, 0);
        auto state = until(b.white, "state");
        ASSERT_TRUE(state) << "board " << n;
        ASSERT_TRUE(until(b.black, "state"));
        b.node = (*state)["node"];
    }
    // The round's games were made where the events run (a). Unless they already went
    // where their players are, a hands them over (SIGTERM, a rolling upgrade): each is
    // taken by the node of its players' connections, and the events by another node.
    if (boards[1].node == boards[2].node) {
        c.nodes.at("a")->stop(SIGTERM);
        for (auto& [n, b] : boards) {
            const std::string want = player_node.at(n);
            auto state = until(b.white, "state", [&want](const json& m) { return m["node"] == want; }, 10000);
            ASSERT_TRUE(state) << "board " << n << " was not taken over by node " << want;
            b.node = want;
            ASSERT_TRUE(until(b.black, "state", [&want](const json& m) { return m["node"] == want; }, 5000));
        }
    }
    EXPECT_NE(boards[1].node, boards[2].node) << "the boards run on one node";

    // Board 1: Black wins (White resigns); board 2: White wins (Black resigns).
    for (auto& [n, b] : boards) {
        ASSERT_TRUE(play(b.white, b.black, 0, 2)) << "board " << n;
        const int resigner = n == 1 ? b.white : b.black;
        ASSERT_TRUE(ws_send(resigner, R"({"v":1,"t":"resign"})"));
        auto over = until(b.white, "state", [](const json& m) { return m["game"]["status"] != "ongoing"; }, 10000);
        ASSERT_TRUE(over) << "board " << n << " did not end";
        EXPECT_EQ((*over)["game"]["result"], n == 1 ? "0-1" : "1-0");
        EXPECT_EQ((*over)["node"], b.node);
    }

    // Both results reach the event's boards and standings, read on any node.
    const auto decided = [](const Response& x) {
        const json e = json::parse(x.body, nullptr, false);
        if (x.status != 200 || !e.is_object() || !e["pairings"].is_array() || e["pairings"].empty()) return false;
        for (const json& b : e["pairings"][0]["boards"])
            if (b["result"] == "") return false;
        return true;
    };
    r = ask_until(decided, 15000, c.port("b"), "GET", event);
    ASSERT_TRUE(decided(r)) << r.status << " " << r.body.substr(0, 600);
    // The node that runs the events now: b itself, or the node that served b's answer.
    const std::string domains = header(r, "X-Outpost-Served-By").empty() ? "b" : header(r, "X-Outpost-Served-By");
    const json e = json::parse(r.body);
    for (const json& b : e["pairings"][0]["boards"])
        EXPECT_EQ(b["result"], b["board"] == 1 ? "0-1" : "1-0") << b.dump();
    double total = 0;
    int winners = 0;
    for (const json& s : e["standings"]) {
        total += s["points"].get<double>();
        winners += s["points"].get<double>() == 1.0;
    }
    EXPECT_EQ(total, 2.0) << e["standings"].dump();
    EXPECT_EQ(winners, 2) << e["standings"].dump();

    // Round 2 pairs (the organiser on the node that is not the domains node).
    const std::string asked = domains == "b" ? "c" : "b";
    r = ask(c.port(asked), "POST", event + "/rounds", "{}", organiser);
    ASSERT_EQ(r.status, 201) << r.body;
    EXPECT_EQ(header(r, "X-Outpost-Node"), asked);
    EXPECT_EQ(header(r, "X-Outpost-Served-By"), domains);
    const json round2 = json::parse(r.body, nullptr, false);
    ASSERT_TRUE(round2.is_object() && round2["pairings"].size() == 2) << r.body.substr(0, 600);
    EXPECT_EQ(round2["pairings"][1]["boards"].size(), 2u);
    EXPECT_EQ(round2["current_round"], 2);
    // The simuls' routes and a game's analysis are the domains node's too.
    r = ask(c.port(asked), "GET", "/api/v1/simuls");
    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(header(r, "X-Outpost-Served-By"), domains);
    r = ask(c.port(asked), "GET", "/api/v1/games/" + boards[1].game + "/analysis");
    EXPECT_NE(r.status, 503) << r.body;
    EXPECT_EQ(header(r, "X-Outpost-Served-By"), domains);
    for (auto& [n, b] : boards) {
        close(b.white);
        close(b.black);
    }
}
