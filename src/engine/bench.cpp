// Outpost — the bench signature.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/bench.h"

#include "chess/fen.h"
#include "chess/uci.h"
#include "engine/engine.h"

namespace outpost::engine {

const std::vector<std::string>& bench_positions() {
    // Openings, middlegames with both kings castled or not, tactical positions,
    // and endgames of every kind (pawn races, rook endings, minor pieces, mates).
    static const std::vector<std::string> positions = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "rnbqkb1r/pp3ppp/4pn2/2pp4/3P4/2P1PN2/PP3PPP/RNBQKB1R w KQkq - 0 5",
        "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2PP1N2/PP3PPP/RNBQ1RK1 w - - 1 7",
        "r2qr1k1/1p1bbppp/p1nppn2/8/3NP3/1BN1B3/PPPQ1PPP/2KR3R w - - 4 11",
        "2rq1rk1/pp1bppbp/3p1np1/4n3/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 3 12",
        "r1b2rk1/2q1bppp/p2ppn2/1p6/3BPP2/2NB4/PPPQ2PP/2KR3R w - - 0 13",
        "r3r1k1/pp3pbp/1qp3p1/2B5/2BP2b1/Q1n2N2/P4PPP/3R1K1R b - - 0 17",
        "2r3k1/pp3ppp/2n1b3/q2pP3/3P4/P1rB1N2/5PPP/R2QR1K1 w - - 0 20",
        "r1bqk2r/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQkq - 2 8",
        "rnb1kbnr/ppp1pppp/8/3q4/8/2N5/PPPP1PPP/R1BQKBNR b KQkq - 1 3",
        "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 1",
        "8/5pk1/6p1/7p/7P/6P1/5PK1/8 w - - 0 1",
        "8/8/8/4k3/8/8/2R5/4K3 w - - 0 1",
        "8/8/8/7k/8/8/3Q4/4K3 w - - 0 1",
        "6k1/8/8/8/8/8/1B6/NK6 w - - 0 1",
        "4r1k1/5ppp/8/8/8/8/2R2PPP/6K1 w - - 0 1",
        "8/p4pk1/1p4p1/2p4p/2P2P1P/1P4P1/P5K1/8 w - - 0 1",
        "3r2k1/1p3ppp/p7/8/8/P7/1P3PPP/3R2K1 b - - 0 1",
        "8/6pk/8/6P1/6K1/8/8/8 w - - 0 1",
        "8/8/1p6/1P1k4/8/2K5/8/8 w - - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "r2q1rk1/ppp2ppp/2n1bn2/2b1p3/3pP3/3P1NPP/PPP1NPB1/R1BQ1RK1 b - - 0 9",
        "2kr3r/pp1q1ppp/2n1bn2/2bpp3/4P3/2PP1N2/PP1NBPPP/R1BQR1K1 w - - 6 10",
        "1r4k1/p4ppp/2Q5/3pq3/8/P6P/2PR1PP1/6K1 w - - 0 1",
    };
    return positions;
}

Result<BenchResult> run_bench(int depth, const std::function<void(const std::string&)>& progress) {
    BenchResult result;
    Engine engine;
    if (auto ok = engine.set_threads(1); !ok) return ok.error();
    if (auto ok = engine.set_hash_mb(16); !ok) return ok.error();
    Limits limits;
    limits.depth = depth;
    int n = 0;
    for (const std::string& fen : bench_positions()) {
        ++n;
        auto pos = position_from_fen(fen);
        if (!pos) return make_error("bench position " + std::to_string(n) + ": " + pos.error().message);
        engine.new_game();
        if (auto ok = engine.set_position(*pos, {}); !ok)
            return make_error("bench position " + std::to_string(n) + ": " + ok.error().message);
        const SearchResult r = engine.search_sync(limits);
        result.nodes += r.nodes;
        result.time_ms += r.time_ms;
        if (progress)
            progress("Position " + std::to_string(n) + "/" + std::to_string(bench_positions().size()) + " (" + fen +
                     "): bestmove " + move_to_uci(*pos, r.best) + ", " + std::to_string(r.nodes) + " nodes");
    }
    return result;
}

}  // namespace outpost::engine
