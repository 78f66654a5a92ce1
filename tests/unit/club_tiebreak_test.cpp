// Outpost — standings and tiebreaks (SPEC P20; FIDE Handbook C.07, with Article 16
// for unplayed rounds in Swiss events). Values worked out by hand below.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "club/tiebreak.h"
#include "club/trf.h"

using namespace outpost::club;

namespace {

std::string player_line(int rank, int rating, const std::string& rounds) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "001 %4d m    %-33s %4d FIN    12345678 1990/01/01  0.0 %4d", rank,
                  ("Player " + std::to_string(rank)).c_str(), rating, rank);
    return std::string(buf) + rounds + "\n";
}

// Six players, three rounds:
//   R1: 1-4 1-0, 2-5 ½-½, 3-6 won by forfeit (6 absent)
//   R2: 3-1 0-1, 5-4 1-0, 2 half-point bye (requested), 6 pairing-allocated bye
//   R3: 1-5 ½-½, 2-3 1-0, 4-6 1-0
// Scores: 1: 2.5, 2: 2, 3: 1, 4: 1, 5: 2, 6: 1.
Tournament swiss() {
    std::string text = player_line(1, 2000, "     4 w 1     3 b 1     5 w =") +
                       player_line(2, 1900, "     5 w =  0000 - H     3 w 1") +
                       player_line(3, 1800, "     6 w +     1 w 0     2 b 0") +
                       player_line(4, 1700, "     1 b 0     5 b 0     6 w 1") +
                       player_line(5, 1600, "     2 b =     4 w 1     1 b =") +
                       player_line(6, 1500, "     3 b -  0000 - U     4 b 0") + "XXR 3\n";
    auto t = read_trf(text);
    EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message);
    return t.ok() ? *t : Tournament{};
}

double tb(const Tournament& t, int player, Tiebreak which) {
    TiebreakOptions o;
    o.total_rounds = 3;
    return tiebreak_value(t, *t.find(player), which, 3, o);
}

}  // namespace

TEST(TiebreakC07, BuchholzWithDummyOpponentsForUnplayedRounds_16_4) {
    Tournament t = swiss();
    EXPECT_DOUBLE_EQ(tb(t, 1, Tiebreak::BUCHHOLZ), 4.0);
    // 2's half-point bye: a dummy with 2's own score 2, capped at ½ x 3 rounds = 1.5.
    EXPECT_DOUBLE_EQ(tb(t, 2, Tiebreak::BUCHHOLZ), 2.0 + 1.5 + 1.0);
    // 3's forfeit win: own score 1, capped by the scheduled opponent's score 1.
    EXPECT_DOUBLE_EQ(tb(t, 3, Tiebreak::BUCHHOLZ), 1.0 + 2.5 + 2.0);
    EXPECT_DOUBLE_EQ(tb(t, 4, Tiebreak::BUCHHOLZ), 5.5);
    EXPECT_DOUBLE_EQ(tb(t, 5, Tiebreak::BUCHHOLZ), 5.5);
    // 6: forfeit loss (dummy 1) and pairing-allocated bye (dummy min(1, 1.5)), then 4.
    EXPECT_DOUBLE_EQ(tb(t, 6, Tiebreak::BUCHHOLZ), 3.0);
}

TEST(TiebreakC07, CutsTakeAVoluntaryUnplayedRoundFirst_16_5) {
    Tournament t = swiss();
    EXPECT_DOUBLE_EQ(tb(t, 1, Tiebreak::BUCHHOLZ_CUT1), 3.0);
    // 2's lowest value is 1.0 (opponent 3), but the requested bye (1.5) is cut.
    EXPECT_DOUBLE_EQ(tb(t, 2, Tiebreak::BUCHHOLZ_CUT1), 3.0);
    // A forfeit win is not voluntary: the plain lowest value goes.
    EXPECT_DOUBLE_EQ(tb(t, 3, Tiebreak::BUCHHOLZ_CUT1), 4.5);
    EXPECT_DOUBLE_EQ(tb(t, 6, Tiebreak::BUCHHOLZ_CUT1), 2.0);
    EXPECT_DOUBLE_EQ(tb(t, 1, Tiebreak::BUCHHOLZ_MEDIAN1), 1.0);  // cut 1.0 and 2.0 of {1, 1, 2}
    EXPECT_DOUBLE_EQ(tb(t, 4, Tiebreak::BUCHHOLZ_CUT2), 2.5);
    EXPECT_DOUBLE_EQ(tb(t, 4, Tiebreak::BUCHHOLZ_MEDIAN2), 0.0);
}

TEST(TiebreakC07, SonnebornBerger_9_1_AndItsCut) {
    Tournament t = swiss();
    EXPECT_DOUBLE_EQ(tb(t, 1, Tiebreak::SONNEBORN_BERGER), 1.0 + 1.0 + 1.0);
    EXPECT_DOUBLE_EQ(tb(t, 2, Tiebreak::SONNEBORN_BERGER), 1.0 + 0.75 + 1.0);
    EXPECT_DOUBLE_EQ(tb(t, 5, Tiebreak::SONNEBORN_BERGER), 1.0 + 1.0 + 1.25);
    EXPECT_DOUBLE_EQ(tb(t, 3, Tiebreak::SONNEBORN_BERGER), 1.0);
    EXPECT_DOUBLE_EQ(tb(t, 6, Tiebreak::SONNEBORN_BERGER), 1.0);
    // 16.5.1 for SB: the higher of the least significant value (1.0, against the
    // lowest-scoring opponent 3) and the lowest VUR contribution (0.75) is cut.
    EXPECT_DOUBLE_EQ(tb(t, 2, Tiebreak::SONNEBORN_BERGER_CUT1), 1.75);
    EXPECT_DOUBLE_EQ(tb(t, 5, Tiebreak::SONNEBORN_BERGER_CUT1), 2.25);
}

TEST(TiebreakC07, WinsGamesWonAverageRatingProgressive) {
    Tournament t = swiss();
    EXPECT_DOUBLE_EQ(tb(t, 1, Tiebreak::WINS), 2);
    EXPECT_DOUBLE_EQ(tb(t, 3, Tiebreak::WINS), 1);   // the forfeit win counts (7.1)
    EXPECT_DOUBLE_EQ(tb(t, 6, Tiebreak::WINS), 1);   // and the pairing-allocated bye
    EXPECT_DOUBLE_EQ(tb(t, 3, Tiebreak::GAMES_WON), 0);  // but not over the board (7.2)
    EXPECT_DOUBLE_EQ(tb(t, 6, Tiebreak::GAMES_WON), 0);
    EXPECT_DOUBLE_EQ(tb(t, 1, Tiebreak::AVERAGE_RATING_OF_OPPONENTS), 1700);
    EXPECT_DOUBLE_EQ(tb(t, 3, Tiebreak::AVERAGE_RATING_OF_OPPONENTS), 1950);  // forfeit excluded (15.2)
    EXPECT_DOUBLE_EQ(tb(t, 6, Tiebreak::AVERAGE_RATING_OF_OPPONENTS), 1700);
    EXPECT_DOUBLE_EQ(tb(t, 1, Tiebreak::PROGRESSIVE), 1 + 2 + 2.5);
    EXPECT_DOUBLE_EQ(tb(t, 1, Tiebreak::PROGRESSIVE_CUT1), 2 + 2.5);
    EXPECT_DOUBLE_EQ(tb(t, 5, Tiebreak::PROGRESSIVE), 0.5 + 1.5 + 2);
}

TEST(TiebreakC07, RequestedByeInTheLastRoundCountsAsADrawForTheOpponents_16_3_2) {
    // 1 beats 2 in round 1; 2 takes a zero-point bye in round 2 (the last).
    std::string text = player_line(1, 0, "     2 w 1     3 w 1") + player_line(2, 0, "     1 b 0  0000 - Z") +
                       player_line(3, 0, "  0000 - U     1 b 0");
    auto t = read_trf(text);
    ASSERT_TRUE(t.ok()) << t.error().message;
    TiebreakOptions o;
    EXPECT_DOUBLE_EQ(adjusted_score(*t, *t->find(2), 2, o), 0.5);
    EXPECT_DOUBLE_EQ(tiebreak_value(*t, *t->find(1), Tiebreak::BUCHHOLZ, 2, o), 0.5 + 1.0);
    o.swiss = false;  // 15.2: pre-determined pairings use the scores as they are
    EXPECT_DOUBLE_EQ(adjusted_score(*t, *t->find(2), 2, o), 0.0);
}

TEST(TiebreakC07, StandingsByPointsThenTheOrganisersList) {
    Tournament t = swiss();
    TiebreakOptions o;
    o.total_rounds = 3;
    auto s = standings(t, 3, {Tiebreak::BUCHHOLZ}, o);
    ASSERT_EQ(s.size(), 6u);
    std::vector<int> order, places;
    for (const Standing& row : s) order.push_back(row.start_rank), places.push_back(row.place);
    EXPECT_EQ(order, (std::vector<int>{1, 5, 2, 3, 4, 6}));
    EXPECT_EQ(places, (std::vector<int>{1, 2, 3, 4, 4, 6}));  // 3 and 4: 1 point, BH 5.5 each
    EXPECT_DOUBLE_EQ(s[0].points, 2.5);
    auto s2 = standings(t, 3, {Tiebreak::BUCHHOLZ, Tiebreak::GAMES_WON}, o);
    EXPECT_EQ(s2[3].start_rank, 4);
    EXPECT_EQ(s2[3].place, 4);
    EXPECT_EQ(s2[4].start_rank, 3);
    EXPECT_EQ(s2[4].place, 5);
}

TEST(TiebreakC07, DirectEncounterAmongThePlayersStillTied_6) {
    // R1: 1-4 1-0, 2-3 0-1; R2: 4-3 1-0, 1-2 0-1; R3: 2-4 0-1, 3-1 0-1.
    // Scores 1: 2, 4: 2, 3: 1, 2: 1. 1 beat 4; 3 beat 2.
    std::string text = player_line(1, 0, "     4 w 1     2 w 0     3 b 1") +
                       player_line(2, 0, "     3 w 0     1 b 1     4 w 0") +
                       player_line(3, 0, "     2 b 1     4 b 0     1 w 0") +
                       player_line(4, 0, "     1 b 0     3 w 1     2 b 1");
    auto t = read_trf(text);
    ASSERT_TRUE(t.ok()) << t.error().message;
    TiebreakOptions o;
    o.swiss = false;
    auto plain = standings(*t, 3, {}, o);
    EXPECT_EQ(plain[0].place, 1);
    EXPECT_EQ(plain[1].place, 1);
    EXPECT_EQ(plain[2].place, 3);
    EXPECT_EQ(plain[3].place, 3);
    auto de = standings(*t, 3, {Tiebreak::DIRECT_ENCOUNTER}, o);
    std::vector<int> order, places;
    for (const Standing& row : de) order.push_back(row.start_rank), places.push_back(row.place);
    EXPECT_EQ(order, (std::vector<int>{1, 4, 3, 2}));
    EXPECT_EQ(places, (std::vector<int>{1, 2, 3, 4}));
    // After round 2 all four have 1 point and not all have met: DE does not separate.
    auto early = standings(*t, 2, {Tiebreak::DIRECT_ENCOUNTER}, o);
    for (const Standing& row : early) EXPECT_EQ(row.place, 1);
}

TEST(TiebreakC07, CodesAsInTrfTag202) {
    for (int i = 0; i <= static_cast<int>(Tiebreak::PROGRESSIVE_CUT1); ++i) {
        auto tbk = static_cast<Tiebreak>(i);
        auto back = tiebreak_from_code(tiebreak_code(tbk));
        ASSERT_TRUE(back.ok());
        EXPECT_EQ(*back, tbk);
    }
    EXPECT_FALSE(tiebreak_from_code("XYZ").ok());
}

TEST(TiebreakC07, StandingsOfAThousandPlayersQuickly) {
    // Random pairings over 11 rounds, every tiebreak: a big open stays fast.
    Tournament t;
    const int n = 1000, rounds = 11;
    unsigned seed = 12345;
    auto next = [&seed] { return seed = seed * 1103515245u + 12345u, (seed >> 16) & 0x7fff; };
    for (int i = 1; i <= n; ++i) {
        Player p;
        p.start_rank = i;
        p.rating = 1000 + static_cast<int>(next() % 1500);
        p.rounds.resize(rounds);
        t.players.push_back(p);
    }
    for (int r = 0; r < rounds; ++r)
        for (int i = 0; i + 1 < n; i += 2) {
            int a = (i + r * 7) % n, b = (i + 1 + r * 13) % n;
            if (a == b || t.players[static_cast<std::size_t>(a)].rounds[static_cast<std::size_t>(r)].opponent ||
                t.players[static_cast<std::size_t>(b)].rounds[static_cast<std::size_t>(r)].opponent)
                continue;
            ResultCode ra = next() % 3 == 0 ? ResultCode::WIN : next() % 2 ? ResultCode::DRAW : ResultCode::LOSS;
            ResultCode rb = ra == ResultCode::WIN ? ResultCode::LOSS : ra == ResultCode::LOSS ? ResultCode::WIN : ra;
            t.players[static_cast<std::size_t>(a)].rounds[static_cast<std::size_t>(r)] = {b + 1, Colour::WHITE, ra};
            t.players[static_cast<std::size_t>(b)].rounds[static_cast<std::size_t>(r)] = {a + 1, Colour::BLACK, rb};
        }
    std::vector<Tiebreak> all;
    for (int i = 0; i <= static_cast<int>(Tiebreak::PROGRESSIVE_CUT1); ++i) all.push_back(static_cast<Tiebreak>(i));
    auto start = std::chrono::steady_clock::now();
    auto s = standings(t, rounds, all, TiebreakOptions{});
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(s.size(), static_cast<std::size_t>(n));
    for (std::size_t i = 1; i < s.size(); ++i) EXPECT_GE(s[i - 1].points, s[i].points);
    EXPECT_LT(secs, 2.0);
}

// FIDE Handbook C.06 (FIDE Tournament Rules) V.4: a round-robin of four, three games
// each. Player 4 plays round 1 (beats 1), then withdraws: rounds 2 and 3 are
// forfeits (4-3 -/+, 2-4 +/-).
//   R1: 1-4 0-1, 2-3 ½-½;  R2: 4-3 forfeit, 1-2 1-0;  R3: 2-4 forfeit, 3-1 ½-½
// In the table: 1: 1.5, 2: 1.5, 3: 2, 4: 1. Player 4 completed 1 game of 3, fewer
// than half: 4's points and the points against 4 do not count, so 1: 1.5, 2: 0.5,
// 3: 1, and 4 is not ranked.
TEST(TiebreakC07, RoundRobinWithdrawalBeforeHalfTheGamesIsAnnulledC06_V4) {
    const std::string text = player_line(1, 0, "     4 w 0     2 w 1     3 b =") +
                             player_line(2, 0, "     3 w =     1 b 0     4 w +") +
                             player_line(3, 0, "     2 b =     4 b +     1 w =") +
                             player_line(4, 0, "     1 b 1     3 w -     2 b -") + "XXR 3\n";
    auto t = read_trf(text);
    ASSERT_TRUE(t.ok()) << t.error().message;
    TiebreakOptions o;
    o.swiss = false;
    o.total_rounds = 3;
    const CountedForStandings counted = annul_early_withdrawals(*t, {4}, 3);
    EXPECT_EQ(counted.not_ranked, (std::vector<int>{4}));
    auto s = standings(counted.tournament, 3, {Tiebreak::SONNEBORN_BERGER}, o);
    ASSERT_EQ(s.size(), 3u);
    EXPECT_EQ(s[0].start_rank, 1);
    EXPECT_DOUBLE_EQ(s[0].points, 1.5);
    EXPECT_EQ(s[1].start_rank, 3);
    EXPECT_DOUBLE_EQ(s[1].points, 1.0);
    EXPECT_EQ(s[2].start_rank, 2);
    EXPECT_DOUBLE_EQ(s[2].points, 0.5);
    // SB counts only the games that count: 1 beat 2 (0.5) and drew 3 (1.0 / 2).
    EXPECT_DOUBLE_EQ(s[0].tiebreaks[0], 0.5 + 0.5);
    // The table itself is unchanged (for rating and the record).
    EXPECT_DOUBLE_EQ(t->score(*t->find(4), 3), 1.0);
    EXPECT_DOUBLE_EQ(t->score(*t->find(2), 3), 1.5);

    // With half or more of the games completed everything counts: 4 plays round 2 too.
    const std::string half = player_line(1, 0, "     4 w 0     2 w 1     3 b =") +
                             player_line(2, 0, "     3 w =     1 b 0     4 w +") +
                             player_line(3, 0, "     2 b =     4 b 1     1 w =") +
                             player_line(4, 0, "     1 b 1     3 w 0     2 b -") + "XXR 3\n";
    auto t2 = read_trf(half);
    ASSERT_TRUE(t2.ok()) << t2.error().message;
    const CountedForStandings all = annul_early_withdrawals(*t2, {4}, 3);
    EXPECT_TRUE(all.not_ranked.empty());
    EXPECT_EQ(all.tournament.players.size(), 4u);
    EXPECT_EQ(standings(all.tournament, 3, {}, o).size(), 4u);
}
