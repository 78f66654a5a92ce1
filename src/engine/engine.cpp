// Outpost — the Engine facade.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/engine.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <random>

#include "chess/movegen.h"
#include "engine/movecheck.h"

namespace outpost::engine {
namespace {

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

Result<int> parse_spin(const OptionSpec& spec, std::string_view value) {
    int v = 0;
    auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || p != value.data() + value.size())
        return make_error("option " + spec.name + ": '" + std::string(value) + "' is not a number");
    if (v < spec.min || v > spec.max)
        return make_error("option " + spec.name + ": " + std::to_string(v) + " is outside " +
                          std::to_string(spec.min) + ".." + std::to_string(spec.max));
    return v;
}

Result<bool> parse_check(const OptionSpec& spec, std::string_view value) {
    if (iequals(value, "true")) return true;
    if (iequals(value, "false")) return false;
    return make_error("option " + spec.name + ": '" + std::string(value) + "' is not true or false");
}

}  // namespace

const std::vector<OptionSpec>& Engine::option_specs() {
    static const std::vector<OptionSpec> specs = {
        {"Hash", OptionSpec::SPIN, "16", 1, 4096, "Transposition table size in MB"},
        {"Clear Hash", OptionSpec::BUTTON, "", 0, 0, "Empty the transposition table"},
        {"Threads", OptionSpec::SPIN, "1", 1, 64, "Search threads (Lazy SMP)"},
        {"MultiPV", OptionSpec::SPIN, "1", 1, 64, "Principal variations reported"},
        {"Ponder", OptionSpec::CHECK, "false", 0, 0, "Think on the opponent's time (the GUI decides)"},
        {"Move Overhead", OptionSpec::SPIN, "30", 0, 5000, "Milliseconds kept in reserve per move for lag"},
        {"UCI_Chess960", OptionSpec::CHECK, "false", 0, 0, "Chess960 castling notation (king takes rook)"},
        {"UCI_LimitStrength", OptionSpec::CHECK, "false", 0, 0, "Play at UCI_Elo instead of Level"},
        {"UCI_Elo", OptionSpec::SPIN, "1500", ELO_MIN, ELO_MAX, "Target strength when UCI_LimitStrength is on"},
        {"UCI_ShowWDL", OptionSpec::CHECK, "false", 0, 0, "Report win/draw/loss per mille (model, not measured)"},
        {"Level", OptionSpec::SPIN, "10", LEVEL_MIN, LEVEL_MAX, level_description()},
    };
    return specs;
}

Engine::Engine() {
    random_base_ = std::random_device{}();
    random_base_ = (random_base_ << 32) ^ std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
    shared_.tt = &tt_;
    tt_.resize(16);
    resize_threads(1);
}

Engine::~Engine() {
    stop();
    join_search_thread();
}

void Engine::resize_threads(int n) {
    workers_.clear();
    for (int i = 0; i < n; ++i) workers_.push_back(std::make_unique<Worker>(i));
}

Result<bool> Engine::set_option(std::string_view name, std::string_view value) {
    const OptionSpec* spec = nullptr;
    for (const OptionSpec& s : option_specs())
        if (iequals(s.name, name)) spec = &s;
    if (!spec) return make_error("unknown option '" + std::string(name) + "'");

    if (spec->type == OptionSpec::SPIN) {
        auto v = parse_spin(*spec, value);
        if (!v) return v.error();
        if (spec->name == "Hash" || spec->name == "Threads") {
            // Tables and threads change only between searches.
            stop();
            join_search_thread();
            if (spec->name == "Hash") tt_.resize(std::size_t(*v));
            else resize_threads(*v);
        } else if (spec->name == "MultiPV") {
            multipv_ = *v;
        } else if (spec->name == "Move Overhead") {
            move_overhead_ = *v;
        } else if (spec->name == "UCI_Elo") {
            elo_ = *v;
        } else if (spec->name == "Level") {
            level_ = *v;
        }
    } else if (spec->type == OptionSpec::CHECK) {
        auto v = parse_check(*spec, value);
        if (!v) return v.error();
        if (spec->name == "Ponder") ponder_ = *v;
        else if (spec->name == "UCI_Chess960") chess960_ = *v;
        else if (spec->name == "UCI_LimitStrength") limit_strength_ = *v;
        else if (spec->name == "UCI_ShowWDL") show_wdl_ = *v;
    } else if (spec->type == OptionSpec::BUTTON) {
        stop();
        join_search_thread();
        tt_.clear();
    }
    return true;
}

SkillParams Engine::skill() const {
    if (limit_strength_) return skill_for_elo(elo_);
    return skill_for_level(level_);
}

Result<bool> Engine::set_position(const Position& root, const std::vector<Move>& moves) {
    // The running search reads the position: end it first.
    stop();
    join_search_thread();
    Position p = root;
    std::vector<Key> keys;
    keys.reserve(moves.size());
    for (std::size_t i = 0; i < moves.size(); ++i) {
        if (!p.is_legal(moves[i]))
            return make_error("move " + std::to_string(i + 1) + " (" + std::to_string(moves[i].raw()) + ") is illegal");
        keys.push_back(p.key());
        p.do_move(moves[i]);
    }
    pos_ = p;
    history_ = std::move(keys);
    return true;
}

void Engine::new_game() {
    stop();
    join_search_thread();
    tt_.clear();
    for (auto& w : workers_) w->clear();
}

void Engine::join_search_thread() {
    if (thread_.joinable()) thread_.join();
}

void Engine::go(const Limits& limits) {
    // A go while searching (a protocol error by the GUI) ends the old search first.
    stop();
    join_search_thread();

    const SkillParams skill_params = skill();
    Limits l = limits;
    if (skill_params.enabled) {
        l.depth = l.depth > 0 ? std::min(l.depth, skill_params.depth) : skill_params.depth;
        l.nodes = l.nodes > 0 ? std::min(l.nodes, skill_params.nodes) : skill_params.nodes;
    }
    shared_.limits = l;
    shared_.stop = false;
    shared_.pondering = limits.ponder;
    shared_.stop_on_ponderhit = false;
    shared_.start_time = now_ms();
    shared_.time.init(l, pos_.side_to_move(), pos_.game_ply(), move_overhead_);
    shared_.multipv = skill_params.enabled ? std::max(multipv_, skill_params.candidates) : multipv_;
    shared_.skill = skill_params;
    shared_.skill_seed = random_base_ ^ (++go_counter_ * 0x9E3779B97F4A7C15ULL);
    shared_.on_info = on_info_;
    shared_.workers.clear();
    for (auto& w : workers_) {
        shared_.workers.push_back(w.get());
        w->set_root(pos_, history_);
    }
    tt_.new_search();
    searching_ = true;
    thread_ = std::thread([this] { run_search(); });
}

void Engine::run_search() {
    std::vector<std::thread> helpers;
    for (std::size_t i = 1; i < workers_.size(); ++i)
        helpers.emplace_back([this, i] { workers_[i]->iterative_deepening(shared_); });
    Worker& primary = *workers_[0];
    primary.iterative_deepening(shared_);

    // UCI: while pondering or in an infinite search, the best move waits for
    // `stop` or `ponderhit`, even when the search itself has finished.
    {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [this] { return shared_.stop.load() || (!shared_.pondering && !shared_.limits.infinite); });
        shared_.stop = true;
    }
    for (std::thread& t : helpers) t.join();

    SearchResult result;
    const auto& root_moves = primary.root_moves();
    if (!root_moves.empty()) {
        const RootMove& best = root_moves[0];
        result.best = best.move;
        result.score = best.score == -VALUE_INFINITE ? best.previous_score : best.score;
        result.depth = primary.completed_depth();
        if (shared_.skill.enabled) {
            std::vector<Candidate> candidates;
            for (std::size_t i = 0; i < root_moves.size() && int(i) < shared_.multipv; ++i) {
                const RootMove& rm = root_moves[i];
                const Value s = rm.score != -VALUE_INFINITE ? rm.score : rm.previous_score;
                if (s != -VALUE_INFINITE) candidates.push_back({rm.move, s});
            }
            if (!candidates.empty()) {
                const Move chosen = choose_skill_move(shared_.skill, pos_, candidates, shared_.skill_seed * 31 + 7);
                result.best = chosen;
                for (const RootMove& rm : root_moves)
                    if (rm.move == chosen) {
                        result.score = rm.score != -VALUE_INFINITE ? rm.score : rm.previous_score;
                        if (rm.pv.size() > 1) result.ponder = rm.pv[1];
                    }
            }
        } else if (best.pv.size() > 1) {
            result.ponder = best.pv[1];
        }
        // Without a line to ponder on, ask the table about the reply.
        if (!result.ponder) {
            const Position after = pos_.after(result.best);
            TTData tt;
            TTEntry* writer = nullptr;
            if (tt_.probe(after.key(), tt, writer) && is_legal_move(after, tt.move)) result.ponder = tt.move;
        }
    }
    result.nodes = shared_.nodes_searched();
    result.time_ms = shared_.elapsed();
    {
        std::lock_guard lock(result_mutex_);
        last_result_ = result;
    }
    if (on_bestmove_) on_bestmove_(result.best, result.ponder);
    searching_ = false;
}

void Engine::stop() {
    std::lock_guard lock(mutex_);
    shared_.stop = true;
    cv_.notify_all();
}

void Engine::ponderhit() {
    std::lock_guard lock(mutex_);
    shared_.pondering = false;
    if (shared_.stop_on_ponderhit) shared_.stop = true;
    cv_.notify_all();
}

void Engine::wait() { join_search_thread(); }

SearchResult Engine::search_sync(const Limits& limits) {
    go(limits);
    wait();
    return last_result();
}

SearchResult Engine::last_result() const {
    std::lock_guard lock(result_mutex_);
    return last_result_;
}

}  // namespace outpost::engine
