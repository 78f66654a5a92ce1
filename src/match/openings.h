// Outpost — opening books for matches: EPD (one position per line) or PGN (the first
// `plies` moves of each game).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "chess/position.h"
#include "chess/result.h"

namespace outpost::match {

struct Opening {
    Position root;            // where the game starts (with SetUp/FEN when not standard)
    std::vector<Move> moves;  // book moves from root, played before the engines take over
};

enum class OpeningFormat { EPD, PGN };

// Reads every opening of the file. Errors name the file and line. For PGN, moves
// after `plies` are dropped (0: all moves of each game are kept).
Result<std::vector<Opening>> load_epd(const std::string& path, bool chess960);
Result<std::vector<Opening>> load_pgn(const std::string& path, int plies, bool chess960);
// The same from text already in memory (`name` is used in error messages).
Result<std::vector<Opening>> parse_epd(const std::string& text, const std::string& name, bool chess960);
Result<std::vector<Opening>> parse_pgn(const std::string& text, const std::string& name, int plies, bool chess960);

}  // namespace outpost::match
