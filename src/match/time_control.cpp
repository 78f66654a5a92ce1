// Outpost — engine time controls.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "match/time_control.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace outpost::match {

namespace {

std::string seconds_text(Millis ms) {
    char buf[32];
    if (ms % 1000 == 0) {
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(ms / 1000));
    } else {
        std::snprintf(buf, sizeof buf, "%.3f", double(ms) / 1000.0);
        // Trailing zeros add nothing: "0.100" reads better as "0.1".
        std::string s = buf;
        while (s.back() == '0') s.pop_back();
        return s;
    }
    return buf;
}

Result<int> parse_count(std::string_view text) {
    int value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value <= 0)
        return make_error("'" + std::string(text) + "' is not a positive whole number");
    return value;
}

}  // namespace

Result<Millis> parse_seconds(std::string_view text) {
    if (text.empty()) return make_error("a number of seconds is missing");
    double value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value < 0)
        return make_error("'" + std::string(text) + "' is not a number of seconds");
    return static_cast<Millis>(std::llround(value * 1000.0));
}

Result<EngineTimeControl> parse_tc(std::string_view text) {
    EngineTimeControl tc;
    auto fail = [&](const std::string& why) {
        return make_error("bad time control '" + std::string(text) + "': " + why);
    };
    if (text == "inf" || text == "infinite") {
        tc.infinite = true;
        return tc;
    }
    std::string_view rest = text;
    if (auto slash = rest.find('/'); slash != std::string_view::npos) {
        auto moves = parse_count(rest.substr(0, slash));
        if (!moves) return fail(moves.error().message + " (moves per period)");
        tc.moves = *moves;
        rest.remove_prefix(slash + 1);
    }
    std::string_view base = rest, inc;
    if (auto plus = rest.find('+'); plus != std::string_view::npos) {
        base = rest.substr(0, plus);
        inc = rest.substr(plus + 1);
        if (inc.empty()) return fail("the increment after '+' is missing");
    }
    Millis minutes = 0;
    if (auto colon = base.find(':'); colon != std::string_view::npos) {
        auto m = parse_count(base.substr(0, colon));
        if (!m) return fail(m.error().message + " (minutes)");
        minutes = *m;
        base.remove_prefix(colon + 1);
    }
    auto secs = parse_seconds(base);
    if (!secs) return fail(secs.error().message);
    tc.base = minutes * 60000 + *secs;
    if (!inc.empty()) {
        auto i = parse_seconds(inc);
        if (!i) return fail(i.error().message + " (increment)");
        tc.increment = *i;
    }
    if (tc.base <= 0 && tc.increment <= 0) return fail("no time at all");
    return tc;
}

std::string EngineTimeControl::to_pgn() const {
    if (per_move > 0) return "1/" + seconds_text(per_move);
    if (infinite) return "-";
    std::string s;
    if (moves > 0) s = std::to_string(moves) + "/";
    s += seconds_text(base);
    if (increment > 0) s += "+" + seconds_text(increment);
    return s;
}

EngineClock::EngineClock(const EngineTimeControl& tc) : tc_(tc), remaining_(tc.has_clock() ? tc.base : 0) {}

int EngineClock::moves_to_go() const {
    if (!tc_.has_clock() || tc_.moves == 0) return 0;
    return tc_.moves - moves_made_ % tc_.moves;
}

bool EngineClock::spend(Millis used) {
    if (tc_.per_move > 0) return used <= tc_.per_move + tc_.margin;
    if (!tc_.has_clock()) return true;
    remaining_ -= used;
    if (remaining_ < -tc_.margin) return false;
    // A flag that stays up within the margin is forgiven, but the next move starts
    // from zero rather than from a debt.
    if (remaining_ < 0) remaining_ = 0;
    remaining_ += tc_.increment;
    ++moves_made_;
    if (tc_.moves > 0 && moves_made_ % tc_.moves == 0) remaining_ += tc_.base;
    return true;
}

Millis EngineClock::deadline() const {
    if (tc_.per_move > 0) return tc_.per_move + tc_.margin;
    if (!tc_.has_clock()) return -1;
    return remaining_ + tc_.margin;
}

}  // namespace outpost::match
