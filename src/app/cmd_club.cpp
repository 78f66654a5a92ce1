// Outpost — club events from the command line (SPEC P20):
//   outpost pair --dutch FILE.trf [-p OUTFILE]   the next round by the Dutch system
//   outpost standings FILE.trf [--tiebreaks BH-C1,BH,SB]
//   outpost roundrobin N [--double]              the Berger tables
// SPDX-License-Identifier: GPL-3.0-or-later
#include <fstream>
#include <iostream>
#include <sstream>

#include "app/commands.h"
#include "club/dutch.h"
#include "club/round_robin.h"
#include "club/tiebreak.h"
#include "club/trf.h"

namespace outpost::app {

namespace {

// Reads and parses a TRF file; prints what is wrong and where on failure.
std::optional<club::Tournament> load_trf(const std::string& command, const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::cerr << "outpost " << command << ": cannot read " << path << "\n";
        return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    auto t = club::read_trf(text.str());
    if (!t) {
        std::cerr << "outpost " << command << ": " << path << ": " << t.error().message << "\n";
        return std::nullopt;
    }
    return std::move(*t);
}

}  // namespace

void add_pair_command(CLI::App& parent, std::function<int()>& run) {
    struct Options {
        bool dutch = false;
        std::string file;
        std::string output;
    };
    auto opts = std::make_shared<Options>();
    CLI::App* cmd = parent.add_subcommand("pair", "Pair the next round of a Swiss tournament given as a FIDE TRF file");
    cmd->add_flag("--dutch", opts->dutch, "The FIDE Dutch system (C.04.3, with C.04.1); every round")->required();
    cmd->add_option("file", opts->file, "Tournament file (TRF-2026 or TRF(x))")->required();
    cmd->add_option("-p", opts->output, "Write the pairing to this file instead of standard output");
    cmd->callback([opts, &run] {
        run = [opts] {
            auto t = load_trf("pair", opts->file);
            if (!t) return 2;
            auto round = club::pair_dutch(*t);
            if (!round) {
                std::cerr << "outpost pair: " << opts->file << ": " << round.error().message << "\n";
                return 1;
            }
            const std::string text = club::write_pairing(*round);
            if (opts->output.empty()) {
                std::cout << text;
                return 0;
            }
            std::ofstream out(opts->output, std::ios::binary);
            out << text;
            if (!out) {
                std::cerr << "outpost pair: cannot write " << opts->output << "\n";
                return 2;
            }
            return 0;
        };
    });
}

void add_standings_command(CLI::App& parent, std::function<int()>& run) {
    struct Options {
        std::string file;
        std::string tiebreaks = "BH-C1,BH,SB";
        bool round_robin = false;
    };
    auto opts = std::make_shared<Options>();
    CLI::App* cmd = parent.add_subcommand("standings", "Standings with FIDE tiebreaks (C.07) from a TRF file");
    cmd->add_option("file", opts->file, "Tournament file (TRF-2026 or TRF(x))")->required();
    cmd->add_option("--tiebreaks", opts->tiebreaks, "Comma-separated C.07 codes: BH, BH-C1, BH-C2, BH-M1, BH-M2, SB, "
                                                    "SB-C1, DE, WIN, WON, ARO, PS, PS-C1");
    cmd->add_flag("--round-robin", opts->round_robin, "Pre-determined pairings: forfeits count as games (C.07 15.2)");
    cmd->callback([opts, &run] {
        run = [opts] {
            auto t = load_trf("standings", opts->file);
            if (!t) return 2;
            std::vector<club::Tiebreak> order;
            std::stringstream codes(opts->tiebreaks);
            std::string code;
            while (std::getline(codes, code, ',')) {
                if (code.empty()) continue;
                auto tb = club::tiebreak_from_code(code);
                if (!tb) {
                    std::cerr << "outpost standings: " << tb.error().message << "\n";
                    return 2;
                }
                order.push_back(*tb);
            }
            club::TiebreakOptions options;
            options.swiss = !opts->round_robin;
            options.total_rounds = t->total_rounds;
            const int rounds = t->rounds_paired();
            std::cout << "Place  No  Name                              Points";
            for (club::Tiebreak tb : order) std::cout << "  " << club::tiebreak_code(tb);
            std::cout << "\n";
            for (const club::Standing& s : club::standings(*t, rounds, order, options)) {
                const club::Player* p = t->find(s.start_rank);
                char line[128];
                std::snprintf(line, sizeof line, "%5d %4d  %-33.33s %6.1f", s.place, s.start_rank, p->name.c_str(),
                              s.points);
                std::cout << line;
                for (double v : s.tiebreaks) std::cout << "  " << v;
                std::cout << "\n";
            }
            return 0;
        };
    });
}

void add_roundrobin_command(CLI::App& parent, std::function<int()>& run) {
    struct Options {
        int players = 0;
        bool double_round = false;
    };
    auto opts = std::make_shared<Options>();
    CLI::App* cmd = parent.add_subcommand("roundrobin", "Print the Berger tables (C.05 Annex 1) for N players");
    cmd->add_option("players", opts->players, "Number of players, 3 to 20")->required();
    cmd->add_flag("--double", opts->double_round, "Double round-robin");
    cmd->callback([opts, &run] {
        run = [opts] {
            club::RoundRobinOptions options;
            options.double_round = opts->double_round;
            auto schedule = club::berger_schedule(opts->players, options);
            if (!schedule) {
                std::cerr << "outpost roundrobin: " << schedule.error().message << "\n";
                return 2;
            }
            for (std::size_t r = 0; r < schedule->size(); ++r) {
                std::cout << "Round " << r + 1 << ":";
                for (const club::Pairing& p : (*schedule)[r]) {
                    if (p.is_bye()) std::cout << "  " << p.white << " bye";
                    else std::cout << "  " << p.white << "-" << p.black;
                }
                std::cout << "\n";
            }
            return 0;
        };
    });
}

}  // namespace outpost::app
