// Outpost — the SQLite database as rows (stores/table_source.h), for `outpost db copy`:
// one read-only connection holding one read transaction, so that every table is read
// from the same snapshot even if a server writes meanwhile.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cstdio>
#include <filesystem>

#include "server/stores/sqlite/sqlite_db.h"
#include "server/stores/sqlite/sqlite_schema.h"
#include "server/stores/table_source.h"

namespace outpost::server {
namespace {

// A table or column name as SQL writes it (the names come from the program's own list
// and the target's schema, never from a user; quoted all the same).
std::string quoted(const std::string& name) {
    std::string s = "\"";
    for (char c : name) s += c == '"' ? std::string("\"\"") : std::string(1, c);
    return s + "\"";
}

class SqliteTableSource final : public TableSource {
public:
    ~SqliteTableSource() override {
        if (c_.db) (void)c_.exec("COMMIT;");
    }

    Result<bool> open(const std::string& path) {
        std::error_code ec;
        if (!std::filesystem::exists(path, ec)) return make_error("no database at " + path);
        auto opened = open_connection(path, SQLITE_OPEN_READONLY);
        if (!opened) return opened.error();
        c_.db = *opened;
        if (auto r = c_.exec("BEGIN;"); !r) return r;
        // The snapshot starts at the first read.
        return schema_version().ok() ? Result<bool>(true) : Result<bool>(make_error("cannot read " + path));
    }

    Result<int> schema_version() override { return sqlite_schema::database_version(c_); }

    Result<std::int64_t> count(const std::string& table) override {
        Statement s(c_.db, ("SELECT count(*) FROM " + quoted(table)).c_str());
        if (!s.ok() || s.step() != SQLITE_ROW) return db_error(c_.db, "count the rows of " + table);
        return s.integer(0);
    }

    Result<bool> rows(const std::string& table, const std::vector<std::string>& columns,
                      const std::function<Result<bool>(const TableRow&)>& each) override {
        std::string sql = "SELECT ";
        for (size_t i = 0; i < columns.size(); ++i) sql += (i ? ", " : "") + quoted(columns[i]);
        sql += " FROM " + quoted(table);
        Statement s(c_.db, sql.c_str());
        if (!s.ok()) return db_error(c_.db, "read " + table);
        TableRow row(columns.size());
        int rc;
        while ((rc = s.step()) == SQLITE_ROW) {
            for (size_t i = 0; i < columns.size(); ++i) row[i] = value(s, int(i));
            if (auto r = each(row); !r) return r;
        }
        if (rc != SQLITE_DONE) return db_error(c_.db, "read " + table);
        return true;
    }

private:
    std::optional<std::string> value(const Statement& s, int col) {
        switch (s.type(col)) {
        case SQLITE_NULL: return std::nullopt;
        case SQLITE_INTEGER: return std::to_string(s.integer(col));
        case SQLITE_FLOAT: {
            char buf[40];
            std::snprintf(buf, sizeof buf, "%.17g", s.real(col));
            return std::string(buf);
        }
        default: return s.text(col);
        }
    }

    Connection c_;
};

}  // namespace

Result<std::unique_ptr<TableSource>> TableSource::open_sqlite(const std::string& path) {
    auto source = std::make_unique<SqliteTableSource>();
    if (auto r = source->open(path); !r) return r.error();
    return std::unique_ptr<TableSource>(std::move(source));
}

}  // namespace outpost::server
