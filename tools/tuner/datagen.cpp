// Outpost — training data for the tuner: fast self-play games at a low node
// count, each position that is quiet labelled with the final result of its game.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Usage: outpost-datagen OUTPUT SECONDS [NODES] [SEED]
// Writes lines "FEN;RESULT" with RESULT 1, 0.5 or 0 from white's point of view.
// Openings: 8 to 9 random legal plies from the start position, so that games differ
// (the first plies are not recorded). A position is kept when the side to move is
// not in check, the search's best move is quiet and the score is not a mate: the
// static evaluation is what the tuner fits, and it cannot see captures or mates.
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "engine/engine.h"

using namespace outpost;
using namespace outpost::engine;

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: outpost-datagen OUTPUT SECONDS [NODES] [SEED]\n";
        return 2;
    }
    std::ofstream out(argv[1], std::ios::app);
    const double seconds = std::atof(argv[2]);
    const std::uint64_t nodes = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 6000;
    std::mt19937_64 rng(argc > 4 ? std::strtoull(argv[4], nullptr, 10) : std::random_device{}());

    Engine engine;
    if (auto hash = engine.set_hash_mb(16); !hash) {
        std::cerr << "datagen: " << hash.error().message << "\n";
        return 1;
    }
    const auto start = std::chrono::steady_clock::now();
    long games = 0, positions = 0;
    while (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds) {
        Position pos = Position::startpos();
        std::vector<Move> moves;
        const int random_plies = 8 + int(rng() % 2);
        bool ok = true;
        for (int i = 0; i < random_plies; ++i) {
            const MoveList list = legal_moves(pos);
            if (list.empty()) {
                ok = false;
                break;
            }
            const Move m = list[int(rng() % std::uint64_t(list.size()))];
            moves.push_back(m);
            pos.do_move(m);
        }
        if (!ok || !pos.has_legal_moves()) continue;

        engine.new_game();
        std::vector<std::string> kept;
        std::unordered_map<Key, int> seen;
        double result = -1;
        int decisive = 0, quiet_draw = 0;
        for (int ply = 0; ply < 400 && result < 0; ++ply) {
            if (!pos.has_legal_moves()) {
                result = pos.in_check() ? (pos.side_to_move() == WHITE ? 0.0 : 1.0) : 0.5;
                break;
            }
            if (pos.halfmove_clock() >= 100 || pos.is_insufficient_material() || ++seen[pos.repetition_key()] >= 3) {
                result = 0.5;
                break;
            }
            (void)engine.set_position(pos, {});
            Limits limits;
            limits.nodes = nodes;
            const SearchResult r = engine.search_sync(limits);
            if (!r.best) break;
            const Value white_score = pos.side_to_move() == WHITE ? r.score : -r.score;
            // Adjudication keeps games short: a clear win, or a long dead level.
            decisive = std::abs(white_score) > 1000 ? decisive + 1 : 0;
            if (decisive >= 6) result = white_score > 0 ? 1.0 : 0.0;
            quiet_draw = ply > 80 && std::abs(white_score) < 10 ? quiet_draw + 1 : 0;
            if (quiet_draw >= 12) result = 0.5;
            if (!pos.in_check() && !pos.is_capture(r.best) && r.best.kind() != Move::PROMOTION &&
                !is_mate_score(r.score) && std::abs(r.score) < 2000)
                kept.push_back(to_fen(pos));
            pos.do_move(r.best);
        }
        if (result < 0) continue;
        ++games;
        for (const std::string& f : kept) out << f << ';' << result << '\n';
        positions += long(kept.size());
        if (games % 50 == 0) std::cerr << games << " games, " << positions << " positions\n";
    }
    std::cerr << "done: " << games << " games, " << positions << " positions\n";
    return 0;
}
