// Outpost — round-robin schedules from the Berger tables (SPEC P20; FIDE Handbook
// C.05, Annex 1). Players are numbered 1..n by the drawing of lots.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

#include "chess/result.h"

namespace outpost::club {

// One board: start numbers of White and Black. A bye is {player, 0}.
struct Pairing {
    int white = 0;
    int black = 0;
    bool is_bye() const { return black == 0; }
    bool operator==(const Pairing&) const = default;
};
using Round = std::vector<Pairing>;

struct RoundRobinOptions {
    bool double_round = false;
    // C.05 Annex 1 recommends, for a double round-robin, playing the last two
    // rounds of the first cycle in the other order, so that nobody has the same
    // colour three times running at the turn of the cycles.
    bool swap_last_two_rounds_of_first_cycle = true;
};

// The rounds of a round-robin for 3 to 20 players. With an odd count the table
// of the next even size is used and the highest number is the bye; the bye is
// listed after the games. The second cycle repeats the first with colours
// reversed.
Result<std::vector<Round>> berger_schedule(int players, const RoundRobinOptions& options = {});

}  // namespace outpost::club
