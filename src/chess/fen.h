// Outpost — FEN, X-FEN and Shredder-FEN (N1).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>

#include "chess/position.h"
#include "chess/result.h"

namespace outpost {

inline constexpr std::string_view StartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

// Reads the six FEN fields; the last two (halfmove clock and move number) may be
// left out, as in EPD. The castling field may be classical (KQkq), X-FEN (KQkq
// meaning the outermost rook, a file letter for an inner rook) or Shredder-FEN (file
// letters only). Errors name the field and what is wrong with it.
Result<Setup> parse_fen(std::string_view fen);

// True when every castling right is held by a king on e1/e8 and a rook in the
// corner, so that the position can be played under classical castling notation.
bool has_classical_castling(const Setup& setup);

// parse_fen then Position::from_setup. Chess960 mode is used when asked for, and
// also when the castling rights can only be described by Chess960 rules.
Result<Position> position_from_fen(std::string_view fen, bool chess960 = false);

enum class CastlingNotation : std::uint8_t {
    AUTO,      // KQkq for classical positions; X-FEN in Chess960 mode
    X_FEN,     // KQkq for the outermost rook, the file letter for an inner one
    SHREDDER,  // file letters always (HAha)
};

std::string to_fen(const Position& pos, CastlingNotation castling = CastlingNotation::AUTO);

}  // namespace outpost
