// Perft over the EPD suites at the depths too deep for the unit suite (label slow).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The unit suite (tests/unit/perft_test.cpp) runs every depth up to about a million
// nodes; this one runs every deeper depth in the files, up to DeepNodeCap. The files
// were generated with caps of 200 M (standard) and 50 M (Chess960) nodes, so the cap
// takes every line: about 5.6 billion nodes, 10-15 s in a Release build on the CI
// machine (bulk-counted perft runs at several hundred Mnps there).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../support/perft_epd.h"
#include "chess/fen.h"
#include "chess/perft.h"

using namespace outpost;

namespace {

using test::EpdEntry;
using test::UnitPerftNodeCap;

constexpr std::uint64_t DeepNodeCap = 200'000'000;

// Only lines with something left to do after the unit suite.
std::vector<EpdEntry> deep_entries(const std::string& name, bool chess960) {
    std::vector<EpdEntry> out;
    for (EpdEntry& e : test::load_perft_epd(name, chess960))
        for (auto [depth, nodes] : e.counts)
            if (nodes > UnitPerftNodeCap && nodes <= DeepNodeCap) {
                out.push_back(std::move(e));
                break;
            }
    return out;
}

class PerftEpdDeep : public testing::TestWithParam<EpdEntry> {};

TEST_P(PerftEpdDeep, DeepDepthsMatchStockfish) {
    const EpdEntry& e = GetParam();
    auto pos = position_from_fen(e.fen, e.chess960);
    ASSERT_TRUE(pos.ok()) << e.fen << ": " << pos.error().message;
    for (auto [depth, expected] : e.counts) {
        if (expected <= UnitPerftNodeCap || expected > DeepNodeCap) continue;
        EXPECT_EQ(perft(*pos, depth), expected) << e.file << ":" << e.line << " depth " << depth << " " << e.fen;
    }
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(PerftR2Standard, PerftEpdDeep, testing::ValuesIn(deep_entries("standard.epd", false)),
                         test::epd_entry_name);
INSTANTIATE_TEST_SUITE_P(PerftR16Fischer, PerftEpdDeep, testing::ValuesIn(deep_entries("fischer.epd", true)),
                         test::epd_entry_name);
