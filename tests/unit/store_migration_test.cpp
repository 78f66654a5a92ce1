// Outpost — schema versions and migrations (stores/schema.h): a database made by the
// version before schema versions (tests/data/schema/v0.sql, the tables as that server
// made them), holding games in progress and finished, accounts, sessions, ratings, an
// event and a simul, is upgraded, and everything is found through the store
// interfaces; a database newer than the program is refused, by the stores, by `outpost
// db` and by `outpost serve`.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sodium.h>
#include <sqlite3.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#include "../support/run_outpost.h"
#include "../support/sqlite_peek.h"
#include "server/accounts/accounts.h"
#include "server/stores/account_store.h"
#include "server/stores/event_store.h"
#include "server/stores/game_store.h"
#include "server/stores/schema.h"
#include "server/stores/simul_store.h"

using namespace outpost;
using namespace outpost::server;

namespace {

constexpr const char* Password = "a long enough password";
constexpr const char* SessionToken = "OldVersionSessionToken0123456789abcdefghijk";  // 43 letters and digits, as issued

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// What the old version stored as a session's key (BLAKE2b-256 of the token, hex).
std::string old_token_hash(const std::string& token) {
    unsigned char digest[32];
    crypto_generichash(digest, sizeof digest, reinterpret_cast<const unsigned char*>(token.data()), token.size(), nullptr, 0);
    char hex[2 * sizeof digest + 1];
    sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
    return hex;
}

class StoreMigration : public ::testing::Test {
protected:
    void SetUp() override {
        path = (std::filesystem::temp_directory_path() /
                ("outpost-migration-" + std::to_string(::getpid()) + "-" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db"))
                   .string();
        remove_files();
    }
    void TearDown() override { remove_files(); }
    void remove_files() {
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
    }
    void exec(const std::string& sql) { outpost::test::sqlite_exec(path, sql); }
    int user_version() {
        sqlite3* db = nullptr;
        sqlite3_open(path.c_str(), &db);
        sqlite3_stmt* s = nullptr;
        sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &s, nullptr);
        const int v = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int(s, 0) : -1;
        sqlite3_finalize(s);
        sqlite3_close(db);
        return v;
    }
    // The database as the previous version left it: its schema, and its rows as it wrote them.
    void make_old_database() {
        exec(read_text(std::string(OUTPOST_TEST_DATA) + "/schema/v0.sql"));
        const std::string hash = hash_password(Password, PasswordCost::cheapest()).value();
        const std::string game_columns =
            "INSERT INTO games (id, created_ms, updated_ms, white_token, black_token, white_kind, black_kind, white_name, "
            "black_name, robot_level, robot_elo, time_control, variant, chess960, initial_fen, casual, status, result, "
            "draw_offer, takeback_request, offer_plies, white_ms, black_ms, running, turn_started_ms, rematch_of, "
            "rematch_game, white_account, black_account, deadline_ms) VALUES ";
        const std::string fen = "'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'";
        exec("INSERT INTO accounts (id, name, name_key, password_hash, admin, disabled, created_ms) VALUES "
             "(1, 'Anna', 'anna', '" + hash + "', 1, 0, 1000), (2, 'Boris', 'boris', '" + hash + "', 0, 0, 1000);"
             "INSERT INTO sessions (token_hash, account_id, created_ms, expires_ms) VALUES ('" +
             old_token_hash(SessionToken) + "', 1, 1000, 9000000000000);" +
             game_columns +
             "('live1', 1000, 2000, 'wl', 'bl', 'human', 'human', 'Anna', 'Boris', 0, 0, '1d', 'standard', -1, " + fen +
             ", 0, 'ongoing', '*', '', '', '', 86400000, 86400000, 'white', 2000, '', '', 1, 2, 88400000),"
             "('done1', 1000, 5000, 'wd', 'bd', 'human', 'human', 'Anna', 'Boris', 0, 0, '5+3', 'standard', -1, " + fen +
             ", 0, 'resign', '1-0', '', '', '', 290000, 280000, '', 0, '', '', 1, 2, 0);"
             "INSERT INTO moves (game_id, ply, uci, white_ms, black_ms, at_ms, clock_ms) VALUES "
             "('live1', 1, 'e2e4', 86400000, 86400000, 1500, 86400000), ('live1', 2, 'e7e5', 86400000, 86400000, 2000, 86400000),"
             "('done1', 1, 'd2d4', 299000, 300000, 1200, 299000);"
             "INSERT INTO ratings (account_id, class, rating, deviation, volatility, games, last_ms) VALUES "
             "(1, 'blitz', 1662.0, 290.0, 0.06, 1, 5000), (2, 'blitz', 1338.0, 290.0, 0.06, 1, 5000);"
             "INSERT INTO rating_history (game_id, color, account_id, class, at_ms, before, provisional, diff, rating, "
             "deviation, volatility, games) VALUES ('done1', 'white', 1, 'blitz', 5000, 1500, 1, 162, 1662.0, 290.0, 0.06, 1),"
             "('done1', 'black', 2, 'blitz', 5000, 1500, 1, -162, 1338.0, 290.0, 0.06, 1);"
             "INSERT INTO analyses (game_id, settings, json, created_ms) VALUES ('done1', 'nodes 1000', '{}', 6000);"
             "INSERT INTO events (id, name, organiser, organiser_name, system, rounds, time_control, rated, online, "
             "tiebreaks, initial_colour, created_ms, current_round, round_starts) VALUES "
             "(1, 'Club Swiss', 1, 'Anna', 'swiss', 3, '15+10', 1, 1, 'BH-C1,BH,SB', 'W', 1000, 1, '3000');"
             "INSERT INTO event_players (event_id, start_rank, account_id, name, rating, withdrawn_from, joined_in, byes) "
             "VALUES (1, 1, 1, 'Anna', 1662, 0, 1, '3'), (1, 2, 2, 'Boris', 1338, 0, 1, '');"
             "INSERT INTO event_boards (event_id, round, board, white, black, game_id, white_token, black_token, result, "
             "note) VALUES (1, 1, 1, 1, 2, 'evg1', 'ew', 'eb', '', '');"
             "INSERT INTO simuls (id, host_account, status, updated_ms, body) VALUES ('sim1', 1, 'started', 4000, '{\"id\":\"sim1\"}');");
    }
    std::string path;
};

TEST_F(StoreMigration, ADatabaseOfThePreviousVersionIsUpgradedAndFoundWhole) {
    make_old_database();
    auto before = schema_status(path);
    ASSERT_TRUE(before.ok()) << before.error().message;
    EXPECT_EQ(before->database, 0);
    EXPECT_GE(before->program, 1);
    EXPECT_EQ(before->pending.size(), std::size_t(before->program));

    auto games = Storage::open(path);
    ASSERT_TRUE(games.ok()) << games.error().message;
    EXPECT_EQ(user_version(), before->program);
    auto after = schema_status(path);
    ASSERT_TRUE(after.ok());
    EXPECT_EQ(after->database, after->program);
    EXPECT_TRUE(after->pending.empty());

    Storage& g = **games;
    auto live = g.load_live_games();
    ASSERT_TRUE(live.ok()) << live.error().message;
    ASSERT_EQ(live->size(), 1u);
    EXPECT_EQ((*live)[0].id, "live1");
    EXPECT_EQ((*live)[0].deadline_ms, 88'400'000);
    ASSERT_EQ((*live)[0].moves.size(), 2u);
    EXPECT_EQ((*live)[0].moves[1].uci, "e7e5");
    auto done = g.load_game("done1");
    ASSERT_TRUE(done.ok() && done->has_value());
    EXPECT_EQ((*done)->result, "1-0");
    EXPECT_EQ((*done)->first_move, "");
    ASSERT_TRUE((*done)->rating.has_value());
    EXPECT_EQ((*done)->rating->side[1].diff, -162);
    EXPECT_EQ(g.games_of_account(2, 10).value().size(), 2u);
    EXPECT_EQ(g.ratings_of(1).value().at(0).rating, 1662.0);
    EXPECT_EQ(g.rating_history(2, 10).value().size(), 1u);
    EXPECT_TRUE(g.load_analysis("done1").value().has_value());

    auto accounts = std::move(AccountStore::open(path, PasswordCost::cheapest()).value());
    EXPECT_TRUE(accounts->authenticate("anna", Password).ok());
    auto who = accounts->session_account(SessionToken, 2'000);
    ASSERT_TRUE(who.ok() && who->has_value());
    EXPECT_EQ((*who)->name, "Anna");
    EXPECT_EQ(accounts->list().value().size(), 2u);

    auto events = std::move(EventStore::open(path).value());
    auto all = events->load_all();
    ASSERT_TRUE(all.ok()) << all.error().message;
    ASSERT_EQ(all->size(), 1u);
    EXPECT_EQ((*all)[0].name, "Club Swiss");
    EXPECT_EQ((*all)[0].players.at(0).byes, std::set<int>{3});
    EXPECT_EQ((*all)[0].boards.at(0).game_id, "evg1");

    auto simuls = std::move(SimulStore::open(path).value());
    EXPECT_EQ(simuls->load("sim1").value().value_or(""), R"({"id":"sim1"})");
    EXPECT_EQ(simuls->load_recent(10).value().size(), 1u);
}

TEST_F(StoreMigration, AnUpToDateDatabaseIsLeftAlone) {
    { ASSERT_TRUE(Storage::open(path).ok()); }
    const int version = user_version();
    EXPECT_GE(version, 1);
    auto again = migrate_schema(path);
    ASSERT_TRUE(again.ok()) << again.error().message;
    EXPECT_EQ(again->database, version);
    EXPECT_TRUE(again->pending.empty());
}

TEST_F(StoreMigration, ADatabaseNewerThanTheProgramIsRefused) {
    { ASSERT_TRUE(Storage::open(path).ok()); }
    const int newer = user_version() + 1;
    exec("PRAGMA user_version=" + std::to_string(newer) + ";");
    auto games = Storage::open(path);
    ASSERT_FALSE(games.ok());
    EXPECT_NE(games.error().message.find("newer than this program"), std::string::npos) << games.error().message;
    EXPECT_FALSE(AccountStore::open(path, PasswordCost::cheapest()).ok());
    EXPECT_FALSE(EventStore::open(path).ok());
    EXPECT_FALSE(SimulStore::open(path).ok());
    EXPECT_FALSE(migrate_schema(path).ok());
    auto status = schema_status(path);
    ASSERT_TRUE(status.ok());
    EXPECT_TRUE(status->newer());
    EXPECT_EQ(user_version(), newer);  // nothing was changed
}

TEST_F(StoreMigration, OutpostDbStatusAndMigrate) {
    make_old_database();
    const auto db = outpost::test::shell_quote(path);
    auto status = outpost::test::run_outpost("db --db " + db + " status");
    EXPECT_EQ(status.exit_code, 0) << status.err;
    EXPECT_TRUE(status.has_line("database " + path + ": schema version 0")) << status.out;
    EXPECT_NE(status.out.find("pending"), std::string::npos) << status.out;
    auto migrate = outpost::test::run_outpost("db --db " + db + " migrate");
    EXPECT_EQ(migrate.exit_code, 0) << migrate.err;
    status = outpost::test::run_outpost("db --db " + db + " status");
    EXPECT_TRUE(status.has_line("no migration pending")) << status.out;
    EXPECT_EQ(user_version(), schema_status(path).value().program);
}

TEST_F(StoreMigration, TheServerRefusesANewerDatabaseInOneLine) {
    { ASSERT_TRUE(Storage::open(path).ok()); }
    exec("PRAGMA user_version=" + std::to_string(user_version() + 1) + ";");
    // (Under `timeout`: a server that did not refuse would serve until stopped.)
    const std::string command = "timeout 30 " + outpost::test::shell_quote(OUTPOST_BINARY) + " serve --port 0 --db " +
                                outpost::test::shell_quote(path) + " 2>&1";
    FILE* pipe = ::popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string out;
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
    const int status = ::pclose(pipe);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 1) << out;
    EXPECT_NE(out.find("newer than this program"), std::string::npos) << out;
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;
}

}  // namespace
