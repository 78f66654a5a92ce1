// Outpost — `outpost pgn opening FILE...` and `outpost pgn analyse [limits] FILE...`:
// opening names and engine analysis of the games in PGN files.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "app/commands.h"
#include "chess/fen.h"
#include "chess/opening.h"
#include "chess/pgn.h"
#include "chess/san.h"
#include "chess/uci.h"
#include "engine/analysis.h"
#include "engine/engine.h"

namespace outpost::app {
namespace {

// The whole file, or an error that names it.
Result<std::string> read_file(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return make_error("cannot open " + file);
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad()) return make_error("cannot read " + file);
    return buffer.str();
}

// Calls `each(game_number_in_file, game)` for every game of every file; a file that
// cannot be read, a game that cannot be read (the reader's error names the game,
// line, move and token) or an error from `each` stops with exit status 1.
template <class Each>
int for_each_game(std::string_view command, const std::vector<std::string>& files, Each each) {
    for (const auto& file : files) {
        auto text = read_file(file);
        if (!text) {
            std::cerr << "outpost pgn " << command << ": " << text.error().message << "\n";
            return 1;
        }
        PgnReader reader(*text);
        while (auto game = reader.next()) {
            if (!*game) {
                std::cout.flush();
                std::cerr << "outpost pgn " << command << ": " << file << ": " << game->error().message << "\n";
                return 1;
            }
            if (auto done = each(reader.game_number(), **game); !done) {
                std::cout.flush();
                std::cerr << "outpost pgn " << command << ": " << file << ": game " << reader.game_number() << ", "
                          << done.error().message << "\n";
                return 1;
            }
        }
    }
    return 0;
}

// One line per game, tab-separated: the game's number over all files, the ECO code,
// the opening's name; `-` and `-` when the game has none.
int opening(const std::vector<std::string>& files) {
    int number = 0;
    return for_each_game("opening", files, [&](int, const PgnGame& game) -> Result<bool> {
        const auto named = classify_opening(game.start, game.mainline());
        std::cout << ++number << '\t' << (named ? named->eco : "-") << '\t' << (named ? named->name : "-") << '\n';
        return true;
    });
}

struct AnalyseOptions {
    std::uint64_t nodes = 0;
    int depth = 0;
    int movetime = 0;
    int threads = 1;
    int hash = 64;
    bool quiet = false;
    bool tsv = false;
    std::vector<std::string> files;
};

// `--format tsv`: one line per move for scripts (bench/analysis compares it with
// Stockfish): game number, ply, SAN, UCI, FEN before the move, FEN after it, the
// evaluation before (best play) and after (White's view, as in [%eval]; `-` after a
// checkmate), the engine's move before it (UCI, `-` when none) and the mark
// (inaccuracy, mistake, blunder or -).
void print_tsv(std::ostream& out, int number, const PgnGame& game, const engine::GameAnalysis& a) {
    Position pos = game.start;
    for (size_t i = 0; i < a.moves.size(); ++i) {
        const engine::MoveAnalysis& m = a.moves[i];
        const std::string before = to_fen(pos);
        const std::string san = move_to_san(pos, m.move);
        pos.do_move(m.move);
        const std::string_view mark = engine::mark_name(m.mark);
        std::string mark_id(mark.empty() ? "-" : mark);
        for (char& c : mark_id) c = char(std::tolower(static_cast<unsigned char>(c)));
        out << number << '\t' << i + 1 << '\t' << san << '\t' << move_to_uci(m.move, pos.is_chess960()) << '\t'
            << before << '\t' << to_fen(pos) << '\t' << engine::eval_to_pgn(m.eval_before).value_or("-") << '\t'
            << engine::eval_to_pgn(m.eval_after).value_or("-") << '\t'
            << (m.best ? move_to_uci(m.best, pos.is_chess960()) : std::string("-")) << '\t' << mark_id << '\n';
    }
}

int analyse(const AnalyseOptions& o) {
    engine::AnalysisSettings settings;
    settings.nodes = o.nodes;
    settings.depth = o.depth;
    settings.movetime_ms = o.movetime;
    if (!o.nodes && !o.depth && !o.movetime) settings.nodes = engine::DefaultAnalysisNodes;
    settings.threads = o.threads;
    settings.hash_mb = o.hash;
    if (auto ok = settings.validate(); !ok) {
        std::cerr << "outpost pgn analyse: " << ok.error().message << "\n";
        return 1;
    }
    engine::Engine engine;
    int number = 0;
    return for_each_game("analyse", o.files, [&](int, PgnGame& game) -> Result<bool> {
        const std::vector<Move> moves = game.mainline();
        auto analysis = engine::analyse_game(engine, game.start, moves, settings);
        if (!analysis) return analysis.error();
        ++number;
        if (o.tsv) {
            print_tsv(std::cout, number, game, *analysis);
            std::cout.flush();
        } else {
            if (auto ok = engine::annotate_pgn(game, *analysis, settings); !ok) return ok.error();
            std::cout << write_pgn(game) << std::flush;
        }
        if (!o.quiet) {
            char line[160];
            std::snprintf(line, sizeof line, "game %d: %zu positions, %llu nodes, %.2f s; accuracy white ", number,
                          analysis->positions.size(), (unsigned long long)analysis->nodes,
                          double(analysis->time_ms) / 1000.0);
            std::cerr << line << engine::format_accuracy(analysis->accuracy[WHITE]) << ", black "
                      << engine::format_accuracy(analysis->accuracy[BLACK]) << "\n";
        }
        return true;
    });
}

}  // namespace

void add_pgn_analysis_commands(CLI::App& pgn, std::function<int()>& run) {
    auto files = std::make_shared<std::vector<std::string>>();
    CLI::App* opening_cmd =
        pgn.add_subcommand("opening", "Print number, ECO code and opening name per game of PGN files (- - when none)");
    opening_cmd->add_option("files", *files, "PGN files")->required();
    opening_cmd->callback([files, &run] { run = [files] { return opening(*files); }; });

    auto o = std::make_shared<AnalyseOptions>();
    CLI::App* analyse_cmd =
        pgn.add_subcommand("analyse",
                           "Analyse every game of PGN files with the engine; write them as PGN with [%eval], marks "
                           "($6 inaccuracy, $2 mistake, $4 blunder), better moves and accuracy (docs/analysis.md)");
    analyse_cmd->alias("analyze");
    auto* nodes = analyse_cmd->add_option(
        "--nodes", o->nodes, "Nodes per position (default " + std::to_string(engine::DefaultAnalysisNodes) + ")");
    auto* depth = analyse_cmd->add_option("--depth", o->depth, "Depth per position (1-64)");
    auto* movetime = analyse_cmd->add_option("--movetime", o->movetime, "Milliseconds per position");
    nodes->excludes(depth)->excludes(movetime);
    depth->excludes(movetime);
    analyse_cmd->add_option("--threads", o->threads, "Search threads (1-64)");
    analyse_cmd->add_option("--hash", o->hash, "Transposition table in MB (1-4096)");
    analyse_cmd->add_flag("--quiet", o->quiet, "No summary per game on standard error");
    analyse_cmd
        ->add_option_function<std::string>(
            "--format", [o](const std::string& f) { o->tsv = f == "tsv"; },
            "pgn (default): the games annotated; tsv: one line per move for scripts")
        ->check(CLI::IsMember({"pgn", "tsv"}));
    analyse_cmd->add_option("files", o->files, "PGN files")->required();
    analyse_cmd->callback([o, &run] { run = [o] { return analyse(*o); }; });
}

}  // namespace outpost::app
