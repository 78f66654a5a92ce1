// Outpost — the background puzzle generator (puzzle_miner.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/training/puzzle_miner.h"

#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>

#include "engine/engine.h"
#include "server/observe/log.h"
#include "server/training/puzzle_rules.h"
#include "training/generator.h"

namespace outpost::server {
namespace {

// The calling thread (and the search threads it starts, which inherit it) at nice 19.
// Not SCHED_IDLE, which runs only when nothing else wants the core: on our 2-core
// machine, SCHED_IDLE threads busy on every core gave the normal threads a latency tail
// of half a second, nice 19 threads a tenth of that (docs/scaling.md, "Background
// threads").
void lowest_priority() { (void)::setpriority(PRIO_PROCESS, id_t(::syscall(SYS_gettid)), 19); }

}  // namespace

PuzzleMiner::PuzzleMiner(PuzzleMinerOptions options, PuzzleStore& store, Hub& hub, std::function<void(int)> added)
    : options_(options), store_(store), hub_(hub), added_(std::move(added)) {
    if (options_.cpu_percent > 0) thread_ = std::thread([this] { run(); });
}

PuzzleMiner::~PuzzleMiner() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (!thread_.joinable()) return;
    // The generator goes on with its searches of the game it reads: each one is stopped
    // as it starts, so that a server's stop does not wait for a game's puzzles.
    for (;;) {
        {
            std::lock_guard lock(mutex_);
            if (finished_) break;
            if (engine_) engine_->stop();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    thread_.join();
}

std::int64_t PuzzleMiner::games_read() const {
    std::lock_guard lock(mutex_);
    return games_;
}

std::int64_t PuzzleMiner::puzzles_stored() const {
    std::lock_guard lock(mutex_);
    return puzzles_;
}

bool PuzzleMiner::rest(std::chrono::milliseconds ms) {
    std::unique_lock lock(mutex_);
    return !wake_.wait_for(lock, ms, [this] { return stopping_; });
}

void PuzzleMiner::run() {
    lowest_priority();
    engine::Engine engine;
    {
        std::lock_guard lock(mutex_);
        engine_ = &engine;
    }
    struct Leave {
        PuzzleMiner& m;
        ~Leave() {
            std::lock_guard lock(m.mutex_);
            m.engine_ = nullptr;
            m.finished_ = true;
        }
    } leave{*this};
    loop(engine);
}

void PuzzleMiner::loop(engine::Engine& engine) {
    training::GeneratorSettings settings;
    settings.scan_nodes = options_.scan_nodes;
    settings.nodes = options_.nodes;
    settings.hash_mb = options_.hash_mb;
    if (auto valid = settings.validate(); !valid) {
        log_event(LogLevel::ERROR, "puzzle generator off: " + valid.error().message);
        return;
    }
    const int share = std::clamp(options_.cpu_percent, 1, 100);
    while (rest(std::chrono::milliseconds(0))) {
        if (options_.active && !options_.active()) {
            if (!rest(options_.idle)) return;
            continue;
        }
        auto ids = store_.games_to_scan(options_.games_per_round);
        if (!ids) {
            log_event(LogLevel::WARN, "puzzle generator: " + ids.error().message);
            if (!rest(options_.idle)) return;
            continue;
        }
        if (ids->empty()) {
            if (!rest(options_.idle)) return;
            continue;
        }
        for (const std::string& id : *ids) {
            const auto started = std::chrono::steady_clock::now();
            int found = 0;
            auto game = hub_.game_moves(id);
            if (!game && game.error().code == "internal") {  // the database: try again later
                log_event(LogLevel::WARN, "puzzle generator: " + game.error().message);
                if (!rest(options_.idle)) return;
                break;
            }
            if (game && game->over) {
                auto puzzles = training::find_puzzles(engine, game->start, game->moves, settings, "/#/game/" + id + "?ply=");
                if (!rest(std::chrono::milliseconds(0))) return;  // stopped searches: nothing of this game is kept
                if (!puzzles) log_event(LogLevel::WARN, "puzzle generator: game " + id + ": " + puzzles.error().message);
                if (puzzles && !puzzles->empty()) {
                    std::vector<PuzzleRecord> records;
                    for (const training::Puzzle& p : *puzzles) records.push_back(to_record(p));
                    auto added = store_.add(records);
                    if (!added) {  // not marked read: its puzzles are cut again later
                        log_event(LogLevel::WARN, "puzzle generator: " + added.error().message);
                        if (!rest(options_.idle)) return;
                        break;
                    }
                    found = int(added->added);
                }
            }
            if (auto r = store_.mark_game_scanned(id, found); !r) {
                log_event(LogLevel::WARN, "puzzle generator: " + r.error().message);
                if (!rest(options_.idle)) return;
                break;
            }
            {
                std::lock_guard lock(mutex_);
                ++games_;
                puzzles_ += found;
            }
            if (found > 0 && added_) added_(found);
            // The share of one core: rest (100 - P) / P times the time the game took (a
            // tenth of P while the machine is busy: the moves need the processors).
            const int now_share = options_.busy && options_.busy() ? std::max(1, share / 10) : share;
            const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
            if (!rest(took * (100 - now_share) / now_share)) return;
        }
    }
}

}  // namespace outpost::server
