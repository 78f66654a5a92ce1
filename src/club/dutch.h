// Outpost — Swiss pairings by the FIDE Dutch system (SPEC P20; Handbook C.04.3
// with the general rules C.04.1 and C.04.2).
//
// Round 1 here (dutch.cpp); rounds 2 and later in dutch_rounds.cpp, where the
// header comment says how the criteria become edge weights and which part of the
// Handbook's candidate order (D) is exact and which approximated.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "chess/result.h"
#include "club/round_robin.h"
#include "club/tournament.h"

namespace outpost::club {

// C.04.3 A.6: the strength of a colour preference.
enum class PreferenceStrength : std::uint8_t { NONE, MILD, STRONG, ABSOLUTE };

// C.04.3 A.4: a float in a round: down when paired against a lower score or
// not playing at all (for whatever reason), up when paired against a higher score.
enum class Float : std::uint8_t { NONE, DOWN, UP };

// What the pairing of round `round` knows of one participant.
struct PairingPlayer {
    int id = 0;  // pairing number: the starting rank
    // E.5's pairing number in this round: the rank among the players who take part
    // in this pairing or took part in an earlier one (a player who was never paired
    // and is absent now is not counted), as the FIDE-endorsed bbpPairings counts.
    // 0: not computed (the starting rank is used).
    int pairing_number = 0;
    double score = 0.0;
    std::vector<Colour> colour_by_round;  // NONE where no game was played (C.04.1: only games count)
    int colour_difference = 0;    // whites minus blacks
    Colour preference = Colour::NONE;
    PreferenceStrength strength = PreferenceStrength::NONE;
    std::set<int> opponents;  // met before, played or forfeited (C.04.1 b: not again)
    std::vector<Float> floats;  // per earlier round
    // C.04.1 c: no second pairing-allocated bye, nor after a round won without
    // playing (forfeit win, full-point bye).
    bool may_get_bye = true;
};

// The colour preference of a colour history (C.04.3 A.6): absolute when the
// difference is beyond ±1 or the last two games had the same colour; strong at
// ±1; mild at 0 (the other colour than in the last game); none without games.
void set_colour_preference(PairingPlayer& p);

// The participants of round `round` (1-based): everyone without an entry already
// made for that round (a requested bye or an absence is written in before pairing).
std::vector<PairingPlayer> pairing_players(const Tournament& t, int round);

// C.04.3 A.3: the score brackets, highest score first, each in pairing-number
// order (the ids of the players).
// The initial colour of a file that does not give it (no XXC / 152 line): read off
// the first round with colours, where the player with the lowest pairing number who
// had a colour got the initial colour if that number was odd (E.5). NONE when no
// round has colours yet.
Colour infer_initial_colour(const Tournament& t);

std::vector<std::vector<int>> score_brackets(const std::vector<PairingPlayer>& players);

// C.04.3 E: the colours of a pair; returns the colour of `a`. `a_ranks_higher`
// says which of the two is the higher ranked (score, then pairing number);
// `initial` is the colour the first pairing number had in round 1.
Colour allocate_colours(const PairingPlayer& a, const PairingPlayer& b, bool a_ranks_higher, Colour initial);

// What the pairing of a later round decided in one bracket (for checks and tests).
struct BracketDecision {
    double resident_score = 0;                // the scoregroup of the residents
    std::vector<int> players;                 // moved-down players, then residents, in rank order
    std::vector<std::pair<int, int>> pairs;   // (higher ranked, lower ranked)
    std::vector<int> downfloaters;            // left for the next bracket (the last: the bye)
};
struct DutchTrace {
    std::vector<BracketDecision> brackets;
};

// The next round's pairing. Round 1: the upper half against the lower half in
// pairing-number order, colours alternating board by board from the initial
// colour (White when the file names none), and with an odd count the bye to the
// last player. Later rounds: pair_dutch_later_round.
Result<Round> pair_dutch(const Tournament& t, DutchTrace* trace = nullptr);

// Rounds 2 and later (dutch_rounds.cpp): brackets from the top, each paired by a
// maximum-weight matching whose weights hold the criteria C.4-C.19 in order.
Result<Round> pair_dutch_later_round(const Tournament& t, int round, DutchTrace* trace);

// The absolute criteria for a proposed round: every participant exactly once, at
// most one bye, no rematch and no bye to a player who may not get one (C.04.1),
// no two players with the same absolute colour preference together (C.04.3 C.3;
// the Handbook exempts topscorers in the last round, which this check does not
// know about). Empty when the round passes; otherwise what is wrong.
std::string check_absolute_criteria(const std::vector<PairingPlayer>& players, const Round& round);

// The output format of JaVaFo and bbpPairings: the number of pairs, then one
// "WHITE BLACK" line per board, a bye as "N 0".
std::string write_pairing(const Round& round);

}  // namespace outpost::club
