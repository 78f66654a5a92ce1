// Outpost — puzzles in the columns of the lichess puzzle database's CSV:
//   PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags
// Moves and Themes and OpeningTags are space-separated lists. Fields are quoted as RFC 4180
// says when they hold a comma or a quote (lichess's own file never needs it; a GameUrl
// naming a PGN file may). One record a line. Reading checks every field and plays the
// moves: a FEN that is not a legal standard-chess position or a move that is not legal
// where it is played is an error that names the line, the column and what is wrong.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chess/result.h"
#include "training/puzzle.h"

namespace outpost::training {

// The header row, without a line end.
std::string_view puzzle_csv_header();

// One record, without a line end.
std::string to_csv_line(const Puzzle& p);

// One line of a file (its line end already removed). The header row gives nullopt, as
// does an empty line. line_no is only for the message ("line 12: column Moves: ...").
Result<std::optional<Puzzle>> parse_puzzle_csv_line(std::string_view line, std::size_t line_no);

// A whole file's text; the first error stops the reading, prefixed with source
// ("puzzles.csv: line 12: column FEN: ...").
Result<std::vector<Puzzle>> read_puzzle_csv(std::string_view text, std::string_view source);

// The checks the reader makes, for a puzzle made in memory (the generator's own, or a
// row of a store): id, FEN, every move legal in turn, an even number of at least two
// moves, numbers in range, theme and tag words. Chess960 positions are refused.
Result<bool> check_puzzle(const Puzzle& p);

}  // namespace outpost::training
