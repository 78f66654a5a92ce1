// Outpost — `outpost db copy --from FILE.db --to postgresql://…` (issue 26): every table
// of a source (stores/table_source.h) into an empty PostgreSQL database, in one
// transaction, with each table's rows counted on both sides before it commits.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <deque>

#include "server/stores/postgres/pg_db.h"
#include "server/stores/postgres/pg_schema.h"
#include "server/stores/postgres/pg_stores.h"

namespace outpost::server {
namespace pg {
namespace {

// Every table of the schema, those referred to before those that refer to them.
constexpr const char* Tables[] = {"accounts", "sessions", "games", "moves", "analyses", "ratings", "rating_history",
                                  "simuls", "events", "event_players", "event_boards", "admin_audit", "reports",
                                  "arbiter_decisions", "puzzles", "puzzle_themes", "puzzle_ratings", "puzzle_attempts",
                                  "puzzle_scanned_games"};
// The tables whose ids the database gives (identity columns): their sequences go on
// after the largest id copied.
constexpr const char* IdentityTables[] = {"accounts", "events", "admin_audit", "reports", "puzzle_attempts"};

// A name of the program's own list or of the target's schema, never a user's; quoted
// all the same.
std::string quoted(const std::string& name) {
    std::string s = "\"";
    for (char c : name) s += c == '"' ? std::string("\"\"") : std::string(1, c);
    return s + "\"";
}

}  // namespace
}  // namespace pg

Result<std::vector<CopiedTable>> postgres::copy_into(TableSource& source, const std::string& url) {
    auto version = source.schema_version();
    if (!version) return version.error();
    const int program = pg_schema::program_version();
    if (*version < program)
        return make_error("the source has schema version " + std::to_string(*version) + ", this program's is " +
                          std::to_string(program) + ": run `outpost db migrate --db FILE` on it first");
    if (*version > program)
        return make_error("the source has schema version " + std::to_string(*version) + ", newer than this program's " +
                          std::to_string(program) + ": copy it with a newer outpost");
    pg::Connection c;
    if (auto r = c.open_store(url); !r) return r.error();
    std::vector<CopiedTable> out;
    std::deque<std::string> sql;  // the statements' texts live as long as the connection
    auto done = c.transaction([&]() -> Result<bool> {
        static const char* const ColumnsSql =
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = $1 ORDER BY ordinal_position";
        for (const char* table : pg::Tables) {
            CopiedTable t;
            t.table = table;
            const std::string name = pg::quoted(table);
            sql.push_back("SELECT count(*) FROM " + name);
            auto before = c.run(sql.back().c_str());
            if (!before) return before.error();
            if (before->integer(0, 0) != 0)
                return make_error("the database " + pg::shown_url(url) + " already holds data (" + table + ": " +
                                  before->text(0, 0) + " rows): copy into an empty database");
            auto columns = c.run(ColumnsSql, pg::Params()(t.table));
            if (!columns) return columns.error();
            std::vector<std::string> names;
            std::string insert = "INSERT INTO " + name + " (", values;
            for (int i = 0; i < columns->size(); ++i) {
                names.push_back(columns->text(i, 0));
                insert += (i ? ", " : "") + pg::quoted(names.back());
                values += (i ? ",$" : "$") + std::to_string(i + 1);
            }
            if (names.empty()) return make_error("the database has no table " + t.table);
            sql.push_back(insert + ") VALUES (" + values + ")");
            const char* insert_sql = sql.back().c_str();
            auto copied = source.rows(t.table, names, [&](const TableRow& row) -> Result<bool> {
                pg::Params p;
                for (const auto& v : row) p.value(v);
                if (auto r = c.run(insert_sql, p); !r) return make_error(t.table + ": " + r.error().message);
                return true;
            });
            if (!copied) return copied;
            auto in_source = source.count(t.table);
            if (!in_source) return in_source.error();
            auto in_target = c.run(sql[sql.size() - 2].c_str());
            if (!in_target) return in_target.error();
            t.source = *in_source;
            t.target = in_target->integer(0, 0);
            out.push_back(t);
            if (t.source != t.target)
                return make_error(t.table + ": " + std::to_string(t.source) + " rows in the source, " +
                                  std::to_string(t.target) + " copied: nothing is kept");
        }
        for (const char* table : pg::IdentityTables) {
            // setval(sequence, next id - 1, true): the next id given is past every copied one.
            sql.push_back(std::string("SELECT setval(pg_get_serial_sequence('") + table + "', 'id'), " +
                          "COALESCE((SELECT max(id) FROM " + pg::quoted(table) + "), 0) + 1, false)");
            if (auto r = c.run(sql.back().c_str()); !r) return r.error();
        }
        return true;
    });
    if (!done) return done.error();
    return out;
}

}  // namespace outpost::server
