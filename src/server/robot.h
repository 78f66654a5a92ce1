// Outpost — the robot players of the server: a small pool of threads, each with its
// own Engine (the facade of src/engine), so that searches never run on I/O threads.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "server/hub.h"

namespace outpost::server {

class RobotPool {
public:
    using Answer = std::function<void(const std::string& game_id, std::uint64_t request_id, Move move)>;

    RobotPool(int threads, Answer answer);
    ~RobotPool();
    RobotPool(const RobotPool&) = delete;
    RobotPool& operator=(const RobotPool&) = delete;

    void ask(RobotRequest request);
    // Drops the game's queued requests; an answer already being computed is discarded.
    void cancel(const std::string& game_id);
    // The levels JSON of the protocol (GET /api/v1/levels).
    static std::string levels_json();
    static int level_elo(int level);

private:
    void run();

    Answer answer_;
    std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<RobotRequest> queue_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace outpost::server
