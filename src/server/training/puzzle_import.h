// Outpost — puzzles from a lichess-format CSV into the store (issue 29): `outpost puzzles
// import FILE.csv` and the starter set a new server loads (data/puzzles.csv, installed
// as /usr/share/outpost/puzzles.csv). The file is read line by line, never whole (the
// lichess database is millions of lines), and stored in batches of ImportBatch puzzles,
// each one transaction. The first bad row stops the reading with the file, the line and
// the reason (a lichess dump has none, and a file with one is not the file one meant to
// load); the batches before it stay stored, and reading the fixed file again adds only
// what is missing (a puzzle whose position or id is stored is a duplicate).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <string>

#include "chess/result.h"
#include "server/stores/puzzle_store.h"

namespace outpost::server {

inline constexpr std::size_t ImportBatch = 1000;

struct PuzzleImportCounts {
    std::int64_t read = 0;        // puzzle rows read (the header and empty lines are not counted)
    std::int64_t added = 0;       // new puzzles stored
    std::int64_t duplicates = 0;  // rows whose position (or id) was stored already
};

// Reads `in` (named `source` in messages: "puzzles.csv: line 12: column FEN: ...") into
// the store. `progress` (may be empty) is called after each batch.
Result<PuzzleImportCounts> import_puzzles(std::istream& in, const std::string& source, PuzzleStore& store,
                                          const std::function<void(const PuzzleImportCounts&)>& progress = {});

// The starter set: when the store holds no puzzle and `path` names a file, its puzzles;
// nothing (counts of zero) otherwise. An unreadable or bad file is an error.
Result<PuzzleImportCounts> load_starter_puzzles(const std::string& path, PuzzleStore& store);

}  // namespace outpost::server
