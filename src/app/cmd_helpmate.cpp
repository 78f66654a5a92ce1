// Outpost — `outpost helpmate [--budget-ms N] [--nodes N] [--line] [FEN...]`: who can still
// mate (R7 dead positions, R11 flag fall), one line per position.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Output: the label ("WB" both sides can mate, "W-" only White, "-B" only Black, "--"
// dead; "?" in a place where the budget ran out), a tab, the FEN; with --line, then a
// tab and the helpmate found for each side that can mate, in SAN. With no FEN
// arguments, FENs are read from standard input, one a line; a label may stand before
// the FEN (as in the published test vectors) or after it, and is then compared: a
// position whose label differs gets "\texpected XX", and a summary goes to stderr.
#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "app/commands.h"
#include "chess/dead_position.h"
#include "chess/fen.h"
#include "chess/game.h"
#include "chess/pgn.h"
#include "chess/san.h"

namespace outpost::app {
namespace {

bool is_label(const std::string& t) {
    return t.size() == 2 && (t[0] == 'W' || t[0] == '-' || t[0] == '?') && (t[1] == 'B' || t[1] == '-' || t[1] == '?');
}

char label_char(MateAbility a, char yes) {
    return a == MateAbility::CAN_MATE ? yes : a == MateAbility::CANNOT_MATE ? '-' : '?';
}

std::string line_san(Position pos, const std::vector<Move>& line) {
    std::string out;
    for (Move m : line) {
        if (!out.empty()) out += ' ';
        out += move_to_san(pos, m);
        pos.do_move(m);
    }
    return out;
}

struct Totals {
    int positions = 0, labelled = 0, equal = 0, wrong_cannot = 0, unknown = 0, errors = 0;
    struct PerLabel {
        int positions = 0, equal = 0, unknown = 0;
    };
    std::map<std::string, PerLabel> by_label;  // by the expected label
};

void analyse_line(const std::string& text, int line_no, long budget_ms, std::uint64_t nodes, bool show_line,
                  Totals& totals) {
    std::istringstream in(text);
    std::vector<std::string> tokens;
    for (std::string t; in >> t;) tokens.push_back(t);
    if (tokens.empty() || tokens[0][0] == '#') return;
    std::string expected;
    if (is_label(tokens.front())) {
        expected = tokens.front();
        tokens.erase(tokens.begin());
    } else if (tokens.size() > 1 && is_label(tokens.back())) {
        expected = tokens.back();
        tokens.pop_back();
    }
    std::string fen;
    for (const auto& t : tokens) fen += (fen.empty() ? "" : " ") + t;
    auto pos = position_from_fen(fen);
    if (!pos) {
        std::cerr << "outpost helpmate: " << (line_no > 0 ? "line " + std::to_string(line_no) + ": " : "")
                  << "bad FEN \"" << fen << "\": " << pos.error().message << "\n";
        ++totals.errors;
        return;
    }
    MateBudget budget;
    budget.nodes = nodes;
    if (budget_ms > 0) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(budget_ms);
        budget.out_of_time = [deadline] { return std::chrono::steady_clock::now() >= deadline; };
    }
    const Unwinnability u = analyse_unwinnability(*pos, budget);
    const std::string label{label_char(u.white.ability, 'W'), label_char(u.black.ability, 'B')};
    ++totals.positions;
    totals.unknown += label.find('?') != std::string::npos;
    std::cout << label << '\t' << fen;
    if (show_line)
        for (Color c : {WHITE, BLACK})
            if (u.of(c).ability == MateAbility::CAN_MATE)
                std::cout << '\t' << (c == WHITE ? "white: " : "black: ") << line_san(*pos, u.of(c).line);
    if (!expected.empty()) {
        ++totals.labelled;
        Totals::PerLabel& per = totals.by_label[expected];
        ++per.positions;
        per.unknown += label.find('?') != std::string::npos;
        if (label == expected) {
            ++totals.equal;
            ++per.equal;
        } else {
            std::cout << "\texpected " << expected;
        }
        for (int i = 0; i < 2; ++i)
            if (label[i] == '-' && expected[i] != '-' && expected[i] != '?') ++totals.wrong_cannot;
    }
    std::cout << '\n';
}

// --pgn: the dead-position test of every position of every game, as Game runs it
// after each move (R7), timed; prints the average and the worst per move.
int time_games(const std::string& path, std::uint64_t nodes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::cerr << "outpost helpmate: cannot read " << path << "\n";
        return 2;
    }
    std::stringstream text;
    text << in.rdbuf();
    const std::string pgn = text.str();
    PgnReader reader(pgn);
    int games = 0, dead = 0, unknown = 0, errors = 0;
    std::uint64_t positions = 0;
    double total_ms = 0, worst_ms = 0;
    while (auto game = reader.next()) {
        if (!*game) {
            std::cerr << "outpost helpmate: " << path << ": " << game->error().message << "\n";
            ++errors;
            continue;
        }
        ++games;
        Position pos = (*game)->start;
        const std::vector<Move> moves = (*game)->mainline();
        for (size_t i = 0; i <= moves.size(); ++i) {
            // Processor time, so that a busy machine does not count against the test.
            const std::clock_t start = std::clock();
            const Deadness d = dead_position_after_move(pos, nodes);
            const double ms = 1000.0 * double(std::clock() - start) / CLOCKS_PER_SEC;
            total_ms += ms;
            worst_ms = std::max(worst_ms, ms);
            ++positions;
            dead += d == Deadness::DEAD;
            unknown += d == Deadness::UNKNOWN;
            if (i < moves.size()) pos.do_move(moves[i]);
        }
    }
    std::cout << "games " << games << ", positions " << positions << ", dead " << dead << ", unknown " << unknown
              << ", average " << (positions ? total_ms / double(positions) : 0.0) << " ms per move, worst "
              << worst_ms << " ms\n";
    return errors ? 1 : 0;
}

}  // namespace

void add_helpmate_command(CLI::App& parent, std::function<int()>& run) {
    struct Options {
        std::vector<std::string> fens;
        long budget_ms = 0;
        std::uint64_t nodes = 2000000;
        bool line = false;
        std::string pgn;
    };
    auto opts = std::make_shared<Options>();
    CLI::App* cmd = parent.add_subcommand(
        "helpmate", "Which side can still checkmate (labels WB, W-, -B, --; dead positions, flag fall)");
    cmd->add_option("fen", opts->fens, "Positions (FEN); read from standard input, one a line, when none are given");
    cmd->add_option("--budget-ms", opts->budget_ms, "Time limit per side and position in ms (0: none)")
        ->check(CLI::Range(0L, 86400000L));
    cmd->add_option("--nodes", opts->nodes, "Position limit per side and position")
        ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1) << 40));
    cmd->add_flag("--line", opts->line, "Print a helpmate (SAN) for each side that can mate");
    cmd->add_option("--pgn", opts->pgn,
                    "Time the dead-position test (R7) on every position of the games in this PGN file "
                    "(with --nodes; default: the game's budget); processor time per move");
    cmd->callback([opts, &run, cmd] {
        run = [opts, nodes_given = cmd->count("--nodes") > 0] {
            if (!opts->pgn.empty()) return time_games(opts->pgn, nodes_given ? opts->nodes : GameOptions{}.dead_position_budget);
            Totals totals;
            if (!opts->fens.empty()) {
                for (const auto& fen : opts->fens) analyse_line(fen, 0, opts->budget_ms, opts->nodes, opts->line, totals);
            } else {
                int line_no = 0;
                for (std::string text; std::getline(std::cin, text);)
                    analyse_line(text, ++line_no, opts->budget_ms, opts->nodes, opts->line, totals);
            }
            if (totals.labelled > 0) {
                std::cerr << "labels equal: " << totals.equal << "/" << totals.labelled
                          << ", wrong \"cannot mate\": " << totals.wrong_cannot << ", unknown: " << totals.unknown
                          << "\n";
                for (const auto& [label, per] : totals.by_label)
                    std::cerr << "  " << label << ": " << per.equal << "/" << per.positions << " equal, "
                              << per.unknown << " unknown\n";
            }
            return totals.errors ? 1 : 0;
        };
    });
}

}  // namespace outpost::app
