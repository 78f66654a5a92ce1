// Outpost — the tables of a database as rows, for `outpost db copy` (issue 26): a source
// that lists each table's rows (one consistent snapshot) and a copy into another
// backend that reads them through this interface only. SQLite implements the source
// (stores/sqlite/sqlite_tables.cpp); PostgreSQL the copy (stores/postgres/pg_copy.cpp).
// Both backends have the same tables and columns at the same schema version.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "chess/result.h"

namespace outpost::server {

// One row's values in the order of the columns asked for: text (numbers written out
// in full, a real with every digit) or nullopt for NULL.
using TableRow = std::vector<std::optional<std::string>>;

class TableSource {
public:
    // The SQLite database at path, read in one snapshot (nothing is written to it).
    static Result<std::unique_ptr<TableSource>> open_sqlite(const std::string& path);
    virtual ~TableSource() = default;
    virtual Result<int> schema_version() = 0;
    virtual Result<std::int64_t> count(const std::string& table) = 0;
    // Every row of the table with these columns; `each` may stop the reading with an error.
    virtual Result<bool> rows(const std::string& table, const std::vector<std::string>& columns,
                              const std::function<Result<bool>(const TableRow&)>& each) = 0;
};

// What a copy checked: the rows of each table in the source and in the target.
struct CopiedTable {
    std::string table;
    std::int64_t source = 0, target = 0;
};

}  // namespace outpost::server
