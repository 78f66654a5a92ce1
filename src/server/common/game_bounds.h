// Outpost — the bounds of what a game served here may be (issue 25, "Bounds
// everywhere"; docs/protocol.md, "Limits"): its time control and the moves of the
// PGN it starts from. The rules core (chess/clock.h) reads any time control a
// tournament director can write; a server that echoes the time control in every
// state, move and PGN, and replays a PGN under its hub's lock, takes only these.
// (Header-only: a server library's sources are compiled in unity batches.)
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "chess/clock.h"
#include "server/common/protocol.h"

namespace outpost::server {

inline constexpr std::size_t MaxTimeControlText = 40;  // characters of its text form
inline constexpr int MaxPeriods = 3;                    // FIDE's classical controls have two or three
inline constexpr int MaxPeriodMoves = 200;              // moves of one period ("40/…")
inline constexpr Millis MaxPeriodTime = 240 * 60'000;   // main time of one period: 4 hours
inline constexpr Millis MaxIncrement = 180'000;         // increment or delay per move: 3 minutes
inline constexpr int MaxDaysPerMove = 14;               // correspondence (C3)
inline constexpr int MaxBankDays = 100;                 // correspondence: the most days a bank holds
inline constexpr int MaxStartPlies = 600;               // moves of a PGN a game starts from (300 moves)

// Reads and bounds a time control of a game, a seek, a simul or an event: the
// error (bad_request) says which bound, and for a period which one.
inline Answer<TimeControl> read_served_time_control(std::string_view text) {
    if (text.size() > MaxTimeControlText)
        return bad_request("the time control is longer than " + std::to_string(MaxTimeControlText) +
                           " characters (this server takes at most " + std::to_string(MaxPeriods) + " periods)");
    auto tc = parse_time_control(text);
    if (!tc) return bad_request(tc.error().message);
    const std::string shown = "time control '" + std::string(text) + "'";
    if (tc->correspondence()) {
        if (tc->days_per_move > MaxDaysPerMove)
            return bad_request(shown + ": days per move must be 1 to " + std::to_string(MaxDaysPerMove));
        if (tc->max_days > MaxBankDays)
            return bad_request(shown + ": a bank holds at most " + std::to_string(MaxBankDays) + " days");
        return *tc;
    }
    if (int(tc->periods.size()) > MaxPeriods)
        return bad_request(shown + ": at most " + std::to_string(MaxPeriods) + " periods");
    for (size_t i = 0; i < tc->periods.size(); ++i) {
        const Period& p = tc->periods[i];
        const std::string where = shown + ", period " + std::to_string(i + 1);
        if (p.moves > MaxPeriodMoves)
            return bad_request(where + ": at most " + std::to_string(MaxPeriodMoves) + " moves");
        if (p.time > MaxPeriodTime)
            return bad_request(where + ": the main time is at most " + std::to_string(MaxPeriodTime / 60'000) + " minutes");
        if (p.increment > MaxIncrement || p.delay > MaxIncrement)
            return bad_request(where + ": the increment or delay is at most " + std::to_string(MaxIncrement / 1000) +
                               " seconds");
    }
    return *tc;
}


}  // namespace outpost::server
