// Outpost — dead positions as a game recognises them (issue 28, item 15): the CHA
// test set's dead positions (R7, FIDE 5.2.2; tests/data/unwinnable), by the test after
// each move (Game, dead_position_after_move), then by the deeper test of the server's
// watch (dead_position_deep, server/play/dead_watch.h) for what the first leaves.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <ctime>
#include <fstream>
#include <string>

#include "chess/dead_position.h"
#include "chess/fen.h"
#include "chess/game.h"

using namespace outpost;

TEST(DeadPositionInTheGame, RecognisesAtLeast95PercentOfTheChaDeadPositions) {
    std::ifstream in(std::string(OUTPOST_TEST_DATA) + "/unwinnable/cha-test-vector.txt");
    ASSERT_TRUE(in);
    int dead = 0, ended_by_move_test = 0, by_watch = 0;
    double worst_move_test_ms = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("-- ", 0) != 0) continue;
        auto pos = position_from_fen(line.substr(3));
        ASSERT_TRUE(pos.ok()) << line;
        ++dead;
        // As after a move into this position: Game runs the test after each move
        // (mate and stalemate end the game too: 60 of the set have no legal move).
        const std::clock_t start = std::clock();
        const Game game(*pos);
        worst_move_test_ms = std::max(worst_move_test_ms, 1000.0 * double(std::clock() - start) / CLOCKS_PER_SEC);
        if (game.is_over()) {
            ++ended_by_move_test;
            continue;
        }
        if (dead_position_deep(*pos) == Deadness::DEAD) ++by_watch;
    }
    ASSERT_EQ(dead, 823);
    const int recognised = ended_by_move_test + by_watch;
    std::printf("CHA dead positions: %d; ended by the test after the move %d, by the watch %d: %d (%.1f%%); "
                "worst test after a move %.2f ms CPU\n",
                dead, ended_by_move_test, by_watch, recognised, 100.0 * recognised / dead, worst_move_test_ms);
    EXPECT_GE(recognised * 100, dead * 95);
}
