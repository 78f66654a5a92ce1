// Outpost — time controls and the chess clock (SPEC C1-C5, FIDE Laws Article 6).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The clock never reads the system time: it is given a monotonic time source (a
// function returning milliseconds), so that the server passes steady_clock and
// tests pass a hand-turned counter and get exact results.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chess/result.h"
#include "chess/types.h"

namespace outpost {

using Millis = std::int64_t;

enum class DelayMode : std::uint8_t {
    NONE,       // sudden death, or Fischer increment when increment > 0
    SIMPLE,     // the main time starts to run only after `delay` each move (US delay)
    BRONSTEIN,  // after a move, the time used is given back, up to `delay`
};

// One period of a time control: `moves` moves (0: the rest of the game) in `time`,
// with an increment or a delay on every move of the period. Time saved in one period
// is carried over to the next (C2).
struct Period {
    int moves = 0;
    Millis time = 0;
    Millis increment = 0;
    DelayMode delay_mode = DelayMode::NONE;
    Millis delay = 0;
    bool operator==(const Period&) const = default;
};

enum class TimeClass : std::uint8_t { BULLET, BLITZ, RAPID, STANDARD, CORRESPONDENCE, UNLIMITED };
std::string_view time_class_name(TimeClass c);  // "bullet", "blitz", …

struct TimeControl {
    std::vector<Period> periods;  // empty with days_per_move == 0: no clock at all
    // Correspondence (C3): each move adds days_per_move to the bank, which never
    // exceeds max_days.
    int days_per_move = 0;
    int max_days = 0;

    bool unlimited() const { return periods.empty() && days_per_move == 0; }
    bool correspondence() const { return days_per_move > 0; }
    // C4: main time + 60 x increment (or delay) of the first period.
    TimeClass classify() const;
    // The compact text form (see parse_time_control).
    std::string to_string() const;
    // The PGN TimeControl tag: "300+3", "40/5400+30:1800+30", "-" for none,
    // "1/259200" for three days per move.
    std::string to_pgn() const;
    bool operator==(const TimeControl&) const = default;
};

// The compact text form:
//   5+3             5 minutes, 3 seconds Fischer increment (minutes may be 0.5)
//   3+2d            3 minutes, 2 seconds simple delay; 3+2b Bronstein delay
//   90              90 minutes sudden death
//   40/5400+30:1800+30
//                   periods in seconds: 40 moves in 5400 s, then 1800 s for the
//                   rest, 30 s increment on every move (d or b after the
//                   increment for delays)
//   3d, 3d/14d      correspondence: 3 days per move, a bank of at most 14 days
//   -               no clock
Result<TimeControl> parse_time_control(std::string_view text);

// C5 lag compensation, bounded by a quota (the rule lichess uses): each player has a
// bank of lag credit. A move's credit is the lag the server gives for it, but never
// more than the bank holds (nor more than the turn took); the credit is taken from
// the bank, which then refills by PerMove, up to Max. A player on a steady 100 ms
// connection is fully compensated; a client that claims lag it does not have gets
// at most PerMove a move after the first moves, not its claim.
struct LagQuota {
    static constexpr Millis Initial = 300;
    static constexpr Millis PerMove = 100;
    static constexpr Millis Max = 700;
    Millis bank = Initial;
    // The credit for a move that claims `lag` and took `elapsed`; updates the bank.
    Millis take(Millis lag, Millis elapsed);
};

// Two clocks, only one running (C1). Press is the completion of a move.
class Clock {
public:
    using TimeSource = std::function<Millis()>;

    Clock(TimeControl tc, TimeSource now);

    const TimeControl& time_control() const { return tc_; }
    // Starts the clock of the side to move (for example when the first move is
    // expected). Does nothing if running. `already_elapsed` is time the turn has
    // already taken (a server resuming a game after a restart).
    void start(Color side_to_move, Millis already_elapsed = 0);
    // Stops both clocks (game over, adjournment); remaining times are frozen.
    void stop();
    bool running() const { return running_.has_value(); }
    std::optional<Color> running_side() const { return running_; }

    // The player `mover` completes a move: their clock stops, increment/delay and
    // period changes are applied, and the opponent's clock starts. `lag` is time to
    // credit back for network transit (C5), bounded by the caller (by what it measured)
    // and here by the mover's lag quota (LagQuota). Returns false when the mover's flag
    // had already fallen (the move came too late).
    bool press(Color mover, Millis lag = 0);
    // What is left in c's lag-credit bank, and the credit its last move got.
    Millis lag_bank(Color c) const { return lag_[c].bank; }
    Millis last_lag_credit(Color c) const { return last_credit_[c]; }

    // Main time left for c now (a running simple delay is not counted down from
    // it, as on a digital clock); zero or less once the flag has fallen.
    Millis remaining(Color c) const;
    // The unused part of the current move's simple delay, for display.
    Millis delay_left(Color c) const;
    // A flag falls when the main time reaches zero (FIDE 6.1). No clock: never.
    bool flag_fallen(Color c) const;
    // When c's flag fell, on the time source's scale; nullopt if it has not.
    std::optional<Millis> flag_time(Color c) const;
    // Whether c plays in the last period (no move requirement left): with both
    // flags down there, FIDE 6.11 draws the game.
    bool in_last_period(Color c) const;
    int moves_made(Color c) const { return moves_[c]; }
    int period_index(Color c) const { return period_[c]; }

    // Adds time to c's clock (P9 "give time", FIDE 7.5.5 penalties).
    void add_time(Color c, Millis ms);
    // Sets remaining times (resuming an adjourned or stored game).
    void set_remaining(Color c, Millis ms);
    // Restores a stored clock: c's time at the start of its current turn and the
    // moves it has made (which place it in its period).
    void restore(Color c, Millis remaining, int moves_made);

private:
    // Period i of the game; past the end, the last one, which repeats when it has
    // a move count (as "40/7200" means 40 moves in 2 hours, again and again).
    const Period& period_at(int index) const;
    const Period& period_of(Color c) const { return period_at(period_[c]); }
    Millis used_now(Color c) const;  // main time used by the running side so far

    TimeControl tc_;
    TimeSource now_;
    std::array<Millis, COLOR_NB> remaining_{};  // as of the last press/start
    std::array<int, COLOR_NB> moves_{};
    std::array<int, COLOR_NB> period_{};
    std::optional<Color> running_;
    Millis turn_started_ = 0;
    std::array<std::optional<Millis>, COLOR_NB> flagged_at_{};
    std::array<LagQuota, COLOR_NB> lag_{};
    std::array<Millis, COLOR_NB> last_credit_{};
};

}  // namespace outpost
