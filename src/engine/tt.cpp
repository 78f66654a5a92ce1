// Outpost — the transposition table.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/tt.h"

#include <algorithm>
#include <cstring>

namespace outpost::engine {

void TTEntry::save(Key key, Value v, bool pv, Bound b, int depth, Move m, Value ev, std::uint8_t generation) {
    const auto k16 = std::uint16_t(key);  // low bits: the index comes from the high ones
    if (m || k16 != key16) move16 = m.raw();
    // Keep a deeper entry of the same position unless the new result is exact or
    // the old one is from an earlier search: shallow re-searches (e.g. after a
    // null move or in quiescence) should not wipe out expensive results.
    if (b == BOUND_EXACT || k16 != key16 || depth - DEPTH_ENTRY_OFFSET + 2 * pv > depth8 - 4 ||
        (genbound8 & TranspositionTable::GENERATION_MASK) != generation) {
        key16 = k16;
        value16 = std::int16_t(v);
        eval16 = std::int16_t(ev);
        depth8 = std::uint8_t(std::clamp(depth - DEPTH_ENTRY_OFFSET, 1, 255));
        genbound8 = std::uint8_t(generation | (std::uint8_t(pv) << 2) | b);
    }
}

void TranspositionTable::resize(std::size_t megabytes) {
    megabytes = std::clamp<std::size_t>(megabytes, 1, 1 << 16);
    cluster_count_ = megabytes * 1024 * 1024 / sizeof(Cluster);
    table_.reset();
    table_ = std::make_unique<Cluster[]>(cluster_count_);
    megabytes_ = megabytes;
    clear();
}

void TranspositionTable::clear() {
    std::memset(static_cast<void*>(table_.get()), 0, cluster_count_ * sizeof(Cluster));
    generation8_ = 0;
}

bool TranspositionTable::probe(Key key, TTData& data, TTEntry*& writer) const {
    TTEntry* const tte = first_entry(key);
    const auto k16 = std::uint16_t(key);  // low bits: the index comes from the high ones
    for (int i = 0; i < CLUSTER_SIZE; ++i) {
        if (tte[i].key16 == k16 && !tte[i].empty()) {
            const TTEntry e = tte[i];
            data.move = Move(e.move16);
            data.value = e.value16;
            data.eval = e.eval16;
            data.depth = e.depth8 + DEPTH_ENTRY_OFFSET;
            data.bound = Bound(e.genbound8 & 3);
            data.is_pv = e.genbound8 & 4;
            writer = &tte[i];
            return true;
        }
    }
    // Replace the entry with the lowest depth, counting each generation of age as
    // eight plies lost: old results are worth less because the game has moved on.
    TTEntry* replace = tte;
    auto worth = [this](const TTEntry& e) {
        const int age = int((GENERATION_CYCLE + generation8_ - e.genbound8) & GENERATION_MASK);
        return int(e.depth8) - age;
    };
    for (int i = 1; i < CLUSTER_SIZE; ++i)
        if (worth(tte[i]) < worth(*replace)) replace = &tte[i];
    writer = replace;
    data = TTData{};
    return false;
}

int TranspositionTable::hashfull() const {
    const std::size_t samples = std::min<std::size_t>(1000, cluster_count_);
    int count = 0;
    for (std::size_t i = 0; i < samples; ++i)
        for (const TTEntry& e : table_[i].entry)
            if (!e.empty() && (e.genbound8 & GENERATION_MASK) == generation8_) ++count;
    return int(count * 1000 / (samples * CLUSTER_SIZE));
}

}  // namespace outpost::engine
