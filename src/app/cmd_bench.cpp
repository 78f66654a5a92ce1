// Outpost — `outpost bench [depth]`: the deterministic search signature.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <iostream>

#include "app/commands.h"
#include "engine/bench.h"

namespace outpost::app {

void add_bench_command(CLI::App& parent, std::function<int()>& run) {
    auto depth = std::make_shared<int>(engine::BENCH_DEFAULT_DEPTH);
    CLI::App* cmd = parent.add_subcommand("bench", "Search the bench positions to a fixed depth and count the nodes");
    cmd->add_option("depth", *depth, "Depth in plies")->check(CLI::Range(1, 30));
    cmd->callback([depth, &run] {
        run = [depth] {
            const auto r = engine::run_bench(*depth, [](const std::string& line) { std::cerr << line << "\n"; });
            if (!r) {
                std::cerr << "outpost bench: " << r.error().message << "\n";
                return 2;
            }
            const auto ms = std::max<std::int64_t>(1, r->time_ms);
            std::cerr << "Total time (ms): " << r->time_ms << "\n";
            std::cout << "Nodes searched: " << r->nodes << "\n";
            std::cout << "Nodes/second: " << r->nodes * 1000 / std::uint64_t(ms) << std::endl;
            return 0;
        };
    });
}

}  // namespace outpost::app
