// Outpost tests — a real `outpost serve` in a process of its own, and a minimal HTTP and
// WebSocket client over plain POSIX sockets (so that the tests need no network library):
// for the edge tests (tests/unit/server_edge_net_test.cpp) and the kill -9 durability
// test (tests/slow/serve_kill_test.cpp).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace outpost::test {

namespace fs = std::filesystem;

// `outpost serve` on 127.0.0.1 and a free port, in a process of its own. Its database
// is `db` (kept), or t.db in a temporary directory removed at the end. Its standard
// error goes to `err_log` when `capture_stderr` (a test reads what it logged), else to
// the test's.
struct Server {
    pid_t pid = -1;
    int port = 0;
    fs::path dir;
    std::string log;  // its standard output
    std::string err_log;  // its standard error, when captured (else the test's own)
    bool own_dir = false;
    explicit Server(std::vector<std::string> extra, fs::path db = {}, bool capture_stderr = false) {
        if (db.empty()) {
            dir = fs::temp_directory_path() / ("outpost-serve-" + std::to_string(::getpid()) + "-" + std::to_string(counter()++));
            fs::create_directories(dir);
            db = dir / "t.db";
            own_dir = true;
        } else {
            dir = db.parent_path();
        }
        log = (dir / ("serve-" + std::to_string(counter()++) + ".log")).string();
        if (capture_stderr) err_log = log + ".err";
        std::vector<std::string> args = {OUTPOST_BINARY, "serve", "--host", "127.0.0.1", "--port", "0", "--db",
                                         db.string(), "--web", "/nonexistent", "--robot-threads", "1"};
        args.insert(args.end(), extra.begin(), extra.end());
        pid = fork();
        if (pid == 0) {
            FILE* f = std::freopen(log.c_str(), "w", stdout);
            if (!err_log.empty()) f = std::freopen(err_log.c_str(), "w", stderr);
            (void)f;
            std::vector<char*> argv;
            for (auto& a : args) argv.push_back(a.data());
            argv.push_back(nullptr);
            execv(argv[0], argv.data());
            _exit(127);
        }
        const std::regex serving("https?://[^:]+:([0-9]+)/");
        for (int i = 0; i < 300 && !port; ++i) {
            std::ifstream in(log);
            std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            std::smatch m;
            if (std::regex_search(text, m, serving)) port = std::stoi(m[1]);
            else std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;
    ~Server() {
        stop(SIGTERM);
        std::error_code ec;
        if (own_dir) fs::remove_all(dir, ec);
    }
    // Ends the server with this signal (SIGKILL: no chance to finish anything) and
    // waits for it. A server told to stop (SIGTERM) must finish by itself: one that dies
    // of another signal on the way out (a crash in its shutdown) fails the test.
    // Returns waitpid's status (0 when it was not running).
    int stop(int signal) {
        if (pid <= 0) return 0;
        ::kill(pid, signal);
        int status = 0;
        waitpid(pid, &status, 0);
        pid = -1;
        if (signal == SIGTERM && WIFSIGNALED(status) && WTERMSIG(status) != SIGTERM) {
            own_dir = false;  // kept, for its logs
            ADD_FAILURE() << "outpost serve died of signal " << WTERMSIG(status) << " (" << strsignal(WTERMSIG(status))
                          << ") while stopping; its output: " << log << (err_log.empty() ? "" : ", " + err_log);
        }
        return status;
    }
    static int& counter() {
        static int n = 0;
        return n;
    }
};

inline int connect_to(int port, int rcvbuf = 0) {
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

inline bool send_all(int fd, const std::string& s) {
    size_t off = 0;
    while (off < s.size()) {
        ssize_t n = send(fd, s.data() + off, s.size() - off, MSG_NOSIGNAL);
        if (n <= 0) return false;
        off += size_t(n);
    }
    return true;
}

// Reads up to n bytes, waiting at most ms for each; "" on end of stream or timeout.
inline std::string read_some(int fd, size_t n, int ms = 10000) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, ms) <= 0) return "";
    std::string buf(n, '\0');
    ssize_t got = recv(fd, buf.data(), n, 0);
    if (got <= 0) return "";
    buf.resize(size_t(got));
    return buf;
}

inline bool read_exact(int fd, std::string& out, size_t n, int ms = 3000) {
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
inline Response http(int fd, const std::string& method, const std::string& target, const std::string& body = "",
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

inline std::string upgrade_request(int port, const std::string& target, const std::string& origin) {
    std::string req = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port) +
                      "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    if (!origin.empty()) req += "Origin: " + origin + "\r\n";
    return req + "\r\n";
}

// Opens a WebSocket on a connected socket: the answer's status (101 when open); its
// head in `head` if asked.
inline int ws_handshake(int fd, int port, const std::string& target, const std::string& origin,
                        std::string* head = nullptr) {
    if (!send_all(fd, upgrade_request(port, target, origin))) return 0;
    std::string data;
    while (data.find("\r\n\r\n") == std::string::npos) {
        std::string more = read_some(fd, 1);  // byte by byte: leave the frames after it unread
        if (more.empty()) break;
        data += more;
    }
    if (head) *head = data;
    return data.size() > 12 ? std::stoi(data.substr(9, 3)) : 0;
}

// Opens a WebSocket; returns the fd (or -1) and the answer's status.
inline std::pair<int, int> ws_open(int port, const std::string& target, const std::string& origin, int rcvbuf = 0) {
    int fd = connect_to(port, rcvbuf);
    if (fd < 0) return {-1, 0};
    return {fd, ws_handshake(fd, port, target, origin)};
}

inline bool ws_send(int fd, const std::string& text, int opcode = 1) {
    std::string f;
    f += char(0x80 | opcode);  // FIN, text (or another opcode)
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

// The next frame: {opcode, payload}; opcode -1 at end of stream. A message the
// server sent in fragments (Beast splits long ones) comes back whole; control frames
// between its fragments are dropped.
inline std::pair<int, std::string> ws_read(int fd, int ms = 3000) {
    int first_opcode = -1;
    std::string message;
    for (;;) {
        std::string h;
        if (!read_exact(fd, h, 2, ms)) return {-1, ""};
        const bool fin = (h[0] & 0x80) != 0;
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
        if (opcode >= 8) {
            if (first_opcode < 0) return {opcode, payload};  // a control frame on its own
            continue;
        }
        if (first_opcode < 0) first_opcode = opcode;
        message += payload;
        if (fin) return {first_opcode, message};
    }
}

// The next data frame, answering the server's pings on the way: {opcode, payload};
// opcode -1 at end of stream, 8 when the server closed.
inline std::pair<int, std::string> ws_read_data(int fd, int ms = 3000) {
    for (;;) {
        auto [op, payload] = ws_read(fd, ms);
        if (op == 9) {
            ws_send(fd, payload, 10);
            continue;
        }
        if (op == 10) continue;
        return {op, payload};
    }
}

// Creates an untimed hotseat game: {game id, the seat token of both sides}.
inline std::pair<std::string, std::string> hotseat_game(int port) {
    int fd = connect_to(port);
    Response r = http(fd, "POST", "/api/v1/games", R"({"v":1,"opponent":"hotseat","color":"white","time_control":"-"})",
                      "Content-Type: application/json\r\n");
    close(fd);
    std::smatch m;
    std::regex_search(r.body, m, std::regex(R"re("game":"([A-Za-z0-9]+)".*"white":"([A-Za-z0-9]+)")re"));
    return {m[1], m[2]};
}

}  // namespace outpost::test
