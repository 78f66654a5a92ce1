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
    // Sets an option by its (case-insensitive) name: the option's handler parses the
    // value and calls the typed setter below. Errors name the option and what is wrong.
    Result<bool> set_option(std::string_view name, std::string_view value);

    // Typed setters, one per option (Stockfish's engine.cpp). Those that can refuse a
    // value return a Result that a caller cannot drop unread; the error names the
    // option, the value and the range. Hash, Threads and clear_hash stop a running
    // search first.
    Result<bool> set_hash_mb(int mb);
    Result<bool> set_threads(int n);
    Result<bool> set_multipv(int n);
    Result<bool> set_move_overhead(int ms);
    // Strength: a level 1..10 (10 = full strength), or with limit_strength an Elo in
    // ELO_MIN..ELO_MAX (skill.h), which then takes precedence over the level.
    Result<bool> set_level(int level);
    Result<bool> set_elo(int elo);
    void set_limit_strength(bool on) { limit_strength_ = on; }
    void set_ponder(bool on) { ponder_ = on; }
    void set_chess960(bool on) { chess960_ = on; }
    void set_show_wdl(bool on) { show_wdl_ = on; }
    void clear_hash();

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
    int elo() const { return elo_; }
    bool limit_strength() const { return limit_strength_; }
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
    // The strength handicap of the running search, applied at the root: its limits
    // go into the search's Limits, its choice among the candidates is made here.
    SkillParams skill_;
    std::uint64_t skill_seed_ = 0;

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
