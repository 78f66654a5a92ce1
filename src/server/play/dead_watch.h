// Outpost — the dead-position watch: the deeper R7 test (FIDE 5.2.2) on a thread of
// its own, off the move path.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// After each move a game runs a quick test (dead_position_after_move: static proofs
// and, in forced play, a small search; a few milliseconds at worst). Positions it
// cannot prove dead come here: the full search with DeepDeadPositionBudget runs on
// the watch's thread, one request per game (a newer one replaces a queued one), games
// in turn. A request carries the positions since the last capture or pawn move; when
// the newest is dead the watch walks back to the first dead one, the ply at which the
// game ended (5.2.2: at once), and reports it with that position's key, so that the
// hub can tell a stale answer (a takeback meanwhile) from a good one. The thread runs
// at nice 19: about 10 ms of search a move of a real game on average. Its share of one
// core is bounded besides (`cpu_percent`, `outpost serve --dead-position-cpu`): after a
// request that took T it rests T * (100 - P) / P, so that under load (more moves than
// it can test: requests wait, one per game) it never fills every core of the machine.
// While the machine is busy (`busy`, from observe/machine_load.h: most of its processors'
// time going to normal-priority work) the share is a tenth of that: the moves need the
// processors then, and nice 19 alone still gave them a tail (docs/scaling.md).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <list>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "chess/dead_position.h"

namespace outpost::server {

struct DeadPositionRequest {
    std::string game_id;
    int first_ply = 0;                 // the ply of positions.front()
    std::vector<Position> positions;   // consecutive plies, the newest last
};

class DeadPositionWatch {
public:
    // Called on the watch's thread with the first dead ply and its position's
    // repetition key.
    using OnDead = std::function<void(const std::string& game_id, int ply, Key key)>;
    // `test` is dead_position_deep unless a test gives another; `cpu_percent` (1-100)
    // its share of one core; `busy`, asked after each request, true while the machine
    // is busy (unset: never).
    explicit DeadPositionWatch(OnDead on_dead, std::function<Deadness(const Position&)> test = {},
                               int cpu_percent = 100, std::function<bool()> busy = {});
    ~DeadPositionWatch();
    DeadPositionWatch(const DeadPositionWatch&) = delete;
    DeadPositionWatch& operator=(const DeadPositionWatch&) = delete;

    void ask(DeadPositionRequest request);
    void cancel(const std::string& game_id);
    // Blocks until nothing is queued or being tested (tests).
    void wait_idle();

private:
    void run();
    OnDead on_dead_;
    std::function<Deadness(const Position&)> test_;
    int cpu_percent_;
    std::function<bool()> busy_machine_;
    std::mutex mutex_;
    std::condition_variable cv_, idle_cv_;
    // In the order asked, one per game, found by its game's id: under load every live
    // game waits here, and a linear search for each move's request cost more than the
    // move itself at 10,000 games (bench/serve-load).
    std::list<DeadPositionRequest> queue_;
    std::unordered_map<std::string, std::list<DeadPositionRequest>::iterator> queued_;
    bool busy_ = false, stopping_ = false;
    std::thread thread_;
};

}  // namespace outpost::server
