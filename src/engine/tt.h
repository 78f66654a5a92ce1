// Outpost — the transposition table, shared by all search threads.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Clusters of three 10-byte entries fill 32 bytes, so two clusters share a cache
// line and a probe touches one line. The cluster index comes from the high bits of
// the key (multiply-high), and an entry keeps the low 16 bits for verification:
// bits that the index did not use, or the check would verify nothing (that bug
// cost a 1-39 match against glaurung before it was found). Besides the key: the
// best move, the search value, the static evaluation, the depth and one byte for
// the bound, a PV flag and the generation of the search that wrote it. Threads
// read and write entries without locks: a torn entry can only produce a wrong move
// or value, and every move read from the table is checked for legality before it
// is played.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "chess/types.h"
#include "engine/score.h"

namespace outpost::engine {

enum Bound : std::uint8_t { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

// Depth in plies. Quiescence search stores small negative depths; the stored byte
// is depth - DEPTH_ENTRY_OFFSET so that 0 can mean "empty".
constexpr int DEPTH_QS = 0;
constexpr int DEPTH_ENTRY_OFFSET = -7;

// What a probe found, copied out of the shared entry at once.
struct TTData {
    Move move;
    Value value = VALUE_NONE;
    Value eval = VALUE_NONE;
    int depth = DEPTH_ENTRY_OFFSET;
    Bound bound = BOUND_NONE;
    bool is_pv = false;
};

struct TTEntry {
    std::uint16_t key16;
    std::uint16_t move16;
    std::int16_t value16;
    std::int16_t eval16;
    std::uint8_t depth8;
    std::uint8_t genbound8;  // bits 0-1 bound, bit 2 PV, bits 3-7 generation

    bool empty() const { return depth8 == 0; }
    // Overwrites the entry, keeping an older move when the new one is none and the
    // position is the same (a fail-low node has no best move to offer).
    void save(Key key, Value v, bool pv, Bound b, int depth, Move m, Value ev, std::uint8_t generation);
};

class TranspositionTable {
public:
    static constexpr int CLUSTER_SIZE = 3;
    struct alignas(32) Cluster {
        TTEntry entry[CLUSTER_SIZE];
        char padding[2];
    };
    static_assert(sizeof(Cluster) == 32);

    // Generation counter: the low three bits of genbound8 are bound and PV.
    static constexpr unsigned GENERATION_DELTA = 8;
    static constexpr unsigned GENERATION_CYCLE = 255 + GENERATION_DELTA;
    static constexpr unsigned GENERATION_MASK = 0xF8;

    TranspositionTable() { resize(16); }
    // Not thread-safe: only while no search runs.
    void resize(std::size_t megabytes);
    void clear();
    // Ages the table: entries of earlier searches become preferred victims.
    void new_search() { generation8_ = std::uint8_t(generation8_ + GENERATION_DELTA); }
    std::uint8_t generation() const { return generation8_; }

    // Looks the key up. Returns whether it was found, what the entry held, and the
    // entry to write to later (the same entry, or the least valuable of the cluster).
    bool probe(Key key, TTData& data, TTEntry*& writer) const;
    // Permille of entries written by the current search (UCI hashfull), sampled.
    int hashfull() const;
    void prefetch(Key key) const { __builtin_prefetch(first_entry(key)); }
    std::size_t size_mb() const { return megabytes_; }

private:
    TTEntry* first_entry(Key key) const {
        // Multiply-high maps the key onto [0, cluster_count) without a division.
        const auto index = std::size_t((unsigned __int128)(key) * cluster_count_ >> 64);
        return &table_[index].entry[0];
    }

    std::unique_ptr<Cluster[]> table_;
    std::size_t cluster_count_ = 0;
    std::size_t megabytes_ = 0;
    std::uint8_t generation8_ = 0;
};

}  // namespace outpost::engine
