// Outpost — FIDE Dutch system, rounds 2 and later (Handbook C.04.3 with C.04.1).
//
// The brackets are paired from the top. For each bracket (its moved-down players
// and its residents) one maximum-weight matching is computed over the bracket and
// every player below it (and the bye, when the count is odd). Every vertex must be
// matched (maximum cardinality), which is the completion criterion C.4: whatever
// this bracket does, the rest of the round can still be paired under the absolute
// criteria C.1-C.3. The weight of an edge is a wide integer (256 to 4096 bits, the
// smallest width that holds the bracket's fields) whose bit fields hold
// the quality criteria in their order of priority, most important highest, so that
// a heavier matching is one that is better by the first criterion where the two
// differ:
//   2025 C5  the score of the player who gets the pairing-allocated bye (the one
//        edge to the bye vertex; minimised): the 2025 text puts it above the
//        pairs of the bracket;
//   C.5  the number of pairs in the bracket (maximised);
//   C.6  the pairing score difference, a count per distinct score difference from
//        the largest down (minimised); a downfloater's difference is its score
//        minus one point less than the lowest score of the bracket;
//   C.7  the same two for the next bracket (the choice of downfloaters);
//   2025 C9  the rounds without a game of the player who gets the bye (minimised;
//        C.04.3 2025, article 3.4.4), in one bracket only: the one that pairs
//        all its players among themselves but one, and that one gets the bye.
//        Only there does the bracket's pairing decide who gets the bye; a
//        bracket above it, or one that floats other players down as well,
//        chooses its downfloaters by the criteria after C9 and leaves the bye
//        to be decided below. This is how bbpPairings (the FIDE-endorsed Dutch
//        program, the reference these pairings are checked against) applies C9;
//        applying it in every bracket let an upper bracket pick its downfloaters
//        for the sake of a lower player's bye. Whether a bracket is that one
//        follows from the criteria above C9 (the bye's score, the pairs), so a
//        first matching without C9 tells, and the bracket is then paired again
//        with it;
//   C.8, C.9  topscorers (last round) beyond ±2 or with three equal colours;
//   C.10, C.11  players who do not get their colour preference, their strong one
//        (A.6: a colour difference of ±1 that is not absolute, as bbpPairings counts);
//   C.12-C.15  players with the same down-/upfloat as one and two rounds before;
//   C.16-C.19  the score differences of those players;
// and last the tie-break between pairings equally good by all of these, the
// Handbook's order of candidates (D): first no exchange between S1 and S2, then
// the transpositions of S2 in lexicographic order (S1 being the moved-down players
// of a heterogeneous bracket, else the upper half), a base^(P-1-i) field; then
// a weighted distance from the first candidate and the lowest-ranked players as
// downfloaters. The order of exchanges (D.2) and of the remainder of a
// heterogeneous bracket (D.3) is approximated by those last fields, not exact.
// Bracket players matched within the bracket are its pairs; those matched below
// it float down.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <type_traits>

#include "club/dutch.h"
#include "club/matching.h"

namespace outpost::club {

namespace {

int bit_length(long long v) {
    int b = 0;
    while (v > 0) ++b, v >>= 1;
    return b;
}

struct Field {
    bool maximise = false;
    std::vector<long long> values;  // per candidate edge
};

class RoundPairer {
public:
    RoundPairer(const Tournament& t, int round, std::vector<PairingPlayer> players)
        : t_(t), round_(round), players_(std::move(players)) {
        std::sort(players_.begin(), players_.end(), [](const PairingPlayer& a, const PairingPlayer& b) {
            return a.score != b.score ? a.score > b.score : a.id < b.id;
        });
        n_ = static_cast<int>(players_.size());
        for (const PairingPlayer& p : players_) {
            half_.push_back(std::llround(p.score * 2));
            unplayed_.push_back(std::count(p.colour_by_round.begin(), p.colour_by_round.end(), Colour::NONE));
        }
        for (int i = 0; i < n_; ++i) {
            if (i == 0 || half_[i] != half_[i - 1]) group_scores_.push_back(half_[i]);
            group_.push_back(static_cast<int>(group_scores_.size()) - 1);
        }
        bye_ = n_ % 2 == 1 ? n_ : -1;
        last_round_ = t.total_rounds > 0 && round == t.total_rounds;
        const double max_now = t.scoring.win * (round - 1);
        for (const PairingPlayer& p : players_) topscorer_.push_back(last_round_ && p.score > max_now / 2);
    }

    Result<Round> run(DutchTrace* trace) {
        std::vector<int> mdps;
        std::vector<int> partner(static_cast<std::size_t>(n_) + 1, -2);
        const int groups = static_cast<int>(group_scores_.size());
        for (int g = 0; g < groups; ++g) {
            std::vector<int> bracket = mdps;
            for (int i = 0; i < n_; ++i)
                if (group_[i] == g) bracket.push_back(i);
            std::vector<int> lower;
            for (int i = 0; i < n_; ++i)
                if (group_[i] > g) lower.push_back(i);
            if (bye_ >= 0) lower.push_back(bye_);
            auto result = pair_bracket(g, bracket, lower, nullptr, false);
            if (!result.ok()) return make_error(result.error().message);
            // 2025 C9 counts only in the bracket whose one downfloater is the
            // bye's assignee (see the header); whether this is that bracket is
            // settled by the criteria above C9, so a first matching without it
            // tells, and the bracket is paired again with it.
            const bool c9 = bye_alone_leaves(bracket, *result);
            if (c9) {
                result = pair_bracket(g, bracket, lower, nullptr, true);
                if (!result.ok()) return make_error(result.error().message);
            }
            // D.1-D.3 order the candidates within the actual S1 and S2: those of the
            // remainder exist only once the moved-down players' opponents are known
            // (a moved-down player need not meet the top resident), and S1 holds as
            // many players as there are pairs, not half the bracket. So the bracket
            // is paired again with the first matching's moved-down pairs kept and
            // its pair counts: the quality criteria are unchanged, only the order
            // among equally good pairings is exact.
            result = pair_bracket(g, bracket, lower, &*result, c9);
            if (!result.ok()) return make_error(result.error().message);
            BracketDecision d;
            d.resident_score = static_cast<double>(group_scores_[g]) / 2;
            for (int i : bracket) d.players.push_back(players_[i].id);
            mdps.clear();
            for (int i : bracket) {
                int m = (*result)[i];
                if (std::find(bracket.begin(), bracket.end(), m) != bracket.end()) {
                    partner[i] = m;
                    if (i < m) d.pairs.emplace_back(players_[i].id, players_[m].id);
                } else {
                    mdps.push_back(i);
                    d.downfloaters.push_back(players_[i].id);
                }
            }
            if (trace) trace->brackets.push_back(std::move(d));
        }
        // What is left after the last bracket is the one player for the bye.
        Round out;
        for (int i = 0; i < n_; ++i) {
            int m = partner[i];
            if (m < i) continue;
            const PairingPlayer& a = players_[i];
            const PairingPlayer& b = players_[m];
            Colour c = allocate_colours(a, b, true, t_.initial_colour);
            out.push_back(c == Colour::WHITE ? Pairing{a.id, b.id} : Pairing{b.id, a.id});
        }
        if (mdps.size() > 1) return make_error("internal: more than one player left without a pairing");
        if (mdps.size() == 1) out.push_back(Pairing{players_[mdps[0]].id, 0});
        return out;
    }

private:
    bool compatible(int a, int b) const {
        if (a == bye_ || b == bye_) return players_[a == bye_ ? b : a].may_get_bye;
        const PairingPlayer& x = players_[a];
        const PairingPlayer& y = players_[b];
        if (x.opponents.count(y.id)) return false;  // C.1
        if (x.strength == PreferenceStrength::ABSOLUTE && y.strength == PreferenceStrength::ABSOLUTE &&
            x.preference == y.preference && !topscorer_[a] && !topscorer_[b])
            return false;  // C.3
        return true;
    }

    // Whether, in the matching `mate` of a bracket and the players below it, the
    // bracket's players are all paired among themselves except one, who gets
    // the bye: the bracket where 2025 C9 applies.
    bool bye_alone_leaves(const std::vector<int>& bracket, const std::vector<int>& mate) const {
        if (bye_ < 0) return false;
        const auto inside = [&](int v) { return std::find(bracket.begin(), bracket.end(), v) != bracket.end(); };
        if (!inside(mate[bye_])) return false;
        for (int v : bracket)
            if (v != mate[bye_] && !inside(mate[v])) return false;
        return true;
    }

    // Float of the player in an earlier round, `back` rounds before this one.
    static Float float_before(const PairingPlayer& p, int back) {
        int k = static_cast<int>(p.floats.size()) - back;
        return k >= 0 ? p.floats[static_cast<std::size_t>(k)] : Float::NONE;
    }

    // The matching for one bracket; mate per player index (bye_ for the bye).
    // `first` is the matching of a first pass over the same bracket (null in the
    // first pass): its moved-down pairs are kept and its pair counts give the
    // sizes of S1. `c9`: whether 2025 C9 counts in this bracket.
    Result<std::vector<int>> pair_bracket(int g, const std::vector<int>& bracket, const std::vector<int>& lower,
                                          const std::vector<int>* first, bool c9) {
        std::vector<int> verts = bracket;
        verts.insert(verts.end(), lower.begin(), lower.end());
        const int nv = static_cast<int>(verts.size());
        std::vector<char> in_bracket(static_cast<std::size_t>(n_) + 1, 0);
        for (int i : bracket) in_bracket[i] = 1;
        const long long r = group_scores_[g];
        const bool has_next = g + 1 < static_cast<int>(group_scores_.size());
        const long long r1 = has_next ? group_scores_[g + 1] : 0;
        auto in_next = [&](int v) { return v != bye_ && has_next && group_[v] == g + 1; };
        const int m = static_cast<int>(bracket.size());
        int mdp_count = 0;
        for (int i : bracket)
            if (group_[i] < g) ++mdp_count;
        // The actual remainder (the residents not paired with a moved-down player
        // in the first pass) and the number of pairs in it; with no moved-down
        // players the remainder is the whole bracket.
        std::vector<int> fixed(static_cast<std::size_t>(n_) + 1, -1);
        std::vector<int> remainder;
        int remainder_pairs = 0;
        if (first) {
            auto in_b = [&](int v) { return v != bye_ && std::find(bracket.begin(), bracket.end(), v) != bracket.end(); };
            for (int k = 0; k < mdp_count; ++k) {
                int a = bracket[k], b = (*first)[a];
                if (b >= 0 && in_b(b) && position(bracket, b) >= mdp_count) fixed[a] = b, fixed[b] = a;
            }
            for (int k = mdp_count; k < m; ++k)
                if (fixed[bracket[k]] < 0) remainder.push_back(bracket[k]);
            for (int v : remainder) {
                int b = (*first)[v];
                if (b >= 0 && fixed[b] < 0 && std::find(remainder.begin(), remainder.end(), b) != remainder.end()) ++remainder_pairs;
            }
            remainder_pairs /= 2;
        }

        struct Cand {
            int a, b;  // local vertex numbers
            long long c5 = 0, psd = -1, c7a = 0, psd7 = -1;
            long long c8 = 0, c9 = 0, c10 = 0, c11 = 0, f[4] = {0, 0, 0, 0}, s[4] = {0, 0, 0, 0};
            long long floater_rank = 0, exchange = 0, exchanged_bsn = 0, tie = 0;
            int higher = -1;  // second pass: the remainder index of the pair's higher player
            int mdp = -1;     // first pass: the index of a moved-down player paired with a resident
            long long bye_score = 0, bye_unplayed = 0;  // 2025 C5 and C9, on the bye's edge only
            int s1 = -1, s2 = -1;  // S1 and S2 indices of a pair across the halves
            int r1 = -1, r2 = -1;  // the same in the remainder of a heterogeneous bracket
        };
        std::vector<Cand> cands;
        for (int x = 0; x < nv; ++x) {
            for (int y = x + 1; y < nv; ++y) {
                int a = verts[x], b = verts[y];
                if (!compatible(a, b)) continue;
                if ((fixed[a] >= 0 || fixed[b] >= 0) && fixed[a] != b) continue;  // a kept moved-down pair
                Cand c{x, y};
                if (a == bye_ || b == bye_) {
                    const int assignee = a == bye_ ? b : a;
                    c.bye_score = half_[assignee];
                    if (c9) c.bye_unplayed = unplayed_[assignee];
                }
                const bool ba = in_bracket[a], bb = in_bracket[b];
                if (ba && bb) {
                    // A pair of the bracket (a ranks higher: brackets are in rank order).
                    c.c5 = 1;
                    const long long diff = std::llabs(half_[a] - half_[b]);
                    c.psd = diff;
                    colour_fields(a, b, c.c8, c.c9, c.c10, c.c11);
                    if (half_[a] != half_[b]) {
                        int hi = half_[a] > half_[b] ? a : b, lo = hi == a ? b : a;
                        for (int back = 1; back <= 2; ++back) {
                            if (float_before(players_[hi], back) == Float::DOWN) {
                                c.f[back == 1 ? 0 : 2] += 1;
                                c.s[back == 1 ? 0 : 2] += diff;
                            }
                            if (float_before(players_[lo], back) == Float::UP) {
                                c.f[back == 1 ? 1 : 3] += 1;
                                c.s[back == 1 ? 1 : 3] += diff;
                            }
                        }
                    }
                    // The Handbook's first candidates: S1 (the moved-down players, or
                    // the upper half) against S2 in order; pairs inside S1 or inside
                    // S2 need an exchange.
                    int pa = position(bracket, a), pb = position(bracket, b);
                    if (first && pa >= mdp_count) {
                        // Second pass: S1 is the first remainder_pairs players of
                        // the actual remainder, S2 the rest.
                        const int ra = position(remainder, a), rb = position(remainder, b);
                        const int half = remainder_pairs;
                        // The exchanges: pairs whose higher player is from S2 (a
                        // player of S1 left without a pair floats, which is one
                        // exchange too, not two).
                        c.exchange = ra >= half ? 1 : 0;
                        // D.2: among as many exchanges, the smallest sum of the
                        // pairing numbers that end up in S1 (the higher of each pair).
                        c.exchanged_bsn = ra;
                        c.higher = ra;
                        c.tie = std::abs(rb - (ra + half)) * (ra < half ? half - ra : 1);
                        // D.1 (after the exchanges): each player of the new S1, in
                        // order, against the earliest partner possible.
                        if (mdp_count > 0) c.r1 = ra, c.r2 = rb;
                        else c.s1 = ra, c.s2 = rb;
                    } else if (mdp_count > 0 && pa < mdp_count) {
                        c.exchange = pb < mdp_count ? 1 : 0;
                        c.tie = std::abs(pb - (mdp_count + pa));
                        if (!c.exchange) c.s1 = pa, c.s2 = pb - mdp_count, c.mdp = pa;
                    } else {
                        // In a heterogeneous bracket the remainder is what the moved-down
                        // players leave: in the first candidates, the residents after
                        // the top ones they meet.
                        const int base = mdp_count + std::min(mdp_count, m - mdp_count);
                        const int rest = m - base, half = rest / 2;
                        const int ra = pa - base, rb = pb - base;
                        c.exchange = (ra < half) == (rb < half) ? 1 : 0;
                        if (mdp_count > 0 && !c.exchange && ra >= 0) c.r1 = ra, c.r2 = rb - half;
                        // The first pass only chooses the moved-down players' opponents:
                        // the remainder's exchanges are counted in the second.
                        if (mdp_count > 0) c.exchange = 0;
                        // D.1 tries the higher S1 players' partners first: their
                        // distance from the first candidate counts more.
                        c.tie = std::abs(rb - (ra + half)) * (ra < half ? half - ra : 1);
                        if (mdp_count == 0 && !c.exchange) c.s1 = ra, c.s2 = rb - half;
                    }
                } else if (ba || bb) {
                    int x_down = ba ? a : b, other = ba ? b : a;
                    const long long diff = half_[x_down] - (r - 2);
                    c.psd = diff;
                    for (int back = 1; back <= 2; ++back)
                        if (float_before(players_[x_down], back) == Float::DOWN) {
                            c.f[back == 1 ? 0 : 2] += 1;
                            c.s[back == 1 ? 0 : 2] += diff;
                        }
                    c.floater_rank = m - 1 - position(bracket, x_down);
                    if (has_next) {
                        if (in_next(other)) {
                            c.c7a = 1;
                            c.psd7 = half_[x_down] - half_[other];
                        } else {
                            c.psd7 = half_[x_down] - (r1 - 2);
                        }
                    }
                } else if (has_next) {
                    const bool na = in_next(a), nb = in_next(b);
                    if (na && nb) {
                        c.c7a = 1;
                        c.psd7 = 0;
                    } else if (na || nb) {
                        c.psd7 = half_[na ? a : b] - (r1 - 2);
                    }
                }
                cands.push_back(c);
            }
        }
        if (cands.empty() && nv > 0) return make_error(no_pairing_message());

        // The fields, most important first.
        std::vector<Field> fields;
        auto add = [&](bool maximise, auto get) {
            Field f;
            f.maximise = maximise;
            for (const Cand& c : cands) f.values.push_back(get(c));
            fields.push_back(std::move(f));
        };
        auto count_fields = [&](auto get_diff) {
            std::vector<long long> diffs;
            for (const Cand& c : cands)
                if (get_diff(c) >= 0) diffs.push_back(get_diff(c));
            std::sort(diffs.begin(), diffs.end(), std::greater<>());
            diffs.erase(std::unique(diffs.begin(), diffs.end()), diffs.end());
            for (long long d : diffs) add(false, [&, d](const Cand& c) { return get_diff(c) == d ? 1LL : 0LL; });
        };
        // 2025 C5 (above the pairs of the bracket): the lowest score for the bye.
        add(false, [](const Cand& c) { return c.bye_score; });
        add(true, [](const Cand& c) { return c.c5; });
        count_fields([](const Cand& c) { return c.psd; });
        add(true, [](const Cand& c) { return c.c7a; });
        count_fields([](const Cand& c) { return c.psd7; });
        // 2025 C9 (after the next bracket, before the colours): the fewest
        // unplayed rounds for the bye.
        add(false, [](const Cand& c) { return c.bye_unplayed; });
        add(false, [](const Cand& c) { return c.c8; });
        add(false, [](const Cand& c) { return c.c9; });
        add(false, [](const Cand& c) { return c.c10; });
        add(false, [](const Cand& c) { return c.c11; });
        for (int k = 0; k < 4; ++k) add(false, [k](const Cand& c) { return c.f[k]; });
        for (int k = 0; k < 4; ++k) add(false, [k](const Cand& c) { return c.s[k]; });
        add(false, [](const Cand& c) { return c.exchange; });
        add(false, [](const Cand& c) { return c.exchanged_bsn; });

        // The weights are laid out twice: first only to count the bits that the
        // fields need (weights null), then into integers of the smallest width
        // that holds them, so that no field is ever dropped.
        const int rsize = static_cast<int>(remainder.size());
        auto lay_out = [&](auto* weights) -> int {
            using W = typename std::remove_pointer_t<decltype(weights)>::value_type;
            int total_bits = 0;
            for (const Field& f : fields) {
                long long maxv = *std::max_element(f.values.begin(), f.values.end());
                if (maxv == 0) continue;
                int width = bit_length(maxv * (nv / 2 + 1)) + 1;
                total_bits += width;
                if (weights)
                    for (std::size_t k = 0; k < cands.size(); ++k) {
                        long long v = f.maximise ? f.values[k] : maxv - f.values[k];
                        (*weights)[k] = (*weights)[k].shifted(width) + W(v);
                    }
            }
            // D.1: the transpositions of S2 in lexicographic order, that is S1[0]'s
            // partner as early in S2 as possible, then S1[1]'s, ...: the S2 index of
            // S1[i]'s partner counts with the weight base^(P-1-i).
            auto order_field = [&](int p1, int p2, auto index) {
                const int base_bits = bit_length(p2);
                const int order_bits = p1 * base_bits + bit_length(nv) + 2;
                if (p1 <= 0) return;
                total_bits += order_bits;
                if (!weights) return;
                const W top = W(1).shifted(p1 * base_bits);
                for (std::size_t k = 0; k < cands.size(); ++k) {
                    auto [i, j] = index(cands[k]);
                    W v = 0;
                    if (i >= 0 && i < p1) v = W(j).shifted((p1 - 1 - i) * base_bits);
                    (*weights)[k] = (*weights)[k].shifted(order_bits) + (top - v);
                }
            };
            // D.2 after the sums: the S1 players moved to S2 are the lowest ones, the S2
            // players moved to S1 the highest (bbpPairings' order): the higher players
            // of the pairs, as high as possible, the bit of remainder index i weighing
            // more than all those after it.
            // One bit per index of `size` players, a lower index weighing more than all
            // the higher ones together; `index` gives a candidate's index (or -1).
            auto highest_first_field = [&](int size, auto index) {
                const int width = size + bit_length(nv) + 1;
                total_bits += width;
                if (!weights) return;
                for (std::size_t k = 0; k < cands.size(); ++k) {
                    W v = 0;
                    if (const int i = index(cands[k]); i >= 0) v = W(1).shifted(size - 1 - i);
                    (*weights)[k] = (*weights)[k].shifted(width) + v;
                }
            };
            if (first && rsize > 0) highest_first_field(rsize, [](const Cand& c) { return c.higher; });
            // D.3, the moved-down players: of those that can be paired, the
            // highest ones, each outweighing all below it (the first candidates
            // take S1 in order); then, in that order, each against the highest
            // resident possible (D.1 over the moved-down players).
            if (!first && mdp_count > 0) highest_first_field(mdp_count, [](const Cand& c) { return c.mdp; });
            if (first && mdp_count == 0) {
                order_field(rsize, rsize, [](const Cand& c) { return std::pair{c.s1, c.s2}; });
            } else {
                const int p1 = mdp_count > 0 ? mdp_count : m / 2;
                order_field(p1, mdp_count > 0 ? m - mdp_count : m - m / 2,
                            [](const Cand& c) { return std::pair{c.s1, c.s2}; });
            }
            if (mdp_count > 0) {
                if (first) {
                    order_field(rsize, rsize, [](const Cand& c) { return std::pair{c.r1, c.r2}; });
                } else {
                    const int p1 = std::min(mdp_count, m - mdp_count);
                    const int rest = m - mdp_count - p1;
                    order_field(rest / 2, rest - rest / 2, [](const Cand& c) { return std::pair{c.r1, c.r2}; });
                }
            }
            for (auto get : {+[](const Cand& c) { return c.tie; }, +[](const Cand& c) { return c.floater_rank; }}) {
                long long maxv = 0;
                for (const Cand& c : cands) maxv = std::max(maxv, get(c));
                if (maxv == 0) continue;
                int width = bit_length(maxv * (nv / 2 + 1)) + 1;
                total_bits += width;
                if (weights)
                    for (std::size_t k = 0; k < cands.size(); ++k)
                        (*weights)[k] = (*weights)[k].shifted(width) + W(maxv - get(cands[k]));
            }
            return total_bits;
        };
        // A matching's weight is a sum of nv/2 edges, doubled in the matching,
        // with room for the sign: the weights stay below 2^(bits-6) / nv.
        const int needed = lay_out(static_cast<std::vector<Wide>*>(nullptr)) + bit_length(nv) + 2;
        auto match = [&]<int Limbs>() {
            std::vector<WideInt<Limbs>> weights(cands.size(), WideInt<Limbs>(0));
            lay_out(&weights);
            std::vector<WideIntEdge<Limbs>> edges;
            edges.reserve(cands.size());
            for (std::size_t k = 0; k < cands.size(); ++k) edges.push_back({cands[k].a, cands[k].b, weights[k]});
            return max_weight_matching_wide<Limbs>(nv, edges, true);
        };
        std::vector<int> mate;
        if (needed <= WideInt<4>::kBits - 6) mate = match.template operator()<4>();
        else if (needed <= WideInt<8>::kBits - 6) mate = match.template operator()<8>();
        else if (needed <= WideInt<16>::kBits - 6) mate = match.template operator()<16>();
        else if (needed <= WideInt<32>::kBits - 6) mate = match.template operator()<32>();
        else if (needed <= WideInt<64>::kBits - 6) mate = match.template operator()<64>();
        else
            return make_error("round " + std::to_string(round_) + ": the pairing criteria of a bracket of " +
                              std::to_string(m) + " players (" + std::to_string(nv) + " with those below it) need " +
                              std::to_string(needed) + " bits, more than the " +
                              std::to_string(WideInt<64>::kBits - 6) + " that the weights hold");
        std::vector<int> out(static_cast<std::size_t>(n_) + 1, -1);
        for (int x = 0; x < nv; ++x) {
            if (mate[x] < 0) return make_error(no_pairing_message());
            out[verts[x]] = verts[mate[x]];
        }
        return out;
    }

    static int position(const std::vector<int>& v, int x) {
        return static_cast<int>(std::find(v.begin(), v.end(), x) - v.begin());
    }

    // C.8-C.11 for the pair (a, b), a ranking higher, with the colours E gives.
    void colour_fields(int a, int b, long long& c8, long long& c9, long long& c10, long long& c11) const {
        const PairingPlayer& x = players_[a];
        const PairingPlayer& y = players_[b];
        Colour cx = allocate_colours(x, y, true, t_.initial_colour);
        Colour cy = opposite(cx);
        const bool tops = topscorer_[a] || topscorer_[b];
        for (int k = 0; k < 2; ++k) {
            const PairingPlayer& p = k == 0 ? x : y;
            Colour c = k == 0 ? cx : cy;
            if (tops) {
                int diff = p.colour_difference + (c == Colour::WHITE ? 1 : -1);
                if (diff > 2 || diff < -2) ++c8;
                std::vector<Colour> played;
                for (Colour h : p.colour_by_round)
                    if (h != Colour::NONE) played.push_back(h);
                if (played.size() >= 2 && played[played.size() - 1] == c && played[played.size() - 2] == c) ++c9;
            }
            if (p.preference != Colour::NONE && p.preference != c) {
                ++c10;
                if (p.strength == PreferenceStrength::STRONG) ++c11;  // A.6: strong is ±1 without an absolute one
            }
        }
    }

    std::string no_pairing_message() const {
        return "round " + std::to_string(round_) +
               ": no pairing satisfies the absolute criteria (C.04.1: no rematch, at most one bye; C.04.3 C.3)";
    }

    const Tournament& t_;
    int round_;
    std::vector<PairingPlayer> players_;
    int n_ = 0;
    int bye_ = -1;
    bool last_round_ = false;
    std::vector<long long> half_;
    std::vector<long long> unplayed_;  // rounds without a game played (byes, forfeits, absences)
    std::vector<long long> group_scores_;
    std::vector<int> group_;
    std::vector<bool> topscorer_;
};

}  // namespace

Result<Round> pair_dutch_later_round(const Tournament& t, int round, DutchTrace* trace) {
    RoundPairer pairer(t, round, pairing_players(t, round));
    return pairer.run(trace);
}

}  // namespace outpost::club
