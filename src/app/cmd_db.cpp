// Outpost — `outpost db`: the database's schema version, on the database that
// `outpost serve` uses.
//
//   outpost db [--db FILE] status    the database's version, the program's, what is pending
//   outpost db [--db FILE] migrate   applies what is pending (`outpost serve` does at start)
//   outpost db [--db FILE] check     integrity and schema version: "ok" (exit 0) or what is
//                                    wrong (exit 1); changes nothing, also while serving
//   outpost db --database URL status|migrate   the same on a PostgreSQL database (issue 26)
//   outpost db copy --from FILE.db --to URL    every table of an SQLite database into an
//                                    empty PostgreSQL one; prints the rows it counted
//
// A database newer than the program is refused by both, and by every store.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <iostream>
#include <memory>
#include <string>

#include "app/commands.h"
#include "server/stores/backup.h"
#include "server/stores/postgres/pg_stores.h"
#include "server/stores/schema.h"
#include "server/stores/table_source.h"

namespace outpost::app {
namespace {

struct DbArgs {
    std::string db = "outpost.db";
    std::string database;  // a PostgreSQL URL instead of `db`
    std::string from, to;  // `db copy`
    // The database as the commands name it, and its status and migration on its backend.
    std::string shown() const { return database.empty() ? db : server::postgres::shown_url(database); }
    Result<server::SchemaStatus> status() const {
        return database.empty() ? server::schema_status(db) : server::postgres::schema_status(database);
    }
    Result<server::SchemaStatus> migrate() const {
        return database.empty() ? server::migrate_schema(db) : server::postgres::migrate_schema(database);
    }
};

CLI::Validator postgres_url() {
    return CLI::Validator(
        [](std::string& v) {
            return server::postgres::is_url(v) ? std::string() : std::string("a postgresql:// URL (an SQLite file is --db FILE)");
        },
        "URL");
}

int copy(const DbArgs& a) {
    auto source = server::TableSource::open_sqlite(a.from);
    if (!source) {
        std::cerr << "outpost db copy: " << source.error().message << "\n";
        return 1;
    }
    auto copied = server::postgres::copy_into(**source, a.to);
    if (!copied) {
        std::cerr << "outpost db copy: " << copied.error().message << "\n";
        return 1;
    }
    std::int64_t rows = 0;
    for (const server::CopiedTable& t : *copied) {
        std::cout << t.table << ": " << t.source << " rows in " << a.from << ", " << t.target << " in the copy\n";
        rows += t.target;
    }
    std::cout << "copied " << rows << " rows of " << copied->size() << " tables into " << server::postgres::shown_url(a.to)
              << "; every count checked\n";
    return 0;
}

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
    cmd->add_option("--database", args->database, "PostgreSQL database of `outpost serve --database` (instead of --db)")
        ->check(postgres_url());
    cmd->require_subcommand(1);
    CLI::App* status = cmd->add_subcommand("status", "Print the database's schema version, the program's and the pending migrations");
    status->callback([&run, args] {
        run = [args]() {
            auto s = args->status();
            if (!s) {
                std::cerr << "outpost db status: " << s.error().message << "\n";
                return 1;
            }
            print_status(args->shown(), *s);
            return s->newer() ? 1 : 0;
        };
    });
    CLI::App* migrate = cmd->add_subcommand("migrate", "Apply the pending migrations (creating the database if needed)");
    migrate->callback([&run, args] {
        run = [args]() {
            auto before = args->status();
            if (!before) {
                std::cerr << "outpost db migrate: " << before.error().message << "\n";
                return 1;
            }
            auto after = args->migrate();
            if (!after) {
                std::cerr << "outpost db migrate: " << after.error().message << "\n";
                return 1;
            }
            const std::size_t applied = before->pending.size();
            std::cout << "database " << args->shown() << ": schema version " << after->database;
            if (applied == 0) std::cout << ", nothing to migrate\n";
            else std::cout << " (" << applied << " migration" << (applied == 1 ? "" : "s") << " applied)\n";
            return 0;
        };
    });
    CLI::App* check = cmd->add_subcommand("check", "Check the database's integrity and schema version (ok: exit 0)");
    check->callback([&run, args] {
        run = [args]() {
            if (!args->database.empty()) {
                std::cerr << "outpost db check: checks an SQLite file (--db); a PostgreSQL database has its own tools "
                             "(`outpost db status --database URL` reads its schema version)\n";
                return 2;
            }
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
    CLI::App* copy_cmd = cmd->add_subcommand(
        "copy", "Copy every table of an SQLite database into an empty PostgreSQL database, counting the rows of each");
    copy_cmd->add_option("--from", args->from, "SQLite database file (stop the server that uses it first)")->required();
    copy_cmd->add_option("--to", args->to, "PostgreSQL database: postgresql://USER@HOST[:PORT]/DB")
        ->required()
        ->check(postgres_url());
    copy_cmd->callback([&run, args] {
        run = [args]() { return copy(*args); };
    });
}

}  // namespace outpost::app
