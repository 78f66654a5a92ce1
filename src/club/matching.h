// Outpost — maximum-weight matching in a general graph (Edmonds' blossom
// algorithm with the primal-dual method as Galil's 1986 survey "Efficient
// algorithms for finding maximum matching in graphs" describes it; O(n³)).
// A Swiss pairing is a maximum-weight matching once the pairing criteria are
// written into the edge weights; this is the engine for that.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <vector>

namespace outpost::club {

struct WeightedEdge {
    int u = 0;
    int v = 0;
    std::int64_t weight = 0;
};

// mate[v] is v's partner, or -1. With max_cardinality, the matching of greatest
// weight among those with the most edges. Weights must stay below 2^60 / n.
std::vector<int> max_weight_matching(int vertices, const std::vector<WeightedEdge>& edges, bool max_cardinality);

}  // namespace outpost::club
