// Outpost — a puzzle (SPEC T1): a position, the opponent's move that sets it, and the
// only line that wins from there, with its themes, where it came from and a rating.
// The fields are the columns of the lichess puzzle database, so that puzzles move
// between Outpost and the tools that read that format (puzzle_csv.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace outpost::training {

struct Puzzle {
    std::string id;                        // PuzzleId: 1-32 of A-Z a-z 0-9 _ -
    std::string fen;                       // the position before the opponent's move
    std::vector<std::string> moves;        // UCI: the opponent's move, then solver, reply, ..., solver
    int rating = 1500;                     // Glicko-2 rating of the puzzle
    int rating_deviation = 500;            // its deviation
    int popularity = 0;                    // -100..100 (lichess: votes)
    int nb_plays = 0;                      // attempts counted so far
    std::vector<std::string> themes;       // mateIn2, fork, endgame, rookEndgame ...
    std::string game_url;                  // /#/game/ID?ply=N, or FILE#GAME:PLY
    std::vector<std::string> opening_tags; // lichess's opening family tags, may be empty
};

// "The same position" (issue 29): the first four FEN fields (placement, side to move,
// castling, en passant), so that two puzzles reached at different move numbers are one.
std::string position_key(std::string_view fen);

// The solver's moves are the odd entries of Puzzle::moves (1, 3, ...).
inline int solver_moves(const Puzzle& p) { return static_cast<int>(p.moves.size() / 2); }

}  // namespace outpost::training
