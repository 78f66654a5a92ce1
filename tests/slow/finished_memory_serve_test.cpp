// Outpost — the memory of finished games in a real `outpost serve` (issue 28, item 14):
// reading the PGNs of 2,000 finished games (up to 200 plies each, written into the database
// before the server starts; one client, without the per-address rate limit) grows the server's resident memory by less than 64 MiB
// with the default bound of the finished rooms kept (32 MiB), and by less than the
// bound's worth with a smaller one. The cache's byte count: tests/unit/
// server_finished_cache_test.cpp. Server and client: tests/support/serve_process.h.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <string>

#include "../support/finished_games.h"
#include "../support/serve_process.h"
#include "server/stores/game_store.h"

namespace {

namespace fs = std::filesystem;

// VmRSS of a process, in KiB (0 if unreadable).
long rss_kib(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    return 0;
}

struct Database {
    fs::path dir;
    std::vector<std::string> ids;
    explicit Database(int games) {
        dir = fs::temp_directory_path() / ("outpost-finished-memory-" + std::to_string(::getpid()));
        fs::remove_all(dir);
        fs::create_directories(dir);
        auto storage = outpost::server::Storage::open((dir / "t.db").string());
        if (!storage) return;
        std::mt19937 rng(2000);
        std::vector<outpost::server::GameWrite> batch;
        for (int i = 0; i < games; ++i) {
            outpost::server::GameWrite w;
            w.kind = outpost::server::GameWrite::INSERT_GAME;
            char id[16];
            std::snprintf(id, sizeof id, "fin%d", i);  // (GCC 12 warns at "fin" + std::to_string)
            w.game = outpost::test::finished_game(id, 200, rng);
            ids.push_back(w.game.id);
            batch.push_back(std::move(w));
        }
        if (!(*storage)->write(batch)) ids.clear();
    }
    ~Database() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
};

// The growth of the server's RSS, in MiB, over reading every game's PGN once (after
// the first 50, read twice, have warmed the server up).
double growth_mib(outpost::test::Server& s, const std::vector<std::string>& ids) {
    const int fd = outpost::test::connect_to(s.port);
    EXPECT_GE(fd, 0);
    for (int round = 0; round < 2; ++round)
        for (size_t i = 0; i < 50; ++i) outpost::test::http(fd, "GET", "/api/v1/games/" + ids[i] + "/pgn");
    const long before = rss_kib(s.pid);
    int read = 0;
    std::string first_failure;
    for (const auto& id : ids) {
        const auto r = outpost::test::http(fd, "GET", "/api/v1/games/" + id + "/pgn");
        read += r.status == 200;
        if (r.status != 200 && first_failure.empty()) first_failure = id + ": " + std::to_string(r.status) + " " + r.body;
    }
    const long after = rss_kib(s.pid);
    close(fd);
    EXPECT_EQ(read, int(ids.size())) << first_failure;
    return double(after - before) / 1024.0;
}

}  // namespace

TEST(FinishedMemoryServeIssue28Item14, ReadingTwoThousandFinishedGamesGrowsTheServerByLessThan64MiB) {
    Database db(2000);
    ASSERT_EQ(db.ids.size(), 2000u);
    outpost::test::Server s({"--no-client-limits"}, db.dir / "t.db");
    ASSERT_GT(s.port, 0) << "outpost serve did not start";
    const double grown = growth_mib(s, db.ids);
    std::cout << "RSS growth over 2,000 finished games' PGNs (default bound): " << grown << " MiB\n";
    EXPECT_LT(grown, 64.0);
}

TEST(FinishedMemoryServeIssue28Item14, ASmallerBoundKeepsLess) {
    Database db(2000);
    ASSERT_EQ(db.ids.size(), 2000u);
    outpost::test::Server s({"--no-client-limits", "--finished-cache-mib", "4"}, db.dir / "t.db");
    ASSERT_GT(s.port, 0) << "outpost serve did not start";
    const double grown = growth_mib(s, db.ids);
    std::cout << "RSS growth over 2,000 finished games' PGNs (--finished-cache-mib 4): " << grown << " MiB\n";
    EXPECT_LT(grown, 24.0);
}
