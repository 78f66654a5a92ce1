// Outpost — the search: iterative deepening over a principal variation search.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "chess/position.h"
#include "engine/eval.h"
#include "engine/history.h"
#include "engine/score.h"
#include "engine/skill.h"
#include "engine/timeman.h"
#include "engine/tt.h"

namespace outpost::engine {

// What `go` asks for (UCI). Times in milliseconds; -1 means "not given".
struct Limits {
    TimePoint time[COLOR_NB] = {-1, -1};
    TimePoint inc[COLOR_NB] = {0, 0};
    int movestogo = 0;
    int depth = 0;             // 0: no limit
    std::uint64_t nodes = 0;   // 0: no limit
    int mate = 0;              // mate in this many moves: stop when found
    TimePoint movetime = 0;
    bool infinite = false;
    bool ponder = false;
    std::vector<Move> searchmoves;

    bool uses_time() const { return time[WHITE] >= 0 || time[BLACK] >= 0 || movetime > 0; }
};

// One line of search output (UCI `info`).
struct SearchInfo {
    int depth = 0;
    int seldepth = 0;
    int multipv = 1;
    Value score = 0;
    Bound bound = BOUND_EXACT;  // LOWER: failed high, UPPER: failed low
    std::uint64_t nodes = 0;
    TimePoint time_ms = 0;
    std::uint64_t nps = 0;
    int hashfull = 0;
    std::vector<Move> pv;
};

struct RootMove {
    explicit RootMove(Move m) : move(m), pv{m} {}
    Move move;
    Value score = -VALUE_INFINITE;
    Value previous_score = -VALUE_INFINITE;
    Value average_score = -VALUE_INFINITE;
    Value uci_score = -VALUE_INFINITE;
    bool lowerbound = false, upperbound = false;
    int seldepth = 0;
    std::vector<Move> pv;
    // Sorted best first; moves not yet searched this iteration keep their order.
    bool operator<(const RootMove& o) const {
        return score != o.score ? score > o.score : previous_score > o.previous_score;
    }
};

class Worker;

// What all threads of one search share.
struct SearchShared {
    TranspositionTable* tt = nullptr;
    Limits limits;
    TimeManager time;
    std::atomic<TimePoint> start_time{0};
    std::atomic<bool> stop{false};
    std::atomic<bool> pondering{false};
    // The search would have stopped already had it not been pondering.
    std::atomic<bool> stop_on_ponderhit{false};
    int multipv = 1;
    // A weak level's blind spots (skill.h), and its cap on the time per move, which
    // stops the search once one iteration has completed (0: none).
    Oversight oversight;
    TimePoint think_cap_ms = 0;
    std::vector<Worker*> workers;
    std::function<void(const SearchInfo&)> on_info;

    std::uint64_t nodes_searched() const;
    TimePoint elapsed() const { return now_ms() - start_time.load(std::memory_order_relaxed); }
};

// One search thread's state: its histories persist between moves of a game.
class Worker {
public:
    explicit Worker(int id);
    // Forgets everything learnt (ucinewgame).
    void clear();
    // Sets the position to search: the root and the keys of the positions before it
    // in the game (oldest first), for repetition detection.
    void set_root(const Position& root, const std::vector<Key>& history);
    // Iterative deepening until a limit or `stop`. The main worker (id 0) manages
    // time and reports progress; helpers only fill the shared table.
    void iterative_deepening(SearchShared& shared);

    int id() const { return id_; }
    std::uint64_t nodes() const { return nodes_.load(std::memory_order_relaxed); }
    int completed_depth() const { return completed_depth_; }
    const std::vector<RootMove>& root_moves() const { return root_moves_; }

    // The information line for multipv line i of the last completed iteration.
    SearchInfo make_info(const SearchShared& shared, int line, int depth) const;

private:
    struct Stack;
    enum NodeType { NON_PV, PV, ROOT };

    template <NodeType Nt>
    Value search(const Position& pos, Stack* ss, Value alpha, Value beta, int depth, bool cut_node);
    template <NodeType Nt>
    Value qsearch(const Position& pos, Stack* ss, Value alpha, Value beta, int depth);
    bool is_draw(const Position& pos, const Stack* ss) const;
    void check_time();
    void update_quiet_stats(const Position& pos, Stack* ss, Move best, int bonus, const Move* quiets, int quiet_count);
    void update_capture_stats(const Position& pos, Move best, int bonus, const Move* captures, int capture_count);
    void update_continuation(Stack* ss, Piece pc, Square to, int bonus);
    Value evaluate_here(const Position& pos) { return evaluate(pos, &pawns_); }

    int id_;
    SearchShared* shared_ = nullptr;
    std::atomic<std::uint64_t> nodes_{0};
    std::uint64_t calls_until_check_ = 0;

    Position root_pos_ = Position::startpos();
    std::vector<RootMove> root_moves_;
    // Keys of the game history followed by the keys along the current search path.
    std::vector<Key> keys_;
    int root_key_index_ = 0;

    int root_depth_ = 0;
    int completed_depth_ = 0;
    int sel_depth_ = 0;
    int pv_index_ = 0, pv_last_ = 0;
    int nmp_min_ply_ = 0;
    int best_move_changes_ = 0;

    Move pv_table_[MAX_PLY + 2][MAX_PLY + 2];
    int pv_length_[MAX_PLY + 2];

    std::unique_ptr<ButterflyHistory> main_history_;
    std::unique_ptr<CaptureHistory> capture_history_;
    std::unique_ptr<ContinuationHistory> continuation_;
    std::unique_ptr<CounterMoves> counter_moves_;
    PawnTable pawns_;
};

// The win/draw/loss expectation, per mille, of a score (UCI_ShowWDL): a logistic
// model of the score, not measured from games.
void wdl_from_score(Value v, int& win, int& draw, int& loss);

}  // namespace outpost::engine
