// Outpost — the game store and its writer (SPEC D1, D3): errors are errors, the WAL
// stays bounded, and acknowledgements wait for durable batches without holding the hub.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sqlite3.h>
#include <thread>

#include "../support/counted_token.h"
#include "server/play/hub.h"
#include "server/stores/game_store.h"
#include "server/stores/writer.h"

using namespace outpost;
using namespace outpost::server;
using nlohmann::json;

namespace {

std::string temp_db(const char* name) {
    const auto p = std::filesystem::temp_directory_path() / ("outpost-storage-" + std::to_string(::getpid()) + "-" + name + ".db");
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(p.string() + suffix);
    return p.string();
}

void remove_db(const std::string& path) {
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
}

StoredGame sample_game(const std::string& id) {
    StoredGame g;
    g.id = id;
    g.white_token = "w-" + id;
    g.black_token = "b-" + id;
    g.white_kind = g.black_kind = "human";
    g.white_name = g.black_name = "Anna";
    g.time_control = "-";
    g.variant = "standard";
    g.initial_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    return g;
}

}  // namespace

// D3: a database that cannot be read is an error, not "no such game".
TEST(Storage, D3LoadGameReportsDatabaseErrors) {
    const std::string path = temp_db("errors");
    {
        auto s = std::move(Storage::open(path).value());
        ASSERT_TRUE(s->write(GameWrite{GameWrite::INSERT_GAME, sample_game("g1"), {}, 0}).ok());
        auto found = s->load_game("g1");
        ASSERT_TRUE(found.ok());
        ASSERT_TRUE(found->has_value());
        auto none = s->load_game("nope");
        ASSERT_TRUE(none.ok());
        EXPECT_FALSE(none->has_value());
        // Someone breaks the database behind the server's back.
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
        ASSERT_EQ(sqlite3_exec(db, "DROP TABLE moves;", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
        auto broken = s->load_game("g1");
        EXPECT_FALSE(broken.ok());
        EXPECT_FALSE(s->load_live_games().ok());
    }
    remove_db(path);
}

// D3 and issue 9: the WAL is checkpointed while the server writes, so it stays
// bounded (STYLE.md: measured as the file's size, not as a return code).
TEST(Storage, D3WalStaysBoundedUnderManyMoves) {
    const std::string path = temp_db("wal");
    {
        auto s = std::move(Storage::open(path).value());
        // 100 games, moves spread over all of them as a busy server's are: each move
        // changes a page of the moves table and one of the games table.
        constexpr int Games = 100;
        std::vector<StoredGame> games;
        for (int i = 0; i < Games; ++i) {
            games.push_back(sample_game("long" + std::to_string(i)));
            ASSERT_TRUE(s->write(GameWrite{GameWrite::INSERT_GAME, games.back(), {}, 0}).ok());
        }
        std::int64_t largest = 0;
        std::vector<int> ply(Games, 0);
        int n = 0;
        for (int batch = 0; batch < 8000; ++batch) {
            std::vector<GameWrite> writes;
            for (int i = 0; i < 8; ++i, ++n) {
                const int k = (n * 37) % Games;
                StoredGame& g = games[size_t(k)];
                const int p = ++ply[size_t(k)];
                g.updated_ms = n;
                g.offer_plies = std::string(200, 'x');  // rows of a realistic size
                writes.push_back(GameWrite{GameWrite::APPEND_MOVE, g, StoredMove{p, "e2e4", p, p, p, -1}, 0});
            }
            ASSERT_TRUE(s->write(writes).ok());
            s->after_batch();  // as the StorageWriter does between two batches
            largest = std::max(largest, s->log_bytes());
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(600));
        // 64,000 moves wrote well over 128 MB to the WAL over the run (two pages of
        // 1 KiB each). The writer lets the WAL start over once it holds 32 MB.
        EXPECT_LT(largest, std::int64_t(48) << 20) << "the WAL grew to " << largest << " bytes";
        EXPECT_LT(s->log_bytes(), std::int64_t(12) << 20);
        auto back = s->load_game("long7");
        ASSERT_TRUE(back.ok() && back->has_value());
        EXPECT_EQ((*back)->moves.size(), size_t(ply[7]));
    }
    remove_db(path);
}

// Issue 9: a new database is made with 1 KiB pages (a move logs a quarter of the bytes
// of SQLite's default 4 KiB); a database made before keeps its page size and works.
TEST(Storage, D3NewDatabasesUseSmallPagesOldOnesKeepTheirs) {
    const auto page_size = [](const std::string& file) {
        sqlite3* db = nullptr;
        int size = -1;
        if (sqlite3_open(file.c_str(), &db) == SQLITE_OK) {
            sqlite3_stmt* st = nullptr;
            if (sqlite3_prepare_v2(db, "PRAGMA page_size;", -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
                size = sqlite3_column_int(st, 0);
            sqlite3_finalize(st);
        }
        sqlite3_close(db);
        return size;
    };
    const std::string fresh = temp_db("pages-new");
    {
        auto s = std::move(Storage::open(fresh).value());
        ASSERT_TRUE(s->write(GameWrite{GameWrite::INSERT_GAME, sample_game("p1"), {}, 0}).ok());
    }
    EXPECT_EQ(page_size(fresh), 1024);
    remove_db(fresh);

    const std::string old = temp_db("pages-old");
    {
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(old.c_str(), &db), SQLITE_OK);
        ASSERT_EQ(sqlite3_exec(db, "PRAGMA page_size=4096; CREATE TABLE t(x);", nullptr, nullptr, nullptr), SQLITE_OK);
        sqlite3_close(db);
    }
    {
        auto s = std::move(Storage::open(old).value());
        ASSERT_TRUE(s->write(GameWrite{GameWrite::INSERT_GAME, sample_game("p2"), {}, 0}).ok());
        auto back = s->load_game("p2");
        ASSERT_TRUE(back.ok() && back->has_value());
    }
    EXPECT_EQ(page_size(old), 4096);
    remove_db(old);
}

namespace {

// A store whose writes wait at a gate: a slow fsync, under the test's control.
class GatedStorage final : public Storage {
public:
    explicit GatedStorage(std::unique_ptr<Storage> inner) : inner_(std::move(inner)) {}
    Result<bool> write(const std::vector<GameWrite>& batch) override {
        std::unique_lock lock(mutex_);
        ++waiting_;
        cv_.notify_all();
        cv_.wait(lock, [this] { return open_; });
        --waiting_;
        sizes_.push_back(batch.size());
        lock.unlock();
        return inner_->write(batch);
    }
    Result<std::optional<StoredGame>> load_game(const std::string& id) override { return inner_->load_game(id); }
    Result<std::vector<StoredGame>> load_live_games() override { return inner_->load_live_games(); }
    Result<std::vector<StoredSummary>> games_for_tokens(const std::vector<std::string>& t, int limit) override {
        return inner_->games_for_tokens(t, limit);
    }
    void set_open(bool open) {
        std::lock_guard lock(mutex_);
        open_ = open;
        cv_.notify_all();
    }
    void wait_for_writer() {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [this] { return waiting_ > 0; });
    }
    std::vector<size_t> sizes() {
        std::lock_guard lock(mutex_);
        return sizes_;
    }

private:
    std::unique_ptr<Storage> inner_;
    std::mutex mutex_;
    std::condition_variable cv_;
    bool open_ = true;
    int waiting_ = 0;
    std::vector<size_t> sizes_;
};

struct Inbox : Subscriber {
    std::mutex mutex;
    std::vector<std::string> messages;
    void deliver(std::shared_ptr<const std::string> m) override {
        std::lock_guard lock(mutex);
        messages.push_back(*m);
    }
    std::vector<std::string> all() {
        std::lock_guard lock(mutex);
        return messages;
    }
};

}  // namespace

// D3 with group commit: a move is acknowledged only once its batch is durable; while
// one batch waits for its fsync the hub goes on taking moves (of every game), which
// then go to storage together, each game's messages in order.
TEST(Storage, D3AcknowledgementsWaitForDurableBatchesNotTheHub) {
    const std::string path = temp_db("group");
    auto gated = std::make_unique<GatedStorage>(std::move(Storage::open(path).value()));
    GatedStorage& gate = *gated;
    HubEnv env;
    std::atomic<Millis> now{1000};
    int tokens = 0;
    env.monotonic_ms = [&] { return now.load(); };
    env.wall_ms = [&] { return 1'700'000'000'000 + now.load(); };
    env.random_token = [&](int len) {
        return outpost::test::counted_token('k', ++tokens, len, 'y');
    };
    auto hub = std::make_unique<Hub>(env, gated.get());
    constexpr int Games = 8;
    std::vector<CreatedGame> games;
    std::vector<std::shared_ptr<Inbox>> white(Games);
    for (int i = 0; i < Games; ++i) {
        auto r = hub->create_game(R"({"opponent":"hotseat"})");
        ASSERT_TRUE(r.ok());
        games.push_back(r.value());
        white[size_t(i)] = std::make_shared<Inbox>();
        ASSERT_TRUE((hub->connect(games.back().id, *games.back().white_token, white[size_t(i)])).ok());
    }
    hub->flush();
    // The slow fsync: the first batch waits at the gate.
    gate.set_open(false);
    hub->handle_message(games[0].id, Seat::BOTH, R"({"t":"move","uci":"e2e4"})", *white[0]);
    gate.wait_for_writer();
    // The hub is not held: more moves of every game go in (all while the batch waits).
    for (int i = 0; i < Games; ++i) {
        hub->handle_message(games[size_t(i)].id, Seat::BOTH, i == 0 ? R"({"t":"move","uci":"e7e5"})" : R"({"t":"move","uci":"d2d4"})",
                            *white[size_t(i)]);
    }
    for (int i = 0; i < Games; ++i) EXPECT_EQ(white[size_t(i)]->all().size(), 1u) << "acknowledged before it was durable";
    gate.set_open(true);
    hub->flush();
    for (int i = 0; i < Games; ++i) {
        auto got = white[size_t(i)]->all();
        ASSERT_EQ(got.size(), i == 0 ? 3u : 2u);
        for (size_t k = 1; k < got.size(); ++k) EXPECT_EQ(json::parse(got[k])["game"]["ply"], int(k)) << got[k];
    }
    // Eight moves after the first one: one batch, not eight transactions.
    const auto sizes = gate.sizes();
    ASSERT_GE(sizes.size(), 2u);
    EXPECT_EQ(sizes[sizes.size() - 2], 1u);
    EXPECT_EQ(sizes.back(), size_t(Games));
    // And they are in storage.
    hub.reset();
    auto stored = gate.load_game(games[0].id);
    ASSERT_TRUE(stored.ok() && stored->has_value());
    EXPECT_EQ((*stored)->moves.size(), 2u);
    gated.reset();
    remove_db(path);
}

namespace {

class FailingStorage final : public Storage {
public:
    explicit FailingStorage(std::unique_ptr<Storage> inner) : inner_(std::move(inner)) {}
    std::atomic<bool> fail{false};
    Result<bool> write(const std::vector<GameWrite>& batch) override {
        if (fail) return make_error("disk full");
        return inner_->write(batch);
    }
    Result<std::optional<StoredGame>> load_game(const std::string& id) override { return inner_->load_game(id); }
    Result<std::vector<StoredGame>> load_live_games() override { return inner_->load_live_games(); }
    Result<std::vector<StoredSummary>> games_for_tokens(const std::vector<std::string>& t, int limit) override {
        return inner_->games_for_tokens(t, limit);
    }

private:
    std::unique_ptr<Storage> inner_;
};

}  // namespace

// D3: a change that could not be stored is never acknowledged; its players hear an
// `internal` error, and the game goes on from what storage holds.
TEST(Storage, D3AChangeThatCannotBeStoredIsNotAcknowledged) {
    const std::string path = temp_db("failing");
    for (const bool inline_writes : {true, false}) {
        auto store = std::make_unique<FailingStorage>(std::move(Storage::open(path).value()));
        HubEnv env;
        int tokens = 0;
        env.monotonic_ms = [] { return Millis(5000); };
        env.wall_ms = [] { return std::int64_t(1'700'000'000'000); };
        env.random_token = [&](int len) {
            std::string s = (inline_writes ? "i" : "t") + std::to_string(++tokens);
            while (int(s.size()) < len) s += "z";
            return s;
        };
        env.inline_writes = inline_writes;
        Hub hub(env, store.get());
        auto g = (hub.create_game(R"({"opponent":"hotseat"})")).value();
        auto inbox = std::make_shared<Inbox>();
        ASSERT_TRUE((hub.connect(g.id, *g.white_token, inbox)).ok());
        hub.handle_message(g.id, Seat::BOTH, R"({"t":"move","uci":"e2e4"})", *inbox);
        hub.flush();
        store->fail = true;
        hub.handle_message(g.id, Seat::BOTH, R"({"t":"move","uci":"e7e5"})", *inbox);
        hub.flush();
        auto got = inbox->all();
        ASSERT_EQ(got.size(), 3u);
        EXPECT_EQ(json::parse(got.back())["code"], "internal") << got.back();
        store->fail = false;
        hub.handle_message(g.id, Seat::BOTH, R"({"t":"sync"})", *inbox);
        hub.flush();
        EXPECT_EQ(json::parse(inbox->all().back())["game"]["moves"], json::array({"e2e4"}));
        hub.handle_message(g.id, Seat::BOTH, R"({"t":"move","uci":"c7c5"})", *inbox);
        hub.flush();
        EXPECT_EQ(json::parse(inbox->all().back())["game"]["san"], "c5");
        auto stored = store->load_game(g.id);
        ASSERT_TRUE(stored.ok() && stored->has_value());
        ASSERT_EQ((*stored)->moves.size(), 2u);
        EXPECT_EQ((*stored)->moves[1].uci, "c7c5");
        // A game that could not be stored was not created (and takes no place).
        const size_t rooms = hub.rooms_in_memory();
        store->fail = true;
        auto refused = hub.create_game(R"({"opponent":"invite"})", "10.1.1.1");
        ASSERT_TRUE(!refused);
        EXPECT_EQ(refused.error().code, "internal");
        EXPECT_EQ(hub.rooms_in_memory(), rooms);
        store->fail = false;
    }
    remove_db(path);
}

namespace {

// A store that only records when each batch began and how many writes it held.
class RecordingStorage final : public Storage {
public:
    using Clock = std::chrono::steady_clock;
    Result<bool> write(const std::vector<GameWrite>& batch) override {
        std::lock_guard lock(mutex_);
        batches_.push_back({Clock::now(), batch.size()});
        return true;
    }
    Result<std::optional<StoredGame>> load_game(const std::string&) override { return std::optional<StoredGame>{}; }
    Result<std::vector<StoredGame>> load_live_games() override { return std::vector<StoredGame>{}; }
    Result<std::vector<StoredSummary>> games_for_tokens(const std::vector<std::string>&, int) override {
        return std::vector<StoredSummary>{};
    }
    std::vector<std::pair<Clock::time_point, size_t>> batches() {
        std::lock_guard lock(mutex_);
        return batches_;
    }

private:
    std::mutex mutex_;
    std::vector<std::pair<Clock::time_point, size_t>> batches_;
};

GameWrite a_move(int ply) {
    return GameWrite{GameWrite::APPEND_MOVE, sample_game("w1"), StoredMove{ply, "e2e4", ply, ply, ply, -1}, 0};
}

}  // namespace

// D3 with a commit window (stores/writer.h; `outpost serve --commit-window`): a batch
// begins no sooner than the window after the one before, and so carries every write
// that came meanwhile; a write after a quiet spell is written at once; a writer that
// stops writes what waits without waiting out its window. Each write is still
// acknowledged only once written.
TEST(Storage, D3CommitWindowGathersTheWritesOfAWindowInOneBatch) {
    using Clock = RecordingStorage::Clock;
    using std::chrono::milliseconds;
    RecordingStorage store;
    auto writer = std::make_unique<StorageWriter>(&store, true, 512, milliseconds(300));
    std::atomic<int> done{0};
    const auto count = [&done](const Result<bool>& ok) {
        if (ok) ++done;
    };
    const Clock::time_point first = Clock::now();
    writer->submit(a_move(1), count);
    writer->flush();
    ASSERT_EQ(store.batches().size(), 1u);
    EXPECT_LT(store.batches()[0].first - first, milliseconds(250)) << "the first write waited for a window";
    for (int ply = 2; ply <= 6; ++ply) {
        writer->submit(a_move(ply), count);
        std::this_thread::sleep_for(milliseconds(10));
    }
    writer->flush();
    auto b = store.batches();
    ASSERT_EQ(b.size(), 2u);
    EXPECT_EQ(b[1].second, 5u);
    EXPECT_GE(b[1].first - b[0].first, milliseconds(300)) << "a batch began inside the window";
    EXPECT_EQ(done.load(), 6);
    // A quiet spell longer than the window: the next write goes at once.
    std::this_thread::sleep_for(milliseconds(320));
    const Clock::time_point quiet = Clock::now();
    writer->submit(a_move(7), count);
    writer->flush();
    b = store.batches();
    ASSERT_EQ(b.size(), 3u);
    EXPECT_LT(b[2].first - quiet, milliseconds(250)) << "a write after a quiet spell waited";
    // Stopping: what waits inside a long window is written now.
    auto slow = std::make_unique<StorageWriter>(&store, true, 512, milliseconds(60'000));
    slow->submit(a_move(8), count);
    slow->flush();
    slow->submit(a_move(9), count);
    const Clock::time_point stop = Clock::now();
    slow.reset();
    EXPECT_LT(Clock::now() - stop, milliseconds(30'000)) << "the stop waited out the window";
    EXPECT_EQ(done.load(), 9);
    EXPECT_EQ(store.batches().size(), 5u);
}
