// Outpost — the analysis workers of the server (issue 10, SPEC E4): a bounded pool of
// threads, each with its own Engine, that analyses finished games after the robot
// players, with a bounded queue whose positions it reports and a cache of results by
// game id so that a game is not analysed twice.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Not wired into the hub yet: the hub (or a route) submits a game, forwards the
// listener's reports to the player's connection, and stores the finished analysis
// with the game. No Asio here: the listener is called on a worker thread and must
// not block (post to the I/O side).
//
// Priority: each worker lowers its own scheduling priority (nice +10 on Linux); the
// engine's search threads are created by the worker and inherit it, so while a robot
// player thinks, the analysis gets what CPU is left.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "chess/position.h"
#include "chess/result.h"
#include "engine/analysis.h"

namespace outpost::engine {
class Engine;
}

namespace outpost::server {

struct AnalysisRequest {
    std::string game_id;
    Position start = Position::startpos();
    std::vector<Move> moves;
    engine::AnalysisSettings settings;
    // Issue 25 (fair shares): who asked: "account:ID", else the address group; "" is
    // the game's own. The queue serves owners in turn (AnalysisPool::order_fairly_locked).
    std::string owner;
};

class AnalysisPool {
public:
    struct Options {
        int workers = 1;               // analyses at once (each with its own Engine)
        std::size_t max_queue = 16;    // waiting analyses; more are refused
        std::size_t max_cached = 256;  // finished analyses kept (least recently used go first)
        int nice = 10;                 // added to the workers' scheduling priority (0: unchanged)
        // The most a request may ask for per position (a client chooses the settings).
        std::uint64_t max_nodes = 2'000'000;
        int max_depth = 24;
        int max_movetime_ms = 2000;
        int max_threads = 2;
        int max_hash_mb = 256;
    };

    enum class State : std::uint8_t { QUEUED, RUNNING, DONE, FAILED };
    struct Status {
        State state = State::QUEUED;
        int queue_position = 0;                              // 1 = next to run; 0 when not queued
        int done = 0, total = 0;                             // positions analysed, positions in the game
        std::shared_ptr<const engine::GameAnalysis> result;  // when DONE
        std::string error;                                   // when FAILED
    };
    // Called on a worker thread (or on the thread that cancels) with each change
    // after submit: queue position, start, progress, the end. submit() itself answers
    // with the status at once (for a cached game: DONE with the result).
    using Listener = std::function<void(const std::string& game_id, const Status& status)>;

    AnalysisPool(Options options, Listener listener = {});
    // Cancels the running analyses, drops the queue and joins the workers.
    ~AnalysisPool();
    AnalysisPool(const AnalysisPool&) = delete;
    AnalysisPool& operator=(const AnalysisPool&) = delete;

    // Queues a game. The same game (id, start, moves and settings) already queued,
    // running or done is not analysed again: its status comes back. A game id with
    // other moves (the game went on) replaces the old analysis. Errors: a full queue,
    // bad settings, a game with too many moves.
    Result<Status> submit(AnalysisRequest request);
    std::optional<Status> status(const std::string& game_id) const;
    // Drops a queued analysis or stops a running one (it ends FAILED, "cancelled").
    bool cancel(const std::string& game_id);
    std::size_t queue_length() const;

    static constexpr std::size_t MaxPlies = 1000;

private:
    struct Job;
    struct Worker;
    void run(Worker& worker);
    // Issue 25: the queue in fair order. Each owner's waiting jobs are numbered in
    // rounds, its running ones counted first (an owner with one analysis running has
    // its first waiting one in round 1); the queue runs round by round, within a round
    // the owner served longest ago first, then in the order the jobs came. One owner's
    // many requests wait behind every other owner's first.
    void order_fairly_locked();
    void report_queue_positions_locked(std::vector<std::pair<std::string, Status>>& reports);
    void remember_locked(const std::shared_ptr<Job>& job);
    void notify(const std::vector<std::pair<std::string, Status>>& reports) const;

    Options options_;
    Listener listener_;
    mutable std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<std::shared_ptr<Job>> queue_;  // in the order they run (order_fairly_locked)
    std::uint64_t arrivals_ = 0;              // numbers the jobs as they come
    // When each owner's analysis last started (a count of starts); owners with nothing
    // queued or running are forgotten.
    std::unordered_map<std::string, std::uint64_t> last_served_;
    std::uint64_t starts_ = 0;
    // Every job the pool knows by game id: queued, running, or finished (cached).
    std::unordered_map<std::string, std::shared_ptr<Job>> jobs_;
    std::list<std::string> finished_order_;  // finished game ids, oldest first
    bool stopping_ = false;
    std::vector<std::unique_ptr<Worker>> workers_;
};

}  // namespace outpost::server
