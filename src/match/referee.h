// Outpost — one game between two UCI engines, refereed by the rules core.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Every move an engine sends is checked against the legal moves of the position;
// an illegal or missing move, a crash, or an answer after the flag fell loses the
// game, and the record says why in words. Draws by repetition and the fifty-move
// rule are applied at once, as if the engine had claimed them (engines always claim).
#pragma once

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "chess/game.h"
#include "chess/position.h"
#include "match/uci_engine.h"

namespace outpost::match {

// Score thresholds that end games early; 0 counts disable a rule.
struct Adjudication {
    // Draw: from full move `draw_move_number` on, both engines' scores within
    // ±draw_score centipawns for `draw_move_count` consecutive moves each.
    int draw_move_number = 0;
    int draw_move_count = 0;
    int draw_score = 0;
    // Resign: an engine's score at or below -resign_score for `resign_move_count`
    // consecutive moves of its own; with two-sided, the opponent must agree
    // (score at or above +resign_score) on those moves too.
    int resign_move_count = 0;
    int resign_score = 0;
    bool resign_two_sided = false;
    // Draw after this many full moves (0: no limit).
    int max_moves = 0;
};

// How a game ended, in the PGN's terms.
enum class Termination { NORMAL, ADJUDICATION, TIME_FORFEIT, ILLEGAL_MOVE, CRASH, UNTERMINATED };
// The PGN Termination tag value: "normal", "adjudication", "time forfeit",
// "rules infraction", "abandoned", "unterminated".
std::string termination_tag(Termination t);

struct MoveRecord {
    Move move;
    std::string san;
    std::string comment;  // "+0.35/12 0.520s", or "book"
};

struct PlayedGame {
    std::string white, black;  // names
    Position start;            // root of the movetext (the opening's start position)
    bool standard_start = true;
    std::vector<MoveRecord> moves;
    // The result in the Game's terms (result_string, score_for read it). Endings the
    // board does not decide are given the nearest Status: a lost or drawn time
    // forfeit TIMEOUT / TIMEOUT_DRAW; a crash, an illegal move or an adjudicated loss
    // RESIGNATION (the referee resigns for the engine); an adjudicated draw
    // AGREEMENT; a game stopped from outside ABORTED. `termination` says which.
    Outcome outcome;
    Termination termination = Termination::NORMAL;
    std::string reason;  // "Black wins by checkmate", "Black loses on time (…)", …
    std::string white_tc, black_tc;
    std::string start_time;  // local, "2024.05.01 12:00:00"
    double duration_seconds = 0;
    // Which engine (by colour) must be restarted before its next game.
    bool needs_restart[2] = {false, false};
};

struct GameSpec {
    Position root;                 // the position the game starts from
    std::vector<Move> book_moves;  // opening moves played from root before the engines
};

// Plays one game. Both engines must be started; ucinewgame is sent here. `abort`,
// when set, ends the game early with no result.
PlayedGame play_game(UciEngine& white, UciEngine& black, const GameSpec& spec, const Adjudication& adj,
                     const std::atomic<bool>* abort = nullptr);

// "+0.35", "-M3": a score as the PGN comments show it.
std::string score_text(const Score& score);
// "+0.35/12 0.520s"-style comment for an engine's move.
std::string move_comment(const std::optional<Score>& score, int depth, Millis elapsed);

}  // namespace outpost::match
