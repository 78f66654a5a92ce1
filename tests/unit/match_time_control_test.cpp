// Outpost — engine time controls: parsing, PGN form and the clock.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include "match/time_control.h"

using namespace outpost::match;

TEST(MatchTimeControl, Parses) {
    auto tc = parse_tc("10+0.1");
    ASSERT_TRUE(tc) << tc.error().message;
    EXPECT_EQ(tc->moves, 0);
    EXPECT_EQ(tc->base, 10000);
    EXPECT_EQ(tc->increment, 100);
    EXPECT_EQ(tc->to_pgn(), "10+0.1");

    tc = parse_tc("40/60+0.6");
    ASSERT_TRUE(tc);
    EXPECT_EQ(tc->moves, 40);
    EXPECT_EQ(tc->base, 60000);
    EXPECT_EQ(tc->increment, 600);
    EXPECT_EQ(tc->to_pgn(), "40/60+0.6");

    tc = parse_tc("1:30+1");
    ASSERT_TRUE(tc);
    EXPECT_EQ(tc->base, 90000);
    EXPECT_EQ(tc->increment, 1000);

    tc = parse_tc("60");
    ASSERT_TRUE(tc);
    EXPECT_EQ(tc->base, 60000);
    EXPECT_EQ(tc->to_pgn(), "60");

    tc = parse_tc("inf");
    ASSERT_TRUE(tc);
    EXPECT_TRUE(tc->infinite);
    EXPECT_EQ(tc->to_pgn(), "-");

    EngineTimeControl st;
    st.per_move = 50;
    EXPECT_EQ(st.to_pgn(), "1/0.05");
}

TEST(MatchTimeControl, RejectsWithReasons) {
    for (const char* bad : {"", "10+", "abc", "10+x", "0/10", "-5", "0", "40/", "1:x"}) {
        auto tc = parse_tc(bad);
        ASSERT_FALSE(tc) << bad;
        EXPECT_NE(tc.error().message.find("bad time control"), std::string::npos) << tc.error().message;
    }
}

TEST(MatchTimeControl, ClockWithIncrementAndPeriods) {
    auto tc = parse_tc("2/1+0.5");
    ASSERT_TRUE(tc);
    EngineClock clock(*tc);
    EXPECT_EQ(clock.remaining(), 1000);
    EXPECT_EQ(clock.moves_to_go(), 2);
    EXPECT_EQ(clock.deadline(), 1000);
    ASSERT_TRUE(clock.spend(300));
    EXPECT_EQ(clock.remaining(), 1200);  // 1000 - 300 + 500
    EXPECT_EQ(clock.moves_to_go(), 1);
    ASSERT_TRUE(clock.spend(200));
    EXPECT_EQ(clock.remaining(), 2500);  // 1200 - 200 + 500, then the next period's 1000
    EXPECT_EQ(clock.moves_to_go(), 2);
    EXPECT_FALSE(clock.spend(2501));  // flag
}

TEST(MatchTimeControl, MarginForgivesSmallOverruns) {
    auto tc = parse_tc("1");
    ASSERT_TRUE(tc);
    tc->margin = 50;
    EngineClock clock(*tc);
    EXPECT_EQ(clock.deadline(), 1050);
    EXPECT_TRUE(clock.spend(1040));
    EXPECT_EQ(clock.remaining(), 0);
    EXPECT_FALSE(clock.spend(60));

    EngineTimeControl st;
    st.per_move = 100;
    st.margin = 10;
    EngineClock per_move(st);
    EXPECT_EQ(per_move.deadline(), 110);
    EXPECT_TRUE(per_move.spend(110));
    EXPECT_FALSE(per_move.spend(111));
    EXPECT_TRUE(per_move.spend(90));  // each move is on its own
}
