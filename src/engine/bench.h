// Outpost — the bench signature (Stockfish `bench`, Weiss): a fixed set of
// positions searched to a fixed depth. The node count is a fingerprint of the
// search; a functional change says its new count in the commit message.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "chess/result.h"

namespace outpost::engine {

constexpr int BENCH_DEFAULT_DEPTH = 11;

const std::vector<std::string>& bench_positions();

struct BenchResult {
    std::uint64_t nodes = 0;
    std::int64_t time_ms = 0;
};

// Searches every bench position at `depth` with one thread, a 16 MB table and a
// fresh state per position (deterministic). `progress` receives one line per position.
// An error names the position that could not be set up.
Result<BenchResult> run_bench(int depth, const std::function<void(const std::string&)>& progress = {});

}  // namespace outpost::engine
