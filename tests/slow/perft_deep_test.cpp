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
#include <cstdio>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "chess/fen.h"
#include "chess/perft.h"

using namespace outpost;

namespace {

constexpr std::uint64_t UnitNodeCap = 1'100'000;  // as in tests/unit/perft_test.cpp
constexpr std::uint64_t DeepNodeCap = 200'000'000;

struct EpdEntry {
    std::string file;
    int line = 0;
    std::string fen;
    bool chess960 = false;
    std::vector<std::pair<int, std::uint64_t>> counts;  // (depth, nodes)
};

[[maybe_unused]] void PrintTo(const EpdEntry& e, std::ostream* os) { *os << e.file << ":" << e.line << " " << e.fen; }

std::vector<EpdEntry> load_epd(const std::string& name, bool chess960) {
    std::vector<EpdEntry> out;
    std::ifstream in(std::string(OUTPOST_TEST_DATA) + "/" + name);
    std::string text;
    int line_no = 0;
    while (std::getline(in, text)) {
        ++line_no;
        if (text.empty() || text[0] == '#') continue;
        EpdEntry e{name, line_no, "", chess960, {}};
        std::stringstream fields(text);
        std::string part;
        bool first = true;
        while (std::getline(fields, part, ';')) {
            if (first) {
                e.fen = part.substr(0, part.find_last_not_of(' ') + 1);
                first = false;
                continue;
            }
            std::stringstream ds(part);
            std::string tag;
            std::uint64_t nodes = 0;
            ds >> tag >> nodes;
            if (tag.size() >= 2 && tag[0] == 'D') e.counts.emplace_back(std::stoi(tag.substr(1)), nodes);
        }
        // Only lines with something left to do after the unit suite.
        for (auto [depth, nodes] : e.counts)
            if (nodes > UnitNodeCap && nodes <= DeepNodeCap) {
                out.push_back(e);
                break;
            }
    }
    return out;
}

std::string entry_name(const testing::TestParamInfo<EpdEntry>& info) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "line%03d", info.param.line);
    return buf;
}

class PerftEpdDeep : public testing::TestWithParam<EpdEntry> {};

TEST_P(PerftEpdDeep, DeepDepthsMatchStockfish) {
    const EpdEntry& e = GetParam();
    auto pos = position_from_fen(e.fen, e.chess960);
    ASSERT_TRUE(pos.ok()) << e.fen << ": " << pos.error().message;
    for (auto [depth, expected] : e.counts) {
        if (expected <= UnitNodeCap || expected > DeepNodeCap) continue;
        EXPECT_EQ(perft(*pos, depth), expected) << e.file << ":" << e.line << " depth " << depth << " " << e.fen;
    }
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(PerftR2Standard, PerftEpdDeep, testing::ValuesIn(load_epd("standard.epd", false)), entry_name);
INSTANTIATE_TEST_SUITE_P(PerftR16Fischer, PerftEpdDeep, testing::ValuesIn(load_epd("fischer.epd", true)), entry_name);
