// Outpost — what only the PostgreSQL stores do (issue 26): a text PostgreSQL cannot hold
// is refused, not cut; a URL is shown without its password; the schema's version
// table. The contracts both backends keep are in store_*contract_test.cpp.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include "../support/postgres_server.h"
#include "server/stores/postgres/pg_db.h"
#include "server/stores/postgres/pg_stores.h"

#include <chrono>
#include <thread>

namespace {

using namespace outpost;
using namespace outpost::server;
using outpost::test::PostgresServer;

TEST(PgUrl, Issue26APostgresUrlIsKnownAndShownWithoutItsPassword) {
    EXPECT_TRUE(postgres::is_url("postgresql://outpost@db.example.org:5433/outpost"));
    EXPECT_TRUE(postgres::is_url("postgres:///outpost?host=/run/postgresql"));
    EXPECT_FALSE(postgres::is_url("outpost.db"));
    EXPECT_FALSE(postgres::is_url("/var/lib/postgresql://x"));
    EXPECT_EQ(postgres::shown_url("postgresql://outpost:s3cret@db:5432/outpost"), "postgresql://outpost:***@db:5432/outpost");
    EXPECT_EQ(postgres::shown_url("postgresql:///outpost?host=/run&password=s3cret&sslmode=require"),
              "postgresql:///outpost?host=/run&password=***&sslmode=require");
    EXPECT_EQ(postgres::shown_url("postgresql://outpost@db/outpost"), "postgresql://outpost@db/outpost");
}

class PostgreSQLStore : public ::testing::Test {
protected:
    void SetUp() override {
        OUTPOST_REQUIRE_POSTGRES();
        std::string why;
        url = PostgresServer::get().create_database(why);
        ASSERT_FALSE(url.empty()) << why;
    }
    void TearDown() override {
        if (!url.empty()) PostgresServer::get().drop_database(url);
    }
    std::string url;
};

TEST_F(PostgreSQLStore, Issue26ATextWithANulByteIsRefusedNotCut) {
    auto simuls = postgres::open_simuls(url);
    ASSERT_TRUE(simuls.ok()) << simuls.error().message;
    const std::string body("{\"a\":\"x\0y\"}", 11);
    auto saved = (*simuls)->save("s1", 1, "open", 1, body);
    EXPECT_FALSE(saved.ok());
    EXPECT_FALSE((*simuls)->load("s1").value().has_value()) << "nothing stored, not a shortened text";
    EXPECT_TRUE((*simuls)->save("s1", 1, "open", 1, "{}").ok()) << "the connection goes on";
}

TEST_F(PostgreSQLStore, Issue26TheSchemaVersionIsKeptAndANewerDatabaseIsRefused) {
    auto before = postgres::schema_status(url);
    ASSERT_TRUE(before.ok()) << before.error().message;
    EXPECT_EQ(before->database, 0);
    EXPECT_FALSE(before->pending.empty());
    auto after = postgres::migrate_schema(url);
    ASSERT_TRUE(after.ok()) << after.error().message;
    EXPECT_EQ(after->database, after->program);
    EXPECT_TRUE(after->pending.empty());
    {
        // A newer program's database: every store refuses it, saying so.
        pg::Connection c;
        ASSERT_TRUE(c.open(url).ok());
        ASSERT_TRUE(c.exec("UPDATE outpost_schema SET version = version + 1").ok());
    }
    auto games = postgres::open_games(url);
    ASSERT_FALSE(games.ok());
    EXPECT_NE(games.error().message.find("newer than this program"), std::string::npos) << games.error().message;
    EXPECT_FALSE(postgres::check_reachable(url).ok());
}

// Issue 25 on PostgreSQL: the game store reads through several connections, so a heavy
// read (the profile of an account with 10,000 games) does not hold every other read
// behind it. Another connection locks the games table; two reads on two threads then
// both wait for that lock inside PostgreSQL at the same time (on one shared reading
// connection the second waited for the first in the store instead: one waiter).
TEST_F(PostgreSQLStore, Issue25TwoReadsOfTheGameStoreRunAtTheSameTime) {
    auto opened = postgres::open_games(url);
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    std::unique_ptr<Storage> storage = std::move(*opened);
    pg::Connection locker, watcher;
    ASSERT_TRUE(locker.open(url).ok());
    ASSERT_TRUE(watcher.open(url).ok());
    ASSERT_TRUE(locker.exec("BEGIN; LOCK TABLE games IN ACCESS EXCLUSIVE MODE").ok());
    auto read = [&] {
        auto games = storage->games_of_account(7, 100);
        EXPECT_TRUE(games.ok()) << games.error().message;
    };
    std::thread a(read), b(read);
    std::int64_t waiting = 0;
    for (int i = 0; i < 100 && waiting < 2; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        auto rows = watcher.run(
            "SELECT count(*) FROM pg_stat_activity WHERE datname=current_database() AND wait_event_type='Lock'");
        EXPECT_TRUE(rows.ok()) << rows.error().message;
        if (!rows.ok()) break;
        waiting = rows->integer(0, 0);
    }
    EXPECT_TRUE(locker.exec("COMMIT").ok());
    a.join();
    b.join();
    EXPECT_EQ(waiting, 2) << "the second read waited for the first in the store";
}

}  // namespace
