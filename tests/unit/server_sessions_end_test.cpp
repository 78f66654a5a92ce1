// Outpost — sessions that end (issue 25 item 5; SPEC D9): signing out everywhere, a
// password change and an administrator disabling an account close every WebSocket of
// the account at once, with close code 4001 and a reason (docs/protocol.md, "Sessions
// that end"), and the session cookie stops working at once. Against a real server.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include "../support/account_http.h"
#include "../support/run_outpost.h"
#include "../support/serve_process.h"

using namespace outpost::test;

TEST(SessionsEnd25, SigningOutEverywhereClosesTheLobbyAndGameSocketsAtOnce) {
    Server server({"--password-cost", "cheapest"});
    ASSERT_GT(server.port, 0);
    const std::string here = sign_in(server.port, "Anna", true);
    const std::string there = sign_in(server.port, "Anna", false);
    Sockets a, b;
    open_sockets(server.port, here, a);
    open_sockets(server.port, there, b);
    Response out = request(server.port, "POST", "/api/v1/account/signout-all", "{}", here);
    ASSERT_EQ(out.status, 200) << out.body;
    for (int fd : {a.lobby, a.game, b.lobby, b.game}) {
        auto [code, reason] = close_of(fd, 2000);
        EXPECT_EQ(code, 4001);
        EXPECT_EQ(reason, "signed out everywhere");
    }
    // The cookies open nothing any more.
    EXPECT_NE(who_am_i(server.port, there).find("\"account\":null"), std::string::npos);
    EXPECT_NE(who_am_i(server.port, here).find("\"account\":null"), std::string::npos);
}

TEST(SessionsEnd25, APasswordChangeClosesTheOtherSessionsSocketsAndKeepsItsOwn) {
    Server server({"--password-cost", "cheapest"});
    ASSERT_GT(server.port, 0);
    const std::string mine = sign_in(server.port, "Boris", true);
    const std::string other = sign_in(server.port, "Boris", false);
    Sockets keep, lose;
    open_sockets(server.port, mine, keep);
    open_sockets(server.port, other, lose);
    const std::string body = std::string(R"({"v":1,"old":")") + Password + R"(","new":"another long password"})";
    Response changed = request(server.port, "POST", "/api/v1/account/password", body, mine);
    ASSERT_EQ(changed.status, 200) << changed.body;
    for (int fd : {lose.lobby, lose.game}) {
        auto [code, reason] = close_of(fd, 2000);
        EXPECT_EQ(code, 4001);
        EXPECT_EQ(reason, "password changed");
    }
    EXPECT_TRUE(still_open(keep.lobby));
    EXPECT_TRUE(still_open(keep.game));
    EXPECT_NE(who_am_i(server.port, other).find("\"account\":null"), std::string::npos);
    EXPECT_NE(who_am_i(server.port, mine).find("\"name\":\"Boris\""), std::string::npos);
}

TEST(SessionsEnd25, AnAdministratorDisablingAnAccountClosesItsSocketsAndItCannotSignIn) {
    const fs::path dir = fs::temp_directory_path() / ("outpost-sessions-end-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string db = (dir / "t.db").string();
    const std::string password_file = (dir / "password").string();
    std::ofstream(password_file) << Password << "\n";
    CliRun made = run_outpost("user --db " + shell_quote(db) + " add Root --admin < " + shell_quote(password_file));
    ASSERT_EQ(made.exit_code, 0) << made.err;
    {
        Server server({"--password-cost", "cheapest"}, db);
        ASSERT_GT(server.port, 0);
        const std::string root = sign_in(server.port, "Root", false);
        const std::string chen = sign_in(server.port, "Chen", true);
        Sockets s;
        open_sockets(server.port, chen, s);
        // A player is refused, and nothing closes.
        EXPECT_EQ(request(server.port, "POST", "/api/v1/admin/accounts/Root/signout", "{}", chen).status, 403);
        EXPECT_TRUE(still_open(s.lobby));
        // Through the real edge: a guest, a player, and another site's page with the
        // admin's own cookie are refused (SPEC D9).
        auto with_origin = [&](const std::string& method, const std::string& target, const std::string& origin) {
            int fd = connect_to(server.port);
            std::string headers = "Cookie: " + root + "\r\nOrigin: " + origin + "\r\n";
            if (method == "POST") headers += "Content-Type: application/json\r\n";
            Response r = http(fd, method, target, method == "POST" ? "{}" : "", headers);
            close(fd);
            return r.status;
        };
        EXPECT_EQ(request(server.port, "GET", "/api/v1/admin/overview", "", "").status, 401);
        EXPECT_EQ(request(server.port, "GET", "/api/v1/admin/overview", "", chen).status, 403);
        EXPECT_EQ(with_origin("GET", "/api/v1/admin/overview", "https://evil.example"), 403);
        EXPECT_EQ(with_origin("POST", "/api/v1/admin/accounts/Chen/disable", "https://evil.example"), 403);
        EXPECT_EQ(with_origin("GET", "/api/v1/admin/overview", "http://127.0.0.1"), 200);
        EXPECT_TRUE(still_open(s.lobby));
        Response off = request(server.port, "POST", "/api/v1/admin/accounts/Chen/disable", "{}", root);
        ASSERT_EQ(off.status, 200) << off.body;
        for (int fd : {s.lobby, s.game}) {
            auto [code, reason] = close_of(fd, 2000);
            EXPECT_EQ(code, 4001);
            EXPECT_EQ(reason, "account disabled");
        }
        EXPECT_NE(who_am_i(server.port, chen).find("\"account\":null"), std::string::npos);
        const std::string body = R"({"v":1,"name":"Chen","password":")" + std::string(Password) + "\"}";
        Response again = request(server.port, "POST", "/api/v1/account/signin", body, "");
        EXPECT_EQ(again.status, 403);
        EXPECT_NE(again.body.find("account_disabled"), std::string::npos);
        // `outpost user logout` from another process while the server runs: the
        // server notices within a few seconds (edge/session_sweep.h).
        const std::string dana = sign_in(server.port, "Dana", true);
        Sockets d;
        open_sockets(server.port, dana, d);
        CliRun out = run_outpost("user --db " + shell_quote(db) + " logout Dana");
        ASSERT_EQ(out.exit_code, 0) << out.err;
        for (int fd : {d.lobby, d.game}) {
            auto [code, reason] = close_of(fd, 8000);
            EXPECT_EQ(code, 4001);
            EXPECT_EQ(reason, "session ended");
        }
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
}
