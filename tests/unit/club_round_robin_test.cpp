// Outpost — round-robin schedules (SPEC P20) against the Berger tables of FIDE
// Handbook C.05, Annex 1, pairing by pairing and colour by colour.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "club/round_robin.h"

using namespace outpost::club;

namespace {

// The published tables, one round a line, "white-black" pairs in board order.
const char* const Berger4 = R"(1-4 2-3
4-3 1-2
2-4 3-1)";

const char* const Berger6 = R"(1-6 2-5 3-4
6-4 5-3 1-2
2-6 3-1 4-5
6-5 1-4 2-3
3-6 4-2 5-1)";

const char* const Berger8 = R"(1-8 2-7 3-6 4-5
8-5 6-4 7-3 1-2
2-8 3-1 4-7 5-6
8-6 7-5 1-4 2-3
3-8 4-2 5-1 6-7
8-7 1-6 2-5 3-4
4-8 5-3 6-2 7-1)";

const char* const Berger10 = R"(1-10 2-9 3-8 4-7 5-6
10-6 7-5 8-4 9-3 1-2
2-10 3-1 4-9 5-8 6-7
10-7 8-6 9-5 1-4 2-3
3-10 4-2 5-1 6-9 7-8
10-8 9-7 1-6 2-5 3-4
4-10 5-3 6-2 7-1 8-9
10-9 1-8 2-7 3-6 4-5
5-10 6-4 7-3 8-2 9-1)";

const char* const Berger12 = R"(1-12 2-11 3-10 4-9 5-8 6-7
12-7 8-6 9-5 10-4 11-3 1-2
2-12 3-1 4-11 5-10 6-9 7-8
12-8 9-7 10-6 11-5 1-4 2-3
3-12 4-2 5-1 6-11 7-10 8-9
12-9 10-8 11-7 1-6 2-5 3-4
4-12 5-3 6-2 7-1 8-11 9-10
12-10 11-9 1-8 2-7 3-6 4-5
5-12 6-4 7-3 8-2 9-1 10-11
12-11 1-10 2-9 3-8 4-7 5-6
6-12 7-5 8-4 9-3 10-2 11-1)";

// The first rounds of the 14-player table.
const char* const Berger14Start = R"(1-14 2-13 3-12 4-11 5-10 6-9 7-8
14-8 9-7 10-6 11-5 12-4 13-3 1-2
2-14 3-1 4-13 5-12 6-11 7-10 8-9
14-9 10-8 11-7 12-6 13-5 1-4 2-3
3-14 4-2 5-1 6-13 7-12 8-11 9-10
14-10 11-9 12-8 13-7 1-6 2-5 3-4)";

std::vector<Round> parse_table(const std::string& text) {
    std::vector<Round> rounds;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        Round round;
        std::istringstream pairs(line);
        std::string pair;
        while (pairs >> pair) {
            auto dash = pair.find('-');
            round.push_back({std::stoi(pair.substr(0, dash)), std::stoi(pair.substr(dash + 1))});
        }
        rounds.push_back(round);
    }
    return rounds;
}

void expect_table(int players, const char* table) {
    auto schedule = berger_schedule(players);
    ASSERT_TRUE(schedule.ok()) << schedule.error().message;
    std::vector<Round> expected = parse_table(table);
    ASSERT_GE(schedule->size(), expected.size());
    for (std::size_t r = 0; r < expected.size(); ++r) {
        ASSERT_EQ((*schedule)[r].size(), expected[r].size()) << "round " << r + 1;
        for (std::size_t b = 0; b < expected[r].size(); ++b) {
            EXPECT_EQ((*schedule)[r][b], expected[r][b])
                << players << " players, round " << r + 1 << ", board " << b + 1 << ": got "
                << (*schedule)[r][b].white << "-" << (*schedule)[r][b].black << ", the table says "
                << expected[r][b].white << "-" << expected[r][b].black;
        }
    }
}

}  // namespace

TEST(RoundRobinP20, BergerTablesC05Annex1_4Players) { expect_table(4, Berger4); }
TEST(RoundRobinP20, BergerTablesC05Annex1_6Players) { expect_table(6, Berger6); }
TEST(RoundRobinP20, BergerTablesC05Annex1_8Players) { expect_table(8, Berger8); }
TEST(RoundRobinP20, BergerTablesC05Annex1_10Players) { expect_table(10, Berger10); }
TEST(RoundRobinP20, BergerTablesC05Annex1_12Players) { expect_table(12, Berger12); }
TEST(RoundRobinP20, BergerTablesC05Annex1_14PlayersFirstRounds) { expect_table(14, Berger14Start); }

TEST(RoundRobinP20, OddCountUsesTheNextTableWithTheHighestNumberAsBye) {
    // 5 players: the 6-player table, with player 6's opponent sitting out.
    auto schedule = berger_schedule(5);
    ASSERT_TRUE(schedule.ok());
    std::vector<Round> six = parse_table(Berger6);
    ASSERT_EQ(schedule->size(), 5u);
    for (std::size_t r = 0; r < six.size(); ++r) {
        Round expected;
        Pairing bye{};
        for (const Pairing& p : six[r]) {
            if (p.white == 6) bye = {p.black, 0};
            else if (p.black == 6) bye = {p.white, 0};
            else expected.push_back(p);
        }
        expected.push_back(bye);
        EXPECT_EQ((*schedule)[r], expected) << "round " << r + 1;
        EXPECT_TRUE((*schedule)[r].back().is_bye());
    }
    // Round 1: 2-5, 3-4, and 1 has the bye.
    EXPECT_EQ((*schedule)[0], (Round{{2, 5}, {3, 4}, {1, 0}}));
}

TEST(RoundRobinP20, EveryPairMeetsOnceForEverySizeFrom3To20) {
    for (int n = 3; n <= 20; ++n) {
        auto schedule = berger_schedule(n);
        ASSERT_TRUE(schedule.ok()) << n;
        int even = n % 2 ? n + 1 : n;
        EXPECT_EQ(schedule->size(), static_cast<std::size_t>(even - 1)) << n;
        std::set<std::pair<int, int>> met;
        for (const Round& round : *schedule) {
            std::set<int> seen;
            for (const Pairing& p : round) {
                EXPECT_TRUE(seen.insert(p.white).second) << n;
                if (!p.is_bye()) {
                    EXPECT_TRUE(seen.insert(p.black).second) << n;
                    EXPECT_TRUE(met.insert({std::min(p.white, p.black), std::max(p.white, p.black)}).second) << n;
                }
            }
            EXPECT_EQ(seen.size(), static_cast<std::size_t>(n)) << n;
        }
        EXPECT_EQ(met.size(), static_cast<std::size_t>(n * (n - 1) / 2)) << n;
    }
}

TEST(RoundRobinP20, DoubleRoundRobinReversesColoursAndSwapsTheLastTwoRoundsOfTheFirstCycle) {
    RoundRobinOptions options;
    options.double_round = true;
    auto schedule = berger_schedule(6, options);
    ASSERT_TRUE(schedule.ok());
    ASSERT_EQ(schedule->size(), 10u);
    std::vector<Round> six = parse_table(Berger6);
    EXPECT_EQ((*schedule)[0], six[0]);
    EXPECT_EQ((*schedule)[2], six[2]);
    EXPECT_EQ((*schedule)[3], six[4]);  // swapped
    EXPECT_EQ((*schedule)[4], six[3]);
    for (std::size_t r = 0; r < 5; ++r)
        for (std::size_t b = 0; b < 3; ++b)
            EXPECT_EQ((*schedule)[5 + r][b], (Pairing{six[r][b].black, six[r][b].white}));
    options.swap_last_two_rounds_of_first_cycle = false;
    auto plain = berger_schedule(6, options);
    ASSERT_TRUE(plain.ok());
    EXPECT_EQ((*plain)[3], six[3]);
}

TEST(RoundRobinP20, RejectsSizesOutside3To20) {
    EXPECT_FALSE(berger_schedule(2).ok());
    EXPECT_FALSE(berger_schedule(21).ok());
    EXPECT_FALSE(berger_schedule(-1).ok());
    EXPECT_NE(berger_schedule(2).error().message.find("3 to 20"), std::string::npos);
}
