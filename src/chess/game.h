// Outpost — a game under the FIDE Laws: history, endings, claims, offers (SPEC R6-R14).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The Position decides what one position decides (legal moves, check, mate,
// stalemate, material); the Game owns the history and everything that depends on
// it: repetitions, the 50/75-move counts, automatic versus claimable draws, offers,
// resignation, flag fall and adjournment. No I/O and no clock reading here: the
// caller passes what the clock says (see clock.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chess/position.h"
#include "chess/result.h"

namespace outpost {

// Why a game stands where it stands. The ids (status_id) are stable: the UI, the
// server protocol and PGN Termination read the same values.
enum class Status : std::uint8_t {
    ONGOING,
    // Decided by the board (automatic).
    CHECKMATE,            // R6
    STALEMATE,            // R6
    DEAD_POSITION,        // R7
    FIVEFOLD_REPETITION,  // R9
    SEVENTY_FIVE_MOVES,   // R10
    // Draws on a correct claim (R9, R10), or automatic under the casual setting (R12).
    THREEFOLD_REPETITION,
    FIFTY_MOVES,
    // Decided by the players or the clock.
    AGREEMENT,            // R8
    RESIGNATION,          // R6
    TIMEOUT,              // R11: the flag fell and the opponent could mate
    TIMEOUT_DRAW,         // R11: the flag fell but the opponent could not mate
    BOTH_FLAGS_FELL,      // FIDE 6.11: both flags down in the last period
    ABORTED,              // before the first moves; no result
    FORFEIT,              // R14: no first move within the start time
    SEALED_MOVE_ILLEGAL,  // R18: the sealed move was ambiguous or illegal
    ARBITER_DECISION,     // FIDE 12.9: the arbiter ended the game (a win or a draw)
    STATUS_NB
};

std::string_view status_id(Status s);  // "checkmate", "dead-position", …
std::optional<Status> status_from_id(std::string_view id);

struct Outcome {
    std::optional<Color> winner;  // none: a draw (or no result when aborted)
    Status reason = Status::ONGOING;
    bool operator==(const Outcome&) const = default;
};

// R13: 1, 1/2, 0 for white; "1-0", "1/2-1/2", "0-1", "*".
std::string_view result_string(const Outcome& o);
double score_for(const Outcome& o, Color c);
// "Black wins by checkmate", "Draw by threefold repetition", … (P6).
std::string describe(const Outcome& o);

enum class DrawClaim : std::uint8_t { THREEFOLD_REPETITION, FIFTY_MOVES };
std::string_view claim_id(DrawClaim c);  // "threefold-repetition", "fifty-moves"

enum class FlagRule : std::uint8_t {
    FIDE,      // R11: a draw only if the opponent cannot mate by any series of legal moves
    US_CHESS,  // US Chess 14E: also a draw if the opponent has insufficient material to win
};

struct GameOptions {
    bool auto_claim_draws = false;    // R12: casual games end at threefold/fifty at once
    int no_draw_offers_before = 0;    // R8: offers allowed from this move number on (0: always)
    FlagRule flag_rule = FlagRule::FIDE;
    // Positions the helpmate search (dead_position.h) may visit per side. Where it runs
    // out, the Laws' default holds: the game goes on, the flag-fall loss stands.
    // At a flag fall (R11), once a game: about 0.1 s at most.
    std::uint64_t mate_search_budget = 200000;
    // After every move (R7), on top of the static proofs, which settle frozen pawn
    // structures and material at any size; searched only in forced play (see
    // dead_position_after_move), so the average stays far under a millisecond a move
    // (bench/helpmate).
    std::uint64_t dead_position_budget = 2000;
};

// R18: what is written down when a game is adjourned.
struct Adjournment {
    std::string white, black;
    std::string fen_before_sealed_move;
    std::int64_t white_ms = 0, black_ms = 0;  // clock times when adjourned
    Color sealed_by = WHITE;
    int move_number = 1;
    std::string sealed_move;                  // as written on the envelope, hidden from the opponent
    std::optional<Color> standing_draw_offer;
};

class Game {
public:
    explicit Game(Position start = Position::startpos(), GameOptions options = {});

    // Queries.
    const Position& position() const { return positions_.back(); }
    const Position& start_position() const { return positions_.front(); }
    const std::vector<Move>& moves() const { return moves_; }
    const std::vector<Position>& positions() const { return positions_; }
    const GameOptions& options() const { return options_; }
    int ply() const { return int(moves_.size()); }
    Color side_to_move() const { return position().side_to_move(); }
    Status status() const { return outcome_.reason; }
    const Outcome& outcome() const { return outcome_; }
    bool is_over() const { return outcome_.reason != Status::ONGOING; }
    // How often the current position has appeared in this game (R9 identity).
    int repetitions() const { return repetition_count(positions_.size() - 1); }
    // Draws the player to move may claim now, without a move (R9, R10).
    std::vector<DrawClaim> claimable_draws() const;
    // Whether the draw could be claimed together with the intended move m.
    bool can_claim_with_move(DrawClaim claim, Move m) const;

    // Actions. Each returns an Error, in words, when the action is not allowed.
    Result<Outcome> play(Move m);
    // A draw claim (FIDE 9.2, 9.3). Correct: the game is drawn. Incorrect: nothing
    // changes (the caller may apply the penalty of 9.5, two minutes to the opponent).
    Result<Outcome> claim_draw(DrawClaim claim);
    // A claim with the intended move: the move is played in any case (FIDE 9.5);
    // the game is drawn when the claim is correct after it.
    Result<Outcome> claim_draw_with_move(DrawClaim claim, Move m);
    // R8: an offer stands until accepted, declined, or the opponent moves.
    Result<Outcome> offer_draw(Color by);
    Result<Outcome> accept_draw(Color by);
    Result<Outcome> decline_draw(Color by);
    std::optional<Color> draw_offer() const { return draw_offer_; }
    // Plies after which a draw offer was made (R17: recorded as "(=)").
    const std::vector<int>& draw_offer_plies() const { return offer_plies_; }
    Result<Outcome> resign(Color who);
    // Allowed while a player has not yet made a move.
    bool can_abort() const { return !is_over() && ply() < 2; }
    Result<Outcome> abort();
    Result<Outcome> forfeit(Color who);  // R14
    // FIDE 12.9: the arbiter ends the game with this winner (none: a draw).
    Result<Outcome> arbiter_decision(std::optional<Color> winner);
    // R11: the flag of `who` has fallen.
    Result<Outcome> flag_fell(Color who);
    // FIDE 6.11: both flags have fallen and which fell first is unknown; drawn when
    // in the last period, otherwise the game goes on.
    Result<Outcome> both_flags_fell(bool in_last_period);
    // Takes back n plies (n <= ply()); the game is live again.
    Result<Outcome> takeback(int plies = 1);
    // R7 proved by a deeper test than the one after each move (dead_position_deep, run
    // off the move path): the current position is dead, so the game ends drawn. The
    // caller first takes back any move made after the position became dead.
    Result<Outcome> declare_dead_position();

    // R18: the player to move seals `sealed_move` (SAN or UCI text, not checked
    // now); the record keeps what the Laws ask for.
    Result<Adjournment> adjourn(std::string sealed_move, std::string white, std::string black,
                                std::int64_t white_ms, std::int64_t black_ms) const;
    // Resumes from a record: the sealed move is played; if it is ambiguous or
    // illegal, the player who sealed it loses.
    static Result<Game> resume(const Adjournment& record, GameOptions options = {});
    // Resumes this game in place (a server that kept the history): the game must
    // stand where the record was written. The sealed move is read as SAN, else as
    // UCI, and played; if it is ambiguous or illegal, the sealer loses (R18).
    // Returns the move played, or nullopt when the sealer lost.
    Result<std::optional<Move>> play_sealed_move(const Adjournment& record);
    // The move a sealed text names in pos (SAN, else UCI); nullopt when it names no
    // legal move or more than one.
    static std::optional<Move> sealed_move_in(const Position& pos, std::string_view text);

    // Taking back the last move exactly, whatever it changed (the ending, the draw
    // offers): for a caller that could not record the move (a server whose storage
    // failed). Cheaper than copying the game before every move.
    struct UndoPoint {
        Outcome outcome;
        std::optional<Color> draw_offer;
        size_t offer_plies = 0;
        int ply = 0;
    };
    UndoPoint undo_point() const { return {outcome_, draw_offer_, offer_plies_.size(), ply()}; }
    void undo_to(const UndoPoint& u);

    // The status recomputed from the history alone (property tests compare it with
    // the incrementally kept status for automatic endings).
    Status automatic_status() const;

private:
    int repetition_count(size_t index) const;
    void finish(std::optional<Color> winner, Status reason);
    void update_after_move();

    std::vector<Position> positions_;
    std::vector<Move> moves_;
    GameOptions options_;
    Outcome outcome_;
    std::optional<Color> draw_offer_;
    std::vector<int> offer_plies_;
};

// R9: the same side to move, the same pieces on the same squares, the same
// castling rights and the same legal en passant captures.
bool same_position_for_repetition(const Position& a, const Position& b);

}  // namespace outpost
