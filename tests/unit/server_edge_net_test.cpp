// Outpost — the network edge against a real `outpost serve` on 127.0.0.1: security
// headers, JSON-only POST, the WebSocket Origin policy, rate limits, the connection
// cap and the byte-bounded send queue (docs/protocol.md, "Limits"). Plain POSIX
// sockets and a minimal WebSocket client, so that the test needs no network library.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Server {
    pid_t pid = -1;
    int port = 0;
    fs::path dir;
    explicit Server(std::vector<std::string> extra) {
        dir = fs::temp_directory_path() / ("outpost-edge-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
        fs::create_directories(dir);
        const std::string log = (dir / "serve.log").string();
        std::vector<std::string> args = {OUTPOST_BINARY, "serve", "--host", "127.0.0.1", "--port", "0", "--db",
                                         (dir / "t.db").string(), "--web", "/nonexistent", "--robot-threads", "1"};
        args.insert(args.end(), extra.begin(), extra.end());
        pid = fork();
        if (pid == 0) {
            FILE* f = std::freopen(log.c_str(), "w", stdout);
            (void)f;
            std::vector<char*> argv;
            for (auto& a : args) argv.push_back(a.data());
            argv.push_back(nullptr);
            execv(argv[0], argv.data());
            _exit(127);
        }
        const std::regex serving("http://[^:]+:([0-9]+)/");
        for (int i = 0; i < 300 && !port; ++i) {
            std::ifstream in(log);
            std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            std::smatch m;
            if (std::regex_search(text, m, serving)) port = std::stoi(m[1]);
            else std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    ~Server() {
        if (pid > 0) {
            kill(pid, SIGTERM);
            int status = 0;
            waitpid(pid, &status, 0);
        }
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    static int& counter() {
        static int n = 0;
        return n;
    }
};

int connect_to(int port, int rcvbuf = 0) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (rcvbuf) setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(uint16_t(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

bool send_all(int fd, const std::string& s) {
    size_t off = 0;
    while (off < s.size()) {
        ssize_t n = send(fd, s.data() + off, s.size() - off, MSG_NOSIGNAL);
        if (n <= 0) return false;
        off += size_t(n);
    }
    return true;
}

// Reads up to n bytes, waiting at most ms for each; "" on end of stream or timeout.
std::string read_some(int fd, size_t n, int ms = 3000) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, ms) <= 0) return "";
    std::string buf(n, '\0');
    ssize_t got = recv(fd, buf.data(), n, 0);
    if (got <= 0) return "";
    buf.resize(size_t(got));
    return buf;
}

bool read_exact(int fd, std::string& out, size_t n, int ms = 3000) {
    while (out.size() < n) {
        std::string more = read_some(fd, n - out.size(), ms);
        if (more.empty()) return false;
        out += more;
    }
    return true;
}

struct Response {
    int status = 0;
    std::string head, body;
};

// One HTTP/1.1 exchange on a kept-alive connection (Content-Length bodies only).
Response http(int fd, const std::string& method, const std::string& target, const std::string& body = "",
              const std::string& extra_headers = "") {
    Response r;
    std::string req = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra_headers;
    if (!body.empty() || method == "POST") req += "Content-Length: " + std::to_string(body.size()) + "\r\n";
    req += "\r\n" + body;
    if (!send_all(fd, req)) return r;
    std::string data;
    while (data.find("\r\n\r\n") == std::string::npos) {
        std::string more = read_some(fd, 4096);
        if (more.empty()) return r;
        data += more;
    }
    const size_t end = data.find("\r\n\r\n");
    r.head = data.substr(0, end);
    r.body = data.substr(end + 4);
    r.status = std::stoi(r.head.substr(9, 3));
    std::smatch m;
    size_t length = 0;
    if (std::regex_search(r.head, m, std::regex("[Cc]ontent-[Ll]ength: *([0-9]+)"))) length = std::stoul(m[1]);
    read_exact(fd, r.body, length);
    return r;
}

std::string upgrade_request(int port, const std::string& target, const std::string& origin) {
    std::string req = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
                      "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    if (!origin.empty()) req += "Origin: " + origin + "\r\n";
    return req + "\r\n";
}

// Opens a WebSocket; returns the fd (or -1) and the answer's status.
std::pair<int, int> ws_open(int port, const std::string& target, const std::string& origin, int rcvbuf = 0) {
    int fd = connect_to(port, rcvbuf);
    if (fd < 0 || !send_all(fd, upgrade_request(port, target, origin))) return {-1, 0};
    std::string data;
    while (data.find("\r\n\r\n") == std::string::npos) {
        std::string more = read_some(fd, 1);  // byte by byte: leave the frames after it unread
        if (more.empty()) break;
        data += more;
    }
    const int status = data.size() > 12 ? std::stoi(data.substr(9, 3)) : 0;
    return {fd, status};
}

bool ws_send(int fd, const std::string& text) {
    std::string f;
    f += char(0x81);  // FIN, text
    if (text.size() < 126) f += char(0x80 | text.size());
    else {
        f += char(0x80 | 126);
        f += char(text.size() >> 8);
        f += char(text.size() & 0xff);
    }
    const char mask[4] = {1, 2, 3, 4};
    f.append(mask, 4);
    for (size_t i = 0; i < text.size(); ++i) f += char(text[i] ^ mask[i % 4]);
    return send_all(fd, f);
}

// The next frame: {opcode, payload}; opcode -1 at end of stream.
std::pair<int, std::string> ws_read(int fd, int ms = 3000) {
    std::string h;
    if (!read_exact(fd, h, 2, ms)) return {-1, ""};
    const int opcode = h[0] & 0x0f;
    size_t len = size_t(h[1] & 0x7f);
    if (len == 126) {
        std::string x;
        if (!read_exact(fd, x, 2, ms)) return {-1, ""};
        len = (size_t((unsigned char)x[0]) << 8) | (unsigned char)x[1];
    } else if (len == 127) {
        std::string x;
        if (!read_exact(fd, x, 8, ms)) return {-1, ""};
        len = 0;
        for (char c : x) len = (len << 8) | (unsigned char)c;
    }
    std::string payload;
    if (!read_exact(fd, payload, len, ms)) return {-1, ""};
    return {opcode, payload};
}

std::pair<std::string, std::string> hotseat_game(int port) {
    int fd = connect_to(port);
    Response r = http(fd, "POST", "/api/v1/games", R"({"v":1,"opponent":"hotseat","color":"white","time_control":"-"})",
                      "Content-Type: application/json\r\n");
    close(fd);
    std::smatch m;
    std::regex_search(r.body, m, std::regex(R"re("game":"([A-Za-z0-9]+)".*"white":"([A-Za-z0-9]+)")re"));
    return {m[1], m[2]};
}

TEST(EdgeServe, SecurityHeadersOnEveryAnswerAndJsonOnlyPosts) {
    Server s({});
    ASSERT_GT(s.port, 0);
    int fd = connect_to(s.port);
    for (const char* target : {"/", "/api/v1/levels", "/api/v1/games/nothere"}) {
        Response r = http(fd, "GET", target);
        EXPECT_NE(r.head.find("frame-ancestors 'none'"), std::string::npos) << target << "\n" << r.head;
        EXPECT_NE(r.head.find("X-Frame-Options: DENY"), std::string::npos) << target;
        EXPECT_NE(r.head.find("X-Content-Type-Options: nosniff"), std::string::npos) << target;
    }
    // A text/plain POST is what any web page may send cross-site without a preflight.
    Response plain = http(fd, "POST", "/api/v1/games", R"({"v":1,"opponent":"hotseat"})", "Content-Type: text/plain\r\n");
    EXPECT_EQ(plain.status, 415);
    EXPECT_NE(plain.body.find("\"bad_request\""), std::string::npos);
    Response none = http(fd, "POST", "/api/v1/games", R"({"v":1,"opponent":"hotseat"})");
    EXPECT_EQ(none.status, 415);
    Response json = http(fd, "POST", "/api/v1/games", R"({"v":1,"opponent":"hotseat"})", "Content-Type: application/json\r\n");
    EXPECT_EQ(json.status, 201) << json.body;
    close(fd);
}

TEST(EdgeServe, WebSocketsOnlyFromThisServersPages) {
    Server s({"--allow-origin", "https://club.example.org"});
    ASSERT_GT(s.port, 0);
    auto [game, seat] = hotseat_game(s.port);
    ASSERT_FALSE(game.empty());
    const std::string target = "/api/v1/ws?game=" + game;
    auto evil = ws_open(s.port, target, "http://evil.example");
    EXPECT_EQ(evil.second, 403);
    close(evil.first);
    auto null_origin = ws_open(s.port, target, "null");
    EXPECT_EQ(null_origin.second, 403);
    close(null_origin.first);
    for (const std::string& origin : {"http://127.0.0.1:" + std::to_string(s.port), std::string("https://club.example.org"), std::string()}) {
        auto ok = ws_open(s.port, target, origin);
        EXPECT_EQ(ok.second, 101) << origin;
        close(ok.first);
    }
}

TEST(EdgeServe, HttpFloodGets429WithRateLimited) {
    Server s({});
    ASSERT_GT(s.port, 0);
    int fd = connect_to(s.port);
    int ok = 0, limited = 0;
    for (int i = 0; i < 1000 && limited == 0; ++i) {
        Response r = http(fd, "GET", "/api/v1/levels");
        if (r.status == 200) ++ok;
        if (r.status == 429) {
            ++limited;
            EXPECT_NE(r.body.find("\"rate_limited\""), std::string::npos);
            EXPECT_NE(r.head.find("Retry-After"), std::string::npos);
        }
    }
    close(fd);
    EXPECT_GE(ok, 400);  // the burst: far more than a page load
    EXPECT_EQ(limited, 1);
    // Game creation has a bucket of its own.
    fd = connect_to(s.port);
    int created = 0;
    limited = 0;
    for (int i = 0; i < 200 && limited == 0; ++i) {
        Response r = http(fd, "POST", "/api/v1/games", R"({"v":1,"opponent":"hotseat"})", "Content-Type: application/json\r\n");
        created += r.status == 201;
        limited += r.status == 429;
    }
    close(fd);
    EXPECT_EQ(limited, 1);
    EXPECT_LT(created, 100);
}

TEST(EdgeServe, WebSocketFloodIsAnsweredThenClosed) {
    Server s({});
    ASSERT_GT(s.port, 0);
    auto [game, seat] = hotseat_game(s.port);
    auto [fd, status] = ws_open(s.port, "/api/v1/ws?game=" + game + "&seat=" + seat, "");
    ASSERT_EQ(status, 101);
    int sent = 0;
    for (; sent < 2000; ++sent)
        if (!ws_send(fd, R"({"v":1,"t":"ping"})")) break;
    bool rate_limited = false, closed = false;
    for (int i = 0; i < 5000; ++i) {
        auto [op, payload] = ws_read(fd);
        if (op == -1 || op == 8) {
            closed = true;
            break;
        }
        if (payload.find("\"rate_limited\"") != std::string::npos) rate_limited = true;
    }
    close(fd);
    EXPECT_TRUE(rate_limited);
    EXPECT_TRUE(closed) << "the flooding connection stayed open";
}

TEST(EdgeServe, ConnectionsPerAddressAreCapped) {
    Server s({"--max-connections-per-ip", "4"});
    ASSERT_GT(s.port, 0);
    std::vector<int> open;
    for (int i = 0; i < 4; ++i) {
        open.push_back(connect_to(s.port));
        EXPECT_EQ(http(open.back(), "GET", "/api/v1/levels").status, 200);
    }
    int extra = connect_to(s.port);
    EXPECT_EQ(http(extra, "GET", "/api/v1/levels").status, 0) << "a fifth connection was served";
    close(extra);
    close(open.back());
    open.pop_back();
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    int again = connect_to(s.port);
    EXPECT_EQ(http(again, "GET", "/api/v1/levels").status, 200) << "a closed connection still counted";
    close(again);
    for (int fd : open) close(fd);
}

// Issue 9.3: `sync` floods from a client that reads nothing grew the server by hundreds
// of MB. The queue is bounded in bytes: the reader is disconnected instead.
TEST(EdgeServe, SlowReaderIsDisconnected) {
    Server s({"--no-client-limits", "--send-queue-bytes", "65536"});
    ASSERT_GT(s.port, 0);
    auto [game, seat] = hotseat_game(s.port);
    auto [fd, status] = ws_open(s.port, "/api/v1/ws?game=" + game + "&seat=" + seat, "", 4096);
    ASSERT_EQ(status, 101);
    const int Syncs = 20000;
    int sent = 0;
    for (; sent < Syncs; ++sent)
        if (!ws_send(fd, R"({"v":1,"t":"sync"})")) break;
    int states = 0;
    for (;;) {
        auto [op, payload] = ws_read(fd, 5000);
        if (op == -1 || op == 8) break;
        ++states;
    }
    close(fd);
    EXPECT_LT(states, Syncs) << "every state was queued for a reader that did not read";
}

}  // namespace
