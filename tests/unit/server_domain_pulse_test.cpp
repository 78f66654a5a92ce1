// Outpost — the lobby's and simuls' pulse (edge/domain_pulse.h; issue 25: no database
// write on a network thread). The simuls' half-second tick writes to their store; with a
// store that blocks, the network thread must go on answering (a game's move meanwhile),
// and the write must never run on it.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/edge/net.h"  // first: see net.h

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <map>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

#include "server/edge/domain_pulse.h"
#include "server/events/simul.h"

using namespace outpost;
using namespace outpost::server;
using namespace std::chrono_literals;

namespace {

// A simul store in memory whose writes, once armed, wait until released, and which
// notes the threads that wrote.
struct BlockingSimulStore : SimulStore {
    std::mutex m;
    std::condition_variable cv;
    bool armed = false, released = false;
    int blocked_writes = 0;
    std::vector<std::thread::id> writers;
    std::map<std::string, std::string> rows;

    Result<bool> save(const std::string& id, std::int64_t, const std::string&, std::int64_t,
                      const std::string& body) override {
        std::unique_lock lock(m);
        writers.push_back(std::this_thread::get_id());
        if (armed) {
            ++blocked_writes;
            cv.notify_all();
            cv.wait(lock, [this] { return released; });
        }
        rows[id] = body;
        cv.notify_all();
        return true;
    }
    void fence_with(FenceToken) override {}
    // The held write, once released, has reached the rows (it ends on the domains thread).
    bool wait_row_with(const std::string& text, std::chrono::milliseconds within) {
        std::unique_lock lock(m);
        return cv.wait_for(lock, within, [&] {
            for (const auto& [id, body] : rows)
                if (body.find(text) != std::string::npos) return true;
            return false;
        });
    }
    Result<std::vector<std::string>> load_recent(int) override {
        std::lock_guard lock(m);
        std::vector<std::string> out;
        for (const auto& [id, body] : rows) out.push_back(body);
        return out;
    }
    Result<std::optional<std::string>> load(const std::string& id) override {
        std::lock_guard lock(m);
        auto it = rows.find(id);
        if (it == rows.end()) return std::optional<std::string>();
        return std::optional<std::string>(it->second);
    }
    bool wait_blocked(std::chrono::milliseconds within) {
        std::unique_lock lock(m);
        return cv.wait_for(lock, within, [this] { return blocked_writes > 0; });
    }
    void release() {
        {
            std::lock_guard lock(m);
            released = true;
        }
        cv.notify_all();
    }
};

}  // namespace

// Issue 25, item 1: an open simul nobody came to expires at a tick, which writes it; the
// store blocks that write. The tick runs on the domains thread: the network thread
// still answers at once (the work a game's move would be), and no write ran on it.
TEST(DomainPulseIssue25, TheSimulsTickWritesOffTheNetworkThreadAndNeverStallsIt) {
    std::atomic<std::int64_t> now{1'700'000'000'000};
    int tokens = 0;
    SimulEnv env;
    env.wall_ms = [&] { return now.load(); };
    env.random_token = [&](int length) {
        std::string s(std::size_t(std::max(length, 1)), 'x');
        const std::string n = std::to_string(++tokens);
        for (std::size_t i = 0; i < n.size() && i < s.size(); ++i) s[i] = n[i];
        return s;
    };
    BlockingSimulStore store;
    SimulService simuls(env, &store);
    WorkPool domains(1, 4096);  // after what its beats use: its destructor runs them
    HttpRequest create{"POST", "/api/v1/simuls", R"({"name":"Nobody came","time_control":"3+2"})", "1.2.3.4"};
    create.content_type = "application/json";
    create.account = Account{1, "Hostess"};
    ASSERT_EQ(simuls.handle(create).status, 201);

    asio::io_context ioc;
    auto guard = asio::make_work_guard(ioc);
    std::thread network([&] { ioc.run(); });
    std::promise<std::thread::id> network_id;
    asio::post(ioc, [&] { network_id.set_value(std::this_thread::get_id()); });
    const std::thread::id io_thread = network_id.get_future().get();

    {
        std::lock_guard lock(store.m);
        store.armed = true;
        store.writers.clear();
    }
    now += 3'600'000;  // past the hour an empty simul waits
    auto pulse = std::make_shared<DomainPulse>(ioc, domains, 20ms, [&simuls] { simuls.tick(); });
    asio::post(ioc, [pulse] { pulse->start(); });
    ASSERT_TRUE(store.wait_blocked(5s)) << "the tick never wrote the expired simul";

    // The write is held: a job on the network thread (a move's answer) runs meanwhile.
    for (int i = 0; i < 5; ++i) {
        std::promise<void> answered;
        const auto asked = std::chrono::steady_clock::now();
        asio::post(ioc, [&] { answered.set_value(); });
        ASSERT_EQ(answered.get_future().wait_for(2s), std::future_status::ready)
            << "the network thread is held by the simuls' write";
        EXPECT_LT(std::chrono::steady_clock::now() - asked, 500ms);
        std::this_thread::sleep_for(30ms);  // beats come due while the write is held
    }
    EXPECT_GT(pulse->skipped(), 0) << "beats queued behind a held write instead of skipping";

    store.release();
    EXPECT_TRUE(store.wait_row_with("cancelled", 5s)) << "the released write never finished";
    std::promise<void> stopped;
    asio::post(ioc, [&] {
        pulse->stop();
        stopped.set_value();
    });
    stopped.get_future().wait();
    guard.reset();
    ioc.stop();
    network.join();
    {
        std::lock_guard lock(store.m);
        ASSERT_FALSE(store.writers.empty());
        for (const std::thread::id& w : store.writers) EXPECT_NE(w, io_thread) << "a simul was written on the network thread";
    }
    EXPECT_EQ(nlohmann::json::parse(store.rows.begin()->second).value("status", ""), "cancelled");
}
