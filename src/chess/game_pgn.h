// Outpost — PGN export of a Game (SPEC C6, N4, R13, R17).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "chess/clock.h"
#include "chess/game.h"
#include "chess/pgn.h"

namespace outpost {

struct GameRecord {
    std::string event = "?", site = "?", date = "????.??.??", round = "?";
    std::string white = "?", black = "?";
    std::optional<TimeControl> time_control;
    // The mover's remaining time after each ply, for {[%clk h:mm:ss]}; may be
    // shorter than the game (missing entries are left out).
    std::vector<Millis> clock_after_ply;
};

// "0:04:58", or "0:00:09.7" below ten seconds, as [%clk] wants it.
std::string format_clk(Millis ms);

// The Seven Tag Roster, Result, Termination, TimeControl, ECO and Opening, FEN/SetUp and Variant
// for non-standard starts, the moves with [%clk] comments, draw offers as "(=)",
// and the end of the game explained in a final comment.
PgnGame game_to_pgn(const Game& game, const GameRecord& record);
inline std::string export_pgn(const Game& game, const GameRecord& record) {
    return write_pgn(game_to_pgn(game, record));
}

// The PGN Termination tag value for a status ("normal", "time forfeit", …).
std::string_view pgn_termination(Status s);

}  // namespace outpost
