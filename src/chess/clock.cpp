// Outpost — time controls and clocks.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "chess/clock.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

namespace outpost {
namespace {

constexpr Millis Second = 1000;
constexpr Millis Minute = 60 * Second;
constexpr Millis Day = 24 * 60 * Minute;
constexpr Millis NoClock = std::numeric_limits<Millis>::max() / 4;

// A non-negative decimal number of units ("0.5", "30") in milliseconds.
std::optional<Millis> parse_amount(std::string_view s, Millis unit) {
    // 18: what to_string prints for any amount under MaxAmount (8 digits of minutes or 10
    // of seconds, a point, 6 decimals) reads back; 12 refused "111111.550067", printed
    // for "111111.55007" (the time-control fuzzer).
    if (s.empty() || s.size() > 18) return std::nullopt;
    double v = 0;
    // Plain decimals only ("35E33" is no time), and at most MaxAmount, so that every
    // amount and every sum of a few of them stays far inside Millis.
    constexpr double MaxAmount = 1e12;  // ms, about 31 years
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, std::chars_format::fixed);
    if (ec != std::errc() || p != s.data() + s.size() || !(v >= 0) || !std::isfinite(v)) return std::nullopt;
    if (v * double(unit) > MaxAmount) return std::nullopt;
    return Millis(std::llround(v * double(unit)));
}

std::optional<int> parse_int(std::string_view s) {
    int v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || p != s.data() + s.size() || v < 0) return std::nullopt;
    return v;
}

// "30", "2d", "2b": an increment or a delay in seconds.
bool parse_bonus(std::string_view s, Period& p) {
    if (!s.empty() && (s.back() == 'd' || s.back() == 'b')) {
        p.delay_mode = s.back() == 'd' ? DelayMode::SIMPLE : DelayMode::BRONSTEIN;
        auto d = parse_amount(s.substr(0, s.size() - 1), Second);
        if (!d) return false;
        p.delay = *d;
        return true;
    }
    auto inc = parse_amount(s, Second);
    if (!inc) return false;
    p.increment = *inc;
    return true;
}

std::string seconds_text(Millis ms) {
    if (ms % Second == 0) return std::to_string(ms / Second);
    std::string s = std::to_string(double(ms) / Second);
    while (!s.empty() && s.back() == '0') s.pop_back();
    return s;
}

std::string bonus_text(const Period& p) {
    switch (p.delay_mode) {
    case DelayMode::SIMPLE: return "+" + seconds_text(p.delay) + "d";
    case DelayMode::BRONSTEIN: return "+" + seconds_text(p.delay) + "b";
    case DelayMode::NONE: return p.increment ? "+" + seconds_text(p.increment) : "";
    }
    return "";
}

}  // namespace

std::string_view time_class_name(TimeClass c) {
    switch (c) {
    case TimeClass::BULLET: return "bullet";
    case TimeClass::BLITZ: return "blitz";
    case TimeClass::RAPID: return "rapid";
    case TimeClass::STANDARD: return "standard";
    case TimeClass::CORRESPONDENCE: return "correspondence";
    case TimeClass::UNLIMITED: return "unlimited";
    }
    return "unlimited";
}

TimeClass TimeControl::classify() const {
    if (correspondence()) return TimeClass::CORRESPONDENCE;
    if (periods.empty()) return TimeClass::UNLIMITED;
    const Period& p = periods.front();
    const Millis bonus = p.delay_mode == DelayMode::NONE ? p.increment : p.delay;
    const Millis total = p.time + 60 * bonus;
    if (total < 3 * Minute) return TimeClass::BULLET;
    if (total < 15 * Minute) return TimeClass::BLITZ;
    if (total < 60 * Minute) return TimeClass::RAPID;
    return TimeClass::STANDARD;
}

std::string TimeControl::to_string() const {
    if (correspondence()) {
        std::string s = std::to_string(days_per_move) + "d";
        if (max_days != days_per_move) s += "/" + std::to_string(max_days) + "d";
        return s;
    }
    if (periods.empty()) return "-";
    if (periods.size() == 1 && periods[0].moves == 0) {
        const Period& p = periods[0];
        std::string minutes = p.time % Minute == 0 ? std::to_string(p.time / Minute) : [&] {
            std::string m = std::to_string(double(p.time) / Minute);
            while (m.back() == '0') m.pop_back();
            return m;
        }();
        std::string b = bonus_text(p);
        return b.empty() ? minutes : minutes + b;
    }
    return to_pgn();
}

std::string TimeControl::to_pgn() const {
    if (correspondence()) return "1/" + std::to_string(days_per_move * 86400);
    if (periods.empty()) return "-";
    std::string s;
    for (size_t i = 0; i < periods.size(); ++i) {
        const Period& p = periods[i];
        if (i) s += ':';
        if (p.moves) s += std::to_string(p.moves) + "/";
        s += seconds_text(p.time) + bonus_text(p);
    }
    return s;
}

Result<TimeControl> parse_time_control(std::string_view text) {
    const std::string shown = "time control '" + std::string(text) + "'";
    TimeControl tc;
    if (text == "-" || text == "unlimited") return tc;
    if (text.empty()) return make_error("empty time control (use for example 5+3, 3+2d, 40/5400+30:1800+30, 3d or -)");

    // Correspondence: Nd or Nd/Md.
    if (text.back() == 'd' && text.find('+') == std::string_view::npos && text.find(':') == std::string_view::npos) {
        const size_t slash = text.find('/');
        // "/1d": nothing before the slash (text[slash - 1] would read before the text).
        if (slash == 0) return make_error(shown + ": write correspondence as 3d or 3d/14d");
        auto per = parse_int(text.substr(0, slash == std::string_view::npos ? text.size() - 1 : slash - 1));
        if (slash != std::string_view::npos && text[slash - 1] != 'd')
            return make_error(shown + ": write correspondence as 3d or 3d/14d");
        if (!per || *per < 1 || *per > 365) return make_error(shown + ": days per move must be a whole number from 1 to 365");
        tc.days_per_move = *per;
        tc.max_days = *per;
        if (slash != std::string_view::npos) {
            auto max = parse_int(text.substr(slash + 1, text.size() - slash - 2));
            if (!max || *max < *per || *max > 3650)
                return make_error(shown + ": the maximum bank must be at least the days per move (and at most 3650)");
            tc.max_days = *max;
        }
        return tc;
    }

    const bool seconds = text.find('/') != std::string_view::npos || text.find(':') != std::string_view::npos;
    size_t start = 0;
    int index = 0;
    while (start <= text.size()) {
        size_t end = text.find(':', start);
        if (end == std::string_view::npos) end = text.size();
        std::string_view part = text.substr(start, end - start);
        ++index;
        const std::string where = shown + ", period " + std::to_string(index) + " '" + std::string(part) + "'";
        Period p;
        if (const size_t slash = part.find('/'); slash != std::string_view::npos) {
            auto moves = parse_int(part.substr(0, slash));
            if (!moves || *moves < 1 || *moves > 1000) return make_error(where + ": the move count must be 1 to 1000");
            p.moves = *moves;
            part = part.substr(slash + 1);
        }
        const size_t plus = part.find('+');
        auto time = parse_amount(part.substr(0, plus), seconds ? Second : Minute);
        if (!time) return make_error(where + ": the main time must be a number of " + (seconds ? "seconds" : "minutes"));
        if (*time > 100 * 24 * 60 * Minute) return make_error(where + ": the main time is too long");
        p.time = *time;
        if (plus != std::string_view::npos && !parse_bonus(part.substr(plus + 1), p))
            return make_error(where + ": the increment must be seconds, with d (simple delay) or b (Bronstein) after it for a delay");
        if (p.increment > Day || p.delay > Day) return make_error(where + ": the increment or delay is too long");
        if (p.time == 0 && p.increment == 0 && p.delay == 0) return make_error(where + ": no time at all");
        tc.periods.push_back(p);
        if (end == text.size()) break;
        start = end + 1;
    }
    for (size_t i = 0; i + 1 < tc.periods.size(); ++i)
        if (tc.periods[i].moves == 0)
            return make_error(shown + ": only the last period may be without a move count");
    return tc;
}

Millis LagQuota::take(Millis lag, Millis elapsed) {
    const Millis credit = std::max<Millis>(0, std::min({lag, bank, elapsed}));
    bank = std::min(Max, bank - credit + PerMove);
    return credit;
}

Clock::Clock(TimeControl tc, TimeSource now) : tc_(std::move(tc)), now_(std::move(now)) {
    for (Color c : {WHITE, BLACK}) {
        if (tc_.correspondence()) remaining_[c] = tc_.days_per_move * Day;
        else if (tc_.unlimited()) remaining_[c] = NoClock;
        else remaining_[c] = tc_.periods.front().time;
    }
}

const Period& Clock::period_at(int index) const {
    static const Period NoPeriod{};
    if (tc_.periods.empty()) return NoPeriod;
    return tc_.periods[std::min<size_t>(size_t(index), tc_.periods.size() - 1)];
}

void Clock::start(Color side_to_move, Millis already_elapsed) {
    if (running_) return;
    running_ = side_to_move;
    turn_started_ = now_() - std::max<Millis>(0, already_elapsed);
}

Millis Clock::used_now(Color c) const {
    if (running_ != c) return 0;
    Millis e = std::max<Millis>(0, now_() - turn_started_);
    const Period& p = period_of(c);
    if (p.delay_mode == DelayMode::SIMPLE) e = std::max<Millis>(0, e - p.delay);
    return e;
}

void Clock::stop() {
    if (!running_) return;
    const Color c = *running_;
    if (!tc_.unlimited()) {
        const Millis left = remaining_[c] - used_now(c);
        if (left <= 0 && !flagged_at_[c]) flagged_at_[c] = *flag_time(c);
        remaining_[c] = left;
    }
    running_.reset();
}

Millis Clock::remaining(Color c) const {
    if (tc_.unlimited()) return NoClock;
    return remaining_[c] - used_now(c);
}

Millis Clock::delay_left(Color c) const {
    const Period& p = period_of(c);
    if (running_ != c || p.delay_mode != DelayMode::SIMPLE) return 0;
    return std::max<Millis>(0, p.delay - std::max<Millis>(0, now_() - turn_started_));
}

bool Clock::flag_fallen(Color c) const {
    if (tc_.unlimited()) return false;
    return flagged_at_[c].has_value() || remaining(c) <= 0;
}

std::optional<Millis> Clock::flag_time(Color c) const {
    if (flagged_at_[c]) return flagged_at_[c];
    if (!flag_fallen(c) || running_ != c) return std::nullopt;
    const Period& p = period_of(c);
    return turn_started_ + remaining_[c] + (p.delay_mode == DelayMode::SIMPLE ? p.delay : 0);
}

bool Clock::in_last_period(Color c) const {
    if (tc_.periods.empty()) return true;
    return size_t(period_[c]) + 1 >= tc_.periods.size() && tc_.periods.back().moves == 0;
}

bool Clock::press(Color mover, Millis lag) {
    if (tc_.unlimited()) {
        ++moves_[mover];
        running_ = ~mover;
        return true;
    }
    const Millis now = now_();
    if (running_ != mover) {
        // Pressing a clock that is not running (the first move before start):
        // count the move without charging time.
        turn_started_ = now;
        running_ = mover;
    }
    const Period& p = period_of(mover);
    last_credit_[mover] = lag_[mover].take(lag, now - turn_started_);
    const Millis elapsed = std::max<Millis>(0, now - turn_started_ - last_credit_[mover]);
    Millis used = elapsed;
    if (p.delay_mode == DelayMode::SIMPLE) used = std::max<Millis>(0, elapsed - p.delay);
    if (remaining_[mover] - used <= 0) {
        flagged_at_[mover] = turn_started_ + remaining_[mover] + (p.delay_mode == DelayMode::SIMPLE ? p.delay : 0);
        remaining_[mover] -= used;
        running_.reset();
        return false;
    }
    remaining_[mover] -= used;
    ++moves_[mover];

    if (tc_.correspondence()) {
        remaining_[mover] = std::min(remaining_[mover] + tc_.days_per_move * Day, Millis(tc_.max_days) * Day);
    } else {
        if (p.delay_mode == DelayMode::BRONSTEIN) remaining_[mover] += std::min(elapsed, p.delay);
        remaining_[mover] += p.increment;
        // Period change (C2): once the period's moves are made, the next period's
        // time is added to what is left. A last period with a move count repeats.
        if (p.moves > 0) {
            int needed = 0;
            for (int i = 0; i <= period_[mover]; ++i) needed += period_at(i).moves;
            if (moves_[mover] == needed) {
                ++period_[mover];
                remaining_[mover] += period_of(mover).time;
            }
        }
    }
    running_ = ~mover;
    turn_started_ = now;
    return true;
}

void Clock::add_time(Color c, Millis ms) { remaining_[c] += ms; }

void Clock::restore(Color c, Millis ms, int moves_made) {
    moves_[c] = moves_made;
    period_[c] = 0;
    int needed = 0;
    for (int i = 0; !tc_.periods.empty() && period_at(i).moves > 0 && i < 100000; ++i) {
        needed += period_at(i).moves;
        if (moves_made < needed) break;
        period_[c] = i + 1;
    }
    remaining_[c] = ms;
    flagged_at_[c].reset();
}

void Clock::set_remaining(Color c, Millis ms) {
    remaining_[c] = ms;
    flagged_at_[c].reset();
    if (running_ == c) turn_started_ = now_();
}

}  // namespace outpost
