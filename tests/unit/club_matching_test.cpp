// Outpost — maximum-weight matching (the engine for Swiss pairings, SPEC P20)
// against exhaustive search on thousands of random graphs.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <random>
#include <vector>

#include "club/matching.h"

using namespace outpost::club;

namespace {

struct Best {
    int cardinality = 0;
    std::int64_t weight = 0;
};

// Every matching, by trying each edge of the lowest free vertex or leaving it single.
void search(int v, int n, const std::vector<std::vector<std::int64_t>>& w, std::vector<bool>& used, int card,
            std::int64_t weight, bool max_card, Best& best) {
    while (v < n && used[v]) ++v;
    if (v == n) {
        bool better = max_card ? (card > best.cardinality || (card == best.cardinality && weight > best.weight))
                               : weight > best.weight;
        if (better) best = {card, weight};
        return;
    }
    used[v] = true;
    search(v + 1, n, w, used, card, weight, max_card, best);
    for (int u = v + 1; u < n; ++u) {
        if (used[u] || w[v][u] < 0) continue;
        used[u] = true;
        search(v + 1, n, w, used, card + 1, weight + w[v][u], max_card, best);
        used[u] = false;
    }
    used[v] = false;
}

}  // namespace

TEST(MaxWeightMatching, SmallKnownCases) {
    EXPECT_EQ(max_weight_matching(2, {{0, 1, 5}}, false), (std::vector<int>{1, 0}));
    // A path 0-1-2-3 with a heavy middle edge: weight prefers {1,2}; cardinality prefers {0,1},{2,3}.
    std::vector<WeightedEdge> path = {{0, 1, 2}, {1, 2, 10}, {2, 3, 2}};
    EXPECT_EQ(max_weight_matching(4, path, false), (std::vector<int>{-1, 2, 1, -1}));
    EXPECT_EQ(max_weight_matching(4, path, true), (std::vector<int>{1, 0, 3, 2}));
    // A triangle with a tail needs a blossom.
    std::vector<WeightedEdge> blossom = {{0, 1, 8}, {1, 2, 9}, {0, 2, 10}, {2, 3, 7}};
    EXPECT_EQ(max_weight_matching(4, blossom, false), (std::vector<int>{1, 0, 3, 2}));
    EXPECT_TRUE(max_weight_matching(0, {}, false).empty());
}

TEST(MaxWeightMatching, AgreesWithExhaustiveSearchOnRandomGraphs) {
    std::mt19937 rng(20261123);
    for (int iter = 0; iter < 3000; ++iter) {
        int n = 1 + static_cast<int>(rng() % 10);
        int density = 20 + static_cast<int>(rng() % 80);
        int max_w = iter % 3 == 0 ? 3 : iter % 3 == 1 ? 20 : 1000;
        bool max_card = iter % 2 == 0;
        std::vector<std::vector<std::int64_t>> w(n, std::vector<std::int64_t>(n, -1));
        std::vector<WeightedEdge> edges;
        for (int a = 0; a < n; ++a)
            for (int b = a + 1; b < n; ++b)
                if (static_cast<int>(rng() % 100) < density) {
                    std::int64_t weight = 1 + static_cast<std::int64_t>(rng() % max_w);
                    w[a][b] = w[b][a] = weight;
                    edges.push_back({a, b, weight});
                }
        std::vector<int> mate = max_weight_matching(n, edges, max_card);
        ASSERT_EQ(static_cast<int>(mate.size()), n);
        int card = 0;
        std::int64_t weight = 0;
        for (int v = 0; v < n; ++v) {
            if (mate[v] < 0) continue;
            ASSERT_EQ(mate[mate[v]], v) << "iteration " << iter;
            ASSERT_GE(w[v][mate[v]], 0) << "not an edge, iteration " << iter;
            if (v < mate[v]) ++card, weight += w[v][mate[v]];
        }
        Best best;
        std::vector<bool> used(n, false);
        search(0, n, w, used, 0, 0, max_card, best);
        if (max_card) {
            ASSERT_EQ(card, best.cardinality) << "iteration " << iter;
        }
        ASSERT_EQ(weight, best.weight) << "iteration " << iter << ", n " << n << ", max_card " << max_card;
    }
}

TEST(MaxWeightMatching, TwoHundredPlayersWellUnderASecond) {
    // A complete graph on 200 vertices with weights of pairing size.
    std::mt19937 rng(7);
    std::vector<WeightedEdge> edges;
    for (int a = 0; a < 200; ++a)
        for (int b = a + 1; b < 200; ++b) edges.push_back({a, b, static_cast<std::int64_t>(rng() % 1000000000)});
    auto start = std::chrono::steady_clock::now();
    std::vector<int> mate = max_weight_matching(200, edges, true);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    for (int v = 0; v < 200; ++v) ASSERT_GE(mate[v], 0);
    EXPECT_LT(secs, 1.0);
}

// The wide weights of the Dutch pairing (256 to 4096 bits): carries and borrows
// across every limb, shifts by whole and partial limbs, signs, halving.
TEST(WideIntWeights, ArithmeticAcrossLimbs) {
    using W8 = WideInt<8>;
    const W8 top = W8(1).shifted(448);
    const W8 ones = top - W8(1);  // the 448 low bits set: a borrow through seven limbs
    EXPECT_TRUE(ones + W8(1) == top);  // and the carry back
    EXPECT_TRUE(ones < top);
    EXPECT_TRUE(W8(0) < ones);
    EXPECT_TRUE(W8(-5) < W8(0));
    EXPECT_TRUE(W8(-5) + W8(5) == W8(0));
    EXPECT_TRUE(W8(0) - top < W8(-1));
    EXPECT_TRUE(W8(3).shifted(130) == W8(12).shifted(128));
    EXPECT_TRUE(W8(1).shifted(511) < W8(0));  // the sign bit
    EXPECT_TRUE(W8(5).shifted(512) == W8(0));  // shifted out
    EXPECT_TRUE(W8(-6).half() == W8(-3));
    EXPECT_TRUE(W8(1).shifted(300).half() == W8(1).shifted(299));
    W8 sum = 0;
    for (int i = 0; i < 4; ++i) sum += ones;
    EXPECT_TRUE(sum == ones.shifted(2));
    sum -= ones.shifted(1);
    EXPECT_TRUE(sum == ones.shifted(1));
    using W64 = WideInt<64>;
    EXPECT_TRUE(W64(7).shifted(4000) - W64(7).shifted(4000) == W64(0));
    EXPECT_TRUE(W64(1).shifted(4000) > W64(1).shifted(3999) + W64(1).shifted(3998));
}

// The matching on 1024-bit weights finds matchings as heavy as on 64-bit ones when
// every weight is the same number shifted far up, with a second field below it.
TEST(WideIntWeights, MatchingOnWideWeightsAgreesWithIntegers) {
    std::mt19937 rng(1024);
    for (int iter = 0; iter < 500; ++iter) {
        int n = 2 + static_cast<int>(rng() % 12);
        bool max_card = iter % 2 == 0;
        std::vector<WeightedEdge> edges;
        std::vector<WideIntEdge<16>> wide;
        std::vector<std::vector<std::int64_t>> w(n, std::vector<std::int64_t>(n, -1));
        for (int a = 0; a < n; ++a)
            for (int b = a + 1; b < n; ++b)
                if (rng() % 3 != 0) {
                    std::int64_t high = 1 + static_cast<std::int64_t>(rng() % 50), low = rng() % 7;
                    w[a][b] = w[b][a] = high * 1000 + low;
                    edges.push_back({a, b, high * 1000 + low});
                    wide.push_back({a, b, WideInt<16>(high).shifted(900) + WideInt<16>(low)});
                }
        auto weight_of = [&](const std::vector<int>& mate) {
            std::int64_t total = 0;
            int card = 0;
            for (int v = 0; v < n; ++v)
                if (mate[v] > v) total += w[v][mate[v]], ++card;
            return std::pair{card, total};
        };
        EXPECT_EQ(weight_of(max_weight_matching_wide<16>(n, wide, max_card)),
                  weight_of(max_weight_matching(n, edges, max_card)))
            << "iteration " << iter;
    }
}
