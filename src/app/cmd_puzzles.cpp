// Outpost — `outpost puzzles make [--db FILE | --database URL | PGN...] [--nodes N] [--threads T] [-o FILE]`:
// cuts puzzles out of finished games (issue 29; the rules in docs/puzzles.md) and
// writes them in the lichess puzzle CSV, a header row first.
//
// Input: the finished standard games of a server's database (SQLite's file, or a
// PostgreSQL URL), or the games of PGN files. A file that cannot be read stops the command before any search (exit 1); a
// game that cannot be used (unreadable, no moves, an illegal move) is named on
// standard error with its file and number, and the others go on. Chess960 games are
// skipped. Games are searched on --threads threads, one engine each; the output is in
// the order of the games whatever the threads, and a position met twice is written
// once. Progress goes to standard error.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <atomic>
#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "app/commands.h"
#include "chess/fen.h"
#include "chess/pgn.h"
#include "chess/uci.h"
#include "engine/engine.h"
#include "server/stores/game_store.h"
#include "server/stores/postgres/pg_stores.h"
#include "training/generator.h"
#include "training/puzzle_csv.h"

namespace outpost::app {
namespace {

struct MakeArgs {
    std::string db;
    std::string database;  // a PostgreSQL URL instead of `db` (issue 26)
    std::vector<std::string> files;
    std::uint64_t nodes = training::GeneratorSettings{}.nodes;
    std::uint64_t scan_nodes = training::GeneratorSettings{}.scan_nodes;
    int threads = 1;
    std::string output;
    bool quiet = false;
};

// One game to search.
struct Job {
    Position start = Position::startpos();
    std::vector<Move> moves;
    std::string url_prefix;  // GameUrl without the ply
    std::string label;       // for messages: "games.pgn: game 3", "game abc123"
};

constexpr const char* PuzzlesMake = "outpost puzzles make: ";

Result<std::string> read_pgn_file(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return make_error("cannot open " + file);
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad()) return make_error("cannot read " + file);
    return buffer.str();
}

// The games of the PGN files; an unreadable file is an error, a bad game a warning.
Result<std::vector<Job>> jobs_from_pgn(const std::vector<std::string>& files, int& skipped) {
    std::vector<Job> jobs;
    for (const std::string& file : files) {
        auto text = read_pgn_file(file);
        if (!text) return text.error();
        PgnReader reader(*text);
        while (auto game = reader.next()) {
            const std::string where = file + ": game " + std::to_string(reader.game_number());
            if (!*game) {
                std::cerr << PuzzlesMake << where << ": skipped: " << game->error().message << "\n";
                ++skipped;
                continue;
            }
            const PgnGame& g = **game;
            if (g.start.is_chess960()) {
                std::cerr << PuzzlesMake << where << ": skipped: Chess960 (standard chess only)\n";
                ++skipped;
                continue;
            }
            if (g.moves.empty()) {
                std::cerr << PuzzlesMake << where << ": skipped: the game has no moves\n";
                ++skipped;
                continue;
            }
            jobs.push_back({g.start, g.mainline(), file + "#" + std::to_string(reader.game_number()) + ":", where});
        }
    }
    return jobs;
}

// The finished standard games of a server's database (`db`: a file, or a PostgreSQL URL).
Result<std::vector<Job>> jobs_from_db(const std::string& db, int& skipped) {
    auto store = server::postgres::is_url(db) ? server::postgres::open_games(db) : server::Storage::open(db);
    if (!store) return make_error(db + ": " + store.error().message);
    auto ids = (*store)->finished_standard_game_ids();
    if (!ids) return make_error(db + ": " + ids.error().message);
    std::vector<Job> jobs;
    for (const std::string& id : *ids) {
        const std::string where = "game " + id;
        auto game = (*store)->load_game(id);
        if (!game) return make_error(db + ": " + where + ": " + game.error().message);
        if (!*game) continue;
        const server::StoredGame& g = **game;
        auto start = g.initial_fen.empty() ? Result<Position>(Position::startpos()) : position_from_fen(g.initial_fen);
        auto skip = [&](const std::string& why) {
            std::cerr << PuzzlesMake << db << ": " << where << ": skipped: " << why << "\n";
            ++skipped;
        };
        if (!start) {
            skip("initial FEN: " + start.error().message);
            continue;
        }
        Job job{*start, {}, "/#/game/" + id + "?ply=", where};
        Position pos = *start;
        bool ok = true;
        for (const server::StoredMove& m : g.moves) {
            auto move = move_from_uci(pos, m.uci);
            if (!move) {
                skip("ply " + std::to_string(m.ply) + ": " + move.error().message);
                ok = false;
                break;
            }
            job.moves.push_back(*move);
            pos.do_move(*move);
        }
        if (!ok) continue;
        if (job.moves.empty()) {
            skip("the game has no moves");
            continue;
        }
        jobs.push_back(std::move(job));
    }
    return jobs;
}

int make(const MakeArgs& args) {
    if (int(!args.db.empty()) + int(!args.database.empty()) + int(!args.files.empty()) != 1) {
        std::cerr << PuzzlesMake << "give one of --db FILE, --database URL or PGN files\n";
        return 2;
    }
    training::GeneratorSettings settings;
    settings.nodes = args.nodes;
    settings.scan_nodes = args.scan_nodes;
    if (auto ok = settings.validate(); !ok) {
        std::cerr << PuzzlesMake << ok.error().message << "\n";
        return 2;
    }
    int skipped = 0;
    const std::string& db = args.database.empty() ? args.db : args.database;
    auto jobs = db.empty() ? jobs_from_pgn(args.files, skipped) : jobs_from_db(db, skipped);
    if (!jobs) {
        std::cerr << PuzzlesMake << jobs.error().message << "\n";
        return 1;
    }
    std::ofstream file;
    if (!args.output.empty()) {
        file.open(args.output, std::ios::binary | std::ios::trunc);
        if (!file) {
            std::cerr << PuzzlesMake << "cannot write " << args.output << "\n";
            return 1;
        }
    }
    std::ostream& out = args.output.empty() ? std::cout : file;
    out << training::puzzle_csv_header() << "\n" << std::flush;

    // Workers take games in turn; results are written in the games' order as soon
    // as all before them are done.
    const std::size_t total = jobs->size();
    std::atomic<std::size_t> next{0};
    std::mutex mutex;
    std::map<std::size_t, std::vector<training::Puzzle>> done;
    std::size_t written = 0;
    std::set<std::string> seen;
    training::GeneratorStats stats;
    int failed = 0, puzzles = 0;
    const auto started = std::chrono::steady_clock::now();
    auto work = [&]() {
        engine::Engine engine;
        training::GeneratorStats mine;
        for (std::size_t i; (i = next.fetch_add(1)) < total;) {
            const Job& job = (*jobs)[i];
            auto found = training::find_puzzles(engine, job.start, job.moves, settings, job.url_prefix, &mine);
            std::lock_guard lock(mutex);
            if (!found) {
                std::cerr << PuzzlesMake << job.label << ": skipped: " << found.error().message << "\n";
                ++failed;
                done[i] = {};
            } else {
                done[i] = std::move(*found);
            }
            for (auto it = done.find(written); it != done.end(); it = done.find(written)) {
                for (const training::Puzzle& p : it->second)
                    if (seen.insert(training::position_key(p.fen)).second) {
                        out << training::to_csv_line(p) << "\n";
                        ++puzzles;
                    }
                done.erase(it);
                ++written;
            }
            out.flush();
            if (!args.quiet)
                std::cerr << PuzzlesMake << written << "/" << total << " games, " << puzzles << " puzzles\n";
        }
        std::lock_guard lock(mutex);
        stats += mine;
    };
    std::vector<std::thread> threads;
    for (int t = 1; t < args.threads; ++t) threads.emplace_back(work);
    work();
    for (auto& t : threads) t.join();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::cerr << PuzzlesMake << "done: " << total << " games (" << skipped + failed << " skipped), " << stats.candidates
              << " candidates, " << puzzles << " puzzles, " << stats.nodes << " nodes, " << int(seconds) << " s\n";
    if (!out) {
        std::cerr << PuzzlesMake << "cannot write " << (args.output.empty() ? "standard output" : args.output) << "\n";
        return 1;
    }
    return 0;
}

}  // namespace

void add_puzzles_command(CLI::App& parent, std::function<int()>& run) {
    CLI::App* cmd = parent.add_subcommand("puzzles", "Puzzles: make them from games (docs/puzzles.md)");
    cmd->require_subcommand(1);
    auto args = std::make_shared<MakeArgs>();
    CLI::App* make_cmd =
        cmd->add_subcommand("make", "Cut puzzles from finished games; writes the lichess puzzle CSV");
    make_cmd->add_option("--db", args->db, "SQLite database of `outpost serve`: its finished standard games");
    make_cmd->add_option("--database", args->database, "PostgreSQL database of `outpost serve --database` (instead of --db)")
        ->check(CLI::Validator(
            [](std::string& v) { return server::postgres::is_url(v) ? std::string() : std::string("a postgresql:// URL"); },
            "URL"));
    make_cmd->add_option("files", args->files, "PGN files");
    make_cmd->add_option("--nodes", args->nodes, "Nodes per solver step of the deep search")->capture_default_str();
    make_cmd->add_option("--scan-nodes", args->scan_nodes, "Nodes per position of the first pass")->capture_default_str();
    make_cmd->add_option("--threads", args->threads, "Games searched at once, one engine each (1-64)")
        ->check(CLI::Range(1, 64))
        ->capture_default_str();
    make_cmd->add_option("-o,--output", args->output, "Write to this file instead of standard output");
    make_cmd->add_flag("--quiet", args->quiet, "No progress on standard error");
    make_cmd->callback([&run, args] { run = [args] { return make(*args); }; });
}

}  // namespace outpost::app
