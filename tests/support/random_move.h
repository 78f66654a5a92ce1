// Outpost tests — a random legal move from a game state the server sent, for the tests
// that play many games over WebSockets (tests/slow/serve_kill_test.cpp,
// tests/slow/backup_live_test.cpp).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

namespace outpost::test {

// A random legal move from a state's `legal` map ({"e2": ["e3", "e4"], …}); promotions
// to a queen. "" when there is none.
inline std::string random_move(const nlohmann::json& legal, std::mt19937& rng, const std::string& fen) {
    std::vector<std::string> all;
    for (const auto& [from, tos] : legal.items())
        for (const auto& to : tos) all.push_back(from + to.get<std::string>());
    if (all.empty()) return "";
    std::string m = all[rng() % all.size()];
    // A pawn reaching the last rank: which squares hold pawns is in the FEN's board.
    const std::string board = fen.substr(0, fen.find(' '));
    int rank = 7, file = 0;
    char piece = 0;
    for (char c : board) {
        if (c == '/') --rank, file = 0;
        else if (c >= '1' && c <= '8') file += c - '0';
        else {
            if (file == m[0] - 'a' && rank == m[1] - '1') piece = c;
            ++file;
        }
    }
    if ((piece == 'P' && m[3] == '8') || (piece == 'p' && m[3] == '1')) m += 'q';
    return m;
}

}  // namespace outpost::test
