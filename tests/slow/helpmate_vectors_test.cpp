// All published unwinnability test vectors (tests/data/unwinnable: the whole CHA test
// set, 1826 positions), label for label: never a wrong "cannot mate" (FIDE 5.2.2,
// 6.9), never a mate where the label says none, and how many labels equal, per label.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <ctime>
#include <fstream>
#include <map>
#include <string>

#include "chess/dead_position.h"
#include "chess/fen.h"
#include "chess/movegen.h"

using namespace outpost;

namespace {

struct Tally {
    int positions = 0, equal = 0, unknown = 0;
};

}  // namespace

TEST(HelpmatePublishedVectorsFide5_2_2, AllNeverWrongCannotMate) {
    std::ifstream in(std::string(OUTPOST_TEST_DATA) + "/unwinnable/cha-test-vector.txt");
    ASSERT_TRUE(in);
    std::map<std::string, Tally> by_label;
    int total = 0, equal = 0, already_mated = 0;
    const std::clock_t start = std::clock();
    for (std::string line; std::getline(in, line);) {
        if (line.size() < 4 || line[0] == '#') continue;
        const std::string expected = line.substr(0, 2), fen = line.substr(3);
        auto pos = position_from_fen(fen);
        ASSERT_TRUE(pos.ok()) << fen;
        // 200,000 positions a side (bench/helpmate/run uses 1,000,000: minutes of CPU).
        const Unwinnability u = analyse_unwinnability(*pos, {200000, {}});
        // A position whose side to move is mated already: two of them are labelled
        // "--" (the game is over, nobody mates any more), the others give the mating
        // side; can_checkmate answers that the mate stands (an empty line).
        const bool mated = pos->is_checkmate();
        already_mated += mated && expected == "--";
        std::string label;
        for (Color c : {WHITE, BLACK}) {
            const MateAbility a = u.of(c).ability;
            label += a == MateAbility::CAN_MATE ? (c == WHITE ? 'W' : 'B') : a == MateAbility::CANNOT_MATE ? '-' : '?';
            EXPECT_FALSE(a == MateAbility::CANNOT_MATE && expected[c] != '-')
                << "wrong \"cannot mate\" for " << (c == WHITE ? "White" : "Black") << ": " << fen;
            EXPECT_FALSE(a == MateAbility::CAN_MATE && expected[c] == '-' && !mated) << "a mate where none exists: " << fen;
        }
        Tally& t = by_label[expected];
        ++t.positions;
        ++total;
        if (label == expected) {
            ++t.equal;
            ++equal;
        }
        t.unknown += label.find('?') != std::string::npos;
    }
    const double cpu = double(std::clock() - start) / CLOCKS_PER_SEC;
    for (const auto& [label, t] : by_label)
        std::cout << label << ": " << t.positions << " positions, " << t.equal << " equal, " << t.unknown
                  << " unknown (budget spent)\n";
    std::cout << "labels equal: " << equal << "/" << total << ", " << total / cpu << " positions per CPU second\n";
    RecordProperty("labels_equal", equal);
    EXPECT_EQ(total, 1826);
    EXPECT_EQ(already_mated, 2);
    // Measured (2026-11-24, NODES=200000 bench/helpmate/run): 1651 of 1826 equal
    // (90.4%): -- 795/823, WB 644/753, W- 143/168, -B 69/82; every other label has a
    // "?" (the budget ran out) but the two mated positions; none wrong. (1620 before
    // the guide counted the loser's pieces; about 23 positions per CPU second.) (bench/helpmate/run's own budget, 1,000,000: 1770 equal, 54
    // unknown; 1747 before the guide counted the loser's pieces.)
    EXPECT_GE(equal, 1646);
}
