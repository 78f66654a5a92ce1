// All published unwinnability test vectors (tests/data/unwinnable), label for label:
// never a wrong "cannot mate" (FIDE 5.2.2, 6.9), and how many labels equal.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "chess/dead_position.h"
#include "chess/fen.h"

using namespace outpost;

TEST(HelpmatePublishedVectorsFide5_2_2, AllNeverWrongCannotMate) {
    std::ifstream in(std::string(OUTPOST_TEST_DATA) + "/unwinnable/cha-test-vector.txt");
    ASSERT_TRUE(in);
    int total = 0, equal = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.size() < 4 || line[0] == '#') continue;
        const std::string expected = line.substr(0, 2), fen = line.substr(3);
        auto pos = position_from_fen(fen);
        ASSERT_TRUE(pos.ok()) << fen;
        const Unwinnability u = analyse_unwinnability(*pos, {200000, {}});
        std::string label;
        for (Color c : {WHITE, BLACK}) {
            const MateAbility a = u.of(c).ability;
            label += a == MateAbility::CAN_MATE ? (c == WHITE ? 'W' : 'B') : a == MateAbility::CANNOT_MATE ? '-' : '?';
            EXPECT_FALSE(a == MateAbility::CANNOT_MATE && expected[c] != '-')
                << "wrong \"cannot mate\" for " << (c == WHITE ? "White" : "Black") << ": " << fen;
            EXPECT_FALSE(a == MateAbility::CAN_MATE && expected[c] == '-') << "a mate where none exists: " << fen;
        }
        ++total;
        equal += label == expected;
    }
    std::cout << "labels equal: " << equal << "/" << total << "\n";
    RecordProperty("labels_equal", equal);
    EXPECT_GE(equal * 100, total * 70);
}
