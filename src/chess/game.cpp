// Outpost — the game layer.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "chess/game.h"

#include <array>

#include "chess/dead_position.h"
#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/san.h"
#include "chess/uci.h"

namespace outpost {
namespace {

constexpr std::array<std::string_view, size_t(Status::STATUS_NB)> StatusIds = {
    "ongoing",    "checkmate",  "stalemate", "dead-position", "fivefold-repetition", "seventy-five-moves",
    "threefold-repetition", "fifty-moves", "agreement", "resignation", "timeout", "timeout-draw",
    "both-flags-fell", "aborted", "forfeit", "sealed-move-illegal", "arbiter-decision",
};

Error game_over_error(const Outcome& o) { return make_error("the game is over: " + describe(o)); }

}  // namespace

std::string_view status_id(Status s) { return StatusIds[size_t(s)]; }

std::optional<Status> status_from_id(std::string_view id) {
    for (size_t i = 0; i < StatusIds.size(); ++i)
        if (StatusIds[i] == id) return Status(i);
    return std::nullopt;
}

std::string_view claim_id(DrawClaim c) {
    return c == DrawClaim::THREEFOLD_REPETITION ? "threefold-repetition" : "fifty-moves";
}

std::string_view result_string(const Outcome& o) {
    if (o.reason == Status::ONGOING || o.reason == Status::ABORTED) return "*";
    if (!o.winner) return "1/2-1/2";
    return *o.winner == WHITE ? "1-0" : "0-1";
}

double score_for(const Outcome& o, Color c) {
    if (o.reason == Status::ONGOING || o.reason == Status::ABORTED) return 0;
    if (!o.winner) return 0.5;
    return *o.winner == c ? 1.0 : 0.0;
}

std::string describe(const Outcome& o) {
    const std::string w = o.winner ? color_name(*o.winner, Capital::YES) : "";
    switch (o.reason) {
    case Status::ONGOING: return "Game in progress";
    case Status::CHECKMATE: return w + " wins by checkmate";
    case Status::RESIGNATION: return w + " wins: " + color_name(~*o.winner, Capital::YES) + " resigned";
    case Status::TIMEOUT: return w + " wins on time";
    case Status::FORFEIT:
        return w + " wins by forfeit: " + color_name(~*o.winner, Capital::YES) + " did not make a first move";
    case Status::SEALED_MOVE_ILLEGAL: return w + " wins: the sealed move was illegal or ambiguous";
    case Status::ARBITER_DECISION: return o.winner ? w + " wins by the arbiter's decision" : "Draw by the arbiter's decision";
    case Status::STALEMATE: return "Draw by stalemate";
    case Status::DEAD_POSITION: return "Draw: dead position, neither side can checkmate";
    case Status::FIVEFOLD_REPETITION: return "Draw by fivefold repetition";
    case Status::SEVENTY_FIVE_MOVES: return "Draw by the seventy-five-move rule";
    case Status::THREEFOLD_REPETITION: return "Draw by threefold repetition";
    case Status::FIFTY_MOVES: return "Draw by the fifty-move rule";
    case Status::AGREEMENT: return "Draw by agreement";
    case Status::TIMEOUT_DRAW: return "Draw: time ran out, but the opponent could not checkmate";
    case Status::BOTH_FLAGS_FELL: return "Draw: both flags fell in the last period";
    case Status::ABORTED: return "Game aborted";
    case Status::STATUS_NB: break;
    }
    return "";
}

bool same_position_for_repetition(const Position& a, const Position& b) {
    if (a.side_to_move() != b.side_to_move() || a.pieces() != b.pieces()) return false;
    for (Color c : {WHITE, BLACK}) {
        if (a.pieces(c) != b.pieces(c)) return false;
        for (CastlingSide s : {KING_SIDE, QUEEN_SIDE})
            if (a.castling_rook(c, s) != b.castling_rook(c, s)) return false;
    }
    for (int pt = PAWN; pt <= KING; ++pt)
        if (a.pieces(PieceType(pt)) != b.pieces(PieceType(pt))) return false;
    return a.ep_square() == b.ep_square();
}

Game::Game(Position start, GameOptions options) : options_(options) {
    positions_.push_back(start);
    update_after_move();  // a start position may already be mate, stalemate or dead
}

int Game::repetition_count(size_t index) const {
    // Only positions since the last capture or pawn move can repeat, and only
    // those with the same side to move: every second one going back.
    const Position& p = positions_[index];
    const Key key = p.repetition_key();
    const size_t reach = std::min<size_t>(index, size_t(p.halfmove_clock()));
    int count = 1;
    for (size_t back = 2; back <= reach; back += 2) {
        const Position& q = positions_[index - back];
        if (q.repetition_key() == key && same_position_for_repetition(p, q)) ++count;
    }
    return count;
}

void Game::finish(std::optional<Color> winner, Status reason) {
    outcome_ = Outcome{winner, reason};
    draw_offer_.reset();
}

void Game::update_after_move() {
    const Position& pos = position();
    if (!pos.has_legal_moves()) {
        if (pos.in_check()) finish(~pos.side_to_move(), Status::CHECKMATE);
        else finish(std::nullopt, Status::STALEMATE);
        return;
    }
    if (dead_position_after_move(pos, options_.dead_position_budget) == Deadness::DEAD) return finish(std::nullopt, Status::DEAD_POSITION);
    const int reps = repetitions();
    if (reps >= 5) return finish(std::nullopt, Status::FIVEFOLD_REPETITION);
    if (pos.halfmove_clock() >= 150) return finish(std::nullopt, Status::SEVENTY_FIVE_MOVES);
    if (options_.auto_claim_draws) {
        if (reps >= 3) return finish(std::nullopt, Status::THREEFOLD_REPETITION);
        if (pos.halfmove_clock() >= 100) return finish(std::nullopt, Status::FIFTY_MOVES);
    }
}

Status Game::automatic_status() const {
    // Deliberately naive: every earlier position compared in full.
    const Position& pos = position();
    if (legal_moves(pos).empty()) return pos.in_check() ? Status::CHECKMATE : Status::STALEMATE;
    if (dead_position_after_move(pos, options_.dead_position_budget) == Deadness::DEAD) return Status::DEAD_POSITION;
    int reps = 0;
    for (const Position& q : positions_) reps += same_position_for_repetition(pos, q);
    if (reps >= 5) return Status::FIVEFOLD_REPETITION;
    if (pos.halfmove_clock() >= 150) return Status::SEVENTY_FIVE_MOVES;
    if (options_.auto_claim_draws) {
        if (reps >= 3) return Status::THREEFOLD_REPETITION;
        if (pos.halfmove_clock() >= 100) return Status::FIFTY_MOVES;
    }
    return Status::ONGOING;
}

std::vector<DrawClaim> Game::claimable_draws() const {
    std::vector<DrawClaim> out;
    if (is_over()) return out;
    if (repetitions() >= 3) out.push_back(DrawClaim::THREEFOLD_REPETITION);
    if (position().halfmove_clock() >= 100) out.push_back(DrawClaim::FIFTY_MOVES);
    return out;
}

bool Game::can_claim_with_move(DrawClaim claim, Move m) const {
    if (is_over() || !position().is_legal(m)) return false;
    Game next = *this;
    next.options_.auto_claim_draws = false;
    if (!next.play(m)) return false;
    if (next.is_over()) return false;  // the move ends the game by itself (mate, …)
    if (claim == DrawClaim::THREEFOLD_REPETITION) return next.repetitions() >= 3;
    return next.position().halfmove_clock() >= 100;
}

Result<Outcome> Game::play(Move m) {
    if (is_over()) return game_over_error(outcome_);
    const Position& pos = position();
    if (!pos.is_legal(m)) return make_error("illegal move " + move_to_uci(pos, m));
    const Color mover = pos.side_to_move();
    positions_.push_back(pos.after(m));
    moves_.push_back(m);
    // R8: a standing offer lapses when the opponent of the offerer moves.
    if (draw_offer_ && *draw_offer_ != mover) draw_offer_.reset();
    update_after_move();
    return outcome_;
}

void Game::undo_to(const UndoPoint& u) {
    if (u.ply < 0 || u.ply > ply()) return;
    positions_.resize(size_t(u.ply) + 1);
    moves_.resize(size_t(u.ply));
    offer_plies_.resize(std::min(offer_plies_.size(), u.offer_plies));
    draw_offer_ = u.draw_offer;
    outcome_ = u.outcome;
}

Result<Outcome> Game::claim_draw(DrawClaim claim) {
    if (is_over()) return game_over_error(outcome_);
    if (claim == DrawClaim::THREEFOLD_REPETITION) {
        const int reps = repetitions();
        if (reps < 3)
            return make_error("incorrect claim: the position has appeared " + std::to_string(reps) +
                              (reps == 1 ? " time" : " times") + ", not three");
        finish(std::nullopt, Status::THREEFOLD_REPETITION);
    } else {
        const int hm = position().halfmove_clock();
        if (hm < 100)
            return make_error("incorrect claim: only " + std::to_string(hm / 2) +
                              " moves by each side without a capture or pawn move, not 50");
        finish(std::nullopt, Status::FIFTY_MOVES);
    }
    return outcome_;
}

Result<Outcome> Game::claim_draw_with_move(DrawClaim claim, Move m) {
    if (is_over()) return game_over_error(outcome_);
    if (!position().is_legal(m)) return make_error("illegal move " + move_to_uci(position(), m));
    const bool correct = can_claim_with_move(claim, m);
    auto played = play(m);  // FIDE 9.5: the intended move stands whatever the claim
    if (!played) return played;
    if (correct && !is_over())
        finish(std::nullopt, claim == DrawClaim::THREEFOLD_REPETITION ? Status::THREEFOLD_REPETITION : Status::FIFTY_MOVES);
    return outcome_;
}

Result<Outcome> Game::offer_draw(Color by) {
    if (is_over()) return game_over_error(outcome_);
    if (draw_offer_ && *draw_offer_ == ~by) return accept_draw(by);  // crossing offers agree
    if (options_.no_draw_offers_before > 0 && position().fullmove_number() < options_.no_draw_offers_before)
        return make_error("draw offers are not allowed before move " + std::to_string(options_.no_draw_offers_before));
    if (draw_offer_ == by) return make_error("your draw offer is already standing");
    draw_offer_ = by;
    offer_plies_.push_back(ply());
    return outcome_;
}

Result<Outcome> Game::accept_draw(Color by) {
    if (is_over()) return game_over_error(outcome_);
    if (draw_offer_ != ~by)
        return make_error(std::string("there is no draw offer from ") + color_name(~by, Capital::YES) + " to accept");
    finish(std::nullopt, Status::AGREEMENT);
    return outcome_;
}

Result<Outcome> Game::decline_draw(Color by) {
    if (is_over()) return game_over_error(outcome_);
    if (draw_offer_ != ~by)
        return make_error(std::string("there is no draw offer from ") + color_name(~by, Capital::YES) + " to decline");
    draw_offer_.reset();
    return outcome_;
}

Result<Outcome> Game::resign(Color who) {
    if (is_over()) return game_over_error(outcome_);
    finish(~who, Status::RESIGNATION);
    return outcome_;
}

Result<Outcome> Game::abort() {
    if (is_over()) return game_over_error(outcome_);
    if (!can_abort()) return make_error("a game can be aborted only before both players have moved");
    finish(std::nullopt, Status::ABORTED);
    return outcome_;
}

Result<Outcome> Game::forfeit(Color who) {
    if (is_over()) return game_over_error(outcome_);
    finish(~who, Status::FORFEIT);
    return outcome_;
}

Result<Outcome> Game::arbiter_decision(std::optional<Color> winner) {
    if (is_over()) return game_over_error(outcome_);
    finish(winner, Status::ARBITER_DECISION);
    return outcome_;
}

Result<Outcome> Game::flag_fell(Color who) {
    if (is_over()) return game_over_error(outcome_);
    const Color opponent = ~who;
    const Position& pos = position();
    // FIDE 6.9: a draw only when the opponent provably cannot mate; a search that
    // runs out of budget leaves the loss standing.
    bool draw = can_checkmate(pos, opponent, {options_.mate_search_budget, {}}).ability == MateAbility::CANNOT_MATE;
    if (options_.flag_rule == FlagRule::US_CHESS && uscf_insufficient_material_to_win(pos, opponent)) draw = true;
    if (draw) finish(std::nullopt, Status::TIMEOUT_DRAW);
    else finish(opponent, Status::TIMEOUT);
    return outcome_;
}

Result<Outcome> Game::both_flags_fell(bool in_last_period) {
    if (is_over()) return game_over_error(outcome_);
    if (in_last_period) finish(std::nullopt, Status::BOTH_FLAGS_FELL);
    return outcome_;
}

Result<Outcome> Game::declare_dead_position() {
    if (is_over()) return game_over_error(outcome_);
    finish(std::nullopt, Status::DEAD_POSITION);
    return outcome_;
}

Result<Outcome> Game::takeback(int plies) {
    if (is_over()) return game_over_error(outcome_);
    if (plies < 1 || plies > ply())
        return make_error("cannot take back " + std::to_string(plies) + " plies: " + std::to_string(ply()) + " played");
    positions_.resize(positions_.size() - size_t(plies));
    moves_.resize(moves_.size() - size_t(plies));
    while (!offer_plies_.empty() && offer_plies_.back() > ply()) offer_plies_.pop_back();
    draw_offer_.reset();
    outcome_ = {};
    update_after_move();
    return outcome_;
}

Result<Adjournment> Game::adjourn(std::string sealed_move, std::string white, std::string black,
                                  std::int64_t white_ms, std::int64_t black_ms) const {
    if (is_over()) return game_over_error(outcome_);
    if (sealed_move.empty()) return make_error("a sealed move is needed to adjourn");
    Adjournment a;
    a.white = std::move(white);
    a.black = std::move(black);
    a.fen_before_sealed_move = to_fen(position());
    a.white_ms = white_ms;
    a.black_ms = black_ms;
    a.sealed_by = side_to_move();
    a.move_number = position().fullmove_number();
    a.sealed_move = std::move(sealed_move);
    a.standing_draw_offer = draw_offer_;
    return a;
}

Result<Game> Game::resume(const Adjournment& record, GameOptions options) {
    auto pos = position_from_fen(record.fen_before_sealed_move);
    if (!pos) return make_error("adjournment record: " + pos.error().message);
    Game game(*pos, options);
    if (game.is_over()) return game;
    game.draw_offer_ = record.standing_draw_offer;
    if (auto played = game.play_sealed_move(record); !played) return played.error();
    return game;
}

std::optional<Move> Game::sealed_move_in(const Position& pos, std::string_view text) {
    if (auto san = move_from_san(pos, text)) return *san;
    if (auto uci = move_from_uci(pos, text)) return *uci;
    return std::nullopt;
}

Result<std::optional<Move>> Game::play_sealed_move(const Adjournment& record) {
    if (is_over()) return game_over_error(outcome_);
    if (position().side_to_move() != record.sealed_by)
        return make_error("adjournment record: the side to move did not seal the move");
    if (to_fen(position()) != record.fen_before_sealed_move)
        return make_error("adjournment record: the game does not stand where the move was sealed");
    const std::optional<Move> move = sealed_move_in(position(), record.sealed_move);
    if (!move) {
        finish(~record.sealed_by, Status::SEALED_MOVE_ILLEGAL);
        return std::optional<Move>{};
    }
    if (auto played = play(*move); !played) return played.error();
    return std::optional<Move>{*move};
}

}  // namespace outpost
