// Outpost — the staged move picker.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Moves come out in the order most likely to cause an early cutoff, and are
// generated only when needed: the hash move first (often it is the only move
// searched), then captures that do not lose material by MVV-LVA and capture history,
// the two killer moves and the counter move, the quiet moves by history, and last
// the captures that lose material. In check, all evasions are scored together.
#pragma once

#include "chess/position.h"
#include "engine/history.h"

namespace outpost::engine {

struct ScoredMove {
    Move move;
    int score;
};

class MovePicker {
public:
    // Main search.
    MovePicker(const Position& pos, Move tt_move, const ButterflyHistory* main, const CaptureHistory* captures,
               const PieceToHistory* const* continuation, Move killer1, Move killer2, Move counter);
    // Quiescence search: captures (and all evasions when in check).
    MovePicker(const Position& pos, Move tt_move, const ButterflyHistory* main, const CaptureHistory* captures,
               const PieceToHistory* const* continuation);
    // ProbCut: captures whose exchange gains at least `threshold`.
    MovePicker(const Position& pos, Move tt_move, int threshold, const CaptureHistory* captures);

    // The next move, or Move::none() at the end.
    Move next_move();
    // Late-move pruning: skip the remaining quiet moves (captures still come).
    void skip_quiet_moves() { skip_quiets_ = true; }

private:
    enum Stage : std::uint8_t {
        MAIN_TT, CAPTURE_INIT, GOOD_CAPTURE, KILLER1, KILLER2, COUNTER, QUIET_INIT, QUIET, BAD_CAPTURE,
        EVASION_TT, EVASION_INIT, EVASION,
        QS_TT, QS_CAPTURE_INIT, QS_CAPTURE,
        PROBCUT_TT, PROBCUT_INIT, PROBCUT,
        DONE
    };

    void score_captures();
    void score_quiets();
    void score_evasions();
    // Selection of the best remaining move: cheaper than sorting when a cutoff is
    // likely after a few moves.
    ScoredMove pick_best();
    bool is_special(Move m) const { return m == tt_move_ || m == killer1_ || m == killer2_ || m == counter_; }
    bool usable_quiet(Move m) const;

    const Position& pos_;
    const ButterflyHistory* main_history_ = nullptr;
    const CaptureHistory* capture_history_ = nullptr;
    const PieceToHistory* const* continuation_ = nullptr;
    Move tt_move_, killer1_, killer2_, counter_;
    int threshold_ = 0;
    Stage stage_;
    bool skip_quiets_ = false;

    ScoredMove moves_[MoveList::CAPACITY];
    int cur_ = 0, end_ = 0;
    ScoredMove bad_captures_[MoveList::CAPACITY];
    int bad_count_ = 0, bad_cur_ = 0;
};

}  // namespace outpost::engine
