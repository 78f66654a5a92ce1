// Outpost — what only the PostgreSQL stores do (issue 26): a text PostgreSQL cannot hold
// is refused, not cut; a URL is shown without its password; the schema's version
// table. The contracts both backends keep are in store_*contract_test.cpp.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include "../support/postgres_server.h"
#include "server/stores/postgres/pg_stores.h"

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

}  // namespace
