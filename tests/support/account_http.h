// Outpost — accounts over HTTP and WebSockets opened under a session, for the tests of
// a real `outpost serve` (one node or several): sign up or in, a request with the
// session's cookie, a WebSocket opened with it, and the close frame a session's end sends.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <utility>

#include "serve_process.h"

namespace outpost::test {

inline constexpr const char* Password = "a long enough password";

inline std::string json_headers(const std::string& cookie) {
    return "Content-Type: application/json\r\nOrigin: http://127.0.0.1\r\n" +
           (cookie.empty() ? std::string() : "Cookie: " + cookie + "\r\n");
}

// One request on a connection of its own.
inline Response request(int port, const std::string& method, const std::string& target, const std::string& body,
                 const std::string& cookie) {
    int fd = connect_to(port);
    Response r = http(fd, method, target, body, method == "POST" ? json_headers(cookie) : "Cookie: " + cookie + "\r\n");
    close(fd);
    return r;
}

inline std::string cookie_of(const Response& r) {
    std::smatch m;
    if (!std::regex_search(r.head, m, std::regex("[Ss]et-[Cc]ookie: (outpost_session=[A-Za-z0-9]+)"))) return "";
    return m[1];
}

inline std::string sign_in(int port, const std::string& name, bool up) {
    const std::string body = R"({"v":1,"name":")" + name + R"(","password":")" + Password + "\"}";
    Response r = request(port, "POST", up ? "/api/v1/account/signup" : "/api/v1/account/signin", body, "");
    EXPECT_EQ(r.status, up ? 201 : 200) << r.body;
    return cookie_of(r);
}

// A WebSocket opened with the session cookie; the fd, after the first message.
inline int ws_with_cookie(int port, const std::string& target, const std::string& cookie) {
    int fd = connect_to(port);
    std::string req = upgrade_request(port, target, "http://127.0.0.1:" + std::to_string(port));
    req.insert(req.size() - 2, "Cookie: " + cookie + "\r\n");
    if (fd < 0 || !send_all(fd, req)) return -1;
    std::string data;
    while (data.find("\r\n\r\n") == std::string::npos) {
        std::string more = read_some(fd, 1);
        if (more.empty()) return -1;
        data += more;
    }
    if (data.find(" 101 ") == std::string::npos) return -1;
    auto [op, first] = ws_read_data(fd);
    if (op != 1) return -1;
    return fd;
}

// Waits for the server's close frame: {its code, its reason}; {-1, ""} when none came
// within ms (data frames on the way are skipped).
inline std::pair<int, std::string> close_of(int fd, int ms) {
    for (;;) {
        auto [op, payload] = ws_read_data(fd, ms);
        if (op == 8) {
            if (payload.size() < 2) return {0, ""};
            return {(static_cast<unsigned char>(payload[0]) << 8) | static_cast<unsigned char>(payload[1]), payload.substr(2)};
        }
        if (op < 0) return {-1, ""};
    }
}

// The socket still answers: a ping message gets its pong.
inline bool still_open(int fd) {
    if (!ws_send(fd, R"({"v":1,"t":"ping"})")) return false;
    for (int i = 0; i < 10; ++i) {
        auto [op, text] = ws_read_data(fd, 3000);
        if (op != 1) return false;
        if (text.find("pong") != std::string::npos) return true;
    }
    return false;
}

inline std::string who_am_i(int port, const std::string& cookie) {
    return request(port, "GET", "/api/v1/account", "", cookie).body;
}

struct Sockets {
    int lobby = -1, game = -1;
    ~Sockets() {
        if (lobby >= 0) close(lobby);
        if (game >= 0) close(game);
    }
};

// A lobby socket and a game socket of the account behind `cookie`.
inline void open_sockets(int port, const std::string& cookie, Sockets& s) {
    s.lobby = ws_with_cookie(port, "/api/v1/lobby", cookie);
    Response made = request(port, "POST", "/api/v1/games",
                            R"({"v":1,"opponent":"hotseat","color":"white","time_control":"5+3"})", cookie);
    ASSERT_EQ(made.status, 201) << made.body;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(made.body, m, std::regex(R"re("game":"([A-Za-z0-9]+)".*"white":"([A-Za-z0-9]+)")re")));
    s.game = ws_with_cookie(port, "/api/v1/ws?game=" + std::string(m[1]) + "&seat=" + std::string(m[2]), cookie);
    ASSERT_GE(s.lobby, 0);
    ASSERT_GE(s.game, 0);
}

}  // namespace outpost::test
