// Outpost — issue 27's check of SPEC D7 against the real thing: `outpost backup` runs
// while 100 games are played over WebSockets on a real `outpost serve`; the games go on
// during the copy (moves are acknowledged while it runs), the backup is restored into a
// new file, which passes `outpost db check` and holds every move that was acknowledged
// before the backup started. Restoring over the database the server has open is
// refused. The copy is made one page a chunk (--step-pages 1), so that the server
// commits between its chunks again and again: one snapshot has to hold across them.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <sqlite3.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "../support/random_move.h"
#include "../support/run_outpost.h"
#include "../support/sqlite_peek.h"
#include "../support/serve_process.h"

namespace {

using namespace outpost::test;
using nlohmann::json;
using Steady = std::chrono::steady_clock;

struct LiveGame {
    std::string id;
    std::vector<std::string> acked;  // the moves the server acknowledged, in order
    int fd = -1;
    int waiting_for_ply = -1;  // the ply of our move in flight (-1: none)
    std::string in_flight;
};

bool send_next(LiveGame& g, const json& state, std::mt19937& rng) {
    if (state["status"] != "ongoing") return true;
    const std::string m = random_move(state["legal"], rng, state["fen"]);
    if (m.empty()) return true;
    g.in_flight = m;
    g.waiting_for_ply = int(g.acked.size()) + 1;
    return ws_send(g.fd, json{{"v", 1}, {"t", "move"}, {"uci", m}, {"ply", g.acked.size()}}.dump());
}

// Plays every game (each acknowledgement answered by the next move) until done()
// says so; answers the moves acknowledged meanwhile, or -1 when a connection broke.
template <class Done>
long play(std::vector<LiveGame>& games, std::mt19937& rng, Done done) {
    long acked = 0;
    while (!done()) {
        std::vector<pollfd> fds;
        std::vector<LiveGame*> of;
        for (LiveGame& g : games)
            if (g.fd >= 0 && g.waiting_for_ply > 0) fds.push_back({g.fd, POLLIN, 0}), of.push_back(&g);
        if (fds.empty()) break;
        if (poll(fds.data(), fds.size(), 20) <= 0) continue;
        for (size_t i = 0; i < fds.size(); ++i) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            LiveGame& g = *of[i];
            auto [op, text] = ws_read_data(g.fd);
            if (op != 1) return -1;
            const json msg = json::parse(text);
            if (msg["t"] == "error") return -1;
            if (msg["t"] != "move") continue;
            const json& d = msg["game"];
            if (d["ply"] != g.waiting_for_ply || d["uci"] != g.in_flight) continue;
            g.acked.push_back(g.in_flight);  // acknowledged: on disk from now on
            ++acked;
            g.waiting_for_ply = -1;
            if (!send_next(g, d, rng)) return -1;
        }
    }
    return acked;
}

using outpost::test::stored_moves;

TEST(BackupLive, BackupDuring100GamesKeepsEveryAcknowledgedMove) {
    const fs::path dir = fs::temp_directory_path() / ("outpost-backup-live-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path db = dir / "live.db", backup = dir / "backup.db", restored = dir / "restored.db";
    std::mt19937 rng(20261126);
    Server s({"--no-client-limits"}, db);
    ASSERT_GT(s.port, 0);

    std::vector<LiveGame> games(100);
    for (LiveGame& g : games) {
        auto [id, token] = hotseat_game(s.port);
        ASSERT_FALSE(id.empty());
        g.id = id;
        auto [fd, status] = ws_open(s.port, "/api/v1/ws?game=" + id + "&seat=" + token, "");
        ASSERT_EQ(status, 101) << id;
        g.fd = fd;
        auto [op, text] = ws_read_data(fd, 10000);
        ASSERT_EQ(op, 1) << "no state for game " << id;
        ASSERT_TRUE(send_next(g, json::parse(text)["game"], rng));
    }
    // The games get going (and the database some pages to copy).
    const auto warm_until = Steady::now() + std::chrono::milliseconds(1500);
    const long warm = play(games, rng, [&] { return Steady::now() > warm_until; });
    ASSERT_GT(warm, 100) << "the games did not get going";

    // What was acknowledged before the backup started.
    std::vector<std::vector<std::string>> before;
    for (const LiveGame& g : games) before.push_back(g.acked);
    const auto t0 = Steady::now();
    const std::string log = (dir / "backup.log").string();
    const pid_t pid = fork();
    if (pid == 0) {
        FILE* f = std::freopen(log.c_str(), "w", stdout);
        (void)f;
        dup2(fileno(stdout), 2);
        std::vector<std::string> args = {OUTPOST_BINARY, "backup", "--db", db.string(), "--step-pages", "1", backup.string()};
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        execv(argv[0], argv.data());
        _exit(127);
    }
    ASSERT_GT(pid, 0);
    int status = -1;
    bool finished = false;
    const long during = play(games, rng, [&] {
        if (!finished && waitpid(pid, &status, WNOHANG) == pid) finished = true;
        return finished || Steady::now() - t0 > std::chrono::seconds(120);
    });
    if (!finished) waitpid(pid, &status, 0);
    const double backup_s = std::chrono::duration<double>(Steady::now() - t0).count();
    std::ifstream in(log);
    const std::string said((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << said;
    ASSERT_GE(during, 0) << "a connection broke while the backup ran";
    EXPECT_GT(during, 0) << "no move was acknowledged while the backup ran: it blocked the server";
    // A little more play after it: the server is still well.
    const auto after_until = Steady::now() + std::chrono::milliseconds(300);
    const long after = play(games, rng, [&] { return Steady::now() > after_until; });
    EXPECT_GT(after, 0);

    // Restoring over the database the server has open is refused, whatever --force says.
    const CliRun over = run_outpost({"restore", backup.string(), "--db", db.string(), "--force"});
    EXPECT_EQ(over.exit_code, 1);
    EXPECT_NE(over.err.find("open in another process"), std::string::npos) << over.err;

    const CliRun r = run_outpost({"restore", backup.string(), "--db", restored.string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const CliRun check = run_outpost({"db", "--db", restored.string(), "check"});
    EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
    EXPECT_TRUE(check.has_line("ok")) << check.out;
    long kept = 0;
    for (size_t i = 0; i < games.size(); ++i) {
        const std::vector<std::string> stored = stored_moves(restored.string(), games[i].id);
        ASSERT_GE(stored.size(), before[i].size()) << "game " << games[i].id << ": acknowledged moves missing from the backup";
        EXPECT_TRUE(std::equal(before[i].begin(), before[i].end(), stored.begin())) << games[i].id;
        // And nothing that was never played: the backup is a prefix of the game.
        EXPECT_LE(stored.size(), games[i].acked.size() + 1) << games[i].id;
        EXPECT_TRUE(std::equal(stored.begin(), stored.begin() + std::min(stored.size(), games[i].acked.size()),
                               games[i].acked.begin()))
            << games[i].id;
        kept += long(before[i].size());
    }
    std::printf("[ backup ] 100 live games: %ld moves acknowledged before the backup, all in it; %ld acknowledged during "
                "its %.2f s; %s",
                kept, during, backup_s, said.c_str());
    for (LiveGame& g : games) close(g.fd);
    s.stop(SIGTERM);
    fs::remove_all(dir);
}

}  // namespace
