// Outpost — the subcommands of the `outpost` executable. Each is a thin adapter
// over the libraries: it parses its arguments, calls them and prints.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace outpost::app {

// Each registers itself on the parent and sets `run` to the action.
void add_perft_command(CLI::App& parent, std::function<int()>& run);
void add_pgn_command(CLI::App& parent, std::function<int()>& run);
// `pgn opening` and `pgn analyse`, added to the `pgn` command (cmd_pgn_analysis.cpp).
void add_pgn_analysis_commands(CLI::App& pgn, std::function<int()>& run);
void add_match_command(CLI::App& parent, std::function<int()>& run);
void add_uci_command(CLI::App& parent, std::function<int()>& run);
void add_bench_command(CLI::App& parent, std::function<int()>& run);
void add_serve_command(CLI::App& parent, std::function<int()>& run);
// Club events (cmd_club.cpp).
void add_pair_command(CLI::App& parent, std::function<int()>& run);
void add_standings_command(CLI::App& parent, std::function<int()>& run);
void add_roundrobin_command(CLI::App& parent, std::function<int()>& run);
void add_helpmate_command(CLI::App& parent, std::function<int()>& run);
// Accounts (cmd_user.cpp).
void add_user_command(CLI::App& parent, std::function<int()>& run);
// Adjourned games: the arbiter's resumption time (cmd_game.cpp).
void add_game_command(CLI::App& parent, std::function<int()>& run);
// The database's schema version and migrations (cmd_db.cpp).
void add_db_command(CLI::App& parent, std::function<int()>& run);
// Backups: `backup` and `restore` (cmd_backup.cpp; `db check` is in cmd_db.cpp).
void add_backup_command(CLI::App& parent, std::function<int()>& run);
void add_restore_command(CLI::App& parent, std::function<int()>& run);
// Puzzles (issue 29): `puzzles make` (cmd_puzzles.cpp).
void add_puzzles_command(CLI::App& parent, std::function<int()>& run);
// Puzzles (issue 29): `puzzles import FILE.csv [--db FILE]`, added to the `puzzles`
// command (cmd_puzzles_import.cpp); the parent is add_puzzles_command's.
void add_puzzles_import_command(CLI::App& puzzles, std::function<int()>& run);

}  // namespace outpost::app
