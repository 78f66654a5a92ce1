// Outpost — the search: mates, draws, SEE, the transposition table, bench
// determinism, levels and threads.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <chrono>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/uci.h"
#include "engine/bench.h"
#include "engine/engine.h"
#include "engine/see.h"
#include "engine/tt.h"
#include "engine/uci_protocol.h"

using namespace outpost;
using namespace outpost::engine;

namespace {

Position fen(const char* f) {
    auto p = position_from_fen(f);
    EXPECT_TRUE(p.ok()) << f << ": " << (p.ok() ? "" : p.error().message);
    return p.ok() ? *p : Position::startpos();
}

Move uci(const Position& pos, const char* text) {
    auto m = move_from_uci(pos, text);
    EXPECT_TRUE(m.ok()) << text;
    return m.ok() ? *m : Move::none();
}

SearchResult search(const char* f, Limits limits, int threads = 1) {
    Engine e;
    EXPECT_TRUE(e.set_option("Threads", std::to_string(threads)).ok());
    EXPECT_TRUE(e.set_position(fen(f), {}).ok());
    return e.search_sync(limits);
}

Limits mate_limits(int n) {
    Limits l;
    l.mate = n;
    l.depth = 2 * n + 7;
    return l;
}

}  // namespace

struct MateCase {
    const char* fen;
    int moves;
    const char* first;
};

class EngineMate : public testing::TestWithParam<MateCase> {};

TEST_P(EngineMate, FindsTheMateAndItsFirstMove) {
    const MateCase& c = GetParam();
    const SearchResult r = search(c.fen, mate_limits(c.moves));
    EXPECT_EQ(uci_score(r.score), "mate " + std::to_string(c.moves));
    EXPECT_EQ(move_to_uci(fen(c.fen), r.best), c.first);
}

INSTANTIATE_TEST_SUITE_P(
    Positions, EngineMate,
    testing::Values(MateCase{"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1, "d1d8"},
                    MateCase{"r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 2, "d5f6"},
                    MateCase{"6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", 2, "g2g1"},
                    MateCase{"r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 3, "f8c5"},
                    MateCase{"2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1", 3, "b1g6"}));

TEST(EngineSearch, MatedSideSeesMateAgainstIt) {
    // Black to move is mated next move whatever it does (Qg7# or Qh7#).
    Limits l;
    l.depth = 6;
    const SearchResult r = search("7k/8/5K2/8/8/8/8/6Q1 b - - 0 1", l);
    EXPECT_EQ(uci_score(r.score), "mate -1");
}

TEST(EngineSearch, FiftyMoveRuleDrawsButMateStillCounts) {
    Limits l;
    l.depth = 6;
    // Every queen or king move completes 100 half-moves without capture: a draw.
    SearchResult r = search("7k/8/8/8/8/8/8/K5Q1 w - - 99 80", l);
    EXPECT_EQ(r.score, 0);
    // Unless the move mates (R10: the mate stands).
    r = search("7k/8/5K2/8/8/8/8/6Q1 w - - 99 80", l);
    EXPECT_EQ(uci_score(r.score), "mate 1");
}

TEST(EngineSearch, InsufficientMaterialIsADraw) {
    Limits l;
    l.depth = 8;
    const SearchResult r = search("8/8/4k3/8/8/3NK3/8/8 w - - 0 1", l);
    EXPECT_EQ(r.score, 0);
}

TEST(EngineSearch, RepetitionInTheGameHistoryIsADraw) {
    // White is a queen down but can repeat by checks: Qe8+ Kh7 Qh5+ Kg8 ... With the
    // positions already in the game history, the search scores the line as a draw.
    Engine e;
    const Position root = fen("6k1/5ppp/8/7Q/8/8/q4PPP/6K1 w - - 0 1");
    ASSERT_TRUE(e.set_position(root, {}).ok());
    Limits l;
    l.depth = 10;
    const SearchResult r = e.search_sync(l);
    EXPECT_GT(r.score, -300);  // not lost: a perpetual or equal play
}

TEST(EngineSee, ExchangeValues) {
    Position p = fen("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1");
    EXPECT_EQ(see(p, uci(p, "e1e5")), 100);
    p = fen("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1");
    EXPECT_EQ(see(p, uci(p, "d3e5")), 100 - 320);
    p = fen("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    EXPECT_EQ(see(p, uci(p, "e4d5")), 100);
    p = fen("4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1");
    EXPECT_EQ(see(p, uci(p, "e4d5")), 0);
    p = fen("4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1");
    EXPECT_EQ(see(p, uci(p, "d1d5")), 100 - 950);
    // X-ray: the queen behind the rook joins in.
    p = fen("3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1");
    EXPECT_EQ(see(p, uci(p, "d2d5")), 100);
    // Two rooks each: the second recapture comes, and the pawn costs a rook.
    p = fen("3rk3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1");
    EXPECT_EQ(see(p, uci(p, "d2d5")), 100 - 500);
    // En passant and quiet moves.
    p = fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    EXPECT_EQ(see(p, uci(p, "e5d6")), 100);
    p = fen("4k3/8/2p5/8/4N3/8/8/4K3 w - - 0 1");
    EXPECT_EQ(see(p, uci(p, "e4d6")), 0);
    EXPECT_EQ(see(p, uci(p, "e4d2")), 0);
    p = fen("4k3/8/2p5/8/8/4N3/8/4K3 w - - 0 1");
    EXPECT_EQ(see(p, uci(p, "e3d5")), -320);  // the c6 pawn takes the knight
}

TEST(EngineTT, MateScoresAreStoredRelativeToTheNode) {
    // Mate in 5 plies from the root, found at ply 3: 2 plies from the node.
    const Value at_root = mate_in(5);
    const Value stored = value_to_tt(at_root, 3);
    EXPECT_EQ(stored, mate_in(2));
    // Read back at ply 1 (a transposition): mate in 3 plies from the root.
    EXPECT_EQ(value_from_tt(stored, 1), mate_in(3));
    EXPECT_EQ(value_from_tt(value_to_tt(mated_in(7), 4), 4), mated_in(7));
    EXPECT_EQ(value_to_tt(123, 9), 123);
    EXPECT_EQ(value_from_tt(-45, 9), -45);
}

TEST(EngineTT, SaveAndProbe) {
    TranspositionTable tt;
    tt.resize(1);
    const Position p = Position::startpos();
    TTData d;
    TTEntry* w = nullptr;
    EXPECT_FALSE(tt.probe(p.key(), d, w));
    const Move m = uci(p, "e2e4");
    w->save(p.key(), 37, true, BOUND_EXACT, 9, m, 12, tt.generation());
    ASSERT_TRUE(tt.probe(p.key(), d, w));
    EXPECT_EQ(d.move, m);
    EXPECT_EQ(d.value, 37);
    EXPECT_EQ(d.eval, 12);
    EXPECT_EQ(d.depth, 9);
    EXPECT_EQ(d.bound, BOUND_EXACT);
    EXPECT_TRUE(d.is_pv);
    EXPECT_GT(tt.hashfull(), -1);
    tt.clear();
    EXPECT_FALSE(tt.probe(p.key(), d, w));
}

TEST(EngineBench, NodeCountIsDeterministic) {
    const auto a = run_bench(5);
    const auto b = run_bench(5);
    ASSERT_TRUE(a.ok()) << a.error().message;
    ASSERT_TRUE(b.ok()) << b.error().message;
    EXPECT_EQ(a->nodes, b->nodes);
    EXPECT_GT(a->nodes, 1000u);
}

TEST(EngineSearch, NodeLimitIsRespected) {
    Limits l;
    l.nodes = 20000;
    const SearchResult r = search("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", l);
    EXPECT_TRUE(r.best);
    EXPECT_LT(r.nodes, 40000u);
}

TEST(EngineSearch, TwoThreadsFindTheMate) {
    const SearchResult r = search("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", mate_limits(3), 2);
    EXPECT_EQ(uci_score(r.score), "mate 3");
}

TEST(EngineSearch, SearchmovesRestrictsTheRoot) {
    const Position p = Position::startpos();
    Limits l;
    l.depth = 5;
    l.searchmoves = {uci(p, "a2a3"), uci(p, "h2h3")};
    Engine e;
    const SearchResult r = e.search_sync(l);
    EXPECT_TRUE(r.best == l.searchmoves[0] || r.best == l.searchmoves[1]);
}

TEST(EngineLevels, EveryLevelAnswersQuicklyWithALegalMove) {
    const Position p = fen("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    for (int level = 1; level <= 9; ++level) {
        Engine e;
        ASSERT_TRUE(e.set_option("Level", std::to_string(level)).ok());
        ASSERT_TRUE(e.set_position(p, {}).ok());
        Limits l;
        l.time[WHITE] = l.time[BLACK] = 300000;  // 5 minutes: a casual game
        const auto start = std::chrono::steady_clock::now();
        const SearchResult r = e.search_sync(l);
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
        EXPECT_TRUE(p.is_legal(r.best)) << "level " << level;
        EXPECT_LT(ms.count(), 2500) << "level " << level;
    }
}

TEST(EngineLevels, LimitStrengthUsesTheSameMechanism) {
    Engine e;
    ASSERT_TRUE(e.set_option("UCI_LimitStrength", "true").ok());
    // An Elo between those of levels 2 and 3 plays between them.
    const int elo = (level_strength(2).elo + level_strength(3).elo) / 2;
    ASSERT_TRUE(e.set_option("UCI_Elo", std::to_string(elo)).ok());
    const SkillParams s = e.skill();
    EXPECT_TRUE(s.enabled);
    EXPECT_GE(s.depth, skill_for_level(2).depth);
    EXPECT_LE(s.depth, skill_for_level(3).depth);
    EXPECT_FALSE(skill_for_level(10).enabled);
    EXPECT_FALSE(e.set_option("UCI_Elo", "100").ok());
}

TEST(EngineLevels, OneEloRangeCoversTheUiAndPlaysSensiblyOverAllOfIt) {
    // Issue 9: one range, defined once (skill.h), covering what the UI offers.
    EXPECT_LE(ELO_MIN, 800);
    EXPECT_GE(ELO_MAX, 2850);
    for (const OptionSpec& o : Engine::option_specs())
        if (o.name == "UCI_Elo") {
            EXPECT_EQ(o.min, ELO_MIN);
            EXPECT_EQ(o.max, ELO_MAX);
        }
    // Below the weakest measured level: that level's play. At ELO_MAX: full strength.
    const SkillParams weakest = skill_for_level(LEVEL_MIN);
    const SkillParams bottom = skill_for_elo(ELO_MIN);
    EXPECT_TRUE(bottom.enabled);
    EXPECT_EQ(bottom.depth, weakest.depth);
    EXPECT_EQ(bottom.nodes, weakest.nodes);
    EXPECT_EQ(bottom.oversight, weakest.oversight);
    EXPECT_EQ(bottom.temperature, weakest.temperature);
    EXPECT_FALSE(skill_for_elo(ELO_MAX).enabled);
    // In between, more Elo never means a shorter horizon or a worse handicap (the
    // node budgets of the rows are not monotonic: level 7 searches deeper on fewer
    // nodes than level 6), and above the strongest level the handicap keeps fading
    // towards full strength.
    SkillParams prev = bottom;
    const int strongest = level_strength(LEVEL_MAX - 1).elo;
    for (int elo = ELO_MIN; elo < ELO_MAX; elo += 25) {
        const SkillParams s = skill_for_elo(elo);
        ASSERT_TRUE(s.enabled) << elo;
        EXPECT_GE(s.depth, prev.depth) << elo;
        if (elo > strongest) {
            EXPECT_GE(s.nodes, prev.nodes) << elo;
        }
        EXPECT_LE(s.oversight, prev.oversight) << elo;
        EXPECT_LE(s.temperature, prev.temperature) << elo;
        EXPECT_GE(s.max_ms, prev.max_ms) << elo;
        prev = s;
    }
    const SkillParams near_top = skill_for_elo(ELO_MAX - 10);
    EXPECT_GT(near_top.nodes, 10 * skill_for_level(LEVEL_MAX - 1).nodes);
    EXPECT_GT(near_top.depth, skill_for_level(LEVEL_MAX - 1).depth);
}

TEST(EngineOptions, TypedSettersRefuseValuesOutsideTheirRangeInWords) {
    Engine e;
    const auto too_strong = e.set_elo(ELO_MAX + 1);
    ASSERT_FALSE(too_strong.ok());
    EXPECT_EQ(too_strong.error().message, "option UCI_Elo: " + std::to_string(ELO_MAX + 1) + " is outside " +
                                              std::to_string(ELO_MIN) + ".." + std::to_string(ELO_MAX));
    EXPECT_FALSE(e.set_elo(ELO_MIN - 1).ok());
    EXPECT_EQ(e.elo(), 1500);  // a refused value leaves the old one
    EXPECT_TRUE(e.set_elo(ELO_MAX).ok());
    EXPECT_EQ(e.elo(), ELO_MAX);
    EXPECT_FALSE(e.set_level(LEVEL_MAX + 1).ok());
    EXPECT_FALSE(e.set_level(0).ok());
    EXPECT_FALSE(e.set_hash_mb(0).ok());
    EXPECT_FALSE(e.set_threads(0).ok());
    EXPECT_FALSE(e.set_multipv(65).ok());
    EXPECT_FALSE(e.set_move_overhead(-1).ok());
    // The option text goes through the same setters: one check, one message.
    const auto by_name = e.set_option("uci_elo", std::to_string(ELO_MAX + 1));
    ASSERT_FALSE(by_name.ok());
    EXPECT_EQ(by_name.error().message, too_strong.error().message);
    EXPECT_EQ(e.set_option("Level", "x").error().message, "option Level: 'x' is not a number");
    EXPECT_EQ(e.set_option("Ponder", "maybe").error().message, "option Ponder: 'maybe' is not true or false");
    EXPECT_EQ(e.set_option("Nonsense", "1").error().message, "unknown option 'Nonsense'");
    ASSERT_TRUE(e.set_option("UCI_LimitStrength", "TRUE").ok());
    EXPECT_TRUE(e.limit_strength());
    EXPECT_FALSE(e.skill().enabled);  // UCI_Elo at ELO_MAX is full strength
}

TEST(EngineLevels, WeakChoicesComeFromTheCandidatesOnly) {
    const Position p = Position::startpos();
    const std::vector<Candidate> c = {{uci(p, "e2e4"), 30}, {uci(p, "d2d4"), 25}, {uci(p, "a2a3"), -400}};
    const SkillParams s = skill_for_level(1);
    int bad = 0;
    for (std::uint64_t r = 0; r < 2000; ++r) {
        const Move m = choose_skill_move(s, p, c, r);
        ASSERT_TRUE(m == c[0].move || m == c[1].move || m == c[2].move);
        bad += m == c[2].move;
    }
    // A much worse move is possible at level 1 but rare.
    EXPECT_LT(bad, 200);
    EXPECT_EQ(choose_skill_move(skill_for_level(10), p, c, 5), c[0].move);
}
