// Outpost — sessions that end (issue 25 item 5, docs/protocol.md "Sessions that end")
// across nodes (issue 26): an account's session ended on one node closes its WebSockets
// on another within the 3 s of the other node's sweep (it reads the sessions of its
// open WebSockets from the shared database), and the cookie stops working on every node
// at once. Real PostgreSQL and Redis (tests/support/cluster.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include "../support/account_http.h"
#include "../support/cluster.h"

namespace {

using namespace outpost::test;

const std::vector<std::string> CheapPasswords{"--password-cost", "cheapest"};

TEST(ClusterSessionsIssue26, SigningOutEverywhereOnOneNodeClosesTheSocketsOnAnother) {
    Cluster c;
    ASSERT_FALSE(c.url.empty()) << "no PostgreSQL";
    ASSERT_GT(c.start("a", CheapPasswords).port, 0);
    ASSERT_GT(c.start("b", CheapPasswords).port, 0);
    const std::string on_a = sign_in(c.port("a"), "Anna", true);
    const std::string on_b = sign_in(c.port("b"), "Anna", false);
    ASSERT_FALSE(on_a.empty());
    ASSERT_FALSE(on_b.empty());
    Sockets there;
    open_sockets(c.port("b"), on_b, there);
    EXPECT_TRUE(still_open(there.lobby));
    Response out = request(c.port("a"), "POST", "/api/v1/account/signout-all", "{}", on_a);
    ASSERT_EQ(out.status, 200) << out.body;
    // Node b learns it from the database at its next sweep (every 3 s).
    for (int fd : {there.lobby, there.game}) {
        auto [code, reason] = close_of(fd, 6000);
        EXPECT_EQ(code, 4001);
        EXPECT_EQ(reason, "session ended");
    }
    EXPECT_NE(who_am_i(c.port("b"), on_b).find("\"account\":null"), std::string::npos);
    EXPECT_NE(who_am_i(c.port("a"), on_b).find("\"account\":null"), std::string::npos);
}

TEST(ClusterSessionsIssue26, APasswordChangeOnOneNodeClosesTheOtherSessionsSocketsOnAnother) {
    Cluster c;
    ASSERT_FALSE(c.url.empty()) << "no PostgreSQL";
    ASSERT_GT(c.start("a", CheapPasswords).port, 0);
    ASSERT_GT(c.start("b", CheapPasswords).port, 0);
    const std::string mine = sign_in(c.port("a"), "Boris", true);
    const std::string other = sign_in(c.port("b"), "Boris", false);
    Sockets keep, lose;
    open_sockets(c.port("b"), mine, keep);  // this session's, on the other node: kept
    open_sockets(c.port("b"), other, lose);
    const std::string body = std::string(R"({"v":1,"old":")") + Password + R"(","new":"another long password"})";
    Response changed = request(c.port("a"), "POST", "/api/v1/account/password", body, mine);
    ASSERT_EQ(changed.status, 200) << changed.body;
    for (int fd : {lose.lobby, lose.game}) {
        auto [code, reason] = close_of(fd, 6000);
        EXPECT_EQ(code, 4001);
        EXPECT_EQ(reason, "session ended");
    }
    EXPECT_TRUE(still_open(keep.lobby));
    EXPECT_TRUE(still_open(keep.game));
    EXPECT_NE(who_am_i(c.port("b"), other).find("\"account\":null"), std::string::npos);
    EXPECT_NE(who_am_i(c.port("b"), mine).find("\"name\":\"Boris\""), std::string::npos);
}

}  // namespace
