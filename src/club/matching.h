// Outpost — maximum-weight matching in a general graph (Edmonds' blossom
// algorithm with the primal-dual method as Galil's 1986 survey "Efficient
// algorithms for finding maximum matching in graphs" describes it; O(n³)).
// A Swiss pairing is a maximum-weight matching once the pairing criteria are
// written into the edge weights; this is the engine for that.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace outpost::club {

struct WeightedEdge {
    int u = 0;
    int v = 0;
    std::int64_t weight = 0;
};

// mate[v] is v's partner, or -1. With max_cardinality, the matching of greatest
// weight among those with the most edges. Weights must stay below 2^60 / n.
std::vector<int> max_weight_matching(int vertices, const std::vector<WeightedEdge>& edges, bool max_cardinality);

// A signed integer of 64·Limbs bits for edge weights that carry many criteria
// at once (each criterion a field of bits, the most important in the highest
// bits). Two's complement in 64-bit limbs, least significant first.
template <int Limbs>
class WideInt {
    static_assert(Limbs >= 1);

public:
    static constexpr int kBits = 64 * Limbs;
    WideInt(std::int64_t v = 0) {  // NOLINT: implicit, like an integer literal
        limb_[0] = static_cast<std::uint64_t>(v);
        for (int i = 1; i < Limbs; ++i) limb_[i] = v < 0 ? ~0ULL : 0ULL;
    }
    friend WideInt operator+(const WideInt& a, const WideInt& b) {
        WideInt r = a;
        r += b;
        return r;
    }
    friend WideInt operator-(const WideInt& a, const WideInt& b) {
        WideInt r = a;
        r -= b;
        return r;
    }
    WideInt& operator+=(const WideInt& b) {
#if defined(__x86_64__)
        unsigned char carry = 0;
#pragma GCC unroll 64
        for (int i = 0; i < Limbs; ++i) {
            carry = _addcarry_u64(carry, limb_[i], b.limb_[i], &limb_[i]);
        }
#else
        unsigned carry = 0;
        for (int i = 0; i < Limbs; ++i) {
            Limb s = limb_[i] + b.limb_[i];
            unsigned c1 = s < limb_[i];
            Limb t = s + carry;
            unsigned c2 = t < s;
            limb_[i] = t;
            carry = c1 | c2;
        }
#endif
        return *this;
    }
    WideInt& operator-=(const WideInt& b) {
#if defined(__x86_64__)
        unsigned char borrow = 0;
#pragma GCC unroll 64
        for (int i = 0; i < Limbs; ++i) {
            borrow = _subborrow_u64(borrow, limb_[i], b.limb_[i], &limb_[i]);
        }
#else
        unsigned borrow = 0;
        for (int i = 0; i < Limbs; ++i) {
            Limb d = limb_[i] - b.limb_[i];
            unsigned b1 = limb_[i] < b.limb_[i];
            Limb t = d - borrow;
            unsigned b2 = d < borrow;
            limb_[i] = t;
            borrow = b1 | b2;
        }
#endif
        return *this;
    }
    friend bool operator==(const WideInt& a, const WideInt& b) {
        for (int i = 0; i < Limbs; ++i)
            if (a.limb_[i] != b.limb_[i]) return false;
        return true;
    }
    friend bool operator<(const WideInt& a, const WideInt& b) {
        auto ha = static_cast<std::int64_t>(a.limb_[Limbs - 1]), hb = static_cast<std::int64_t>(b.limb_[Limbs - 1]);
        if (ha != hb) return ha < hb;
        for (int i = Limbs - 2; i >= 0; --i)
            if (a.limb_[i] != b.limb_[i]) return a.limb_[i] < b.limb_[i];
        return false;
    }
    friend bool operator>(const WideInt& a, const WideInt& b) { return b < a; }
    friend bool operator<=(const WideInt& a, const WideInt& b) { return !(b < a); }
    friend bool operator>=(const WideInt& a, const WideInt& b) { return !(a < b); }
    // Shifted left by `bits` (0..kBits-1): room for the next, less important field.
    WideInt shifted(int bits) const {
        WideInt r(0);
        const int whole = bits / 64, part = bits % 64;
        for (int i = Limbs - 1; i >= whole; --i) {
            Limb v = limb_[i - whole] << part;
            if (part > 0 && i - whole - 1 >= 0) v |= limb_[i - whole - 1] >> (64 - part);
            r.limb_[i] = v;
        }
        return r;
    }
    // Arithmetic shift right by one (exact for even values).
    WideInt half() const {
        WideInt r;
        for (int i = 0; i < Limbs; ++i)
            r.limb_[i] = (limb_[i] >> 1) | (i < Limbs - 1 ? limb_[i + 1] << 63 : (limb_[Limbs - 1] & (1ULL << 63)));
        return r;
    }

private:
    using Limb = unsigned long long;  // the type of the carry intrinsics
    Limb limb_[Limbs];
};

// The 256-bit weights.
using Wide = WideInt<4>;

template <int Limbs>
struct WideIntEdge {
    int u = 0;
    int v = 0;
    WideInt<Limbs> weight;
};
using WideEdge = WideIntEdge<4>;

// The same matching with weights of 64·Limbs bits (below 2^(64·Limbs-6) /
// vertices). Instantiated for 4, 8, 16, 32 and 64 limbs (256 to 4096 bits).
template <int Limbs>
std::vector<int> max_weight_matching_wide(int vertices, const std::vector<WideIntEdge<Limbs>>& edges,
                                          bool max_cardinality);
inline std::vector<int> max_weight_matching_wide(int vertices, const std::vector<WideEdge>& edges,
                                                 bool max_cardinality) {
    return max_weight_matching_wide<4>(vertices, edges, max_cardinality);
}

}  // namespace outpost::club
