// Outpost — `outpost backup` and `outpost restore` (SPEC D7), over stores/backup.h.
//
//   outpost backup [--db FILE] [--force] OUT     one consistent copy, while the server serves
//   outpost restore BACKUP --db FILE [--force]   puts a backup back (the server stopped)
//
// (`outpost db check` is in cmd_db.cpp.) Each refusal is one line on standard error
// and exit code 1; nothing is left half-written.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "app/commands.h"
#include "server/stores/backup.h"

namespace outpost::app {
namespace {

struct BackupArgs {
    std::string db = "outpost.db";
    std::string out;
    bool force = false;
    int step_pages = server::BackupOptions{}.pages_per_step;
};

struct RestoreArgs {
    std::string backup, db;
    bool force = false;
};

// SIGINT or SIGTERM during the copy: it stops between two chunks and removes its
// temporary file (the default action would leave it behind).
volatile std::sig_atomic_t backup_interrupted = 0;
void on_backup_interrupt(int) { backup_interrupted = 1; }

std::string megabytes(std::uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MB", double(bytes) / 1e6);
    return text;
}

}  // namespace

void add_backup_command(CLI::App& parent, std::function<int()>& run) {
    auto args = std::make_shared<BackupArgs>();
    CLI::App* cmd = parent.add_subcommand(
        "backup", "Write one consistent copy of the database, also while `outpost serve` runs (administrator)");
    cmd->add_option("--db", args->db, "SQLite database file of `outpost serve`")->capture_default_str();
    cmd->add_flag("--force", args->force, "Replace OUT if it exists");
    cmd->add_option("--step-pages", args->step_pages, "Pages copied at a time, between pauses for the server")
        ->capture_default_str()
        ->check(CLI::Range(1, 1 << 20));
    cmd->add_option("OUT", args->out, "The backup file to write")->required();
    cmd->callback([&run, args] {
        run = [args]() {
            server::BackupOptions options;
            options.force = args->force;
            options.pages_per_step = args->step_pages;
            std::signal(SIGINT, on_backup_interrupt);
            std::signal(SIGTERM, on_backup_interrupt);
            options.cancelled = [] { return backup_interrupted != 0; };
            auto r = server::backup_database(args->db, args->out, options);
            if (!r) {
                std::cerr << "outpost backup: " << r.error().message << "\n";
                return 1;
            }
            std::printf("backup %s: %s, schema version %d, checked (%.2f s)\n", r->path.c_str(), megabytes(r->bytes).c_str(),
                        r->schema_version, r->seconds);
            return 0;
        };
    });
}

void add_restore_command(CLI::App& parent, std::function<int()>& run) {
    auto args = std::make_shared<RestoreArgs>();
    CLI::App* cmd = parent.add_subcommand(
        "restore", "Put a backup back as the database (stop `outpost serve` first) (administrator)");
    cmd->add_option("BACKUP", args->backup, "A file written by `outpost backup`")->required();
    cmd->add_option("--db", args->db, "The database file to write")->required();
    cmd->add_flag("--force", args->force, "Replace the database if it exists");
    cmd->callback([&run, args] {
        run = [args]() {
            auto r = server::restore_database(args->backup, args->db, args->force);
            if (!r) {
                std::cerr << "outpost restore: " << r.error().message << "\n";
                return 1;
            }
            std::printf("restored %s from %s: %s, schema version %d, checked\n", r->path.c_str(), args->backup.c_str(),
                        megabytes(r->bytes).c_str(), r->schema_version);
            return 0;
        };
    });
}

}  // namespace outpost::app
