// Outpost — issue 26 against the real thing: `outpost serve --database postgresql://…`
// on the test's own PostgreSQL (tests/support/postgres_server.h). A game played over the
// WebSocket is in PostgreSQL; kill -9 of the server while games are played loses no
// acknowledged move (the kill cycles of serve_kill_test.cpp); an unreachable database
// is one line and an exit before anything listens; PostgreSQL stopped while serving:
// moves are refused with an error (never acknowledged and lost), and accepted again
// once it is back, without a restart of the server. Issue 29: the puzzles of a server
// on PostgreSQL are in PostgreSQL, not in an SQLite file beside it.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <tuple>

#include "../support/postgres_server.h"
#include "../support/run_outpost.h"
#include "../support/serve_process.h"
#include "server/stores/postgres/pg_stores.h"

namespace outpost::test {
void kill_cycles(const std::vector<std::string>& extra, const fs::path& db, int cycles);  // serve_kill_test.cpp
}

namespace {

using namespace outpost::test;
using nlohmann::json;

// Sends a move and waits for its acknowledgement (the `move` message of that ply) or an
// error: the message that came.
json play(int fd, const std::string& uci, int ply_before) {
    if (!ws_send(fd, json{{"v", 1}, {"t", "move"}, {"uci", uci}, {"ply", ply_before}}.dump())) return json{{"t", "closed"}};
    for (;;) {
        auto [op, text] = ws_read_data(fd, 15000);
        if (op != 1) return json{{"t", "closed"}};
        json msg = json::parse(text, nullptr, false);
        if (msg.is_discarded()) continue;
        if (msg["t"] == "error") return msg;
        if (msg["t"] == "move" && msg["game"]["ply"] == ply_before + 1) return msg;
    }
}

std::vector<std::string> stored_moves(const std::string& url, const std::string& id) {
    auto store = outpost::server::postgres::open_games(url);
    if (!store) return {"cannot open: " + store.error().message};
    auto g = (*store)->load_game(id);
    if (!g || !g->has_value()) return {"no game " + id};
    std::vector<std::string> out;
    for (const auto& m : (*g)->moves) out.push_back(m.uci);
    return out;
}

TEST(PostgresServe, Issue26AGamePlayedOverTheWebSocketIsInPostgres) {
    OUTPOST_REQUIRE_POSTGRES();
    std::string why;
    const std::string url = PostgresServer::get().create_database(why);
    ASSERT_FALSE(url.empty()) << why;
    {
        Server s({"--no-client-limits", "--database", url});
        ASSERT_GT(s.port, 0) << "outpost serve --database did not start";
        auto [id, token] = hotseat_game(s.port);
        ASSERT_FALSE(id.empty());
        auto [fd, status] = ws_open(s.port, "/api/v1/ws?game=" + id + "&seat=" + token, "");
        ASSERT_EQ(status, 101);
        ASSERT_EQ(ws_read_data(fd, 10000).first, 1);  // the state
        const char* moves[] = {"e2e4", "e7e5", "g1f3", "b8c6"};
        for (int i = 0; i < 4; ++i) {
            const json ack = play(fd, moves[i], i);
            ASSERT_EQ(ack["t"], "move") << ack.dump();
        }
        close(fd);
        // Acknowledged: in PostgreSQL now, while the server still runs.
        EXPECT_EQ(stored_moves(url, id), (std::vector<std::string>{"e2e4", "e7e5", "g1f3", "b8c6"}));
    }
    PostgresServer::get().drop_database(url);
}

TEST(PostgresServe, Issue29TheStarterPuzzlesOfAServerOnPostgresAreInPostgres) {
    OUTPOST_REQUIRE_POSTGRES();
    std::string why;
    const std::string url = PostgresServer::get().create_database(why);
    ASSERT_FALSE(url.empty()) << why;
    const fs::path csv = fs::temp_directory_path() / ("outpost-pg-puzzles-" + std::to_string(::getpid()) + ".csv");
    {
        std::ofstream out(csv);
        out << "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n"
               "00sHx,q3k1nr/1pp1nQpp/3p4/1P2p3/4P3/B1PP1b2/B5PP/5K2 b k - 0 17,e8d7 a2e6 d7d8 f7f8,1760,80,83,72,"
               "mate mateIn2 middlegame short,https://lichess.org/yyznGmXs/black#34,Italian_Game\n";
    }
    {
        Server s({"--no-client-limits", "--database", url, "--starter-puzzles", csv.string()});
        ASSERT_GT(s.port, 0) << "outpost serve --database did not start";
        const int fd = connect_to(s.port);
        ASSERT_GE(fd, 0);
        const Response r = http(fd, "GET", "/api/v1/puzzles/00sHx");
        close(fd);
        EXPECT_EQ(r.status, 200) << r.body;
        EXPECT_NE(r.body.find("00sHx"), std::string::npos) << r.body;
        auto puzzles = outpost::server::postgres::open_puzzles(url);
        ASSERT_TRUE(puzzles.ok()) << puzzles.error().message;
        EXPECT_EQ((*puzzles)->count().value(), 1);
        EXPECT_TRUE((*puzzles)->puzzle("00sHx").value().has_value());
        EXPECT_FALSE(fs::exists(s.dir / "t.db")) << "no SQLite file is made beside PostgreSQL";
    }
    fs::remove(csv);
    PostgresServer::get().drop_database(url);
}

TEST(PostgresServe, Issue26EveryAcknowledgedMoveSurvivesKill9OnPostgres) {
    OUTPOST_REQUIRE_POSTGRES();
    std::string why;
    const std::string url = PostgresServer::get().create_database(why);
    ASSERT_FALSE(url.empty()) << why;
    const fs::path dir = fs::temp_directory_path() / ("outpost-pgkill-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    // The SQLite file is named but not used: --database wins.
    kill_cycles({"--no-client-limits", "--database", url}, dir / "unused.db", 8);
    EXPECT_FALSE(fs::exists(dir / "unused.db")) << "the server wrote to the SQLite file, not to PostgreSQL";
    fs::remove_all(dir);
    PostgresServer::get().drop_database(url);
}

TEST(PostgresServe, Issue26AnUnreachableDatabaseIsOneLineAndAnExitBeforeListening) {
    const fs::path dir = fs::temp_directory_path() / ("outpost-pgdown-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const auto down = run_outpost("serve --port 0 --database " +
                                  shell_quote("postgresql://outpost:secret@/nothing?host=" + dir.string()));
    EXPECT_EQ(down.exit_code, 1);
    EXPECT_EQ(down.out.find("serving"), std::string::npos) << "it listened: " << down.out;
    EXPECT_NE(down.err.find("outpost serve: cannot connect to the database"), std::string::npos) << down.err;
    EXPECT_EQ(std::count(down.err.begin(), down.err.end(), '\n'), 1) << "one line: " << down.err;
    EXPECT_EQ(down.err.find("secret"), std::string::npos) << "the password is never shown: " << down.err;
    const auto not_url = run_outpost("serve --port 0 --database outpost.db");
    EXPECT_NE(not_url.exit_code, 0);
    fs::remove_all(dir);
}

TEST(PostgresServe, Issue26MovesAreRefusedWhilePostgresIsDownAndAcceptedAgainAfter) {
    OUTPOST_REQUIRE_POSTGRES();
    std::string why;
    const std::string url = PostgresServer::get().create_database(why);
    ASSERT_FALSE(url.empty()) << why;
    Server s({"--no-client-limits", "--database", url});
    ASSERT_GT(s.port, 0);
    auto [id, token] = hotseat_game(s.port);
    ASSERT_FALSE(id.empty());
    auto [fd, status] = ws_open(s.port, "/api/v1/ws?game=" + id + "&seat=" + token, "");
    ASSERT_EQ(status, 101);
    ASSERT_EQ(ws_read_data(fd, 10000).first, 1);
    ASSERT_EQ(play(fd, "e2e4", 0)["t"], "move");

    ASSERT_TRUE(PostgresServer::get().restart_stop());
    const json refused = play(fd, "e7e5", 1);
    EXPECT_EQ(refused["t"], "error") << "a move acknowledged while the database is down: " << refused.dump();
    EXPECT_NE(refused.dump().find("could not be stored"), std::string::npos) << refused.dump();
    ASSERT_TRUE(PostgresServer::get().restart_start()) << PostgresServer::get().failure();

    // Back: the same move is accepted (the server reads the game again from the
    // database), within a few tries while its connections come back.
    json accepted;
    for (int attempt = 0; attempt < 20; ++attempt) {
        close(fd);
        std::tie(fd, status) = ws_open(s.port, "/api/v1/ws?game=" + id + "&seat=" + token, "");
        if (status == 101 && ws_read_data(fd, 10000).first == 1) {
            accepted = play(fd, "e7e5", 1);
            if (accepted["t"] == "move") break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
    }
    EXPECT_EQ(accepted["t"], "move") << accepted.dump();
    close(fd);
    EXPECT_EQ(stored_moves(url, id), (std::vector<std::string>{"e2e4", "e7e5"}));
    s.stop(SIGTERM);
    PostgresServer::get().drop_database(url);
}

}  // namespace
