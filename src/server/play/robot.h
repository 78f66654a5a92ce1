// Outpost — the robot players of the server: a pool of threads, each with its own
// Engine (the facade of src/engine), so that searches never run on I/O threads.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Scheduling (issue 9: thirty full-strength games made a new level-1 game wait 38 s
// behind a first-come queue, and robots lost on time):
//   - at most one request per game, queued or thinking: a new request for a game
//     replaces its queued one and stops its running search (the position changed);
//   - games take turns (round-robin in the order they asked), so no game waits
//     behind another game's queue;
//   - issue 25, fair shares: players take turns before games do. Each request names
//     its owner (RobotRequest::owner: the account, else the address group); a free
//     thread takes the request whose owner has the fewest searches running, then the
//     owner served longest ago, then the game that asked first. One player's twenty
//     games therefore hold at most one thread while another player waits, and the
//     other player's game is next whatever the first one asks;
//   - the quick levels (those with a cap on thinking time of at most QuickMs) go
//     first, and one extra thread thinks for them alone, so that they never wait
//     behind full-strength searches;
//   - the clock budget given to the search is the robot's time minus the time the
//     request spent queued (asked_at_ms), so that waiting is never lost on time;
//   - cancel() drops a game's queued request and stops (and discards) its search;
//   - with human time on, a casual (quick) level answers after the time a person
//     would take (engine/human_time.h): the move found waits on a timer of the pool,
//     not on a thinking thread, and the clock (running meanwhile) bounds the wait.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "engine/engine.h"
#include "server/play/hub.h"

namespace outpost::server {

class RobotPool {
public:
    using OnMove = std::function<void(const std::string& game_id, std::uint64_t request_id, Move move)>;
    // A thinking time cap at or under this makes a request "quick" (levels 1-9).
    static constexpr Millis QuickMs = 1000;
    // Kept back from the robot's clock for posting the answer and the hub's press.
    static constexpr Millis AnswerOverheadMs = 50;

    // threads <= 0: one per core (std::thread::hardware_concurrency). One more
    // thread serves quick requests only. `now` is the hub's monotonic clock (the
    // scale of asked_at_ms).
    RobotPool(int threads, OnMove answer, std::function<Millis()> now = {});
    ~RobotPool();
    RobotPool(const RobotPool&) = delete;
    RobotPool& operator=(const RobotPool&) = delete;

    // Casual levels take a person's time over a move (off by default; `outpost serve`
    // turns it on). `seed` makes the times reproducible.
    void set_human_time(bool on, std::uint64_t seed);
    // How long the answer to this request takes in all at most, from asked_at_ms;
    // 0 when it goes as soon as the search ends (human time off, or not a casual level).
    Millis answer_time(const RobotRequest& r);

    void ask(RobotRequest request);
    // Drops the game's queued request; a search for it is stopped and its answer dropped.
    void cancel(const std::string& game_id);
    int threads() const { return int(threads_.size()); }
    // Requests waiting for a thread (for tests and the load benchmark).
    size_t queued() const;
    // Searches under way (for tests).
    size_t thinking() const;

    static bool is_quick(const RobotRequest& r);
    // The search limits for a request asked at asked_at_ms, taken from the queue at now.
    static engine::Limits limits_for(const RobotRequest& r, Color us, Millis now);
    // The levels JSON of the protocol (GET /api/v1/levels).
    static std::string levels_json();
    static int level_elo(int level);

private:
    struct Slot {  // what one thread is thinking about
        std::string game_id;
        std::string owner;  // its request's owner (fair shares)
        bool discard = false;
        engine::Engine* engine = nullptr;  // set once its search has started
    };
    void run(Slot& slot, bool quick_only);
    // The next request for a thread, by the rules above; false if none fits.
    bool take(bool quick_only, RobotRequest& out);

    void timer_loop();
    struct Due {  // a move held back until `at` (human time)
        Millis at;
        std::string game_id;
        std::uint64_t request_id;
        Move move;
    };

    OnMove answer_;
    std::function<Millis()> now_;
    mutable std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<RobotRequest> queue_;  // one per game, in the order the games asked
    // When each owner was last given a thread (a count of takes; fair shares). Owners
    // with nothing queued or running are forgotten.
    std::unordered_map<std::string, std::uint64_t> last_served_;
    std::uint64_t takes_ = 0;
    std::vector<std::unique_ptr<Slot>> slots_;
    bool stopping_ = false;
    bool human_ = false;
    std::mt19937_64 rng_;
    std::vector<Due> due_;
    std::condition_variable due_cv_;
    std::vector<std::thread> threads_;
    std::thread timer_;
};

}  // namespace outpost::server
