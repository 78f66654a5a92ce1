// Outpost tests — the perft EPD suites (tests/data/standard.epd, fischer.epd), read
// once for the unit suite (shallow depths) and the slow suite (deep depths).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Each line is `FEN ;D1 n ;D2 n ...` with counts from Stockfish
// (tests/data/gen_perft_epd.py); '#' starts a comment line.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace outpost::test {

// Depths whose count is at most this run in the unit suite; the rest are the slow
// suite's.
constexpr std::uint64_t UnitPerftNodeCap = 1'100'000;

struct EpdEntry {
    std::string file;
    int line = 0;
    std::string fen;
    bool chess960 = false;
    std::vector<std::pair<int, std::uint64_t>> counts;  // (depth, nodes)
};

// gtest prints the parameter of a failing test with this.
[[maybe_unused]] inline void PrintTo(const EpdEntry& e, std::ostream* os) {
    *os << e.file << ":" << e.line << " " << e.fen;
}

// Every line of tests/data/<name>; an empty list when the file is missing (the unit
// suite checks that both files are loaded).
inline std::vector<EpdEntry> load_perft_epd(const std::string& name, bool chess960) {
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
        out.push_back(std::move(e));
    }
    return out;
}

// Test names by line number: "line042".
inline std::string epd_entry_name(const testing::TestParamInfo<EpdEntry>& info) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "line%03d", info.param.line);
    return buf;
}

}  // namespace outpost::test
