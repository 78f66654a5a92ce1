// Outpost — `outpost perft DEPTH [--fen FEN] [--chess960] [--divide]`.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <chrono>
#include <iostream>

#include "app/commands.h"
#include "chess/fen.h"
#include "chess/perft.h"
#include "chess/uci.h"

namespace outpost::app {

void add_perft_command(CLI::App& parent, std::function<int()>& run) {
    struct Options {
        int depth = 1;
        std::string fen{StartFen};
        bool chess960 = false;
        bool divide = false;
    };
    auto opts = std::make_shared<Options>();
    CLI::App* cmd = parent.add_subcommand("perft", "Count the leaf nodes of the legal move tree");
    cmd->add_option("depth", opts->depth, "Depth in plies")->required()->check(CLI::Range(0, 20));
    cmd->add_option("--fen", opts->fen, "Start position (FEN, X-FEN or Shredder-FEN)");
    cmd->add_flag("--chess960", opts->chess960, "Chess960 castling notation (king takes rook)");
    cmd->add_flag("--divide", opts->divide, "Print the count below each root move");
    cmd->callback([opts, &run] {
        run = [opts] {
            auto pos = position_from_fen(opts->fen, opts->chess960);
            if (!pos) {
                std::cerr << "outpost perft: bad FEN: " << pos.error().message << "\n";
                return 2;
            }
            const auto start = std::chrono::steady_clock::now();
            std::uint64_t nodes = 0;
            if (opts->divide) {
                for (const auto& [move, count] : perft_divide(*pos, opts->depth)) {
                    std::cout << move_to_uci(*pos, move) << ": " << count << "\n";
                    nodes += count;
                }
                std::cout << "\n";
            } else {
                nodes = perft(*pos, opts->depth);
            }
            const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            std::cerr << "Time: " << secs << " s, " << (secs > 0 ? nodes / secs / 1e6 : 0.0) << " Mnps\n";
            std::cout << "Nodes searched: " << nodes << std::endl;
            return 0;
        };
    });
}

}  // namespace outpost::app
