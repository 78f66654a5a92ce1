// Outpost — opening names (ECO codes) from the embedded lichess data set.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// data/openings/README.md says where the names come from and how they are built into
// the binary. A position is named when one of the data set's lines reaches it; the
// identity is the repetition identity (R9: pieces, side to move, castling rights and
// a legal en passant capture), so the move order does not matter. A game takes the
// name of its latest named position (walking back from the end, as the data set
// advises): transpositions are named, and a game that leaves the book keeps its name.
// That identity is the data set's own: it keys a name by the EPD, whose en passant
// field is written only when an en passant capture is legal. So 1. c3 c5 2. d4 cxd4
// 3. e4, where 3... dxe3 e.p. is possible, is not the Smith-Morra Gambit position
// (1. e4 c5 2. d4 cxd4 3. c3) until Black has moved (tests/unit/opening_test.cpp).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "chess/position.h"

namespace outpost {

class Game;

struct Opening {
    std::string_view eco;   // "C65"
    std::string_view name;  // "Ruy Lopez: Berlin Defense"
    std::string_view line;  // the data set's shortest line to it: "1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6"
    bool operator==(const Opening&) const = default;
};

// The name of exactly this position, if the data set names it.
std::optional<Opening> named_position(const Position& pos);

// The name of a game from the standard initial position: the latest position of the
// game that has one. None for a game from any other start (a FEN, Chess960), and
// none while no named position has been reached. The moves must be legal.
std::optional<Opening> classify_opening(const Position& start, std::span<const Move> moves);
std::optional<Opening> classify_opening(const Game& game);

// How many distinct positions the data set names, and the lines it could not replay
// (both for the tests: every line of the data must replay with our SAN reader).
std::size_t named_position_count();
std::span<const std::string> opening_data_errors();

}  // namespace outpost
