// Outpost — standings and tiebreaks (SPEC P20; FIDE Handbook C.07, Play-off and
// Tie-Break Regulations, the text in force from 1 March 2026). Unplayed rounds
// in Swiss events follow C.07 Article 16: the opponents see an adjusted score
// (16.3), the participant's own unplayed rounds count as games against a dummy
// (16.4), and the cut modifiers cut a voluntary unplayed round first (16.5).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "chess/result.h"
#include "club/tournament.h"

namespace outpost::club {

enum class Tiebreak : std::uint8_t {
    BUCHHOLZ,           // BH, C.07 8.1
    BUCHHOLZ_CUT1,      // BH-C1, 14.1
    BUCHHOLZ_CUT2,      // BH-C2, 14.2
    BUCHHOLZ_MEDIAN1,   // BH-M1, 14.3
    BUCHHOLZ_MEDIAN2,   // BH-M2, 14.4
    SONNEBORN_BERGER,   // SB, 9.1
    SONNEBORN_BERGER_CUT1,
    DIRECT_ENCOUNTER,   // DE, 6
    WINS,               // WIN, 7.1: rounds with the points of a win, played or not
    GAMES_WON,          // WON, 7.2: games won over the board
    AVERAGE_RATING_OF_OPPONENTS,  // ARO, 10.1 (opponents met over the board)
    PROGRESSIVE,        // PS, 7.5: the sum of the running scores
    PROGRESSIVE_CUT1,   // PS-C1: without the score after the first round
};
std::string_view tiebreak_code(Tiebreak t);  // "BH", "BH-C1", … as in TRF-2026 tag 202
Result<Tiebreak> tiebreak_from_code(std::string_view code);

struct TiebreakOptions {
    // Swiss: C.07 Article 16. Round-robin (pre-determined pairings): Article 15.2,
    // forfeits are regular results.
    bool swiss = true;
    // Rounds of the event (16.4.2); 0: the rounds played so far.
    int total_rounds = 0;
};

// The value of one (group-independent) tiebreak for a player after `rounds` rounds.
double tiebreak_value(const Tournament& t, const Player& p, Tiebreak tb, int rounds, const TiebreakOptions& options);

// C.07 Article 16.3: the score of a player as their opponents' tiebreaks see it.
double adjusted_score(const Tournament& t, const Player& p, int rounds, const TiebreakOptions& options);

struct Standing {
    int start_rank = 0;
    int place = 0;  // equal for players the tiebreaks do not separate
    double points = 0.0;
    std::vector<double> tiebreaks;  // in the order asked for
};

// Standings after `rounds` rounds: points, then the tiebreaks in order (Direct
// encounter among the players still tied when it is reached). Players the list
// does not separate share a place and are listed by starting rank.
std::vector<Standing> standings(const Tournament& t, int rounds, const std::vector<Tiebreak>& order,
                                const TiebreakOptions& options);

// A player who withdraws from a round-robin (FIDE Handbook C.06, FIDE Tournament
// Rules, V.4): with fewer than half of their games completed over the board, their
// results stay in the table, but neither their points nor the points scored against
// them count in the standings; with half or more, everything counts. `games_each` is
// the number of games each player has in the whole event. The result is what the
// standings read: the tournament without the annulled players, whose games are taken
// out of their opponents' rounds, and the start ranks of the players not ranked.
struct CountedForStandings {
    Tournament tournament;
    std::vector<int> not_ranked;
};
CountedForStandings annul_early_withdrawals(const Tournament& t, const std::vector<int>& withdrawn, int games_each);

}  // namespace outpost::club
