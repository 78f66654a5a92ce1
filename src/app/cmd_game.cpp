// Outpost — `outpost game`: the arbiter's commands for games (SPEC R18, P19), on the
// database that `outpost serve` uses.
//
//   outpost game [--db FILE] resume ID --at 2026-11-25T18:00:00Z
//
// sets the resumption time of an adjourned game (FIDE Laws, Guidelines I: the arbiter
// fixes when an adjourned game resumes). A running server reads it within seconds
// (HubEnv::arbiter_poll_ms), a stopped one when it starts.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <iostream>
#include <memory>
#include <string>

#include "app/commands.h"
#include "server/play/adjournment.h"
#include "server/stores/game_store.h"
#include "server/stores/postgres/pg_stores.h"

namespace outpost::app {
namespace {

struct GameArgs {
    std::string db = "outpost.db";
    std::string database;  // a PostgreSQL URL instead of `db` (issue 26)
    std::string id, at;
};

}  // namespace

void add_game_command(CLI::App& parent, std::function<int()>& run) {
    auto args = std::make_shared<GameArgs>();
    CLI::App* cmd = parent.add_subcommand("game", "Arbiter's commands for games (administrator)");
    cmd->add_option("--db", args->db, "SQLite database file of `outpost serve`")->capture_default_str();
    cmd->add_option("--database", args->database, "PostgreSQL database of `outpost serve --database` (instead of --db)")
        ->check(CLI::Validator(
            [](std::string& v) { return server::postgres::is_url(v) ? std::string() : std::string("a postgresql:// URL"); },
            "URL"));
    cmd->require_subcommand(1);
    CLI::App* resume = cmd->add_subcommand("resume", "Set when an adjourned game resumes (R18)");
    resume->add_option("ID", args->id, "the game's id")->required();
    resume->add_option("--at", args->at, "the resumption time in UTC, e.g. 2026-11-25T18:00:00Z")->required();
    resume->callback([&run, args] {
        run = [args]() {
            auto at = server::parse_iso_time(args->at);
            if (!at) {
                std::cerr << "outpost game: --at " << args->at << ": write a UTC time such as 2026-11-25T18:00:00Z\n";
                return 1;
            }
            auto store = args->database.empty() ? server::Storage::open(args->db) : server::postgres::open_games(args->database);
            if (!store) {
                std::cerr << "outpost game: " << (args->database.empty() ? args->db : server::postgres::shown_url(args->database))
                          << ": " << store.error().message << "\n";
                return 1;
            }
            if (auto ok = (*store)->set_arbiter_resume(args->id, *at); !ok) {
                std::cerr << "outpost game: " << ok.error().message << "\n";
                return 1;
            }
            std::cout << "game " << args->id << " resumes at " << server::format_iso_time(*at) << "\n";
            return 0;
        };
    });
}

}  // namespace outpost::app
