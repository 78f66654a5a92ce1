// Outpost — `outpost db`: the database's schema version, on the database that
// `outpost serve` uses.
//
//   outpost db [--db FILE] status    the database's version, the program's, what is pending
//   outpost db [--db FILE] migrate   applies what is pending (`outpost serve` does at start)
//   outpost db [--db FILE] check     integrity and schema version: "ok" (exit 0) or what is
//                                    wrong (exit 1); changes nothing, also while serving
//
// A database newer than the program is refused by both, and by every store.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <iostream>
#include <memory>
#include <string>

#include "app/commands.h"
#include "server/stores/backup.h"
#include "server/stores/schema.h"

namespace outpost::app {
namespace {

struct DbArgs {
    std::string db = "outpost.db";
};

void print_status(const std::string& db, const server::SchemaStatus& s) {
    std::cout << "database " << db << ": schema version " << s.database << "\n";
    std::cout << "outpost: schema version " << s.program << "\n";
    if (s.newer()) {
        std::cout << "the database is newer than this program: run a newer outpost with it\n";
    } else if (s.pending.empty()) {
        std::cout << "no migration pending\n";
    } else {
        std::cout << s.pending.size() << " migration" << (s.pending.size() == 1 ? "" : "s") << " pending:\n";
        for (const std::string& m : s.pending) std::cout << "  " << m << "\n";
    }
}

}  // namespace

void add_db_command(CLI::App& parent, std::function<int()>& run) {
    auto args = std::make_shared<DbArgs>();
    CLI::App* cmd = parent.add_subcommand("db", "The database's schema version, its migrations and its check (administrator)");
    cmd->add_option("--db", args->db, "SQLite database file of `outpost serve`")->capture_default_str();
    cmd->require_subcommand(1);
    CLI::App* status = cmd->add_subcommand("status", "Print the database's schema version, the program's and the pending migrations");
    status->callback([&run, args] {
        run = [args]() {
            auto s = server::schema_status(args->db);
            if (!s) {
                std::cerr << "outpost db status: " << s.error().message << "\n";
                return 1;
            }
            print_status(args->db, *s);
            return s->newer() ? 1 : 0;
        };
    });
    CLI::App* migrate = cmd->add_subcommand("migrate", "Apply the pending migrations (creating the database if needed)");
    migrate->callback([&run, args] {
        run = [args]() {
            auto before = server::schema_status(args->db);
            if (!before) {
                std::cerr << "outpost db migrate: " << before.error().message << "\n";
                return 1;
            }
            auto after = server::migrate_schema(args->db);
            if (!after) {
                std::cerr << "outpost db migrate: " << after.error().message << "\n";
                return 1;
            }
            const std::size_t applied = before->pending.size();
            std::cout << "database " << args->db << ": schema version " << after->database;
            if (applied == 0) std::cout << ", nothing to migrate\n";
            else std::cout << " (" << applied << " migration" << (applied == 1 ? "" : "s") << " applied)\n";
            return 0;
        };
    });
    CLI::App* check = cmd->add_subcommand("check", "Check the database's integrity and schema version (ok: exit 0)");
    check->callback([&run, args] {
        run = [args]() {
            auto r = server::check_database(args->db);
            if (!r) {
                std::cerr << "outpost db check: " << r.error().message << "\n";
                return 1;
            }
            for (const std::string& p : r->problems) std::cout << p << "\n";
            if (!r->ok()) return 1;
            std::cout << "ok\n";
            if (r->schema_version < r->program_version)
                std::cout << "(schema version " << r->schema_version << ", this program's " << r->program_version
                          << ": `outpost db migrate` or `outpost serve` upgrades it)\n";
            return 0;
        };
    });
}

}  // namespace outpost::app
