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

// A signed 256-bit integer for edge weights that carry many criteria at once
// (each criterion a field of bits, the most important in the highest bits).
// Two's complement in four 64-bit limbs, least significant first.
class Wide {
public:
    Wide(std::int64_t v = 0) {  // NOLINT: implicit, like an integer literal
        limb_[0] = static_cast<std::uint64_t>(v);
        for (int i = 1; i < 4; ++i) limb_[i] = v < 0 ? ~0ULL : 0ULL;
    }
    friend Wide operator+(const Wide& a, const Wide& b) {
        Wide r;
        unsigned __int128 carry = 0;
        for (int i = 0; i < 4; ++i) {
            unsigned __int128 s = static_cast<unsigned __int128>(a.limb_[i]) + b.limb_[i] + carry;
            r.limb_[i] = static_cast<std::uint64_t>(s);
            carry = s >> 64;
        }
        return r;
    }
    friend Wide operator-(const Wide& a, const Wide& b) { return a + b.negated(); }
    Wide& operator+=(const Wide& b) { return *this = *this + b; }
    Wide& operator-=(const Wide& b) { return *this = *this - b; }
    friend bool operator==(const Wide& a, const Wide& b) {
        for (int i = 0; i < 4; ++i)
            if (a.limb_[i] != b.limb_[i]) return false;
        return true;
    }
    friend bool operator<(const Wide& a, const Wide& b) {
        auto ha = static_cast<std::int64_t>(a.limb_[3]), hb = static_cast<std::int64_t>(b.limb_[3]);
        if (ha != hb) return ha < hb;
        for (int i = 2; i >= 0; --i)
            if (a.limb_[i] != b.limb_[i]) return a.limb_[i] < b.limb_[i];
        return false;
    }
    friend bool operator>(const Wide& a, const Wide& b) { return b < a; }
    friend bool operator<=(const Wide& a, const Wide& b) { return !(b < a); }
    friend bool operator>=(const Wide& a, const Wide& b) { return !(a < b); }
    // Shifted left by `bits` (0..255): room for the next, less important field.
    Wide shifted(int bits) const {
        Wide r = *this;
        for (; bits > 0; bits -= 32) {
            int k = bits < 32 ? bits : 32;
            for (int i = 3; i >= 0; --i)
                r.limb_[i] = (r.limb_[i] << k) | (i > 0 ? r.limb_[i - 1] >> (64 - k) : 0);
        }
        return r;
    }
    // Arithmetic shift right by one (exact for even values).
    Wide half() const {
        Wide r;
        for (int i = 0; i < 4; ++i)
            r.limb_[i] = (limb_[i] >> 1) | (i < 3 ? limb_[i + 1] << 63 : (limb_[3] & (1ULL << 63)));
        return r;
    }

private:
    Wide negated() const {
        Wide r;
        for (int i = 0; i < 4; ++i) r.limb_[i] = ~limb_[i];
        return r + Wide(1);
    }
    std::uint64_t limb_[4];
};

struct WideEdge {
    int u = 0;
    int v = 0;
    Wide weight;
};

// The same matching with 256-bit weights (below 2^250 / vertices).
std::vector<int> max_weight_matching_wide(int vertices, const std::vector<WideEdge>& edges, bool max_cardinality);

}  // namespace outpost::club
