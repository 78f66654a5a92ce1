// Outpost — the bounded work pool of the server (common/work_pool.h; issue 25: no
// blocking work on the network threads, and a full queue answered "busy" rather than
// grown without bound).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "server/common/work_pool.h"

namespace outpost::server {
namespace {

using namespace std::chrono_literals;

TEST(WorkPoolIssue25, AFullQueueRefusesAndNothingIsLost) {
    std::promise<void> release;
    std::shared_future<void> released = release.get_future().share();
    std::atomic<int> ran{0};
    {
        WorkPool pool(1, 3);
        std::promise<void> started;
        ASSERT_TRUE(pool.try_post([&] {
            started.set_value();
            released.wait();
            ++ran;
        }));
        started.get_future().wait();  // the one thread is busy: what follows waits
        for (int i = 0; i < 3; ++i) EXPECT_TRUE(pool.try_post([&] { ++ran; })) << i;
        EXPECT_EQ(pool.queued(), 3u);
        EXPECT_FALSE(pool.try_post([&] { ran += 100; }));  // the fourth waiting job: refused, never run
        pool.post([&] { ++ran; });                          // post() takes it whatever waits
        EXPECT_EQ(pool.queued(), 4u);
        release.set_value();
    }  // the destructor runs what was queued, then joins
    EXPECT_EQ(ran, 5);
}

TEST(WorkPoolIssue25, OneThreadRunsTheJobsInTheOrderPosted) {
    std::vector<int> order;
    std::mutex m;
    {
        WorkPool pool(1, 1000);
        for (int i = 0; i < 200; ++i)
            pool.post([&, i] {
                std::lock_guard lock(m);
                order.push_back(i);
            });
    }
    ASSERT_EQ(order.size(), 200u);
    for (int i = 0; i < 200; ++i) EXPECT_EQ(order[size_t(i)], i);
}

TEST(WorkPoolIssue25, AJobThatThrowsDoesNotEndItsThread) {
    std::atomic<int> ran{0};
    {
        WorkPool pool(2, 100, 5);
        EXPECT_EQ(pool.threads(), 2);
        for (int i = 0; i < 10; ++i) ASSERT_TRUE(pool.try_post([] { throw std::runtime_error("a bad job"); }));
        for (int i = 0; i < 10; ++i) ASSERT_TRUE(pool.try_post([&] { ++ran; }));
    }
    EXPECT_EQ(ran, 10);
}

TEST(WorkPoolIssue25, JobsRunOnSeveralThreadsAtOnce) {
    WorkPool pool(2, 10);
    std::promise<void> both;
    std::atomic<int> in{0};
    auto job = [&] {
        if (++in == 2) both.set_value();
        while (in < 2) std::this_thread::sleep_for(1ms);
    };
    ASSERT_TRUE(pool.try_post(job));
    ASSERT_TRUE(pool.try_post(job));
    EXPECT_EQ(both.get_future().wait_for(10s), std::future_status::ready);
}

TEST(WorkPoolIssue25, SizedFromTheMachineWithinBounds) {
    const int n = WorkPool::for_cores(2, 2, 16);
    EXPECT_GE(n, 2);
    EXPECT_LE(n, 16);
    EXPECT_EQ(WorkPool::for_cores(100, 1, 3), 3);
    EXPECT_EQ(WorkPool::for_cores(0, 1, 3), 1);
}

}  // namespace
}  // namespace outpost::server
