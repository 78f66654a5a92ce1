// Outpost — time controls and clocks (SPEC C1-C5; FIDE Article 6, 7.5.5 for added
// time), driven by an injected time source. See docs/laws.md.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <memory>

#include "chess/clock.h"

using namespace outpost;

namespace {

constexpr Millis S = 1000;
constexpr Millis M = 60 * S;

struct FakeTime {
    Millis t = 1'000'000;
    Clock::TimeSource source() {
        return [this] { return t; };
    }
};

TimeControl tc(std::string_view text) {
    auto r = parse_time_control(text);
    EXPECT_TRUE(r.ok()) << text << ": " << (r.ok() ? "" : r.error().message);
    return r.ok() ? *r : TimeControl{};
}

}  // namespace

TEST(TimeControlC2, ParsesTheCompactForms) {
    TimeControl a = tc("5+3");
    ASSERT_EQ(a.periods.size(), 1u);
    EXPECT_EQ(a.periods[0].time, 5 * M);
    EXPECT_EQ(a.periods[0].increment, 3 * S);
    EXPECT_EQ(a.periods[0].delay_mode, DelayMode::NONE);

    TimeControl d = tc("3+2d");
    EXPECT_EQ(d.periods[0].delay_mode, DelayMode::SIMPLE);
    EXPECT_EQ(d.periods[0].delay, 2 * S);
    EXPECT_EQ(tc("3+2b").periods[0].delay_mode, DelayMode::BRONSTEIN);
    EXPECT_EQ(tc("0.5+0").periods[0].time, 30 * S);
    EXPECT_EQ(tc("90").periods[0].time, 90 * M);

    TimeControl p = tc("40/5400+30:1800+30");
    ASSERT_EQ(p.periods.size(), 2u);
    EXPECT_EQ(p.periods[0].moves, 40);
    EXPECT_EQ(p.periods[0].time, 90 * M);
    EXPECT_EQ(p.periods[0].increment, 30 * S);
    EXPECT_EQ(p.periods[1].moves, 0);
    EXPECT_EQ(p.periods[1].time, 30 * M);

    TimeControl c = tc("3d");
    EXPECT_TRUE(c.correspondence());
    EXPECT_EQ(c.days_per_move, 3);
    EXPECT_EQ(c.max_days, 3);
    EXPECT_EQ(tc("3d/14d").max_days, 14);
    EXPECT_TRUE(tc("-").unlimited());
}

TEST(TimeControlC2, RoundTripsAndPgnTag) {
    for (const char* text : {"5+3", "3+2d", "3+2b", "90", "40/5400+30:1800+30", "3d", "3d/14d", "-", "0.5+0.5"})
        EXPECT_EQ(tc(text).to_string(), text == std::string("0.5+0.5") ? "0.5+0.5" : text) << text;
    EXPECT_EQ(tc("5+3").to_pgn(), "300+3");
    EXPECT_EQ(tc("40/5400+30:1800+30").to_pgn(), "40/5400+30:1800+30");
    EXPECT_EQ(tc("-").to_pgn(), "-");
    // An amount the parser takes prints to a text it takes back, the same to the
    // millisecond (the fuzzer found "111111.55007" printed as "111111.550067", refused).
    for (const char* text : {"111111.55007", "1.000001+0.001", "3.14159+2.5b", "0.00001+1d"}) {
        auto first = parse_time_control(text);
        ASSERT_TRUE(first.ok()) << text;
        auto again = parse_time_control(first.value().to_string());
        ASSERT_TRUE(again.ok()) << text << " -> " << first.value().to_string();
        EXPECT_TRUE(again.value() == first.value()) << text << " -> " << first.value().to_string();
    }
}

TEST(TimeControlC2, ParseErrorsSayWhatIsWrong) {
    for (const char* bad : {"", "abc", "5+", "+3", "5+3x", "0+0", "40/:1800", "0/60", "1800:40/5400", "0d", "3d/2d", "5+-1", "1e400",
                            "55+35E33", "5e3", "999999999999d", "99999999999"}) {
        auto r = parse_time_control(bad);
        EXPECT_FALSE(r.ok()) << bad;
        if (!r.ok()) {
            EXPECT_NE(r.error().message.find("time control"), std::string::npos) << r.error().message;
        }
    }
    auto r = parse_time_control("1800:40/5400");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("only the last period"), std::string::npos);
}

// Found by AddressSanitizer: a correspondence control with nothing before its slash
// read the byte before the text. The text sits alone in a heap block of its own size,
// so that the sanitizer build sees any read outside it.
TEST(TimeControlC3, SlashFirstReadsNothingOutsideTheText) {
    for (std::string_view bad : {"/1d", "/d", "/14d", "d/1d", "3d/", "/", "d"}) {
        auto buffer = std::make_unique<char[]>(bad.size());
        std::copy(bad.begin(), bad.end(), buffer.get());
        auto r = parse_time_control(std::string_view(buffer.get(), bad.size()));
        EXPECT_FALSE(r.ok()) << bad;
        if (!r.ok()) {
            EXPECT_NE(r.error().message.find("time control"), std::string::npos) << r.error().message;
        }
    }
}

TEST(TimeControlC4, Classification) {
    EXPECT_EQ(tc("1+0").classify(), TimeClass::BULLET);
    EXPECT_EQ(tc("2+1").classify(), TimeClass::BLITZ);   // 2 + 1 = 3 minutes
    EXPECT_EQ(tc("3+2").classify(), TimeClass::BLITZ);
    EXPECT_EQ(tc("10+5").classify(), TimeClass::RAPID);  // 10 + 5 = 15
    EXPECT_EQ(tc("14+0").classify(), TimeClass::BLITZ);
    EXPECT_EQ(tc("45+15").classify(), TimeClass::STANDARD);
    EXPECT_EQ(tc("30+20").classify(), TimeClass::RAPID);     // 30 + 20 = 50
    EXPECT_EQ(tc("30+30").classify(), TimeClass::STANDARD);  // 30 + 30 = 60
    EXPECT_EQ(tc("25+10").classify(), TimeClass::RAPID);
    EXPECT_EQ(tc("40/5400+30:1800+30").classify(), TimeClass::STANDARD);
    EXPECT_EQ(tc("3d").classify(), TimeClass::CORRESPONDENCE);
    EXPECT_EQ(tc("-").classify(), TimeClass::UNLIMITED);
    EXPECT_EQ(time_class_name(TimeClass::RAPID), "rapid");
}

TEST(ClockC1, OnlyOneClockRuns) {
    FakeTime t;
    Clock c(tc("5+0"), t.source());
    c.start(WHITE);
    t.t += 10 * S;
    EXPECT_EQ(c.remaining(WHITE), 5 * M - 10 * S);
    EXPECT_EQ(c.remaining(BLACK), 5 * M);
    ASSERT_TRUE(c.press(WHITE));
    t.t += 7 * S;
    EXPECT_EQ(c.remaining(WHITE), 5 * M - 10 * S);
    EXPECT_EQ(c.remaining(BLACK), 5 * M - 7 * S);
    EXPECT_EQ(c.running_side(), BLACK);
}

TEST(ClockC2, SuddenDeathFlagFalls) {
    FakeTime t;
    Clock c(tc("1+0"), t.source());
    c.start(WHITE);
    t.t += 60 * S - 1;
    EXPECT_FALSE(c.flag_fallen(WHITE));
    t.t += 1;
    EXPECT_TRUE(c.flag_fallen(WHITE));
    EXPECT_EQ(c.flag_time(WHITE), 1'000'000 + 60 * S);
    t.t += 5 * S;
    EXPECT_FALSE(c.press(WHITE));  // too late
    EXPECT_TRUE(c.flag_fallen(WHITE));
    EXPECT_EQ(c.flag_time(WHITE), 1'000'000 + 60 * S);
}

TEST(ClockC2, FischerIncrementFromMoveOne) {
    FakeTime t;
    Clock c(tc("3+2"), t.source());
    c.start(WHITE);
    t.t += 5 * S;
    ASSERT_TRUE(c.press(WHITE));
    EXPECT_EQ(c.remaining(WHITE), 3 * M - 5 * S + 2 * S);
}

TEST(ClockC2, SimpleDelayDoesNotTouchMainTimeWithinTheDelay) {
    FakeTime t;
    Clock c(tc("3+5d"), t.source());
    c.start(WHITE);
    t.t += 4 * S;
    EXPECT_EQ(c.remaining(WHITE), 3 * M);
    EXPECT_EQ(c.delay_left(WHITE), 1 * S);
    ASSERT_TRUE(c.press(WHITE));
    EXPECT_EQ(c.remaining(WHITE), 3 * M);
    t.t += 8 * S;
    ASSERT_TRUE(c.press(BLACK));
    EXPECT_EQ(c.remaining(BLACK), 3 * M - 3 * S);
}

TEST(ClockC2, BronsteinGivesBackUpToTheDelay) {
    FakeTime t;
    Clock c(tc("3+5b"), t.source());
    c.start(WHITE);
    t.t += 4 * S;
    EXPECT_EQ(c.remaining(WHITE), 3 * M - 4 * S);  // the main time runs at once
    ASSERT_TRUE(c.press(WHITE));
    EXPECT_EQ(c.remaining(WHITE), 3 * M);
    t.t += 8 * S;
    ASSERT_TRUE(c.press(BLACK));
    EXPECT_EQ(c.remaining(BLACK), 3 * M - 3 * S);
}

TEST(ClockC2, PeriodsCarrySavedTimeOver) {
    // 2 moves in 60 s, then 30 s for the rest, +1 s from move 1.
    FakeTime t;
    Clock c(tc("2/60+1:30+1"), t.source());
    c.start(WHITE);
    t.t += 10 * S;
    ASSERT_TRUE(c.press(WHITE));  // move 1: 60 - 10 + 1 = 51
    EXPECT_EQ(c.remaining(WHITE), 51 * S);
    t.t += 1 * S;
    ASSERT_TRUE(c.press(BLACK));
    t.t += 20 * S;
    ASSERT_TRUE(c.press(WHITE));  // move 2: 51 - 20 + 1 = 32, then + 30 for period 2
    EXPECT_EQ(c.remaining(WHITE), 62 * S);
    EXPECT_EQ(c.period_index(WHITE), 1);
    EXPECT_TRUE(c.in_last_period(WHITE));
    EXPECT_FALSE(c.in_last_period(BLACK));
}

TEST(ClockC2, ALastPeriodWithAMoveCountRepeats) {
    FakeTime t;
    Clock c(tc("1/10"), t.source());
    c.start(WHITE);
    for (int i = 0; i < 3; ++i) {
        t.t += 4 * S;
        ASSERT_TRUE(c.press(WHITE));
        ASSERT_TRUE(c.press(BLACK));
    }
    EXPECT_EQ(c.remaining(WHITE), 10 * S + 3 * 6 * S);
    EXPECT_FALSE(c.in_last_period(WHITE));
}

TEST(ClockC3, CorrespondenceBankIsCapped) {
    constexpr Millis Day = 24 * 60 * M;
    FakeTime t;
    Clock reset(tc("3d"), t.source());
    reset.start(WHITE);
    t.t += 1 * Day;
    ASSERT_TRUE(reset.press(WHITE));
    EXPECT_EQ(reset.remaining(WHITE), 3 * Day);  // back to three days

    Clock bank(tc("3d/7d"), t.source());
    bank.start(WHITE);
    for (int i = 0; i < 3; ++i) {
        t.t += Day / 2;
        ASSERT_TRUE(bank.press(WHITE));
        ASSERT_TRUE(bank.press(BLACK));
    }
    EXPECT_EQ(bank.remaining(WHITE), 7 * Day);
    t.t += 7 * Day;
    EXPECT_TRUE(bank.flag_fallen(WHITE));
}

TEST(ClockC5, LagCompensationCreditsTransitTime) {
    FakeTime t;
    Clock c(tc("1+0"), t.source());
    c.start(WHITE);
    t.t += 3 * S;
    ASSERT_TRUE(c.press(WHITE, 200));
    EXPECT_EQ(c.remaining(WHITE), 60 * S - 3 * S + 200);
}

TEST(ClockP9, GiveTimeAndStop) {
    FakeTime t;
    Clock c(tc("1+0"), t.source());
    c.start(WHITE);
    c.add_time(BLACK, 15 * S);
    EXPECT_EQ(c.remaining(BLACK), 75 * S);
    t.t += 10 * S;
    c.stop();
    t.t += 100 * S;
    EXPECT_EQ(c.remaining(WHITE), 50 * S);
    EXPECT_FALSE(c.running());
}

TEST(ClockC1, UnlimitedNeverFalls) {
    FakeTime t;
    Clock c(tc("-"), t.source());
    c.start(WHITE);
    t.t += 1'000'000'000;
    EXPECT_FALSE(c.flag_fallen(WHITE));
    EXPECT_TRUE(c.press(WHITE));
}

TEST(ClockC5, RestoreAfterRestartKeepsPeriodsAndElapsedTime) {
    FakeTime t;
    Clock c(tc("2/60+1:30+1"), t.source());
    c.restore(WHITE, 40 * S, 2);
    c.restore(BLACK, 50 * S, 1);
    EXPECT_EQ(c.period_index(WHITE), 1);
    EXPECT_EQ(c.period_index(BLACK), 0);
    c.start(BLACK, 5 * S);  // the turn had already run 5 s before the restart
    EXPECT_EQ(c.remaining(BLACK), 45 * S);
    ASSERT_TRUE(c.press(BLACK));
    EXPECT_EQ(c.remaining(BLACK), 45 * S + 1 * S + 30 * S);
}

// C5 lag quota: a client that claims 300 ms of lag on every move (what a client could
// do before: play with its clock standing still) gets the bank's 300 ms once, then
// PerMove (100 ms) a move; a real 80 ms lag is always credited in full.
TEST(ClockC5, LagCreditIsBoundedByAQuota) {
    FakeTime t;
    Clock c(tc("3+0"), t.source());
    c.start(WHITE);
    Millis credited = 0;
    for (int move = 0; move < 20; ++move) {
        t.t += 1000;
        ASSERT_TRUE(c.press(WHITE, 300));
        credited += c.last_lag_credit(WHITE);
        t.t += 1000;
        ASSERT_TRUE(c.press(BLACK, 80));
        EXPECT_EQ(c.last_lag_credit(BLACK), 80);
    }
    EXPECT_EQ(credited, LagQuota::Initial + 19 * LagQuota::PerMove);
    EXPECT_EQ(c.remaining(WHITE), 3 * M - 20 * S + credited);
    EXPECT_EQ(c.remaining(BLACK), 3 * M - 20 * (S - 80));
    EXPECT_LE(c.lag_bank(BLACK), LagQuota::Max);
}

TEST(ClockC5, LagQuotaBankRefillsUpToItsMaximumAndNeverCreditsMoreThanTheTurnTook) {
    LagQuota q;
    EXPECT_EQ(q.take(50, 10), 10);  // a 10 ms turn is credited 10 ms at most
    for (int i = 0; i < 20; ++i) q.take(0, 1000);
    EXPECT_EQ(q.bank, LagQuota::Max);
    EXPECT_EQ(q.take(-5, 1000), 0);
    EXPECT_EQ(q.take(10'000, 10'000), LagQuota::Max);
}
