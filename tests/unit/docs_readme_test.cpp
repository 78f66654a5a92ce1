// Outpost — the README's table of measured results: every row gives the command that
// measured it and a result with numbers, never a placeholder left by a template (issue
// 9 found `| robot levels | … | LEVELS_TABLE |`).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::string> cells(const std::string& row) {
    std::vector<std::string> out;
    std::string cell;
    bool in_code = false;
    for (size_t i = 1; i < row.size(); ++i) {
        const char c = row[i];
        if (c == '`') in_code = !in_code;
        if (c == '|' && !in_code) {
            const size_t a = cell.find_first_not_of(' '), b = cell.find_last_not_of(' ');
            out.push_back(a == std::string::npos ? "" : cell.substr(a, b - a + 1));
            cell.clear();
        } else {
            cell += c;
        }
    }
    return out;
}

TEST(DocsReadme, MeasuredResultsHaveACommandAndNumbersNoPlaceholder) {
    std::ifstream in(std::string(OUTPOST_TEST_DATA) + "/../../README.md");
    ASSERT_TRUE(in) << "README.md not found";
    std::string line;
    bool in_table = false;
    int rows = 0;
    const std::regex placeholder("^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$|TODO|TBD|XXX");
    while (std::getline(in, line)) {
        if (line.rfind("| what | command | result |", 0) == 0) {
            in_table = true;
            continue;
        }
        if (!in_table) continue;
        if (line.rfind("|", 0) != 0) break;
        if (line.rfind("|---", 0) == 0) continue;
        const std::vector<std::string> c = cells(line);
        ASSERT_EQ(c.size(), 3u) << line;
        ++rows;
        EXPECT_NE(c[1].find('`'), std::string::npos) << "no command for: " << c[0];
        EXPECT_FALSE(std::regex_search(c[2], placeholder)) << "a placeholder in the result of: " << c[0] << "\n" << c[2];
        EXPECT_NE(c[2].find_first_of("0123456789"), std::string::npos) << "no number in the result of: " << c[0];
    }
    EXPECT_GE(rows, 4) << "the table of measured results was not found";
}

}  // namespace
