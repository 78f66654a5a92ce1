// Outpost — `outpost uci`: the engine over the UCI protocol on stdin/stdout (E1).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <iostream>

#include "app/commands.h"
#include "engine/uci_protocol.h"

namespace outpost::app {

void add_uci_command(CLI::App& parent, std::function<int()>& run) {
    CLI::App* cmd = parent.add_subcommand("uci", "Run the engine as a UCI engine on standard input and output");
    cmd->callback([&run] {
        run = [] {
            std::ios::sync_with_stdio(false);
            return engine::run_uci(std::cin, std::cout);
        };
    });
}

}  // namespace outpost::app
