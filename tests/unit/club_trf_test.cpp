// Outpost — FIDE Tournament Report File (TRF-2026 and TRF(x)): reading crafted
// files, errors that name the line and field, and round trips.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "club/trf.h"

using namespace outpost::club;

namespace {

// Builds a player line with the format's fixed columns.
std::string player_line(int rank, const std::string& name, int rating, const std::string& points,
                        const std::string& rounds) {
    char buf[200];
    std::snprintf(buf, sizeof buf, "001 %4d m    %-33s %4d FIN    12345678 1990/01/01 %4s %4d", rank, name.c_str(),
                  rating, points.c_str(), rank);
    return std::string(buf) + rounds + "\n";
}

// Four players after two rounds: 1 beat 4 and drew 2; 2 beat 3; 3 beat 4 in round 2.
std::string four_players() {
    return "012 Club Championship\n" +
           player_line(1, "Aalto, Anna", 2100, "1.5", "     4 w 1     2 b =") +
           player_line(2, "Berg, Bo", 2000, "1.5", "     3 b 1     1 w =") +
           player_line(3, "Catt, Cid", 1900, "1.0", "     2 w 0     4 b 1") +
           player_line(4, "Dahl, Di", 1800, "0.0", "     1 b 0     3 w 0") + "XXR 5\nXXC white1\n";
}

}  // namespace

TEST(TrfFormat, ReadsPlayersAndRoundsAtTheirColumns) {
    auto t = read_trf(four_players());
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(t->name, "Club Championship");
    EXPECT_EQ(t->total_rounds, 5);
    EXPECT_EQ(t->initial_colour, Colour::WHITE);
    ASSERT_EQ(t->players.size(), 4u);
    const Player& a = t->players[0];
    EXPECT_EQ(a.start_rank, 1);
    EXPECT_EQ(a.name, "Aalto, Anna");
    EXPECT_EQ(a.rating, 2100);
    EXPECT_EQ(a.federation, "FIN");
    EXPECT_EQ(a.fide_id, "12345678");
    EXPECT_EQ(a.birth_date, "1990/01/01");
    EXPECT_EQ(a.sex, 'm');
    EXPECT_DOUBLE_EQ(a.points, 1.5);
    ASSERT_EQ(a.rounds.size(), 2u);
    EXPECT_EQ(a.rounds[0], (RoundEntry{4, Colour::WHITE, ResultCode::WIN}));
    EXPECT_EQ(a.rounds[1], (RoundEntry{2, Colour::BLACK, ResultCode::DRAW}));
    EXPECT_EQ(t->rounds_paired(), 2);
    EXPECT_DOUBLE_EQ(t->score(t->players[2], 2), 1.0);
}

TEST(TrfFormat, RoundTripsBothFlavours) {
    auto t = read_trf(four_players());
    ASSERT_TRUE(t.ok());
    for (TrfFlavour f : {TrfFlavour::TRFX, TrfFlavour::TRF26}) {
        std::string text = write_trf(*t, f);
        auto again = read_trf(text);
        ASSERT_TRUE(again.ok()) << again.error().message << "\n" << text;
        EXPECT_EQ(*again, *t) << text;
        EXPECT_EQ(write_trf(*again, f), text);
    }
    std::string x = write_trf(*t, TrfFlavour::TRFX);
    EXPECT_NE(x.find("XXR 5\n"), std::string::npos);
    EXPECT_NE(x.find("XXC white1\n"), std::string::npos);
    std::string n = write_trf(*t, TrfFlavour::TRF26);
    EXPECT_NE(n.find("142 5\n"), std::string::npos);
    EXPECT_NE(n.find("152 W\n"), std::string::npos);
    // The writer's columns are the format's: round 1 opponent at 92-95.
    std::size_t line = x.find("001    1");
    ASSERT_NE(line, std::string::npos);
    EXPECT_EQ(x.substr(line + 91, 8), "   4 w 1");
    EXPECT_EQ(x.substr(line + 14, 11), "Aalto, Anna");
    EXPECT_EQ(x.substr(line + 48, 4), "2100");
    EXPECT_EQ(x.substr(line + 80, 4), " 1.5");
}

TEST(TrfFormat, ByesAbsencesAndForfeits) {
    std::string text = player_line(1, "A", 2000, "2.0", "  0000 - U     2 w +  0000 - H") +
                       player_line(2, "B", 1900, "0.0", "  0000 - Z     1 b -") +
                       player_line(3, "C", 1800, "0.5", "  0000 - H") + "152 B\n142 7\n";
    auto t = read_trf(text);
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(t->initial_colour, Colour::BLACK);
    EXPECT_EQ(t->total_rounds, 7);
    const Player& a = t->players[0];
    EXPECT_EQ(a.rounds[0].result, ResultCode::PAIRING_BYE);
    EXPECT_FALSE(a.rounds[1].played());
    EXPECT_TRUE(a.rounds[1].paired());
    EXPECT_DOUBLE_EQ(t->score(a, 3), 2.5);
    EXPECT_DOUBLE_EQ(t->score(t->players[1], 2), 0.0);
    EXPECT_EQ(t->rounds_paired(), 2);  // round 3 holds only a requested bye
    auto again = read_trf(write_trf(*t, TrfFlavour::TRF26));
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, *t);
}

TEST(TrfFormat, Tag162ChangesTheScoring) {
    std::string text = "162  W 3.0    D 1.0    L 0.0\n" + player_line(1, "A", 0, "3.0", "     2 w 1") +
                       player_line(2, "B", 0, "0.0", "     1 b 0");
    auto t = read_trf(text);
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_DOUBLE_EQ(t->scoring.win, 3.0);
    EXPECT_DOUBLE_EQ(t->scoring.draw, 1.0);
    EXPECT_DOUBLE_EQ(t->score(t->players[0], 1), 3.0);
}

namespace {

std::string error_of(const std::string& text) {
    auto t = read_trf(text);
    EXPECT_FALSE(t.ok()) << text;
    return t.ok() ? "" : t.error().message;
}

}  // namespace

TEST(TrfFormat, ErrorsNameTheLineAndTheField) {
    std::string good1 = player_line(1, "A", 2000, "1.0", "     2 w 1");
    std::string good2 = player_line(2, "B", 1900, "0.0", "     1 b 0");

    EXPECT_EQ(error_of("012 x\n" + good1 + player_line(2, "B", 1900, "0.0", "     1 x 0")),
              "line 3, round 1 colour (column 97): 'x' is not w, b or -");
    EXPECT_EQ(error_of(good1 + player_line(2, "B", 1900, "0.0", "     1 b ?")),
              "line 2, round 1 result (column 99): '?' is not a result code (1 = 0 + - W D L H F U Z)");
    EXPECT_EQ(error_of(good1 + player_line(2, "B", 1900, "0.0", "    1x b 0")),
              "line 2, round 1 opponent (columns 92-95): '1x' is not a starting rank");
    EXPECT_EQ(error_of(player_line(2, "B", 1900, "0.0", "     3 b 0") + good1),
              "line 1, round 1 opponent (columns 92-95): no player has starting rank 3");
    EXPECT_EQ(error_of(good1 + player_line(2, "B", 1900, "0.0", "     3 b 0")),
              "line 1, round 1 opponent (columns 92-95): player 2 (line 2) has opponent 3 in that round");
    EXPECT_EQ(error_of(good1 + player_line(2, "B", 1900, "0.0", "     1 w 0")),
              "line 1, round 1 colour (column 97): player 2 has the same colour");
    EXPECT_EQ(error_of(good1 + player_line(2, "B", 1900, "0.0", "     1 b 1")),
              "line 1, round 1 result (column 99): '1' against '1' of player 2 do not agree");
    EXPECT_EQ(error_of(good1 + good2 + player_line(2, "C", 1900, "0.0", "")),
              "line 3, starting rank (columns 5-8): 2 is already used on line 2");
    EXPECT_EQ(error_of(good1 + player_line(2, "B", 19, "x.5", "     1 b 0")),
              "line 2, points (columns 81-84): 'x.5' is not a score like 4.5");
    EXPECT_EQ(error_of("001 abcd\n"), "line 1, starting rank (columns 5-8): 'abcd' is not a number from 1 to 9999");
    EXPECT_EQ(error_of(good1 + good2 + "XXR many\n"),
              "line 3, XXR number of rounds (columns 5-8): 'many' is not a number of rounds from 1 to 99");
    EXPECT_EQ(error_of(good1 + good2 + "XXC green\n"), "line 3, XXC initial colour (columns 5-10): 'green' is not white1 or black1");
    EXPECT_EQ(error_of("012 nothing\n"), "no player lines (001) in the file");
    EXPECT_EQ(error_of(player_line(1, "A", 0, "0.0", "  0000 w U")),
              "line 1, round 1 colour (column 97): a round without an opponent has colour -");
    EXPECT_EQ(error_of(player_line(1, "A", 0, "0.0", "  0000 - 1")),
              "line 1, round 1 result (column 99): '1' needs an opponent (0000 is none)");
}

// The FIDE TRF description ends every line with a carriage return (CR), and
// bbpPairings writes its files so: CR alone, CR LF and LF are all line ends.
TEST(TrfFormat, CarriageReturnAloneEndsALine_FideTrf) {
    std::string lf = four_players();
    std::string cr = lf, crlf;
    std::replace(cr.begin(), cr.end(), '\n', '\r');
    for (char c : lf) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    auto a = read_trf(lf);
    ASSERT_TRUE(a.ok()) << a.error().message;
    for (const std::string& text : {cr, crlf}) {
        auto b = read_trf(text);
        ASSERT_TRUE(b.ok()) << b.error().message;
        EXPECT_EQ(b->name, "Club Championship");
        EXPECT_EQ(b->total_rounds, 5);
        EXPECT_EQ(b->initial_colour, Colour::WHITE);
        ASSERT_EQ(b->players.size(), 4u);
        EXPECT_EQ(write_trf(*b, TrfFlavour::TRFX), write_trf(*a, TrfFlavour::TRFX));
    }
    // Line numbers in errors count CR-ended lines too (and a blank CR line).
    std::string bad = "012 x\r\r" + player_line(1, "A", 2000, "1.0", "     2 w 1") +
                      player_line(2, "B", 1900, "0.0", "     1 x 0");
    std::replace(bad.begin(), bad.end(), '\n', '\r');
    EXPECT_EQ(error_of(bad), "line 4, round 1 colour (column 97): 'x' is not w, b or -");
}

TEST(TrfFormat, HostileInputNeverCrashes) {
    std::string base = four_players();
    // Every truncation and a byte flipped at every position: an answer, never a crash.
    for (std::size_t i = 0; i < base.size(); ++i) {
        (void)read_trf(base.substr(0, i));
        std::string flipped = base;
        flipped[i] = static_cast<char>(flipped[i] ^ 0x5a);
        (void)read_trf(flipped);
    }
    (void)read_trf(std::string(5000, '\n'));
    (void)read_trf("001" + std::string(3000, ' ') + "1");
    SUCCEED();
}

TEST(TrfFormat, RandomTournamentsRoundTrip) {
    // Random consistent tournaments: every round pairs the players at random,
    // with byes, forfeits and pending games; write, read back, compare.
    std::mt19937 rng(2026);
    const ResultCode game_results[] = {ResultCode::WIN, ResultCode::DRAW, ResultCode::LOSS, ResultCode::FORFEIT_WIN,
                                       ResultCode::WIN_UNRATED, ResultCode::DRAW_UNRATED, ResultCode::NONE};
    const ResultCode byes[] = {ResultCode::PAIRING_BYE, ResultCode::HALF_BYE, ResultCode::FULL_BYE,
                               ResultCode::ZERO_BYE};
    for (int iter = 0; iter < 200; ++iter) {
        Tournament t;
        t.name = "Random " + std::to_string(iter);
        int n = 1 + static_cast<int>(rng() % 30);
        int rounds = static_cast<int>(rng() % 12);
        t.total_rounds = rounds + static_cast<int>(rng() % 3);
        t.initial_colour = rng() % 2 ? Colour::WHITE : Colour::BLACK;
        for (int i = 1; i <= n; ++i) {
            Player p;
            p.start_rank = i;
            p.sex = rng() % 2 ? 'm' : 'w';
            p.title = rng() % 5 ? "" : "FM";
            p.name = "Player, Number " + std::to_string(i);
            p.rating = static_cast<int>(rng() % 2800);
            p.federation = "THA";
            p.fide_id = std::to_string(rng() % 100000000);
            p.birth_date = "2001/02/03";
            p.points = (rng() % 20) / 2.0;
            p.rank = i;
            p.rounds.resize(static_cast<std::size_t>(rounds));
            t.players.push_back(p);
        }
        for (int r = 0; r < rounds; ++r) {
            std::vector<int> order(static_cast<std::size_t>(n));
            for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
            std::shuffle(order.begin(), order.end(), rng);
            std::size_t i = 0;
            for (; i + 1 < order.size(); i += 2) {
                Player& a = t.players[static_cast<std::size_t>(order[i])];
                Player& b = t.players[static_cast<std::size_t>(order[i + 1])];
                ResultCode ra = game_results[rng() % 7];
                ResultCode rb = ra == ResultCode::WIN ? ResultCode::LOSS
                                : ra == ResultCode::LOSS ? ResultCode::WIN
                                : ra == ResultCode::FORFEIT_WIN ? ResultCode::FORFEIT_LOSS
                                : ra == ResultCode::WIN_UNRATED ? ResultCode::LOSS_UNRATED
                                                                : ra;
                a.rounds[static_cast<std::size_t>(r)] = {b.start_rank, Colour::WHITE, ra};
                b.rounds[static_cast<std::size_t>(r)] = {a.start_rank, Colour::BLACK, rb};
            }
            if (i < order.size())
                t.players[static_cast<std::size_t>(order[i])].rounds[static_cast<std::size_t>(r)] = {
                    0, Colour::NONE, byes[rng() % 4]};
        }
        for (Player& p : t.players)
            while (!p.rounds.empty() && p.rounds.back() == RoundEntry{}) p.rounds.pop_back();
        for (TrfFlavour f : {TrfFlavour::TRFX, TrfFlavour::TRF26}) {
            std::string text = write_trf(t, f);
            auto back = read_trf(text);
            ASSERT_TRUE(back.ok()) << back.error().message << "\n" << text;
            ASSERT_EQ(*back, t) << text;
        }
    }
}
