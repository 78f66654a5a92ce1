// Outpost — engine time controls in the notation of engine match runners.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// This is not chess/clock.h: there "5+3" means minutes for human play; engine
// testers write seconds ("10+0.1" is ten seconds plus 0.1 s a move), a fixed time per
// move (st=1) and search limits (depth, nodes) that a human clock has no use for.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "chess/clock.h"
#include "chess/result.h"

namespace outpost::match {

struct EngineTimeControl {
    // Clock: `moves` moves (0: the whole game) in `base` plus `increment` a move.
    int moves = 0;
    Millis base = 0;
    Millis increment = 0;
    // A fixed time for every move (st=); when set the clock above is unused.
    Millis per_move = 0;
    // No clock at all (tc=inf): the search is bounded by depth or nodes only.
    bool infinite = false;
    // Search limits sent with `go`, combined with any of the above (0: none).
    int depth = 0;
    std::int64_t nodes = 0;
    // How far past its time an engine may answer before it loses on time.
    Millis margin = 0;

    bool has_clock() const { return !infinite && per_move == 0; }
    bool bounded() const { return !infinite || per_move > 0 || depth > 0 || nodes > 0; }
    // The PGN TimeControl tag: "40/60+0.6", "10+0.1", "1/1" for st=1, "-" without a clock.
    std::string to_pgn() const;
    bool operator==(const EngineTimeControl&) const = default;
};

// Reads the tc= value: "40/60+0.6", "10+0.1", "60", "40/60", "1:30+1" (minutes and
// seconds), "inf". Seconds may have decimals.
Result<EngineTimeControl> parse_tc(std::string_view text);
// Reads a number of seconds with decimals ("0.05") into milliseconds.
Result<Millis> parse_seconds(std::string_view text);

// One side's clock during a game.
class EngineClock {
public:
    explicit EngineClock(const EngineTimeControl& tc);
    Millis remaining() const { return remaining_; }
    // Moves left until the next time control, 0 when the period is the whole game.
    int moves_to_go() const;
    // The engine answered after `used` ms. Returns false when it overstepped its time
    // by more than the margin (the flag fell).
    bool spend(Millis used);
    // How long to wait for an answer before declaring a loss on time.
    Millis deadline() const;

private:
    EngineTimeControl tc_;
    Millis remaining_ = 0;
    int moves_made_ = 0;
};

}  // namespace outpost::match
