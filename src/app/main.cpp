// Outpost — the `outpost` executable.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <iostream>
#include <string>

#include "app/commands.h"
#include "outpost_version.h"  // generated at build time (cmake/version.cmake)

int main(int argc, char** argv) {
    CLI::App app{"Outpost: a self-hosted chess system (rules library, UCI engine, game server)"};
    app.set_version_flag("--version", std::string("outpost ") + OUTPOST_VERSION + " (" + OUTPOST_COMMIT + ")",
                         "Print the version and the commit it was built from");
    app.require_subcommand(1);
    std::function<int()> run;
    outpost::app::add_perft_command(app, run);
    outpost::app::add_pgn_command(app, run);
    outpost::app::add_match_command(app, run);
    outpost::app::add_uci_command(app, run);
    outpost::app::add_bench_command(app, run);
    outpost::app::add_serve_command(app, run);
    outpost::app::add_pair_command(app, run);
    outpost::app::add_standings_command(app, run);
    outpost::app::add_roundrobin_command(app, run);
    outpost::app::add_helpmate_command(app, run);
    outpost::app::add_user_command(app, run);
    outpost::app::add_game_command(app, run);
    outpost::app::add_db_command(app, run);
    outpost::app::add_backup_command(app, run);
    outpost::app::add_restore_command(app, run);
    outpost::app::add_puzzles_command(app, run);
    outpost::app::add_puzzles_import_command(*app.get_subcommand("puzzles"), run);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    return run ? run() : 0;
}
