// Outpost — `outpost puzzles import FILE.csv [--db FILE | --database URL]` (issue 29): puzzles in the
// columns of the lichess puzzle database into a server's database, read line by line
// (server/training/puzzle_import.h: the first bad row stops it with file, line and
// reason; a puzzle whose position is stored already is counted as a duplicate).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <fstream>
#include <iostream>
#include <memory>

#include "app/commands.h"
#include "server/stores/postgres/pg_stores.h"
#include "server/stores/puzzle_store.h"
#include "server/training/puzzle_import.h"

namespace outpost::app {

void add_puzzles_import_command(CLI::App& puzzles, std::function<int()>& run) {
    struct Args {
        std::string file;
        std::string db = "outpost.db";
        std::string database;  // a PostgreSQL URL instead of `db` (issue 26)
    };
    auto args = std::make_shared<Args>();
    CLI::App* cmd = puzzles.add_subcommand(
        "import", "Read puzzles in the lichess CSV columns (PuzzleId,FEN,Moves,...) into the database");
    cmd->add_option("FILE", args->file, "The CSV file ('-' for standard input)")->required();
    cmd->add_option("--db", args->db, "SQLite database file (created if missing)");
    cmd->add_option("--database", args->database, "PostgreSQL database of `outpost serve --database` (instead of --db)")
        ->check(CLI::Validator(
            [](std::string& v) { return server::postgres::is_url(v) ? std::string() : std::string("a postgresql:// URL"); },
            "URL"));
    cmd->callback([args, &run] {
        run = [args] {
            auto store = args->database.empty() ? server::PuzzleStore::open(args->db)
                                                : server::postgres::open_puzzles(args->database);
            if (!store) {
                std::cerr << "outpost puzzles import: " << store.error().message << "\n";
                return 1;
            }
            std::ifstream file;
            std::istream* in = &std::cin;
            if (args->file != "-") {
                file.open(args->file, std::ios::binary);
                if (!file) {
                    std::cerr << "outpost puzzles import: cannot open " << args->file << "\n";
                    return 1;
                }
                in = &file;
            }
            auto counts = server::import_puzzles(*in, args->file, **store);
            if (!counts) {
                std::cerr << "outpost puzzles import: " << counts.error().message << "\n";
                return 1;
            }
            std::cout << counts->read << " read, " << counts->added << " new, " << counts->duplicates
                      << " duplicates\n";
            return 0;
        };
    });
}

}  // namespace outpost::app
