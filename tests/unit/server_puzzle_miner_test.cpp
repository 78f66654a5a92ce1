// Outpost — the background puzzle generator of `outpost serve` (issue 29 item 1,
// training/puzzle_miner.h): it reads every finished standard game once, stores the
// puzzles it cuts (fool's mate: 2. g4?? and the only mate, Qh4#), and is off at 0%.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "server/play/hub.h"
#include "server/stores/game_store.h"
#include "server/stores/puzzle_store.h"
#include "server/training/puzzle_miner.h"

using namespace outpost;
using namespace outpost::server;

namespace {

struct PuzzleMinerTest : ::testing::Test {
    std::string db_path;
    std::unique_ptr<Storage> storage;
    std::unique_ptr<PuzzleStore> store;
    std::unique_ptr<Hub> hub;

    void SetUp() override {
        db_path = (std::filesystem::temp_directory_path() /
                   ("outpost-miner-test-" + std::to_string(::getpid()) + "-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db"))
                      .string();
        remove_files();
        storage = std::move(Storage::open(db_path).value());
        store = std::move(PuzzleStore::open(db_path).value());
        HubEnv e;
        e.monotonic_ms = [] { return Millis(1000); };
        e.wall_ms = [] { return std::int64_t(1'700'000'000'000); };
        e.call_back_in = [](const std::string&, Millis) {};
        e.ask_robot = [](RobotRequest) {};
        e.random_token = [](int len) { return std::string(std::size_t(len), 'x'); };
        e.inline_writes = true;
        hub = std::make_unique<Hub>(e, storage.get());
        add_game("fools", {"f2f3", "e7e5", "g2g4", "d8h4"}, "checkmate", "0-1");
        add_game("short", {"e2e4", "e7e5"}, "resignation", "1-0");
        add_game("live", {"d2d4"}, "ongoing", "*");
    }
    void TearDown() override {
        hub.reset();
        store.reset();
        storage.reset();
        remove_files();
    }
    void remove_files() {
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_path + suffix);
    }
    void add_game(const std::string& id, const std::vector<std::string>& moves, const std::string& status,
                  const std::string& result) {
        StoredGame g;
        g.id = id;
        g.white_kind = g.black_kind = "human";
        g.time_control = "-";
        g.variant = "standard";
        g.initial_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        g.status = status;
        g.result = result;
        g.white_token = id + "w";
        g.black_token = id + "b";
        for (const std::string& m : moves) g.moves.push_back(StoredMove{int(g.moves.size()) + 1, m});
        GameWrite w;
        w.kind = GameWrite::INSERT_GAME;
        w.game = g;
        ASSERT_TRUE(storage->write(w));
    }
    static PuzzleMinerOptions fast(int cpu) {
        PuzzleMinerOptions o;
        o.cpu_percent = cpu;
        o.scan_nodes = 2'000;
        o.nodes = 20'000;
        o.hash_mb = 8;
        o.idle = std::chrono::milliseconds(20);
        return o;
    }
};

TEST_F(PuzzleMinerTest, Issue29ItReadsEveryFinishedGameOnceAndStoresItsPuzzles) {
    int added = 0;
    {
        PuzzleMiner miner(fast(100), *store, *hub, [&added](int n) { added += n; });
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        while (miner.games_read() < 2 && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        EXPECT_EQ(miner.games_read(), 2);
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        EXPECT_EQ(miner.games_read(), 2);  // never the same game twice, never the live one
        EXPECT_EQ(miner.puzzles_stored(), added);
    }
    EXPECT_TRUE(store->game_scanned("fools").value());
    EXPECT_TRUE(store->game_scanned("short").value());
    EXPECT_FALSE(store->game_scanned("live").value());
    EXPECT_TRUE(store->games_to_scan(10).value().empty());
    // Fool's mate: after 2. g4?? Black has one move that wins, the mate.
    ASSERT_GE(added, 1);
    PuzzleQuery q;
    q.theme = "mateIn1";
    auto p = store->next(q).value();
    ASSERT_TRUE(p);
    EXPECT_EQ(p->moves, (std::vector<std::string>{"g2g4", "d8h4"}));
    EXPECT_EQ(p->game_url, "/#/game/fools?ply=3");
}

TEST_F(PuzzleMinerTest, Issue29AtZeroPercentThereIsNoGenerator) {
    {
        PuzzleMiner miner(fast(0), *store, *hub, {});
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        EXPECT_EQ(miner.games_read(), 0);
    }
    EXPECT_EQ(store->games_to_scan(10).value().size(), 2u);
}

}  // namespace

namespace {

TEST_F(PuzzleMinerTest, Issue29AStopDoesNotWaitForTheGameBeingRead) {
    // Searches a hundred times longer than the game needs: the stop ends them.
    PuzzleMinerOptions slow = fast(100);
    slow.scan_nodes = 5'000'000;
    slow.nodes = 50'000'000;
    auto miner = std::make_unique<PuzzleMiner>(slow, *store, *hub, std::function<void(int)>{});
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const auto started = std::chrono::steady_clock::now();
    miner.reset();
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5));
    // The game it was reading is not marked read: its puzzles were not all searched.
    EXPECT_FALSE(store->game_scanned("fools").value());
}

}  // namespace
