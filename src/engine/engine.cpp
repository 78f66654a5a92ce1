// Outpost — the Engine facade.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/engine.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <random>

#include "chess/movegen.h"

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
    return v;  // the setter checks the range
}

Result<bool> parse_check(const OptionSpec& spec, std::string_view value) {
    if (iequals(value, "true")) return true;
    if (iequals(value, "false")) return false;
    return make_error("option " + spec.name + ": '" + std::string(value) + "' is not true or false");
}

// Each UCI option with its handler: the handler parses the text into the option's
// type and calls the Engine's typed setter.
struct Option {
    OptionSpec spec;
    Result<bool> (*on_change)(Engine&, const OptionSpec&, std::string_view value);
};

template <Result<bool> (Engine::*Setter)(int)>
Result<bool> spin(Engine& e, const OptionSpec& spec, std::string_view value) {
    auto v = parse_spin(spec, value);
    if (!v) return v.error();
    return (e.*Setter)(*v);
}

template <void (Engine::*Setter)(bool)>
Result<bool> check(Engine& e, const OptionSpec& spec, std::string_view value) {
    auto v = parse_check(spec, value);
    if (!v) return v.error();
    (e.*Setter)(*v);
    return true;
}

Result<bool> button_clear_hash(Engine& e, const OptionSpec&, std::string_view) {
    e.clear_hash();
    return true;
}

const std::vector<Option>& options() {
    static const std::vector<Option> table = {
        {{"Hash", OptionSpec::SPIN, "16", 1, 4096, "Transposition table size in MB"}, spin<&Engine::set_hash_mb>},
        {{"Clear Hash", OptionSpec::BUTTON, "", 0, 0, "Empty the transposition table"}, button_clear_hash},
        {{"Threads", OptionSpec::SPIN, "1", 1, 64, "Search threads (Lazy SMP)"}, spin<&Engine::set_threads>},
        {{"MultiPV", OptionSpec::SPIN, "1", 1, 64, "Principal variations reported"}, spin<&Engine::set_multipv>},
        {{"Ponder", OptionSpec::CHECK, "false", 0, 0, "Think on the opponent's time (the GUI decides)"},
         check<&Engine::set_ponder>},
        {{"Move Overhead", OptionSpec::SPIN, "30", 0, 5000, "Milliseconds kept in reserve per move for lag"},
         spin<&Engine::set_move_overhead>},
        {{"UCI_Chess960", OptionSpec::CHECK, "false", 0, 0, "Chess960 castling notation (king takes rook)"},
         check<&Engine::set_chess960>},
        {{"UCI_LimitStrength", OptionSpec::CHECK, "false", 0, 0, "Play at UCI_Elo instead of Level"},
         check<&Engine::set_limit_strength>},
        {{"UCI_Elo", OptionSpec::SPIN, "1500", ELO_MIN, ELO_MAX,
          "Target strength when UCI_LimitStrength is on (" + std::to_string(ELO_MAX) + " = full strength)"},
         spin<&Engine::set_elo>},
        {{"UCI_ShowWDL", OptionSpec::CHECK, "false", 0, 0, "Report win/draw/loss per mille (model, not measured)"},
         check<&Engine::set_show_wdl>},
        {{"Level", OptionSpec::SPIN, "10", LEVEL_MIN, LEVEL_MAX, level_description()}, spin<&Engine::set_level>},
    };
    return table;
}

const OptionSpec& spec_of(std::string_view name) {
    for (const Option& o : options())
        if (o.spec.name == name) return o.spec;
    std::abort();  // a setter names an option of the table above
}

// The typed setters check the same ranges as the UCI text, so an error reads alike
// from either door.
Result<bool> check_range(std::string_view name, int v) {
    const OptionSpec& spec = spec_of(name);
    if (v < spec.min || v > spec.max)
        return make_error("option " + spec.name + ": " + std::to_string(v) + " is outside " + std::to_string(spec.min) +
                          ".." + std::to_string(spec.max));
    return true;
}

// A value that only has to be in range and is read by the next search.
Result<bool> set_in_range(std::string_view option, int& field, int v) {
    if (auto ok = check_range(option, v); !ok) return ok;
    field = v;
    return true;
}

}  // namespace

const std::vector<OptionSpec>& Engine::option_specs() {
    static const std::vector<OptionSpec> specs = [] {
        std::vector<OptionSpec> v;
        for (const Option& o : options()) v.push_back(o.spec);
        return v;
    }();
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
    for (const Option& o : options())
        if (iequals(o.spec.name, name)) return o.on_change(*this, o.spec, value);
    return make_error("unknown option '" + std::string(name) + "'");
}

Result<bool> Engine::set_hash_mb(int mb) {
    if (auto ok = check_range("Hash", mb); !ok) return ok;
    // Tables and threads change only between searches.
    stop();
    join_search_thread();
    tt_.resize(std::size_t(mb));
    return true;
}

Result<bool> Engine::set_threads(int n) {
    if (auto ok = check_range("Threads", n); !ok) return ok;
    stop();
    join_search_thread();
    resize_threads(n);
    return true;
}

Result<bool> Engine::set_multipv(int n) { return set_in_range("MultiPV", multipv_, n); }
Result<bool> Engine::set_move_overhead(int ms) { return set_in_range("Move Overhead", move_overhead_, ms); }
Result<bool> Engine::set_level(int level) { return set_in_range("Level", level_, level); }
Result<bool> Engine::set_elo(int elo) { return set_in_range("UCI_Elo", elo_, elo); }

void Engine::clear_hash() {
    stop();
    join_search_thread();
    tt_.clear();
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

    // The strength handicap (skill.h), at the root: limits on depth and nodes, a cap
    // on the time, more root lines to choose from, and the choice in run_search. Only
    // the oversights reach into the search.
    skill_ = skill();
    skill_seed_ = random_base_ ^ (++go_counter_ * 0x9E3779B97F4A7C15ULL);
    Limits l = limits;
    if (skill_.enabled) {
        l.depth = l.depth > 0 ? std::min(l.depth, skill_.depth) : skill_.depth;
        l.nodes = l.nodes > 0 ? std::min(l.nodes, skill_.nodes) : skill_.nodes;
    }
    shared_.limits = l;
    shared_.stop = false;
    shared_.pondering = limits.ponder;
    shared_.stop_on_ponderhit = false;
    shared_.start_time = now_ms();
    shared_.time.init(l, pos_.side_to_move(), pos_.game_ply(), move_overhead_);
    shared_.multipv = skill_.enabled ? std::max(multipv_, skill_.candidates) : multipv_;
    shared_.oversight = Oversight::of(skill_, skill_seed_);
    shared_.think_cap_ms = skill_.enabled ? skill_.max_ms : 0;
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
        if (skill_.enabled) {
            std::vector<Candidate> candidates;
            for (std::size_t i = 0; i < root_moves.size() && int(i) < shared_.multipv; ++i) {
                const RootMove& rm = root_moves[i];
                const Value s = rm.score != -VALUE_INFINITE ? rm.score : rm.previous_score;
                if (s != -VALUE_INFINITE) candidates.push_back({rm.move, s});
            }
            if (!candidates.empty()) {
                const Move chosen = choose_skill_move(skill_, pos_, candidates, skill_seed_ * 31 + 7);
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
            if (tt_.probe(after.key(), tt, writer) && after.is_legal(tt.move)) result.ponder = tt.move;
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
