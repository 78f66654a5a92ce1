// Outpost — groundwork of the FIDE Dutch system (SPEC P20; Handbook C.04.1,
// C.04.3): colour preferences (A.6), colour allocation (E.1-E.5), the first
// round, the absolute criteria, and the pairing output format.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "club/dutch.h"
#include "club/trf.h"

using namespace outpost::club;

namespace {

constexpr Colour W = Colour::WHITE;
constexpr Colour B = Colour::BLACK;
constexpr Colour N = Colour::NONE;

PairingPlayer with_history(int id, std::vector<Colour> colours) {
    PairingPlayer p;
    p.id = id;
    p.colour_by_round = std::move(colours);
    set_colour_preference(p);
    return p;
}

std::string player_line(int rank, const std::string& rounds) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "001 %4d m    %-33s %4d FIN    12345678 1990/01/01  0.0 %4d", rank,
                  ("Player " + std::to_string(rank)).c_str(), 2400 - 10 * rank, rank);
    return std::string(buf) + rounds + "\n";
}

Tournament players(int n, const std::string& extra = "XXR 5\n") {
    std::string text;
    for (int i = 1; i <= n; ++i) text += player_line(i, "");
    auto t = read_trf(text + extra);
    EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message);
    return t.ok() ? *t : Tournament{};
}

}  // namespace

TEST(DutchC04_3, ColourPreferencesA6) {
    EXPECT_EQ(with_history(1, {}).strength, PreferenceStrength::NONE);
    auto mild = with_history(1, {W, B});
    EXPECT_EQ(mild.strength, PreferenceStrength::MILD);
    EXPECT_EQ(mild.preference, W);
    auto strong = with_history(1, {W, B, W});
    EXPECT_EQ(strong.strength, PreferenceStrength::STRONG);
    EXPECT_EQ(strong.preference, B);
    auto twice = with_history(1, {B, W, W});
    EXPECT_EQ(twice.strength, PreferenceStrength::ABSOLUTE);  // the same colour twice running
    EXPECT_EQ(twice.preference, B);
    auto diff = with_history(1, {B, W, B, N, B});
    EXPECT_EQ(diff.colour_difference, -2);
    EXPECT_EQ(diff.strength, PreferenceStrength::ABSOLUTE);
    EXPECT_EQ(diff.preference, W);
    // An unplayed round between does not break "twice running": only games count.
    auto gap = with_history(1, {W, N, W});
    EXPECT_EQ(gap.strength, PreferenceStrength::ABSOLUTE);
    EXPECT_EQ(gap.preference, B);
}

TEST(DutchC04_3, ColourAllocationE1ToE5) {
    // E.1: both preferences granted.
    EXPECT_EQ(allocate_colours(with_history(1, {B}), with_history(2, {W}), true, W), W);
    // E.2: the stronger preference.
    EXPECT_EQ(allocate_colours(with_history(1, {W, B}), with_history(2, {B, B}), true, W), B);
    EXPECT_EQ(allocate_colours(with_history(1, {B, W, B}), with_history(2, {W, B}), false, W), W);
    // E.2: two absolute preferences: the wider colour difference.
    EXPECT_EQ(allocate_colours(with_history(1, {B, W, B, B}), with_history(2, {B, B, N, W, B, B}), true, W), B);
    // E.3: alternate from the last round where they had different colours.
    EXPECT_EQ(allocate_colours(with_history(1, {W, B, W, B}), with_history(2, {B, W, B, W}), true, W), W);
    EXPECT_EQ(allocate_colours(with_history(1, {B, W, B, W}), with_history(2, {W, B, W, B}), true, W), B);
    // E.4: same mild preference, same histories: the higher ranked player's.
    EXPECT_EQ(allocate_colours(with_history(3, {W, B}), with_history(4, {W, B}), true, W), W);
    EXPECT_EQ(allocate_colours(with_history(3, {W, B}), with_history(4, {W, B}), false, W), B);
    // E.5: no preferences: odd pairing number of the higher ranked gets the initial colour.
    EXPECT_EQ(allocate_colours(with_history(1, {}), with_history(5, {}), true, W), W);
    EXPECT_EQ(allocate_colours(with_history(2, {}), with_history(5, {}), true, W), B);
    EXPECT_EQ(allocate_colours(with_history(1, {}), with_history(5, {}), true, B), B);
    EXPECT_EQ(allocate_colours(with_history(5, {}), with_history(2, {}), false, W), W);
}

// E.3 with C.04.2 D.5: only played games count, a round without a game is taken
// out of the history (W B - - reads as - - W B). Player 1 has W B and two rounds
// without a game, player 2 B W W B: both have a mild preference for White, and
// from their latest games back (B/B, W/W) they never had different colours, so
// E.4 gives the higher ranked his preference. Compared round by round instead,
// round 2 (B against W) would wrongly decide by E.3.
TEST(DutchC04_3, E3ComparesPlayedGamesOnlyFromTheLatest_C04_2_D5) {
    PairingPlayer one = with_history(1, {W, B, N, N});
    PairingPlayer two = with_history(2, {B, W, W, B});
    ASSERT_EQ(one.preference, W);
    ASSERT_EQ(one.strength, PreferenceStrength::MILD);
    ASSERT_EQ(two.preference, W);
    ASSERT_EQ(two.strength, PreferenceStrength::MILD);
    EXPECT_EQ(allocate_colours(two, one, true, W), W);   // 2 ranks higher: White to 2
    EXPECT_EQ(allocate_colours(one, two, false, W), B);  // the same pair seen from 1
    EXPECT_EQ(allocate_colours(one, two, true, W), W);   // 1 ranks higher: White to 1
    // Where the played games do differ, the latest difference decides: 11 has
    // B W W - B (reads - B W W B), 12 has W B W B -; both mild for White; from
    // the latest back B/B, W/W, then W against B: 11 had White there, so Black now.
    PairingPlayer eleven = with_history(11, {B, W, W, N, B});
    PairingPlayer twelve = with_history(12, {W, B, W, B, N});
    ASSERT_EQ(eleven.preference, W);
    ASSERT_EQ(twelve.preference, W);
    EXPECT_EQ(allocate_colours(eleven, twelve, true, W), B);
}

TEST(DutchC04_3, FirstRoundUpperHalfAgainstLowerHalfWithAlternatingColours) {
    auto round = pair_dutch(players(8, "XXR 5\nXXC white1\n"));
    ASSERT_TRUE(round.ok()) << round.error().message;
    EXPECT_EQ(write_pairing(*round), "4\n1 5\n6 2\n3 7\n8 4\n");
    auto black = pair_dutch(players(8, "XXR 5\nXXC black1\n"));
    ASSERT_TRUE(black.ok());
    EXPECT_EQ(write_pairing(*black), "4\n5 1\n2 6\n7 3\n4 8\n");
}

TEST(DutchC04_3, FirstRoundOddCountGivesTheLastPlayerTheBye) {
    auto round = pair_dutch(players(7));
    ASSERT_TRUE(round.ok()) << round.error().message;
    EXPECT_EQ(write_pairing(*round), "4\n1 4\n5 2\n3 6\n7 0\n");
}

TEST(DutchC04_3, FirstRoundWithoutTheAbsentAndWithColoursByPairingNumber_E5) {
    // Player 2 announced absence for round 1 (entry written in before pairing);
    // 7 remain: 8 gets the bye. E.5's pairing numbers count the players in the
    // pairing: 3 is number 2 and gets Black, 4 is number 3 and gets White (as
    // bbpPairings, FIDE-endorsed, pairs this file).
    std::string text;
    for (int i = 1; i <= 8; ++i) text += player_line(i, i == 2 ? "  0000 - Z" : "");
    auto t = read_trf(text + "XXR 5\n");
    ASSERT_TRUE(t.ok()) << t.error().message;
    auto round = pair_dutch(*t);
    ASSERT_TRUE(round.ok()) << round.error().message;
    EXPECT_EQ(write_pairing(*round), "4\n1 5\n6 3\n4 7\n8 0\n");
    auto ps = pairing_players(*t, 1);
    EXPECT_EQ(check_absolute_criteria(ps, *round), "");
}

TEST(DutchC04_3, PairingNumbersCountOnlyPlayersEverInThePairing_E5) {
    // Round 3: 2 was absent in rounds 1 and 2 and is absent again (no number);
    // 5 was absent in round 1 only and keeps its number; 7 is a late entry.
    std::string text = player_line(1, "     3 w 1     4 b =") + player_line(2, "  0000 - Z  0000 - Z  0000 - Z") +
                       player_line(3, "     1 b 0     6 w 1") + player_line(4, "     6 b =     1 w =") +
                       player_line(5, "  0000 - H  0000 - U") + player_line(6, "     4 w =     3 b 0") +
                       player_line(7, "");
    auto t = read_trf(text + "XXR 5\nXXC white1\n");
    ASSERT_TRUE(t.ok()) << t.error().message;
    std::map<int, int> number;
    for (const PairingPlayer& p : pairing_players(*t, 3)) number[p.id] = p.pairing_number;
    EXPECT_EQ(number, (std::map<int, int>{{1, 1}, {3, 2}, {4, 3}, {5, 4}, {6, 5}, {7, 6}}));
}

TEST(DutchC04_3, InitialColourReadOffTheFirstRoundWhenTheFileDoesNotGiveIt_E5) {
    // 1 and 2 were absent in round 1; 3 (pairing number 1) had Black: the initial
    // colour was Black. In round 2 the two absent players meet, with no colour
    // history: E.5 gives 1 (number 1) the initial colour, as with XXC black1.
    const std::string text = player_line(1, "  0000 - Z") + player_line(2, "  0000 - Z") +
                             player_line(3, "     5 b =") + player_line(4, "     6 w =") +
                             player_line(5, "     3 w =") + player_line(6, "     4 b =");
    auto t = read_trf(text + "XXR 3\n");
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(infer_initial_colour(*t), B);
    auto round = pair_dutch(*t);
    ASSERT_TRUE(round.ok()) << round.error().message;
    EXPECT_EQ(write_pairing(*round), "3\n3 4\n6 5\n2 1\n");
    auto stated = read_trf(text + "XXR 3\nXXC black1\n");
    ASSERT_TRUE(stated.ok());
    auto same = pair_dutch(*stated);
    ASSERT_TRUE(same.ok());
    EXPECT_EQ(write_pairing(*same), write_pairing(*round));
    EXPECT_EQ(infer_initial_colour(players(4)), N);
}

TEST(DutchC04_3, AllRoundsPairedIsAnError) {
    std::string text = player_line(1, "     2 w 1") + player_line(2, "     1 b 0");
    auto done = read_trf(text + "XXR 1\n");
    ASSERT_TRUE(done.ok());
    EXPECT_EQ(pair_dutch(*done).error().message, "all 1 rounds are paired");
}

TEST(DutchC04_1, AbsoluteCriteria) {
    // R1: 1-2 1-0, 4-5 1-0, 3 pairing-allocated bye, 6 full-point bye;
    // R2: 3-1 1-0, 4-6 1-0, 2 pairing-allocated bye, 5 absent.
    std::string text = player_line(1, "     2 w 1     3 b 0") + player_line(2, "     1 b 0  0000 - U") +
                       player_line(3, "  0000 - U     1 w 1") + player_line(4, "     5 w 1     6 w 1") +
                       player_line(5, "     4 b 0  0000 - Z") + player_line(6, "  0000 - F     4 b 0");
    auto t = read_trf(text + "XXR 5\n");
    ASSERT_TRUE(t.ok()) << t.error().message;
    auto ps = pairing_players(*t, 3);
    ASSERT_EQ(ps.size(), 6u);
    EXPECT_EQ(check_absolute_criteria(ps, {{1, 2}, {3, 4}, {5, 6}}), "players 1 and 2 have met before (C.04.1)");
    EXPECT_EQ(check_absolute_criteria(ps, {{1, 4}, {2, 5}, {6, 3}}), "");
    EXPECT_EQ(check_absolute_criteria(ps, {{1, 4}, {5, 3}, {2, 0}}),
              "player 2 may not receive the pairing-allocated bye (C.04.1)");
    EXPECT_EQ(check_absolute_criteria(ps, {{1, 4}, {2, 5}, {6, 0}}),
              "player 6 may not receive the pairing-allocated bye (C.04.1)");  // full-point bye before
    EXPECT_EQ(check_absolute_criteria(ps, {{1, 4}, {2, 5}}), "player 3 is not paired");
    EXPECT_EQ(check_absolute_criteria(ps, {{1, 4}, {2, 5}, {1, 3}}), "player 1 is paired twice");
    // 4 had White twice: absolute Black; 1 had W then B: mild.
    auto p4 = std::find_if(ps.begin(), ps.end(), [](const PairingPlayer& p) { return p.id == 4; });
    EXPECT_EQ(p4->strength, PreferenceStrength::ABSOLUTE);
    EXPECT_EQ(p4->preference, B);
}

TEST(DutchC04_1, AbsoluteColourClash) {
    std::vector<PairingPlayer> ps = {with_history(1, {W, W}), with_history(2, {W, W})};
    EXPECT_EQ(check_absolute_criteria(ps, {{1, 2}}),
              "players 1 and 2 both have an absolute preference for Black (C.04.3 C.3)");
}

TEST(DutchC04_3, ScoreBracketsA3AndFloatsA4) {
    // R1: 1-2 1-0, 3-4 ½-½, 5 pairing-allocated bye;
    // R2: 3-1 (½ against 1: 3 floats up, 1 down) 0-1, 5-2 (1 against 0) 1-0, 4 absent.
    std::string text = player_line(1, "     2 w 1     3 b 1") + player_line(2, "     1 b 0     5 b 0") +
                       player_line(3, "     4 w =     1 w 0") + player_line(4, "     3 b =  0000 - Z") +
                       player_line(5, "  0000 - U     2 w 1");
    auto t = read_trf(text + "XXR 5\n");
    ASSERT_TRUE(t.ok()) << t.error().message;
    auto ps = pairing_players(*t, 3);
    // Scores: 1: 2, 5: 2, 3: ½, 4: ½, 2: 0.
    EXPECT_EQ(score_brackets(ps), (std::vector<std::vector<int>>{{1, 5}, {3, 4}, {2}}));
    auto floats_of = [&](int id) {
        return std::find_if(ps.begin(), ps.end(), [id](const PairingPlayer& p) { return p.id == id; })->floats;
    };
    EXPECT_EQ(floats_of(1), (std::vector<Float>{Float::NONE, Float::DOWN}));
    EXPECT_EQ(floats_of(3), (std::vector<Float>{Float::NONE, Float::UP}));
    // Did not play and scored nothing: no float (2025 text, 1.4.3: only scoring more
    // than a loss without playing is a downfloat).
    EXPECT_EQ(floats_of(4), (std::vector<Float>{Float::NONE, Float::NONE}));
    EXPECT_EQ(floats_of(5), (std::vector<Float>{Float::DOWN, Float::DOWN}));  // bye, then 1 against 0
    EXPECT_EQ(floats_of(2), (std::vector<Float>{Float::NONE, Float::UP}));
    EXPECT_FALSE(std::find_if(ps.begin(), ps.end(), [](const PairingPlayer& p) { return p.id == 5; })->may_get_bye);
}
