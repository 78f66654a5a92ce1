// Outpost — UCI long algebraic move notation (N2).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>

#include "chess/position.h"
#include "chess/result.h"

namespace outpost {

// e2e4, e7e8q; castling as e1g1 in standard mode and as king-takes-rook (e1h1) in
// Chess960 mode.
std::string move_to_uci(Move m, bool chess960);
inline std::string move_to_uci(const Position& pos, Move m) { return move_to_uci(m, pos.is_chess960()); }

// Reads a UCI move and checks that it is legal in pos. In standard mode both e1g1
// and e1h1 are accepted for castling; in Chess960 mode only king-takes-rook.
Result<Move> move_from_uci(const Position& pos, std::string_view text);

}  // namespace outpost
