// Outpost — Portable Game Notation (N4): reading whole files game by game, and
// writing the standard export format.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The reader keeps everything a round trip needs: tag pairs in their order, the
// moves of the main line with the SAN as written, NAGs (suffix annotations such as
// "!?" become their NAG numbers 1-6), comments before and after moves, and nested
// variations as a tree. Escape lines ('%' in the first column) are skipped.
//
// A bad game does not stop the reader: its error names the game (1-based), the line,
// the move number and side, and the token; the reader then skips to the next game (a
// tag line starting with '[' or the token after the game's result).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "chess/position.h"
#include "chess/result.h"

namespace outpost {

// One move of a line, with what was written around it.
struct PgnNode {
    Move move;
    std::string san;        // as written in the file (without !?), or generated
    std::vector<int> nags;  // $n in order of appearance
    // Comments, with runs of whitespace collapsed to one space. PGN cannot tell "after
    // this move" from "before the next", so a comment between two moves is read as
    // after the first; comments_before is only filled at the start of a line (the game
    // or a variation).
    std::vector<std::string> comments_before;
    std::vector<std::string> comments_after;
    bool draw_offer = false;  // "(=)" after the move (R17); written as the comment {(=)}
    // Alternatives to this move: each line starts from the position before it.
    std::vector<std::vector<PgnNode>> variations;
};

struct PgnGame {
    std::vector<std::pair<std::string, std::string>> tags;  // in the order read
    Position start = Position::startpos();                  // from the FEN tag, else the start position
    std::vector<PgnNode> moves;                             // the main line
    // Comments of a game without moves (the writer puts any here before the moves).
    std::vector<std::string> comments;
    std::string result = "*";  // the game termination marker

    // The value of a tag, or nullopt when it is absent.
    std::optional<std::string_view> tag(std::string_view name) const;
    // Sets a tag, replacing its value in place or adding it at the end.
    void set_tag(std::string_view name, std::string_view value);
    void remove_tag(std::string_view name);

    std::vector<Move> mainline() const;
    // The position after the main line.
    Position final_position() const;
};

class PgnReader {
public:
    // Reads from text, which must outlive the reader.
    explicit PgnReader(std::string_view text) : text_(text) {}

    // The next game; an error for a game that could not be read, after which the
    // reader has skipped to the following game; nullopt when the text is exhausted.
    std::optional<Result<PgnGame>> next();
    // The 1-based number of the game last returned.
    int game_number() const { return game_number_; }

private:
    std::string_view text_;
    size_t pos_ = 0;
    int line_ = 1;
    int game_number_ = 0;

    friend class PgnParser;
};

// The first game of text, or an error (also when there is none).
Result<PgnGame> read_pgn_game(std::string_view text);

// A game from a start position and legal moves (for from-uci and the game layer).
// Errors name the first illegal move: "move 5 (white): illegal move 'e2e4' ...".
Result<PgnGame> make_pgn_game(const Position& start, std::span<const Move> moves, std::string_view result = "*");

// Standard export format: the Seven Tag Roster first (with "?" and "????.??.??"
// defaults), the other tags in their order (SetUp/FEN written from the start position
// when it is not the standard one; Variant "Chess960" for Chess960), then movetext in
// SAN with comments, NAGs and variations, lines of at most 79 characters, the result
// and a blank line.
std::string write_pgn(const PgnGame& game);

// The movetext of the game in SAN with move numbers on one line, without the result:
// "1. e4 e5 2. Nf3", or "12... Nf6 13. Bg5" from a black-to-move start.
std::string write_movetext(const PgnGame& game);

}  // namespace outpost
