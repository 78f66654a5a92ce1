// Outpost — the background puzzle generator of `outpost serve` (issue 29 item 1): a
// thread at nice 19 that reads the finished
// standard games the generator has not looked at yet, cuts puzzles from them
// (training/generator.h) and stores them. Its CPU share is bounded besides: after a game
// that took T seconds it rests T * (100 - P) / P seconds (`--puzzle-cpu P`, percent of
// one core; 0: no generator). The engine searches with one thread.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

#include "server/play/hub.h"
#include "server/stores/puzzle_store.h"

namespace outpost::engine {
class Engine;
}

namespace outpost::server {

struct PuzzleMinerOptions {
    int cpu_percent = 10;                   // of one core; 0: off
    std::uint64_t scan_nodes = 20'000;      // the generator's cheap pass, per position
    std::uint64_t nodes = 200'000;          // per solver step
    int hash_mb = 16;
    int games_per_round = 20;               // games asked of the store at a time
    std::chrono::milliseconds idle{60'000}; // the wait when no game is left to read
    // Several nodes (issue 26): whether this node mines now (the domains node only, so
    // that the nodes do not all cut the same games); unset: always.
    std::function<bool()> active;
    // True while the machine is busy with other work (observe/machine_load.h): the
    // share is a tenth of cpu_percent then. Unset: never.
    std::function<bool()> busy;
};

class PuzzleMiner {
public:
    // `added`: called (from the miner's thread) after puzzles were stored.
    PuzzleMiner(PuzzleMinerOptions options, PuzzleStore& store, Hub& hub, std::function<void(int)> added);
    ~PuzzleMiner();  // stops the thread: every search of the game being read ends at once
    PuzzleMiner(const PuzzleMiner&) = delete;
    PuzzleMiner& operator=(const PuzzleMiner&) = delete;

    // Games read and puzzles stored so far (for the log and the tests).
    std::int64_t games_read() const;
    std::int64_t puzzles_stored() const;

private:
    void run();
    void loop(engine::Engine& engine);
    bool rest(std::chrono::milliseconds ms);  // false: stopping

    PuzzleMinerOptions options_;
    PuzzleStore& store_;
    Hub& hub_;
    std::function<void(int)> added_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::int64_t games_ = 0, puzzles_ = 0;
    bool finished_ = false;              // the thread has left run()
    engine::Engine* engine_ = nullptr;   // the thread's engine while it has one (under mutex_)
    std::thread thread_;  // last: started when the rest is ready
};

}  // namespace outpost::server
