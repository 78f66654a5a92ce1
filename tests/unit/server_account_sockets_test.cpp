// Outpost — which connections a session's end closes (issue 25 item 5;
// edge/account_sockets.h): every one of the account, all but the caller's session's,
// or one session's; never an anonymous one nor another account's.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include "server/edge/account_sockets.h"
#include "server/edge/session_sweep.h"

using namespace outpost::server;

namespace {

struct Conn : AccountSockets::Closable {
    std::vector<std::string> told;
    void end_session(const std::string& reason) override { told.push_back(reason); }
    void close_for_restart() override { told.push_back("restart"); }
};

struct AccountSockets25 : ::testing::Test {
    AccountSockets sockets;
    std::shared_ptr<Conn> anna_a1 = std::make_shared<Conn>(), anna_a2 = std::make_shared<Conn>(),
                          anna_b = std::make_shared<Conn>(), boris = std::make_shared<Conn>(),
                          guest = std::make_shared<Conn>();
    void SetUp() override {
        sockets.add(anna_a1.get(), {anna_a1, 1, "Anna", "tokenA", "lobby"});
        sockets.add(anna_a2.get(), {anna_a2, 1, "Anna", "tokenA", "game"});
        sockets.add(anna_b.get(), {anna_b, 1, "Anna", "tokenB", "game"});
        sockets.add(boris.get(), {boris, 2, "Boris", "tokenC", "lobby"});
        sockets.add(guest.get(), {guest, 0, "", "", "game"});
    }
    std::vector<int> told() const {
        return {int(anna_a1->told.size()), int(anna_a2->told.size()), int(anna_b->told.size()),
                int(boris->told.size()), int(guest->told.size())};
    }
};

}  // namespace

TEST_F(AccountSockets25, SigningOutEverywhereClosesEveryConnectionOfTheAccountOnly) {
    EXPECT_EQ(sockets.end({1, "", "", "signed out everywhere"}), 3);
    EXPECT_EQ(told(), (std::vector<int>{1, 1, 1, 0, 0}));
    EXPECT_EQ(anna_b->told[0], "signed out everywhere");
}

TEST_F(AccountSockets25, APasswordChangeKeepsTheCallersSession) {
    EXPECT_EQ(sockets.end({1, "", "tokenA", "password changed"}), 1);
    EXPECT_EQ(told(), (std::vector<int>{0, 0, 1, 0, 0}));
}

TEST_F(AccountSockets25, SigningOutHereClosesThatSessionsConnections) {
    EXPECT_EQ(sockets.end({0, "tokenA", "", "signed out"}), 2);
    EXPECT_EQ(told(), (std::vector<int>{1, 1, 0, 0, 0}));
    // No account and no token: nothing (never every anonymous connection).
    EXPECT_EQ(sockets.end({0, "", "", "x"}), 0);
    EXPECT_EQ(told(), (std::vector<int>{1, 1, 0, 0, 0}));
}

TEST_F(AccountSockets25, AConnectionThatLeftOrIsGoneIsNotTold) {
    sockets.remove(anna_a1.get());
    anna_b.reset();  // its session object is gone: the weak pointer is empty
    auto kept = anna_a2;
    EXPECT_EQ(sockets.end({1, "", "", "account disabled"}), 1);
    EXPECT_EQ(kept->told.size(), 1u);
    EXPECT_EQ(anna_a1->told.size(), 0u);
    // The admin page's list: every connection, without tokens.
    for (const auto& e : sockets.list()) EXPECT_TRUE(e.token.empty());
    EXPECT_EQ(sockets.list().size(), 4u);
}

// Another process (`outpost user logout|disable`) ended sessions in the database: the
// sweep closes their connections, and only theirs.
TEST(SessionSweep25, ConnectionsOfSessionsEndedElsewhereAreClosed) {
    auto store = std::move(AccountStore::open(":memory:", PasswordCost::cheapest()).value());
    const std::int64_t now = 1'700'000'000'000;
    const Account anna = store->create("Anna", "a long enough password", false, now).value();
    const Account boris = store->create("Boris", "a long enough password", false, now).value();
    const std::string a = store->start_session(anna.id, now).value();
    const std::string b = store->start_session(boris.id, now).value();
    AccountSockets sockets;
    auto anna_conn = std::make_shared<Conn>(), boris_conn = std::make_shared<Conn>();
    sockets.add(anna_conn.get(), {anna_conn, anna.id, "Anna", a, "lobby"});
    sockets.add(boris_conn.get(), {boris_conn, boris.id, "Boris", b, "game"});
    SessionSweep sweep(sockets, *store, [now] { return now; }, std::chrono::hours(1));
    EXPECT_EQ(sweep.sweep(), 0);
    ASSERT_TRUE(store->end_all_sessions(anna.id).ok());
    EXPECT_EQ(sweep.sweep(), 1);
    ASSERT_EQ(anna_conn->told.size(), 1u);
    EXPECT_EQ(anna_conn->told[0], "session ended");
    EXPECT_TRUE(boris_conn->told.empty());
    sockets.remove(anna_conn.get());  // as a WebSocket leaves once closed
    ASSERT_TRUE(store->set_disabled("Boris", true).ok());
    EXPECT_EQ(sweep.sweep(), 1);
    EXPECT_EQ(boris_conn->told.size(), 1u);
}
