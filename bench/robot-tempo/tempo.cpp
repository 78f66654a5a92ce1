// Outpost — the robot's tempo: its human-like answer time (engine/human_time.h) per
// level and time control, over the positions of real games, without waiting.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Each game of the PGN is replayed twice, the robot on either side: its clock starts
// at the control's base, every move of its side takes the time the model draws (the
// clock loses it and gains the increment), as a server game would. Prints the median
// and the 90th percentile of the times per level and control.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <vector>

#include "chess/pgn.h"
#include "engine/human_time.h"

using namespace outpost;

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: tempo GAMES.pgn\n");
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    const std::string pgn = text.str();
    std::vector<std::pair<Position, std::vector<Move>>> games;
    PgnReader reader(pgn);
    while (auto g = reader.next())
        if (*g) games.emplace_back((**g).start, (**g).mainline());
    struct Control {
        const char* name;
        Millis base, inc;
    };
    const Control controls[] = {{"3+2", 180'000, 2'000}, {"5+3", 300'000, 3'000}, {"15+10", 900'000, 10'000}};
    std::printf("%zu games; answer time in seconds, median / 90th percentile\n", games.size());
    std::printf("level");
    for (const auto& c : controls) std::printf("  %13s", c.name);
    std::printf("\n");
    for (int level = 1; level <= 10; ++level) {
        std::printf("%5d", level);
        for (const auto& c : controls) {
            std::mt19937_64 rng(std::uint64_t(level) * 1000 + std::uint64_t(c.base));
            std::vector<Millis> times;
            for (const auto& [start, moves] : games) {
                for (Color robot : {WHITE, BLACK}) {
                    Position pos = start;
                    Millis clock = c.base;
                    for (size_t ply = 0; ply < moves.size(); ++ply) {
                        if (pos.side_to_move() == robot) {
                            engine::HumanTimeInput hi = engine::human_time_input(pos, int(ply), clock, c.inc);
                            hi.level = level;
                            const Millis t = engine::human_move_time(hi, rng);
                            times.push_back(t);
                            clock = std::max<Millis>(0, clock - t) + c.inc;
                        }
                        pos.do_move(moves[ply]);
                    }
                }
            }
            std::sort(times.begin(), times.end());
            const double median = times.empty() ? 0 : times[times.size() / 2] / 1000.0;
            const double p90 = times.empty() ? 0 : times[times.size() * 9 / 10] / 1000.0;
            std::printf("  %5.1f / %5.1f", median, p90);
        }
        std::printf("\n");
    }
    std::printf("(the model for every level; the server holds the casual levels' moves (a search capped at\n"
                " 1 s or less): levels 1-9. Level 10 searches at full strength on its own time management.)\n");
}
