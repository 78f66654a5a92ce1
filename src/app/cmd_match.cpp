// Outpost — `outpost match`: UCI engines against each other (see match/config.h for
// the arguments, or `outpost match -help`).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <atomic>
#include <csignal>
#include <iostream>

#include "app/commands.h"
#include "match/config.h"
#include "match/tournament.h"

namespace outpost::app {

namespace {

// Set by Ctrl-C: the match stops, abandons the games in progress and prints the
// results so far. A second Ctrl-C ends the program at once.
std::atomic<bool> interrupted{false};

extern "C" void on_interrupt(int) {
    if (interrupted.exchange(true)) std::_Exit(130);
}

}  // namespace

void add_match_command(CLI::App& parent, std::function<int()>& run) {
    CLI::App* cmd = parent.add_subcommand("match", "Play UCI engines against each other (outpost match -help)");
    // The engine-testing options are single-dash words (-engine cmd=…), which CLI11
    // would read as bundles of short flags: everything goes to our own reader.
    cmd->prefix_command();
    cmd->set_help_flag();
    cmd->callback([cmd, &run] {
        run = [args = cmd->remaining()] {
            if (args.empty()) {
                std::cerr << match::match_usage();
                return 2;
            }
            auto cfg = match::parse_match_args(args);
            if (!cfg) {
                std::cerr << "outpost match: " << cfg.error().message << "\n";
                return 2;
            }
            if (cfg->help) {
                std::cout << match::match_usage();
                return 0;
            }
            std::signal(SIGINT, on_interrupt);
            std::signal(SIGTERM, on_interrupt);
            match::Tournament tournament(*cfg, std::cout, std::cerr, interrupted);
            const auto summary = tournament.run();
            if (!summary) {
                std::cerr << "outpost match: " << summary.error().message << "\n";
                return 1;
            }
            if (summary->interrupted) std::cerr << "outpost match: interrupted\n";
            return 0;
        };
    });
}

}  // namespace outpost::app
