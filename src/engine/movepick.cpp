// Outpost — the staged move picker.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/movepick.h"

#include "chess/movegen.h"
#include "engine/see.h"

namespace outpost::engine {
namespace {

PieceType captured_type(const Position& pos, Move m) {
    if (m.kind() == Move::EN_PASSANT) return PAWN;
    return pos.empty(m.to()) ? NO_PIECE_TYPE : type_of(pos.piece_on(m.to()));
}

// Underpromotions are almost never better than the queen; in the quiescence search
// they only cost time.
bool is_underpromotion(Move m) { return m.kind() == Move::PROMOTION && m.promotion() != QUEEN; }

}  // namespace

MovePicker::MovePicker(const Position& pos, Move tt_move, const ButterflyHistory* main, const CaptureHistory* captures,
                       const PieceToHistory* const* continuation, Move killer1, Move killer2, Move counter)
    : pos_(pos), main_history_(main), capture_history_(captures), continuation_(continuation), killer1_(killer1),
      killer2_(killer2), counter_(counter) {
    tt_move_ = tt_move && pos.is_legal(tt_move) ? tt_move : Move::none();
    stage_ = pos.in_check() ? EVASION_TT : MAIN_TT;
    if (!tt_move_) stage_ = Stage(stage_ + 1);
}

MovePicker::MovePicker(const Position& pos, Move tt_move, const ButterflyHistory* main, const CaptureHistory* captures,
                       const PieceToHistory* const* continuation)
    : pos_(pos), main_history_(main), capture_history_(captures), continuation_(continuation) {
    const bool in_check = pos.in_check();
    // Outside check only a capture or promotion may come from the table here.
    if (tt_move && pos.is_legal(tt_move) && (in_check || pos.is_capture(tt_move) || tt_move.kind() == Move::PROMOTION))
        tt_move_ = tt_move;
    stage_ = in_check ? EVASION_TT : QS_TT;
    if (!tt_move_) stage_ = Stage(stage_ + 1);
}

MovePicker::MovePicker(const Position& pos, Move tt_move, int threshold, const CaptureHistory* captures)
    : pos_(pos), capture_history_(captures), threshold_(threshold) {
    if (tt_move && pos.is_capture(tt_move) && pos.is_legal(tt_move) && see_ge(pos, tt_move, threshold))
        tt_move_ = tt_move;
    stage_ = tt_move_ ? PROBCUT_TT : PROBCUT_INIT;
}

void MovePicker::score_captures() {
    for (int i = cur_; i < end_; ++i) {
        const Move m = moves_[i].move;
        const PieceType victim = captured_type(pos_, m);
        int s = victim == NO_PIECE_TYPE ? 0 : 8 * SeeValue[victim];
        if (m.kind() == Move::PROMOTION) s += 8 * (SeeValue[m.promotion()] - SeeValue[PAWN]);
        if (capture_history_ && victim != NO_PIECE_TYPE)
            s += capture_history_->table[pos_.piece_on(m.from())][m.to()][victim] / 8;
        moves_[i].score = s;
    }
}

void MovePicker::score_quiets() {
    const Color us = pos_.side_to_move();
    for (int i = cur_; i < end_; ++i) {
        const Move m = moves_[i].move;
        const Piece pc = pos_.piece_on(m.from());
        int s = main_history_->table[us][m.raw() & 0xFFF];
        if (continuation_[0]) s += (*continuation_[0])[pc][m.to()];
        if (continuation_[1]) s += (*continuation_[1])[pc][m.to()];
        moves_[i].score = s;
    }
}

void MovePicker::score_evasions() {
    const Color us = pos_.side_to_move();
    for (int i = cur_; i < end_; ++i) {
        const Move m = moves_[i].move;
        const PieceType victim = captured_type(pos_, m);
        if (victim != NO_PIECE_TYPE || m.kind() == Move::PROMOTION) {
            // Captures of the checker first, most valuable victim by least valuable attacker.
            const int v = victim == NO_PIECE_TYPE ? 0 : SeeValue[victim];
            moves_[i].score = (1 << 24) + 8 * v - int(pos_.moved_piece_type(m));
        } else {
            int s = main_history_ ? main_history_->table[us][m.raw() & 0xFFF] : 0;
            if (continuation_ && continuation_[0]) s += (*continuation_[0])[pos_.piece_on(m.from())][m.to()];
            moves_[i].score = s;
        }
    }
}

ScoredMove MovePicker::pick_best() {
    int best = cur_;
    for (int i = cur_ + 1; i < end_; ++i)
        if (moves_[i].score > moves_[best].score) best = i;
    std::swap(moves_[cur_], moves_[best]);
    return moves_[cur_++];
}

bool MovePicker::usable_quiet(Move m) const {
    return m && m != tt_move_ && !pos_.is_capture(m) && m.kind() != Move::PROMOTION && pos_.is_legal(m);
}

Move MovePicker::next_move() {
    for (;;) {
        switch (stage_) {
        case MAIN_TT:
        case EVASION_TT:
        case QS_TT:
        case PROBCUT_TT:
            stage_ = Stage(stage_ + 1);
            return tt_move_;

        case CAPTURE_INIT:
        case QS_CAPTURE_INIT:
        case PROBCUT_INIT: {
            MoveList list;
            generate(GenType::CAPTURES, pos_, list);
            cur_ = end_ = 0;
            for (Move m : list) {
                if (m == tt_move_) continue;
                if (stage_ != CAPTURE_INIT && is_underpromotion(m)) continue;
                moves_[end_++] = {m, 0};
            }
            score_captures();
            stage_ = Stage(stage_ + 1);
            break;
        }

        case GOOD_CAPTURE:
            while (cur_ < end_) {
                const ScoredMove sm = pick_best();
                // Losing captures wait until after the quiet moves; the score
                // margin lets a capture that loses a little keep its place when its
                // history says it often works.
                if (see_ge(pos_, sm.move, -sm.score / 64)) return sm.move;
                bad_captures_[bad_count_++] = sm;
            }
            stage_ = KILLER1;
            break;

        case KILLER1:
            stage_ = KILLER2;
            if (!skip_quiets_ && usable_quiet(killer1_)) return killer1_;
            break;

        case KILLER2:
            stage_ = COUNTER;
            if (!skip_quiets_ && killer2_ != killer1_ && usable_quiet(killer2_)) return killer2_;
            break;

        case COUNTER:
            stage_ = QUIET_INIT;
            if (!skip_quiets_ && counter_ != killer1_ && counter_ != killer2_ && usable_quiet(counter_)) return counter_;
            break;

        case QUIET_INIT: {
            if (!skip_quiets_) {
                MoveList list;
                generate(GenType::QUIETS, pos_, list);
                cur_ = end_ = 0;
                for (Move m : list)
                    if (!is_special(m)) moves_[end_++] = {m, 0};
                score_quiets();
                // Insertion sort, best first: quiet lists are short and mostly ordered.
                for (int i = 1; i < end_; ++i) {
                    const ScoredMove tmp = moves_[i];
                    int j = i;
                    for (; j > 0 && moves_[j - 1].score < tmp.score; --j) moves_[j] = moves_[j - 1];
                    moves_[j] = tmp;
                }
            } else {
                cur_ = end_ = 0;
            }
            stage_ = QUIET;
            break;
        }

        case QUIET:
            if (!skip_quiets_ && cur_ < end_) return moves_[cur_++].move;
            stage_ = BAD_CAPTURE;
            break;

        case BAD_CAPTURE:
            if (bad_cur_ < bad_count_) return bad_captures_[bad_cur_++].move;
            stage_ = DONE;
            break;

        case EVASION_INIT: {
            MoveList list;
            generate(GenType::EVASIONS, pos_, list);
            cur_ = end_ = 0;
            for (Move m : list)
                if (m != tt_move_) moves_[end_++] = {m, 0};
            score_evasions();
            stage_ = EVASION;
            break;
        }

        case EVASION:
        case QS_CAPTURE:
            if (cur_ < end_) return pick_best().move;
            stage_ = DONE;
            break;

        case PROBCUT:
            while (cur_ < end_) {
                const ScoredMove sm = pick_best();
                if (see_ge(pos_, sm.move, threshold_)) return sm.move;
            }
            stage_ = DONE;
            break;

        case DONE:
            return Move::none();
        }
    }
}

}  // namespace outpost::engine
