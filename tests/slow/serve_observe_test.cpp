// Outpost — issue 27 items 4 and 5 against a real `outpost serve`: /metrics on the
// --metrics-listen address only, numbers that move with the game played, Prometheus's
// own `promtool check metrics` silent on the output; the JSON access log with no seat
// token, session cookie or password in any line; SIGTERM with moves in flight: every
// WebSocket closed with 1012, every acknowledged move in the database, exit within 5 s.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "../support/random_move.h"
#include "../support/serve_process.h"
#include "../support/sqlite_peek.h"

namespace {

using namespace outpost::test;
using nlohmann::json;
using Steady = std::chrono::steady_clock;

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    return {(std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()};
}

// The port the server printed for its metrics ("Metrics on http://127.0.0.1:PORT/metrics").
int metrics_port(const Server& s) {
    const std::regex line("Metrics on http://127\\.0\\.0\\.1:([0-9]+)/metrics");
    for (int i = 0; i < 200; ++i) {
        std::smatch m;
        const std::string text = read_file(s.log);
        if (std::regex_search(text, m, line)) return std::stoi(m[1]);
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    return 0;
}

std::string scrape(int port) {
    int fd = connect_to(port);
    Response r = http(fd, "GET", "/metrics");
    close(fd);
    EXPECT_EQ(r.status, 200) << r.head;
    EXPECT_NE(r.head.find("text/plain; version=0.0.4"), std::string::npos) << r.head;
    return r.body;
}

// The value of one series ("outpost_moves_total", "outpost_errors_total{code=\"x\"}"); -1 if absent.
double value_of(const std::string& text, const std::string& series) {
    const std::string key = "\n" + series + " ";
    const size_t at = ("\n" + text).find(key);
    if (at == std::string::npos) return -1;
    return std::stod(text.substr(at + key.size() - 1));
}

// Plays `n` moves of a hotseat game on an open WebSocket whose state was read: each
// move waits for its acknowledgement. Returns the moves acknowledged.
std::vector<std::string> play(int fd, json state, int n, std::mt19937& rng) {
    std::vector<std::string> acked = state["moves"];
    for (int i = 0; i < n && state["status"] == "ongoing"; ++i) {
        const std::string m = random_move(state["legal"], rng, state["fen"]);
        if (m.empty()) break;
        EXPECT_TRUE(ws_send(fd, json{{"v", 1}, {"t", "move"}, {"uci", m}, {"ply", acked.size()}}.dump()));
        for (;;) {
            auto [op, text] = ws_read_data(fd, 5000);
            if (op != 1) {
                ADD_FAILURE() << "no acknowledgement of " << m;
                return acked;
            }
            const json msg = json::parse(text);
            if (msg["t"] != "move") continue;
            state = msg["game"];
            acked.push_back(m);
            break;
        }
    }
    return acked;
}

std::pair<int, json> open_game(int port, const std::string& id, const std::string& token) {
    auto [fd, status] = ws_open(port, "/api/v1/ws?game=" + id + "&seat=" + token, "");
    EXPECT_EQ(status, 101);
    for (;;) {
        auto [op, text] = ws_read_data(fd, 5000);
        if (op != 1) return {fd, json()};
        json msg = json::parse(text);
        if (msg["t"] == "state") return {fd, msg["game"]};
    }
}

TEST(Issue27Metrics, NumbersMoveWithAGameAndPromtoolFindsNothing) {
    Server s({"--metrics-listen", "127.0.0.1:0", "--max-connections-per-ip", "4"});
    ASSERT_GT(s.port, 0);
    const int mport = metrics_port(s);
    ASSERT_GT(mport, 0) << read_file(s.log);
    ASSERT_NE(mport, s.port);
    const std::string before = scrape(mport);
    for (const char* series : {"outpost_games_live", "outpost_connections", "outpost_moves_total",
                               "outpost_move_latency_seconds_count", "outpost_storage_write_seconds_count",
                               "outpost_wal_bytes", "outpost_robot_queue", "outpost_analysis_queue",
                               "process_cpu_seconds_total", "process_resident_memory_bytes", "process_open_fds",
                               "process_max_fds", "process_start_time_seconds", "process_virtual_memory_bytes"})
        EXPECT_GE(value_of(before, series), 0) << series << " is missing:\n" << before;
    EXPECT_NE(before.find("# TYPE outpost_limit_refusals_total counter"), std::string::npos);
    EXPECT_NE(before.find("# TYPE outpost_errors_total counter"), std::string::npos);
    const double started = value_of(before, "process_start_time_seconds");
    const double now = double(std::chrono::duration_cast<std::chrono::seconds>(
                                  std::chrono::system_clock::now().time_since_epoch()).count());
    EXPECT_NEAR(started, now, 120);

    // Never on the public port.
    {
        int fd = connect_to(s.port);
        const Response r = http(fd, "GET", "/metrics");
        close(fd);
        EXPECT_EQ(r.status, 404);
        EXPECT_EQ(r.body.find("outpost_"), std::string::npos) << r.body;
        fd = connect_to(mport);
        EXPECT_EQ(http(fd, "GET", "/").status, 404);
        EXPECT_EQ(http(fd, "POST", "/metrics", "{}").status, 405);
        close(fd);
    }

    // A game: six moves, one illegal move.
    auto [id, token] = hotseat_game(s.port);
    ASSERT_FALSE(id.empty());
    auto [fd, state] = open_game(s.port, id, token);
    ASSERT_TRUE(state.is_object());
    std::mt19937 rng(27);
    const auto acked = play(fd, state, 6, rng);
    ASSERT_EQ(acked.size(), 6u);
    ASSERT_TRUE(ws_send(fd, json{{"v", 1}, {"t", "move"}, {"uci", "a1a1"}, {"ply", 6}}.dump()));
    auto [op, text] = ws_read_data(fd, 5000);
    ASSERT_EQ(op, 1);
    EXPECT_NE(text.find("illegal_move"), std::string::npos) << text;
    const std::string during = scrape(mport);
    EXPECT_EQ(value_of(during, "outpost_moves_total"), value_of(before, "outpost_moves_total") + 6);
    EXPECT_EQ(value_of(during, "outpost_move_latency_seconds_count"),
              value_of(before, "outpost_move_latency_seconds_count") + 6);
    EXPECT_GT(value_of(during, "outpost_move_latency_seconds_sum"), value_of(before, "outpost_move_latency_seconds_sum"));
    EXPECT_GT(value_of(during, "outpost_storage_write_seconds_count"),
              value_of(before, "outpost_storage_write_seconds_count"));
    EXPECT_EQ(value_of(during, "outpost_errors_total{code=\"illegal_move\"}"),
              std::max(0.0, value_of(before, "outpost_errors_total{code=\"illegal_move\"}")) + 1);
    EXPECT_GE(value_of(during, "outpost_games_live"), 1);
    EXPECT_GE(value_of(during, "outpost_connections"), 1);
    EXPECT_GE(value_of(during, "outpost_websockets"), 1);
    close(fd);

    // A limit: a fifth connection of the address is refused (--max-connections-per-ip 4).
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the WebSocket's close seen
    std::vector<int> held;
    for (int i = 0; i < 5; ++i) held.push_back(connect_to(s.port));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const std::string after = scrape(mport);
    for (int f : held) close(f);
    EXPECT_GE(value_of(after, "outpost_limit_refusals_total{kind=\"connections\"}"), 1) << after;

    // Prometheus's own check of the exposition: it says nothing when all is well.
    const fs::path file = s.dir / "metrics.txt";
    std::ofstream(file) << after;
    const std::string command = "promtool check metrics < '" + file.string() + "' 2>&1";
    FILE* p = popen(command.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[512];
    while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    const int status = pclose(p);
    ASSERT_NE(WEXITSTATUS(status), 127) << "promtool is missing: install Debian's prometheus (scripts/install-deps.sh)";
    EXPECT_EQ(status, 0) << out;
    EXPECT_EQ(out, "") << after;
}

std::string cookie_of(const Response& r) {
    std::smatch m;
    std::regex_search(r.head, m, std::regex("outpost_session=([^;\\r\\n]+)"));
    return m.size() > 1 ? std::string(m[1]) : std::string();
}

TEST(Issue27Logs, AccessLinesAreJsonAndNoSecretReachesALine) {
    Server s({"--no-client-limits", "--log-format", "json", "--password-cost", "cheapest"}, {}, true);
    ASSERT_GT(s.port, 0);
    const std::string password = "Quiet-Harbour-27-lights";
    const std::string account = R"({"name":"loggeduser","password":")" + password + R"("})";
    const std::string json_type = "Content-Type: application/json\r\n";
    int fd = connect_to(s.port);
    const Response up = http(fd, "POST", "/api/v1/account/signup", account, json_type);
    ASSERT_EQ(up.status, 201) << up.body;
    const std::string cookie1 = cookie_of(up);
    ASSERT_GE(cookie1.size(), 40u);
    EXPECT_EQ(http(fd, "GET", "/api/v1/account", "", "Cookie: outpost_session=" + cookie1 + "\r\n").status, 200);
    const Response in = http(fd, "POST", "/api/v1/account/signin", account, json_type);
    ASSERT_EQ(in.status, 200) << in.body;
    const std::string cookie2 = cookie_of(in);
    ASSERT_GE(cookie2.size(), 40u);
    EXPECT_EQ(http(fd, "POST", "/api/v1/account/signin", R"({"name":"loggeduser","password":"Wrong-)" + password + R"("})",
                   json_type).status, 401);

    auto [id, token] = hotseat_game(s.port);
    ASSERT_FALSE(id.empty());
    EXPECT_EQ(http(fd, "GET", "/api/v1/games/" + id + "?seat=" + token, "", "Cookie: outpost_session=" + cookie2 + "\r\n")
                  .status, 200);
    close(fd);
    auto [ws, state] = open_game(s.port, id, token);
    std::mt19937 rng(5);
    EXPECT_EQ(play(ws, state, 4, rng).size(), 4u);
    close(ws);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the session's end is logged
    s.stop(SIGTERM);

    const std::string log = read_file(s.err_log);
    std::istringstream lines(log);
    int http_lines = 0, ws_lines = 0;
    std::set<std::string> request_ids;
    for (std::string line; std::getline(lines, line);) {
        for (const std::string& secret : {token, cookie1, cookie2, password})
            EXPECT_EQ(line.find(secret), std::string::npos) << "a secret in the log: " << line;
        EXPECT_EQ(line.find("outpost_session"), std::string::npos) << line;
        const json j = json::parse(line, nullptr, false);
        ASSERT_TRUE(j.is_object()) << "not a JSON line: " << line;
        for (const char* key : {"ts", "level", "msg"}) EXPECT_TRUE(j.contains(key)) << key << " missing: " << line;
        if (j["msg"] != "http" && j["msg"] != "websocket") continue;
        for (const char* key : {"request_id", "client", "method", "path", "status", "ms"})
            EXPECT_TRUE(j.contains(key)) << key << " missing: " << line;
        EXPECT_EQ(j["client"], "127.0.0.1");
        EXPECT_TRUE(request_ids.insert(j["request_id"].get<std::string>()).second) << "request id twice: " << line;
        if (j["msg"] == "http") {
            ++http_lines;
            if (j["path"] == "/api/v1/account/signup") {
                EXPECT_EQ(j["status"], 201);
            }
            if (j["status"] == 401) {
                EXPECT_EQ(j["level"], "warn");
            }
        } else {
            ++ws_lines;
            EXPECT_EQ(j["status"], 101);
            EXPECT_EQ(j["path"], "/api/v1/ws?game=" + id + "&seat=REDACTED");
        }
    }
    EXPECT_GE(http_lines, 6) << log;  // signup, account, signin twice, game, state
    EXPECT_EQ(ws_lines, 1) << log;
    EXPECT_NE(log.find("seat=REDACTED"), std::string::npos);
}

struct LiveGame {
    std::string id, token;
    int fd = -1;
    std::vector<std::string> acked;
    std::string in_flight;
    int close_code = 0;
    bool ended = false;
};

TEST(Issue27Sigterm, EveryWebSocketSees1012AndNoAcknowledgedMoveIsLost) {
    const fs::path dir = fs::temp_directory_path() / ("outpost-sigterm-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path db = dir / "t.db";
    Server s({"--no-client-limits"}, db);
    ASSERT_GT(s.port, 0);
    std::mt19937 rng(1012);
    std::vector<LiveGame> games(24);
    for (LiveGame& g : games) {
        std::tie(g.id, g.token) = hotseat_game(s.port);
        ASSERT_FALSE(g.id.empty());
        json state;
        std::tie(g.fd, state) = open_game(s.port, g.id, g.token);
        ASSERT_TRUE(state.is_object());
        g.in_flight = random_move(state["legal"], rng, state["fen"]);
        ASSERT_TRUE(ws_send(g.fd, json{{"v", 1}, {"t", "move"}, {"uci", g.in_flight}, {"ply", 0}}.dump()));
    }
    // Each game answers its acknowledgement with its next move; SIGTERM lands among them.
    const auto term_at = Steady::now() + std::chrono::milliseconds(700);
    Steady::time_point termed{};
    long acked_before_term = 0;
    for (;;) {
        if (termed == Steady::time_point{} && Steady::now() >= term_at) {
            termed = Steady::now();
            ::kill(s.pid, SIGTERM);
            for (const LiveGame& g : games) acked_before_term += long(g.acked.size());
        }
        std::vector<pollfd> fds;
        std::vector<LiveGame*> of;
        for (LiveGame& g : games)
            if (!g.ended) fds.push_back({g.fd, POLLIN, 0}), of.push_back(&g);
        if (fds.empty()) break;
        if (termed != Steady::time_point{} && Steady::now() - termed > std::chrono::seconds(8)) break;
        if (poll(fds.data(), fds.size(), 50) <= 0) continue;
        for (size_t i = 0; i < fds.size(); ++i) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            LiveGame& g = *of[i];
            auto [op, text] = ws_read_data(g.fd, 2000);
            if (op == 8) {  // the server's close: answered and the connection closed, as a browser does
                g.close_code = text.size() >= 2 ? ((unsigned char)text[0] << 8) | (unsigned char)text[1] : 0;
                ws_send(g.fd, text.substr(0, 2), 8);
                close(g.fd);
                g.fd = -1;
                g.ended = true;
                continue;
            }
            if (op != 1) {
                g.ended = true;
                continue;
            }
            const json msg = json::parse(text);
            if (msg["t"] != "move" || msg["game"]["uci"] != g.in_flight) continue;
            g.acked.push_back(g.in_flight);  // acknowledged: durable from now on
            const json& d = msg["game"];
            if (d["status"] != "ongoing") continue;
            g.in_flight = random_move(d["legal"], rng, d["fen"]);
            ws_send(g.fd, json{{"v", 1}, {"t", "move"}, {"uci", g.in_flight}, {"ply", g.acked.size()}}.dump());
        }
    }
    ASSERT_NE(termed, Steady::time_point{});
    // The process ends within 5 s of the signal, normally.
    int status = 0;
    pid_t done = 0;
    while ((done = waitpid(s.pid, &status, WNOHANG)) == 0 && Steady::now() - termed < std::chrono::seconds(10))
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const double took = std::chrono::duration<double>(Steady::now() - termed).count();
    ASSERT_EQ(done, s.pid) << "still running 10 s after SIGTERM";
    s.pid = -1;
    EXPECT_LT(took, 5.0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;

    long acked = 0;
    for (LiveGame& g : games) {
        if (g.fd >= 0) close(g.fd);
        EXPECT_EQ(g.close_code, 1012) << "game " << g.id;
        const std::vector<std::string> stored = stored_moves(db.string(), g.id);
        ASSERT_GE(stored.size(), g.acked.size()) << "game " << g.id << ": an acknowledged move is not in the database";
        EXPECT_TRUE(std::equal(g.acked.begin(), g.acked.end(), stored.begin())) << g.id;
        acked += long(g.acked.size());
    }
    EXPECT_GT(acked_before_term, 50) << "too few moves before the signal for the test to mean something";
    std::printf("[ SIGTERM ] %zu games, %ld moves acknowledged (%ld before the signal), stopped in %.2f s\n",
                games.size(), acked, acked_before_term, took);
    fs::remove_all(dir);
}

}  // namespace
