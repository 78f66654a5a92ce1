// Outpost — the Engine facade: the one interface to the robot.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// No I/O: results come back through callbacks, which is what lets the UCI adapter
// (uci_protocol.h) and the game server drive the same engine. A search runs on its
// own threads; go() returns at once, stop() and ponderhit() take effect at once,
// wait() blocks until the best move has been delivered.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "chess/position.h"
#include "chess/result.h"
#include "engine/search.h"
#include "engine/tt.h"

namespace outpost::engine {

struct OptionSpec {
    enum Type : std::uint8_t { SPIN, CHECK, BUTTON, STRING };
    std::string name;
    Type type;
    std::string default_value;
    int min = 0, max = 0;
    std::string description;
};

struct SearchResult {
    Move best;
    Move ponder;
    Value score = 0;
    int depth = 0;
    std::uint64_t nodes = 0;
    TimePoint time_ms = 0;
};

class Engine {
public:
    using InfoHandler = std::function<void(const SearchInfo&)>;
    using BestMoveHandler = std::function<void(Move best, Move ponder)>;

    Engine();
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    // Handlers are called from the search thread; set them while no search runs.
    void set_info_handler(InfoHandler h) { on_info_ = std::move(h); }
    void set_bestmove_handler(BestMoveHandler h) { on_bestmove_ = std::move(h); }

    // The options the engine understands, with their UCI types and ranges.
    static const std::vector<OptionSpec>& option_specs();
    // Sets an option by its (case-insensitive) name. Hash and Threads stop a
    // running search first. Errors name the option and what is wrong.
    Result<bool> set_option(std::string_view name, std::string_view value);

    // The root position and the game moves played from it (checked for legality;
    // on error the previous position stays).
    Result<bool> set_position(const Position& root, const std::vector<Move>& moves);
    const Position& position() const { return pos_; }
    // Forgets the game: table, histories.
    void new_game();

    void go(const Limits& limits);
    void stop();
    void ponderhit();
    void wait();
    bool searching() const { return searching_.load(); }
    // go() then wait(); the result of the finished search.
    SearchResult search_sync(const Limits& limits);
    SearchResult last_result() const;

    int threads() const { return int(workers_.size()); }
    int multipv() const { return multipv_; }
    bool chess960() const { return chess960_; }
    bool show_wdl() const { return show_wdl_; }
    bool ponder_enabled() const { return ponder_; }
    int level() const { return level_; }
    // The parameters the next search will play with.
    SkillParams skill() const;

private:
    void run_search();
    void join_search_thread();
    void resize_threads(int n);

    TranspositionTable tt_;
    std::vector<std::unique_ptr<Worker>> workers_;
    SearchShared shared_;
    Position pos_ = Position::startpos();
    std::vector<Key> history_;

    std::thread thread_;
    std::mutex mutex_;
    std::condition_variable cv_;
    std::atomic<bool> searching_{false};
    mutable std::mutex result_mutex_;
    SearchResult last_result_;
    std::uint64_t go_counter_ = 0;
    std::uint64_t random_base_ = 0;

    InfoHandler on_info_;
    BestMoveHandler on_bestmove_;

    int multipv_ = 1;
    int move_overhead_ = 30;
    bool ponder_ = false;
    bool chess960_ = false;
    bool show_wdl_ = false;
    bool limit_strength_ = false;
    int elo_ = 1500;
    int level_ = LEVEL_MAX;
};

}  // namespace outpost::engine
