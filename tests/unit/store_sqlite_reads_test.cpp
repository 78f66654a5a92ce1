// Outpost — the SQLite game store's read connections (issue 25: a heavy profile read
// must not hold every other read behind it). Every connection SQLite opens in this test
// gets a progress handler (through sqlite3_auto_extension) that, while armed, holds the
// first statement step of a connection until a second connection is inside a statement
// too: two reads on two threads meet there only if they run at the same time.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

#include <sqlite3.h>

#include "server/stores/game_store.h"
#include "server/stores/sqlite/sqlite_db.h"

using namespace outpost::server;
using namespace std::chrono_literals;

namespace {

struct Meeting {
    std::mutex m;
    std::condition_variable cv;
    bool armed = false;
    std::set<std::thread::id> readers;  // the test's reading threads (not the checkpointer)
    std::set<std::thread::id> seen;     // those that stepped a statement while armed
    std::set<std::thread::id> inside;   // of those, the ones still waiting for the other
    bool met = false;                   // both were inside at the same time
};
Meeting meeting;

int hold_until_two(void*) {
    std::unique_lock lock(meeting.m);
    const auto me = std::this_thread::get_id();
    if (!meeting.armed || !meeting.readers.count(me) || !meeting.seen.insert(me).second) return 0;
    meeting.inside.insert(me);
    meeting.cv.notify_all();
    if (meeting.cv.wait_for(lock, 3s, [] { return meeting.inside.size() >= 2; })) meeting.met = true;
    else meeting.inside.erase(me);  // gone on alone: the other came only after
    return 0;
}

int install_handler(sqlite3* db, char**, const sqlite3_api_routines*) {
    sqlite3_progress_handler(db, 1, hold_until_two, nullptr);
    return SQLITE_OK;
}

struct SqliteReads : ::testing::Test {
    std::string path;
    void SetUp() override {
        path = (std::filesystem::temp_directory_path() /
                ("outpost-reads-test-" + std::to_string(::getpid()) + ".db")).string();
        remove_files();
        ASSERT_EQ(sqlite3_auto_extension(reinterpret_cast<void (*)()>(install_handler)), SQLITE_OK);
    }
    void TearDown() override {
        sqlite3_cancel_auto_extension(reinterpret_cast<void (*)()>(install_handler));
        {
            std::lock_guard lock(meeting.m);
            meeting.armed = false;
            meeting.inside.clear();
            meeting.readers.clear();
            meeting.seen.clear();
            meeting.met = false;
        }
        remove_files();
    }
    void remove_files() {
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
    }
};

}  // namespace

// Two profile reads at once on two threads are both inside SQLite at the same time (on
// one shared connection the second waited until the first had finished: it never met).
TEST_F(SqliteReads, Issue25TwoReadsOfTheGameStoreOverlap) {
    ASSERT_GE(ReadPool::for_machine(), 2);
    auto opened = Storage::open(path);
    ASSERT_TRUE(opened) << opened.error().message;
    std::unique_ptr<Storage> storage = std::move(*opened);
    {
        std::lock_guard lock(meeting.m);
        meeting.armed = true;
    }
    auto read = [&] {
        {
            std::lock_guard lock(meeting.m);
            meeting.readers.insert(std::this_thread::get_id());
        }
        auto games = storage->games_of_account(7, 100);
        EXPECT_TRUE(games) << games.error().message;
    };
    std::thread a(read), b(read);
    a.join();
    b.join();
    std::lock_guard lock(meeting.m);
    EXPECT_EQ(meeting.seen.size(), 2u);
    EXPECT_TRUE(meeting.met) << "the second read waited for the first";
}

// A pool's connections are lent one at a time: a third lease of two waits for a return.
TEST_F(SqliteReads, Issue25AReadPoolLendsEachConnectionToOneReaderAtATime) {
    {
        auto made = Storage::open(path);  // the file, with its tables
        ASSERT_TRUE(made) << made.error().message;
    }
    ReadPool pool;
    ASSERT_TRUE(pool.open(path, 2));
    EXPECT_EQ(pool.size(), 2);
    std::mutex m;
    std::condition_variable cv;
    bool release_first = false;
    Connection* first = nullptr;
    Connection* third = nullptr;
    std::thread holder([&] {
        ReadPool::Lease l = pool.take();
        std::unique_lock lock(m);
        first = &*l;
        cv.notify_all();
        cv.wait(lock, [&] { return release_first; });
    });
    {
        std::unique_lock lock(m);
        ASSERT_TRUE(cv.wait_for(lock, 5s, [&] { return first != nullptr; }));
    }
    ReadPool::Lease second = pool.take();
    EXPECT_NE(first, &*second);
    std::thread t([&] {
        ReadPool::Lease l = pool.take();
        std::lock_guard lock(m);
        third = &*l;
        cv.notify_all();
    });
    {
        std::unique_lock lock(m);
        EXPECT_FALSE(cv.wait_for(lock, 100ms, [&] { return third != nullptr; })) << "a third reader got a lent connection";
        release_first = true;
        cv.notify_all();
        EXPECT_TRUE(cv.wait_for(lock, 5s, [&] { return third != nullptr; }));
        EXPECT_EQ(third, first);
    }
    holder.join();
    t.join();
}
