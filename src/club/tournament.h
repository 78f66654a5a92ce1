// Outpost — the state of an individual tournament as FIDE's Tournament Report
// File describes it (players by starting rank; per round the opponent, colour
// and result code). TRF, standings and Swiss pairings all read this one type.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace outpost::club {

enum class Colour : std::uint8_t { NONE, WHITE, BLACK };
inline Colour opposite(Colour c) {
    return c == Colour::WHITE ? Colour::BLACK : c == Colour::BLACK ? Colour::WHITE : Colour::NONE;
}

// The TRF result codes (TRF-2026 player section, position 99 for round 1).
enum class ResultCode : std::uint8_t {
    NONE,           // blank: the round has no entry (equivalent to Z when played)
    WIN,            // 1
    DRAW,           // =
    LOSS,           // 0
    FORFEIT_WIN,    // +
    FORFEIT_LOSS,   // -
    WIN_UNRATED,    // W: game lasted less than one move
    DRAW_UNRATED,   // D
    LOSS_UNRATED,   // L
    HALF_BYE,       // H
    FULL_BYE,       // F
    PAIRING_BYE,    // U: the pairing-allocated bye
    ZERO_BYE,       // Z
};
char result_code_char(ResultCode r);
std::optional<ResultCode> result_code_from_char(char c);

// Points for each kind of result (TRF-2026 tag 162; defaults of FIDE scoring).
struct Scoring {
    double win = 1.0, draw = 0.5, loss = 0.0, absence = 0.0, pairing_bye = 1.0;
    double points(ResultCode r) const;
    bool operator==(const Scoring&) const = default;
};

struct RoundEntry {
    int opponent = 0;  // starting rank; 0: no opponent (bye, absence)
    Colour colour = Colour::NONE;
    ResultCode result = ResultCode::NONE;
    bool operator==(const RoundEntry&) const = default;
    // A game on the board (an over-the-board result between two players).
    bool played() const;
    // Paired against an opponent, whether the game was played or forfeited.
    bool paired() const { return opponent != 0; }
};

struct Player {
    int start_rank = 0;
    char sex = ' ';
    std::string title;
    std::string name;
    int rating = 0;
    std::string federation;
    std::string fide_id;
    std::string birth_date;
    double points = 0.0;  // as written in the file
    int rank = 0;
    std::vector<RoundEntry> rounds;
    bool operator==(const Player&) const = default;
    // Round r (1-based), or an empty entry past the end.
    RoundEntry round(int r) const {
        return r >= 1 && r <= static_cast<int>(rounds.size()) ? rounds[static_cast<std::size_t>(r - 1)] : RoundEntry{};
    }
};

struct Tournament {
    std::string name;
    int total_rounds = 0;                  // XXR / 142; 0 when not given
    Colour initial_colour = Colour::NONE;  // XXC white1/black1 / 152 W/B
    Scoring scoring;
    std::vector<Player> players;            // in file order
    std::vector<std::string> other_lines;  // kept verbatim for a round trip
    bool operator==(const Tournament&) const = default;

    const Player* find(int start_rank) const;
    // Rounds with at least one pairing (a game or a pairing-allocated bye).
    int rounds_paired() const;
    // Score after the first `rounds` rounds, from the results (not the points field).
    double score(const Player& p, int rounds) const;
};

}  // namespace outpost::club
