// Outpost — puzzles from a lichess-format CSV into the store (puzzle_import.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/training/puzzle_import.h"

#include <filesystem>
#include <fstream>
#include <vector>

#include "server/training/puzzle_rules.h"
#include "training/puzzle_csv.h"

namespace outpost::server {
namespace {

Result<bool> flush_puzzle_batch(std::vector<PuzzleRecord>& batch, PuzzleStore& store, PuzzleImportCounts& counts) {
    if (batch.empty()) return true;
    auto added = store.add(batch);
    if (!added) return added.error();
    counts.added += added->added;
    counts.duplicates += added->duplicates;
    batch.clear();
    return true;
}

}  // namespace

Result<PuzzleImportCounts> import_puzzles(std::istream& in, const std::string& source, PuzzleStore& store,
                                          const std::function<void(const PuzzleImportCounts&)>& progress) {
    PuzzleImportCounts counts;
    std::vector<PuzzleRecord> batch;
    std::string line;
    std::size_t line_no = 0;
    while (std::getline(in, line)) {
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        auto row = training::parse_puzzle_csv_line(line, line_no);
        if (!row) return make_error(source + ": " + row.error().message);
        if (!*row) continue;
        ++counts.read;
        batch.push_back(to_record(**row));
        if (batch.size() >= ImportBatch) {
            if (auto r = flush_puzzle_batch(batch, store, counts); !r) return r.error();
            if (progress) progress(counts);
        }
    }
    if (in.bad()) return make_error(source + ": read error after line " + std::to_string(line_no));
    if (auto r = flush_puzzle_batch(batch, store, counts); !r) return r.error();
    if (progress) progress(counts);
    return counts;
}

Result<PuzzleImportCounts> load_starter_puzzles(const std::string& path, PuzzleStore& store) {
    std::error_code ec;
    if (path.empty() || !std::filesystem::is_regular_file(path, ec)) return PuzzleImportCounts{};
    auto stored = store.count();
    if (!stored) return stored.error();
    if (*stored > 0) return PuzzleImportCounts{};
    std::ifstream in(path, std::ios::binary);
    if (!in) return make_error("cannot open " + path);
    return import_puzzles(in, path, store);
}

}  // namespace outpost::server
