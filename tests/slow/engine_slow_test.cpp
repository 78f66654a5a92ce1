// Outpost — slow engine tests (label "slow"): the full bench signature, a whole
// game under a fast clock without losing on time, and whole games between levels.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <chrono>

#include "chess/movegen.h"
#include "engine/bench.h"
#include "engine/engine.h"

using namespace outpost;
using namespace outpost::engine;

TEST(EngineSlow, BenchSignatureIsReproducible) {
    const auto a = run_bench(BENCH_DEFAULT_DEPTH);
    const auto b = run_bench(BENCH_DEFAULT_DEPTH);
    ASSERT_TRUE(a.ok()) << a.error().message;
    ASSERT_TRUE(b.ok()) << b.error().message;
    EXPECT_EQ(a->nodes, b->nodes);
}

namespace {

// Plays one game between two engines on a sudden-death clock of `ms` per side
// with `inc` increment. Returns the result for white (1, 0.5, 0); flags count.
double play(Engine& white, Engine& black, std::int64_t ms, std::int64_t inc, bool& flagged, int max_plies = 300) {
    Position pos = Position::startpos();
    std::vector<Move> moves;
    std::int64_t clock[2] = {ms, ms};
    flagged = false;
    for (int ply = 0; ply < max_plies; ++ply) {
        if (!pos.has_legal_moves()) return pos.in_check() ? (pos.side_to_move() == WHITE ? 0.0 : 1.0) : 0.5;
        if (pos.halfmove_clock() >= 100 || pos.is_insufficient_material()) return 0.5;
        Engine& e = pos.side_to_move() == WHITE ? white : black;
        EXPECT_TRUE(e.set_position(Position::startpos(), moves).ok());
        Limits l;
        l.time[WHITE] = clock[WHITE];
        l.time[BLACK] = clock[BLACK];
        l.inc[WHITE] = l.inc[BLACK] = inc;
        const auto start = std::chrono::steady_clock::now();
        const SearchResult r = e.search_sync(l);
        const auto used =
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
        const Color us = pos.side_to_move();
        clock[us] -= used;
        if (clock[us] <= 0) {
            flagged = true;
            return us == WHITE ? 0.0 : 1.0;
        }
        clock[us] += inc;
        EXPECT_TRUE(pos.is_legal(r.best));
        if (!pos.is_legal(r.best)) return 0.5;
        moves.push_back(r.best);
        pos.do_move(r.best);
    }
    return 0.5;
}

}  // namespace

TEST(EngineSlow, FastClockGameWithoutFlagging) {
    Engine a, b;
    bool flagged = false;
    (void)play(a, b, 3000, 30, flagged, 120);
    EXPECT_FALSE(flagged);
}

TEST(EngineSlow, FullStrengthBeatsLevelOne) {
    double score = 0;
    for (int game = 0; game < 2; ++game) {
        Engine strong, weak;
        ASSERT_TRUE(weak.set_option("Level", "1").ok());
        bool flagged = false;
        const double white = game == 0 ? play(strong, weak, 10000, 100, flagged) : play(weak, strong, 10000, 100, flagged);
        EXPECT_FALSE(flagged);
        score += game == 0 ? white : 1 - white;
    }
    EXPECT_GE(score, 1.5);
}
