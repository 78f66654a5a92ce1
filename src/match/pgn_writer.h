// Outpost — PGN for a refereed engine game: Seven Tag Roster, FEN/SetUp when the game
// did not start from the standard position, TimeControl, Termination, and a comment
// per move with the engine's score, depth and time.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

#include "match/referee.h"

namespace outpost::match {

struct PgnContext {
    std::string event = "?";
    std::string site = "?";
    std::string round = "?";
};

// One game in PGN export form, ending with an empty line.
std::string write_played_game(const PlayedGame& rec, const PgnContext& ctx);

}  // namespace outpost::match
