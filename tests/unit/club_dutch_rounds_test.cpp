// Outpost — FIDE Dutch system, rounds 2 and later (SPEC P20; Handbook C.04.3
// with C.04.1): a hand-checked round, an exhaustive reference that knows nothing
// of the edge weights, and properties of many random tournaments.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "club/dutch.h"
#include "club/trf.h"
#include "../support/dutch_events.h"

using namespace outpost::club;
using namespace outpost::test;

namespace {

// ---- The exhaustive reference ------------------------------------------------
// Written from the Handbook's text, without the weights: for a bracket (its
// moved-down players and residents) and everyone below it, every pairing of all
// of them that keeps the absolute criteria is tried, and the criteria are compared
// in their order, each computed directly from the pairs.

struct Ref {
    std::vector<PairingPlayer> ps;  // by rank
    bool last_round = false;
    double max_score = 0;
    Colour initial = Colour::NONE;

    const PairingPlayer& by_id(int id) const {
        for (const PairingPlayer& p : ps)
            if (p.id == id) return p;
        throw std::runtime_error("no player " + std::to_string(id));
    }
    int rank(int id) const {
        for (std::size_t i = 0; i < ps.size(); ++i)
            if (ps[i].id == id) return static_cast<int>(i);
        return 1 << 20;  // the bye (id 0) ranks last
    }
    bool topscorer(const PairingPlayer& p) const { return last_round && p.score > max_score / 2; }
    bool legal(int a, int b) const {
        if (a == 0 || b == 0) return by_id(a == 0 ? b : a).may_get_bye;  // C.04.1 c
        const PairingPlayer& x = by_id(a);
        const PairingPlayer& y = by_id(b);
        if (x.opponents.count(b)) return false;  // C.04.1 b
        if (x.strength == PreferenceStrength::ABSOLUTE && y.strength == PreferenceStrength::ABSOLUTE &&
            x.preference == y.preference && !topscorer(x) && !topscorer(y))
            return false;  // C.3
        return true;
    }
    double score(int id) const { return id == 0 ? -1000 : by_id(id).score; }
};

using Matching = std::vector<std::pair<int, int>>;

struct DOrderCount {
    int homogeneous = 0, homogeneous_different = 0, heterogeneous = 0, heterogeneous_different = 0;
};

void all_matchings(const Ref& ref, std::vector<int> left, Matching& cur, std::vector<Matching>& out) {
    if (left.empty()) {
        out.push_back(cur);
        return;
    }
    int a = left[0];
    for (std::size_t k = 1; k < left.size(); ++k) {
        int b = left[k];
        if (!ref.legal(a, b)) continue;
        std::vector<int> rest;
        for (std::size_t j = 1; j < left.size(); ++j)
            if (j != k) rest.push_back(left[j]);
        cur.emplace_back(a, b);
        all_matchings(ref, rest, cur, out);
        cur.pop_back();
    }
}

// The score differences of a bracket (C.6): each pair's, and for each player who
// floats down, its score minus one point less than the lowest score present.
std::vector<double> psd(const Ref& ref, const std::set<int>& bracket, const Matching& m, double lowest) {
    std::vector<double> d;
    for (auto [a, b] : m) {
        bool ia = bracket.count(a), ib = bracket.count(b);
        if (ia && ib) d.push_back(std::fabs(ref.score(a) - ref.score(b)));
        else if (ia) d.push_back(ref.score(a) - (lowest - 1));
        else if (ib) d.push_back(ref.score(b) - (lowest - 1));
    }
    std::sort(d.rbegin(), d.rend());
    return d;
}

// The criteria C.5-C.19 for the bracket's part of a complete matching, in order;
// smaller is better, compared lexicographically.
// `c9`: whether 2025 C9 counts in this bracket (only in the one whose single
// player left unpaired gets the bye: bye_alone_leaves).
std::vector<double> criteria(const Ref& ref, const std::set<int>& bracket, double resident, double next_resident,
                             bool has_next, const Matching& m, bool c9) {
    std::vector<double> v;
    int pairs = 0;
    std::set<int> floaters;
    for (auto [a, b] : m) {
        bool ia = bracket.count(a), ib = bracket.count(b);
        if (ia && ib) ++pairs;
        else if (ia) floaters.insert(a);
        else if (ib) floaters.insert(b);
    }
    // 2025 C5, above all the others: the lowest score for the pairing-allocated
    // bye (the player matched with id 0), and (below) 2025 C9: its fewest
    // rounds without a game.
    double bye_score = 0, bye_unplayed = 0;
    for (auto [a, b] : m)
        if (a == 0 || b == 0) {
            const PairingPlayer& p = ref.by_id(a == 0 ? b : a);
            bye_score = p.score;
            bye_unplayed = static_cast<double>(std::count(p.colour_by_round.begin(), p.colour_by_round.end(), Colour::NONE));
        }
    v.push_back(bye_score);                              // 2025 C5
    v.push_back(-pairs);                                 // C.5
    for (double d : psd(ref, bracket, m, resident)) v.push_back(d);  // C.6
    if (has_next) {                                      // C.7
        std::set<int> next = floaters;
        for (const PairingPlayer& p : ref.ps)
            if (p.score == next_resident) next.insert(p.id);
        int next_pairs = 0;
        for (auto [a, b] : m)
            if (next.count(a) && next.count(b)) ++next_pairs;
        v.push_back(-next_pairs);
        for (double d : psd(ref, next, m, next_resident)) v.push_back(d);
    }
    if (c9) v.push_back(bye_unplayed);                   // 2025 C9
    double c[12] = {0};  // C.8 .. C.19
    for (auto [a, b] : m) {
        if (!bracket.count(a) || !bracket.count(b)) continue;
        const PairingPlayer& x = ref.by_id(ref.rank(a) < ref.rank(b) ? a : b);
        const PairingPlayer& y = ref.by_id(ref.rank(a) < ref.rank(b) ? b : a);
        Colour cx = allocate_colours(x, y, true, ref.initial);
        bool tops = ref.topscorer(x) || ref.topscorer(y);
        for (int k = 0; k < 2; ++k) {
            const PairingPlayer& p = k == 0 ? x : y;
            Colour got = k == 0 ? cx : opposite(cx);
            int diff = p.colour_difference + (got == Colour::WHITE ? 1 : -1);
            std::vector<Colour> played;
            for (Colour h : p.colour_by_round)
                if (h != Colour::NONE) played.push_back(h);
            bool three = played.size() >= 2 && played.back() == got && played[played.size() - 2] == got;
            if (tops && std::abs(diff) > 2) c[0] += 1;  // C.8
            if (tops && three) c[1] += 1;               // C.9
            if (p.preference != Colour::NONE && got != p.preference) {
                c[2] += 1;                                                   // C.10
                if (p.strength == PreferenceStrength::STRONG || p.strength == PreferenceStrength::ABSOLUTE)
                    c[3] += 1;                                               // C.11
            }
        }
    }
    auto float_at = [](const PairingPlayer& p, int back) {
        int k = static_cast<int>(p.floats.size()) - back;
        return k >= 0 ? p.floats[static_cast<std::size_t>(k)] : Float::NONE;
    };
    for (auto [a, b] : m) {
        bool ia = bracket.count(a), ib = bracket.count(b);
        if (!ia && !ib) continue;
        if (ia && ib) {
            if (ref.score(a) == ref.score(b)) continue;
            const PairingPlayer& hi = ref.by_id(ref.score(a) > ref.score(b) ? a : b);
            const PairingPlayer& lo = ref.by_id(ref.score(a) > ref.score(b) ? b : a);
            double diff = hi.score - lo.score;
            for (int back = 1; back <= 2; ++back) {
                if (float_at(hi, back) == Float::DOWN) c[back == 1 ? 4 : 6] += 1, c[back == 1 ? 8 : 10] += diff;
                if (float_at(lo, back) == Float::UP) c[back == 1 ? 5 : 7] += 1, c[back == 1 ? 9 : 11] += diff;
            }
        } else {
            const PairingPlayer& down = ref.by_id(ia ? a : b);
            double diff = down.score - (resident - 1);
            for (int back = 1; back <= 2; ++back)
                if (float_at(down, back) == Float::DOWN) c[back == 1 ? 4 : 6] += 1, c[back == 1 ? 8 : 10] += diff;
        }
    }
    // The order of the criteria: C.12-C.15 counts, then C.16-C.19 score differences.
    for (double x : c) v.push_back(x);
    return v;
}

// 2025 C9 counts in a bracket only where the bracket's players are all paired
// among themselves but one, who gets the bye (the player matched with id 0).
bool bye_alone_leaves(const std::set<int>& bracket, const Matching& m) {
    bool bye_here = false;
    for (auto [a, b] : m) {
        const bool ia = bracket.count(a) > 0, ib = bracket.count(b) > 0;
        if (a == 0 || b == 0) bye_here = bye_here || ia || ib;
        else if (ia != ib) return false;
    }
    return bye_here;
}

// Checks every bracket decision of the fast pairing: no complete pairing of the
// bracket and the players below it is better by the criteria in their order.
void check_against_reference(const Tournament& t, int round, const DutchTrace& trace, const std::string& where,
                             DOrderCount* d_order = nullptr) {
    Ref ref;
    ref.ps = pairing_players(t, round);
    std::sort(ref.ps.begin(), ref.ps.end(), [](const PairingPlayer& a, const PairingPlayer& b) {
        return a.score != b.score ? a.score > b.score : a.id < b.id;
    });
    ref.last_round = round == t.total_rounds;
    ref.max_score = t.scoring.win * (round - 1);
    ref.initial = t.initial_colour;
    std::set<double> scores;
    for (const PairingPlayer& p : ref.ps) scores.insert(p.score);
    for (const BracketDecision& d : trace.brackets) {
        std::set<int> bracket(d.players.begin(), d.players.end());
        std::vector<int> all(d.players.begin(), d.players.end());
        for (const PairingPlayer& p : ref.ps)
            if (p.score < d.resident_score) all.push_back(p.id);
        if (ref.ps.size() % 2 == 1) all.push_back(0);
        auto it = scores.find(d.resident_score);
        bool has_next = it != scores.begin();
        double next_resident = has_next ? *std::prev(it) : 0;
        std::vector<Matching> ms;
        Matching cur;
        all_matchings(ref, all, cur, ms);
        ASSERT_FALSE(ms.empty()) << where;
        // Whether C9 counts here is settled by the criteria above it: any
        // matching best without C9 tells.
        std::vector<double> best, chosen;
        const Matching* best_m = nullptr;
        for (const Matching& m : ms) {
            std::vector<double> v = criteria(ref, bracket, d.resident_score, next_resident, has_next, m, false);
            if (best.empty() || v < best) best = v, best_m = &m;
        }
        const bool c9 = bye_alone_leaves(bracket, *best_m);
        best.clear();
        std::set<std::pair<int, int>> fast(d.pairs.begin(), d.pairs.end());
        std::set<int> fast_down(d.downfloaters.begin(), d.downfloaters.end());
        bool found = false;
        for (const Matching& m : ms) {
            std::vector<double> v = criteria(ref, bracket, d.resident_score, next_resident, has_next, m, c9);
            if (best.empty() || v < best) best = v;
            std::set<std::pair<int, int>> pairs;
            std::set<int> down;
            for (auto [a, b] : m) {
                bool ia = bracket.count(a), ib = bracket.count(b);
                if (ia && ib) pairs.insert(ref.rank(a) < ref.rank(b) ? std::pair{a, b} : std::pair{b, a});
                else if (ia) down.insert(a);
                else if (ib) down.insert(b);
            }
            if (pairs == fast && down == fast_down && (!found || v < chosen)) chosen = v, found = true;
        }
        ASSERT_TRUE(found) << where << ": the fast bracket pairing cannot be completed";
        ASSERT_EQ(chosen, best) << where << ", bracket at score " << d.resident_score;
        // D.1 in a homogeneous bracket: S1 the first P players (P the number of
        // pairs), S2 the others in every order, lexicographically; S1[i] meets
        // S2[i] and the rest of S2 floats down. The first candidate as good as
        // the best is the Handbook's pairing (when no exchange is needed).
        bool homogeneous = true;
        for (int id : d.players) homogeneous = homogeneous && ref.score(id) == d.resident_score;
        if (d_order && homogeneous) {
            const std::size_t p = d.pairs.size();
            std::vector<int> s1(d.players.begin(), d.players.begin() + static_cast<long>(p));
            std::vector<int> s2(d.players.begin() + static_cast<long>(p), d.players.end());
            std::vector<int> below;
            for (int id : all)
                if (!bracket.count(id)) below.push_back(id);
            std::set<std::pair<std::vector<std::pair<int, int>>, std::vector<int>>> tried;
            std::vector<std::pair<int, int>> first;
            do {
                Matching head;
                bool ok = true;
                for (std::size_t i = 0; i < p && ok; ++i) {
                    ok = ref.legal(s1[i], s2[i]);
                    head.emplace_back(s1[i], s2[i]);
                }
                if (!ok) continue;
                std::vector<int> rest = below;
                rest.insert(rest.begin(), s2.begin() + static_cast<long>(p), s2.end());
                std::vector<Matching> tails;
                Matching tcur;
                all_matchings(ref, rest, tcur, tails);
                for (const Matching& tail : tails) {
                    Matching m = head;
                    m.insert(m.end(), tail.begin(), tail.end());
                    if (criteria(ref, bracket, d.resident_score, next_resident, has_next, m, c9) == best) {
                        for (std::size_t i = 0; i < p; ++i) first.emplace_back(s1[i], s2[i]);
                        break;
                    }
                }
            } while (first.empty() && std::next_permutation(s2.begin(), s2.end()));
            if (first.empty()) continue;  // only an exchange (D.2) reaches the best
            ++d_order->homogeneous;
            if (std::set<std::pair<int, int>>(first.begin(), first.end()) != fast) {
                ++d_order->homogeneous_different;
                std::string text = where + ": D.1 gives";
                for (auto [a, b] : first) text += " " + std::to_string(a) + "-" + std::to_string(b);
                text += ", the pairing has";
                for (auto [a, b] : fast) text += " " + std::to_string(a) + "-" + std::to_string(b);
                ADD_FAILURE() << text;
            }
        }
        // D.3 in a heterogeneous bracket: S1 the moved-down players that are paired
        // (M1 of them, the highest), S2 the residents in every order; then the
        // remainder as a homogeneous bracket in its own D.1 order. Counted, not
        // asserted: this order is approximated (see docs/events.md).
        if (d_order && !homogeneous) {
            std::vector<int> mdps, residents;
            for (int id : d.players) (ref.score(id) > d.resident_score ? mdps : residents).push_back(id);
            std::size_t m1 = 0;
            for (auto [a, b] : d.pairs) m1 += (ref.score(a) > d.resident_score) != (ref.score(b) > d.resident_score);
            const std::size_t rem_pairs = d.pairs.size() - m1;
            std::vector<int> below;
            for (int id : all)
                if (!bracket.count(id)) below.push_back(id);
            std::vector<std::pair<int, int>> first;
            std::vector<int> s2 = residents, last_prefix;
            bool any = false;
            do {
                std::vector<int> prefix(s2.begin(), s2.begin() + static_cast<long>(std::min(m1, s2.size())));
                if (any && prefix == last_prefix) continue;
                any = true;
                last_prefix = prefix;
                Matching head;
                bool ok = m1 <= mdps.size() && m1 <= s2.size();
                for (std::size_t k = 0; k < m1 && ok; ++k) {
                    ok = ref.legal(mdps[k], s2[k]);
                    head.emplace_back(mdps[k], s2[k]);
                }
                if (!ok) continue;
                std::vector<int> rem(s2.begin() + static_cast<long>(m1), s2.end());
                std::sort(rem.begin(), rem.end(), [&](int a, int b) { return ref.rank(a) < ref.rank(b); });
                if (rem.size() < 2 * rem_pairs) continue;
                std::vector<int> r1(rem.begin(), rem.begin() + static_cast<long>(rem_pairs));
                std::vector<int> r2(rem.begin() + static_cast<long>(rem_pairs), rem.end());
                do {
                    Matching m = head;
                    bool ok2 = true;
                    for (std::size_t k = 0; k < rem_pairs && ok2; ++k) {
                        ok2 = ref.legal(r1[k], r2[k]);
                        m.emplace_back(r1[k], r2[k]);
                    }
                    if (!ok2) continue;
                    std::vector<int> rest = below;
                    rest.insert(rest.begin(), r2.begin() + static_cast<long>(rem_pairs), r2.end());
                    rest.insert(rest.begin(), mdps.begin() + static_cast<long>(m1), mdps.end());
                    std::vector<Matching> tails;
                    Matching tcur;
                    all_matchings(ref, rest, tcur, tails);
                    for (const Matching& tail : tails) {
                        Matching full = m;
                        full.insert(full.end(), tail.begin(), tail.end());
                        if (criteria(ref, bracket, d.resident_score, next_resident, has_next, full, c9) == best) {
                            first = m;
                            break;
                        }
                    }
                } while (first.empty() && std::next_permutation(r2.begin(), r2.end()));
            } while (first.empty() && std::next_permutation(s2.begin(), s2.end()));
            if (first.empty()) continue;
            std::set<std::pair<int, int>> want;
            for (auto [a, b] : first) want.insert(ref.rank(a) < ref.rank(b) ? std::pair{a, b} : std::pair{b, a});
            ++d_order->heterogeneous;
            if (want != fast) {
                if (++d_order->heterogeneous_different <= 6 && std::getenv("DUTCH_SHOW")) {
                    std::string text = where + " [";
                    for (int id : d.players) text += " " + std::to_string(id) + (ref.score(id) > d.resident_score ? "*" : "");
                    text += " ] D.3:";
                    for (auto [a, b] : want) text += " " + std::to_string(a) + "-" + std::to_string(b);
                    text += ", chosen:";
                    for (auto [a, b] : fast) text += " " + std::to_string(a) + "-" + std::to_string(b);
                    std::printf("%s\n", text.c_str());
                }
            }
        }
    }
}

}  // namespace

// Round 2 after the higher-ranked player won every game of round 1: the colour
// preferences (C.10) decide between the transpositions, 1 against 4, 2 against 3.
TEST(DutchC04_3, SecondRoundColoursDecideTheTransposition) {
    Tournament t = empty_tournament(8, 5);
    std::mt19937 rng(1);
    auto r1 = pair_dutch(t);
    ASSERT_TRUE(r1.ok());
    ASSERT_EQ(write_pairing(*r1), "4\n1 5\n6 2\n3 7\n8 4\n");
    for (const Pairing& g : *r1) {
        int hi = std::min(g.white, g.black);
        int lo = std::max(g.white, g.black);
        set_entry(t, hi, 1, {lo, hi == g.white ? Colour::WHITE : Colour::BLACK, ResultCode::WIN});
        set_entry(t, lo, 1, {hi, lo == g.white ? Colour::WHITE : Colour::BLACK, ResultCode::LOSS});
    }
    DutchTrace trace;
    auto r2 = pair_dutch(t, &trace);
    ASSERT_TRUE(r2.ok()) << r2.error().message;
    EXPECT_EQ(write_pairing(*r2), "4\n4 1\n2 3\n5 8\n7 6\n");
    check_against_reference(t, 2, trace, "hand example");
}

// A TRF(x) line for the hand-made events below: rank, points, then per round
// the opponent (0 for none), the colour and the result, in the format's columns.
std::string trf_player(int rank, double points, const std::vector<std::tuple<int, char, char>>& rounds) {
    char head[128];
    std::snprintf(head, sizeof head, "001 %4d      %-33s %4d%28s%4.1f %4d", rank, ("Player " + std::to_string(rank)).c_str(),
                  2000 - 10 * rank, "", points, rank);
    std::string line = head;
    line.resize(91, ' ');
    for (auto [opp, colour, result] : rounds) {
        char block[16];
        std::snprintf(block, sizeof block, "%4s %c %c  ", opp ? std::to_string(opp).c_str() : "0000", colour, result);
        line += block;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    return line + "\n";
}

// C.04.3 (2025 text) C5, the first quality criterion: the pairing-allocated bye
// goes to the lowest score possible, before the number of pairs in a bracket.
// Round 3 of five: 1 and 2 (2 points) have not met; 4 (1.5) and 3 (0.5) have;
// 5 (0 points) has had no bye. Pairing 1-2 (the 2017 text's C.5, the most pairs
// in the top bracket) leaves 4-5 and the bye to 3 (0.5 points: 4 had a bye);
// the 2025 C5 gives the bye to 5 (0 points), so 1 and 2 meet 4 and 3. 1-3 met in
// round 2, so 1-4 and 2-3; colours by E: 4 (strong White) against 1 (mild
// White) is White; 3 (absolute Black) against 2 (strong Black) is Black.
TEST(DutchC04_3, C5_2025ByeToTheLowestScoreBeforeThePairsOfTheTopBracket) {
    std::string text = "012 C5 of the 2025 text\nXXR 5\nXXC white1\n";
    text += trf_player(1, 2.0, {{5, 'w', '1'}, {3, 'b', '1'}});
    text += trf_player(2, 2.0, {{0, '-', 'U'}, {5, 'w', '1'}});
    text += trf_player(3, 0.5, {{4, 'w', '='}, {1, 'w', '0'}});
    text += trf_player(4, 1.5, {{3, 'b', '='}, {0, '-', 'U'}});
    text += trf_player(5, 0.0, {{1, 'b', '0'}, {2, 'b', '0'}});
    auto t = read_trf(text);
    ASSERT_TRUE(t.ok()) << t.error().message;
    DutchTrace trace;
    auto r = pair_dutch(*t, &trace);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(write_pairing(*r), "3\n4 1\n2 3\n5 0\n");
    check_against_reference(*t, 3, trace, "2025 C5 example");
}

// C.04.3 (2025 text) C9: among the players who could take the bye with the same
// score, the one with the fewest rounds without a game. Round 2 of seven: 6 was
// absent in round 1 (Z, no points: by 1.4.3 no downfloat either). 1-5 pair at 1
// point; 3 and 7 (0.5) have met and float down to 2, 4, 6 (0 points). Without
// C9 the lowest-ranked, 6, would take the bye; with it 2 or 4 does. The first
// transposition that gives every player his colour: 3 (Black) against 4 (White),
// 7 (White) against 6 (no preference), the bye to 2.
TEST(DutchC04_3, C9_2025ByeToTheFewestUnplayedRounds) {
    std::string text = "012 C9 of the 2025 text\nXXR 5\nXXC white1\n";
    text += trf_player(1, 1.0, {{4, 'w', '1'}});
    text += trf_player(2, 0.0, {{5, 'w', '0'}});
    text += trf_player(3, 0.5, {{7, 'w', '='}});
    text += trf_player(4, 0.0, {{1, 'b', '0'}});
    text += trf_player(5, 1.0, {{2, 'b', '1'}});
    text += trf_player(6, 0.0, {{0, '-', 'Z'}});
    text += trf_player(7, 0.5, {{3, 'b', '='}});
    auto t = read_trf(text);
    ASSERT_TRUE(t.ok()) << t.error().message;
    DutchTrace trace;
    auto r = pair_dutch(*t, &trace);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(write_pairing(*r), "4\n5 1\n4 3\n7 6\n2 0\n");
    check_against_reference(*t, 2, trace, "2025 C9 example");
}

// D.3 (C.04.3): in a heterogeneous bracket the moved-down players paired are
// the highest that can be, and each meets the highest resident possible, even
// where more players moved down than there are residents. Round 8 of ten, 15
// players (a round of bench/pairings/compare where the two differed): 1, 8 and
// 10 (5.5 points) have all met and move down to 5 and 6 (4.5); 5 has met all
// three, 6 has met 1, so one pair, 8-6 or 10-6, equally good by every
// criterion. S1 is the moved-down players in order: 1 cannot be paired, 8 can,
// so 8-6, as bbpPairings pairs it. Before, only as many moved-down players as
// there are residents (two) were ordered, and 10, the third, counted as if
// first: 10-6.
TEST(DutchC04_3, TheHighestMovedDownPlayersArePairedFirst_C04_3_D3) {
    std::string text = "012 moved-down players in order\nXXR 10\nXXC white1\n";
    text += trf_player(
        1, 5.5,
        {{8, 'w', '0'}, {4, 'b', '1'}, {6, 'w', '1'}, {13, 'b', '1'}, {10, 'w', '1'}, {5, 'w', '='}, {7, 'b', '1'}});
    text += trf_player(
        2, 3.5,
        {{9, 'b', '0'}, {7, 'w', '='}, {4, 'w', '1'}, {6, 'b', '0'}, {15, 'b', '0'}, {12, 'w', '1'}, {0, '-', 'U'}});
    text += trf_player(
        3, 3.0,
        {{10, 'w', '0'}, {12, 'b', '1'}, {13, 'w', '0'}, {7, 'b', '='}, {14, 'w', '0'}, {0, '-', 'U'}, {9, 'b', '='}});
    text += trf_player(
        4, 2.5,
        {{11, 'b', '-'}, {1, 'w', '0'}, {2, 'b', '0'}, {0, '-', 'U'}, {12, 'b', '1'}, {7, 'w', '0'}, {11, 'w', '='}});
    text += trf_player(
        5, 4.5,
        {{12, 'w', '1'}, {10, 'b', '0'}, {14, 'b', '1'}, {15, 'w', '1'}, {8, 'w', '1'}, {1, 'b', '='}, {6, 'w', '0'}});
    text += trf_player(
        6, 4.5,
        {{13, 'b', '1'}, {11, 'w', '0'}, {1, 'b', '0'}, {2, 'w', '1'}, {9, 'b', '='}, {15, 'w', '1'}, {5, 'b', '1'}});
    text += trf_player(
        7, 3.0,
        {{14, 'w', '-'}, {2, 'b', '='}, {9, 'w', '0'}, {3, 'w', '='}, {0, '-', 'U'}, {4, 'b', '1'}, {1, 'w', '0'}});
    text += trf_player(
        8, 5.5,
        {{1, 'b', '1'}, {14, 'w', '1'}, {11, 'b', '1'}, {10, 'w', '='}, {5, 'b', '0'}, {9, 'w', '1'}, {15, 'b', '1'}});
    text += trf_player(
        9, 3.5,
        {{2, 'w', '1'}, {15, 'b', '0'}, {7, 'b', '1'}, {11, 'w', '='}, {6, 'w', '='}, {8, 'b', '0'}, {3, 'w', '='}});
    text += trf_player(
        10, 5.5,
        {{3, 'b', '1'}, {5, 'w', '1'}, {15, 'w', '1'}, {8, 'b', '='}, {1, 'b', '0'}, {13, 'w', '1'}, {14, 'b', '1'}});
    text += trf_player(
        11, 3.0,
        {{4, 'w', '+'}, {6, 'b', '1'}, {8, 'w', '0'}, {9, 'b', '='}, {13, 'w', '0'}, {14, 'b', '-'}, {4, 'b', '='}});
    text += trf_player(
        12, 2.0,
        {{5, 'b', '0'}, {3, 'w', '0'}, {0, '-', 'U'}, {14, 'b', '='}, {4, 'w', '0'}, {2, 'b', '0'}, {0, '-', 'H'}});
    text += trf_player(
        13, 3.0,
        {{6, 'w', '0'}, {0, '-', 'U'}, {3, 'b', '1'}, {1, 'w', '0'}, {11, 'b', '1'}, {10, 'b', '0'}, {0, '-', 'Z'}});
    text += trf_player(
        14, 3.5,
        {{7, 'b', '+'}, {8, 'b', '0'}, {5, 'w', '0'}, {12, 'w', '='}, {3, 'b', '1'}, {11, 'w', '+'}, {10, 'w', '0'}});
    text += trf_player(
        15, 3.0,
        {{0, '-', 'U'}, {9, 'w', '1'}, {10, 'b', '0'}, {5, 'b', '0'}, {2, 'w', '1'}, {6, 'b', '0'}, {8, 'w', '0'}});
    auto t = read_trf(text);
    ASSERT_TRUE(t.ok()) << t.error().message;
    DutchTrace trace;
    auto r = pair_dutch(*t, &trace);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(write_pairing(*r), "8\n1 14\n8 6\n10 2\n11 5\n3 15\n12 7\n13 4\n9 0\n");
}

// C.04.1 (2025) 2: two players shall not *play* each other more than once. A
// forfeited game was not played (TRF + and -), so the two may still meet, as
// bbpPairings pairs them; before, Outpost counted the forfeit as a meeting and
// found no pairing at all.
// C.04.3 (2025 text) C9 counts only in the bracket that leaves one player, the
// bye's assignee (see src/club/dutch_rounds.cpp), as bbpPairings applies it.
// Round 3 of six, eight players (a round of bench/pairings/compare where the two
// differed): 7 takes a half-point bye; 2 (two forfeit wins, so no bye) meets 5;
// of 1, 4 and 8 (1 point) one floats down to 3 and 6 (0 points), the one left
// takes the bye. 6 did not play round 1 (a forfeit loss), 3 played both rounds,
// and 8 has met 6. Applied in the 1-point bracket, C9 (above the colours) made
// 4 float, so that 3 could take the bye: 1-8, 4-6, bye 3. There it does not
// count: 1-4 and 1-8 are equally good by every criterion, D.1 takes 1-4 (4 has
// the stronger White preference), 8 floats down and can meet only 3, and 6
// takes the bye.
TEST(DutchC04_3, C9OnlyInTheBracketWhoseOneDownfloaterTakesTheBye_C04_3_C9) {
    std::string text = "012 C9 only in the bye's bracket\nXXR 6\nXXC white1\n";
    text += trf_player(1, 1.0, {{5, 'w', '='}, {7, 'b', '='}});
    text += trf_player(2, 2.0, {{6, 'b', '+'}, {4, 'b', '+'}});
    text += trf_player(3, 0.0, {{7, 'w', '0'}, {5, 'b', '0'}});
    text += trf_player(4, 1.0, {{8, 'b', '1'}, {2, 'w', '-'}});
    text += trf_player(5, 1.5, {{1, 'b', '='}, {3, 'w', '1'}});
    text += trf_player(6, 0.0, {{2, 'w', '-'}, {8, 'w', '0'}});
    text += trf_player(7, 1.5, {{3, 'b', '1'}, {1, 'w', '='}, {0, '-', 'H'}});
    text += trf_player(8, 1.0, {{4, 'w', '0'}, {6, 'b', '1'}});
    auto t = read_trf(text);
    ASSERT_TRUE(t.ok()) << t.error().message;
    DutchTrace trace;
    auto r = pair_dutch(*t, &trace);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(write_pairing(*r), "4\n2 5\n4 1\n8 3\n6 0\n");
    check_against_reference(*t, 3, trace, "2025 C9 only in the bye's bracket");
}

TEST(DutchC04_1, AForfeitedGameIsNoMeeting_C04_1_2) {
    std::string text = "012 forfeit\nXXR 3\nXXC white1\n";
    text += trf_player(1, 1.0, {{2, 'w', '+'}});
    text += trf_player(2, 0.0, {{1, 'b', '-'}});
    auto t = read_trf(text);
    ASSERT_TRUE(t.ok()) << t.error().message;
    auto r = pair_dutch(*t);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(write_pairing(*r), "1\n1 2\n");
}

// D.1 with D.3 (C.04.3): in a heterogeneous bracket the transpositions of the
// remainder are those of the residents the moved-down players leave, S1 being
// as many of them as there are pairs; and the remainder's exchanges do not
// decide the moved-down players' opponents. Round 3 of nine, 16 players (a
// round of bench/pairings/compare where bbpPairings and Outpost differed): 2-5
// at 2 points, 3-8 at 1.5, 14 moves down and meets 1, and the remainder 4 7 9
// 11 15 16 is paired by its own S1 and S2, as bbpPairings pairs it. Before,
// Outpost took S1 of the remainder from a fixed position in the bracket and
// counted its exchanges already when choosing the moved-down players' opponents.
TEST(DutchC04_3, RemainderTranspositionsAfterTheMovedDownPlayersOpponents_D1_D3) {
    std::string text = "012 remainder order\nXXR 9\nXXC white1\n";
    text += trf_player(1, 1.0, {{9, 'w', '1'}, {5, 'b', '0'}});
    text += trf_player(2, 2.0, {{10, 'b', '1'}, {7, 'w', '1'}});
    text += trf_player(3, 1.5, {{11, 'w', '1'}, {14, 'b', '='}});
    text += trf_player(4, 1.0, {{12, 'b', '='}, {16, 'w', '='}});
    text += trf_player(5, 2.0, {{13, 'w', '1'}, {1, 'w', '1'}});
    text += trf_player(6, 0.0, {{14, 'b', '0'}, {11, 'w', '0'}});
    text += trf_player(7, 1.0, {{15, 'w', '1'}, {2, 'b', '0'}});
    text += trf_player(8, 1.5, {{16, 'b', '='}, {12, 'w', '1'}});
    text += trf_player(9, 1.0, {{1, 'b', '0'}, {13, 'w', '1'}});
    text += trf_player(10, 0.0, {{2, 'w', '0'}, {15, 'b', '0'}});
    text += trf_player(11, 1.0, {{3, 'b', '0'}, {6, 'b', '1'}});
    text += trf_player(12, 0.5, {{4, 'w', '='}, {8, 'b', '0'}});
    text += trf_player(13, 0.0, {{5, 'b', '0'}, {9, 'b', '0'}, {0, '-', 'H'}});
    text += trf_player(14, 1.5, {{6, 'w', '1'}, {3, 'w', '='}});
    text += trf_player(15, 1.0, {{7, 'b', '0'}, {10, 'w', '1'}});
    text += trf_player(16, 1.0, {{8, 'w', '='}, {4, 'b', '='}});
    auto t = read_trf(text);
    ASSERT_TRUE(t.ok()) << t.error().message;
    DutchTrace trace;
    auto r = pair_dutch(*t, &trace);
    ASSERT_TRUE(r.ok()) << r.error().message;
    // bbpPairings (built from its 2025 sources) gives the same boards.
    EXPECT_EQ(write_pairing(*r), "8\n2 5\n3 8\n1 14\n11 4\n7 9\n16 15\n12 6\n10 0\n");
    check_against_reference(*t, 3, trace, "remainder order");
}

// D.2 (C.04.3): when a homogeneous bracket needs an exchange between S1 and S2,
// the one with the smallest difference of pairing numbers comes first. Eight
// players drew round 1 (1-5, 2-6, 3-7, 4-8, the lower ones with White but 4);
// in round 2 S1 = 1-4, S2 = 5-8, and 4 (wants Black) has met the only S2 player
// who wants White. With 4 and 5 exchanged (difference 1) every player gets his
// colour: 1-4, 2-7, 3-6, 5-8, as bbpPairings pairs it; Outpost exchanged 4 and 7.
TEST(DutchC04_3, ExchangeWithTheSmallestPairingNumberDifference_D2) {
    std::string text = "012 exchange\nXXR 5\nXXC white1\n";
    text += trf_player(1, 0.5, {{5, 'b', '='}});
    text += trf_player(2, 0.5, {{6, 'b', '='}});
    text += trf_player(3, 0.5, {{7, 'b', '='}});
    text += trf_player(4, 0.5, {{8, 'w', '='}});
    text += trf_player(5, 0.5, {{1, 'w', '='}});
    text += trf_player(6, 0.5, {{2, 'w', '='}});
    text += trf_player(7, 0.5, {{3, 'w', '='}});
    text += trf_player(8, 0.5, {{4, 'b', '='}});
    auto t = read_trf(text);
    ASSERT_TRUE(t.ok()) << t.error().message;
    DutchTrace trace;
    auto r = pair_dutch(*t, &trace);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(write_pairing(*r), "4\n1 4\n2 7\n3 6\n8 5\n");
    check_against_reference(*t, 2, trace, "D.2 exchange");
}

// D.2 with D.1 (C.04.3): an S1 player left without a pair is one exchange, and
// among exchanges with the same sums the lowest S1 players move to S2 first and
// the highest S2 players to S1; then each player of the new S1 meets the earliest
// partner possible. Round 4 of six, 16 players (a round of
// bench/pairings/compare): the 1-point players pair 4-1, 14-7, 8-11 as
// bbpPairings pairs them; before, Outpost counted pairs inside S1 and inside S2
// as two exchanges and ordered the pairs only by the original S1 and S2, and gave
// 14-1, 4-11, 8-7.
TEST(DutchC04_3, ExchangesMoveTheLowestOfS1AndTheHighestOfS2_D2) {
    std::string text = "012 exchanges\nXXR 6\nXXC white1\n";
    text += trf_player(1, 1.0, {{9, 'w', '0'}, {8, 'b', '1'}, {15, 'w', '0'}});
    text += trf_player(2, 2.0, {{10, 'b', '0'}, {14, 'w', '1'}, {11, 'b', '1'}});
    text += trf_player(3, 1.0, {{11, 'w', '1'}, {9, 'b', '0'}, {12, 'w', '0'}});
    text += trf_player(4, 1.0, {{12, 'b', '='}, {10, 'w', '0'}, {7, 'b', '='}});
    text += trf_player(5, 1.5, {{13, 'w', '='}, {0, '-', 'H'}, {16, 'b', '='}});
    text += trf_player(6, 2.0, {{14, 'b', '1'}, {16, 'w', '1'}, {10, 'b', '0'}});
    text += trf_player(7, 1.0, {{15, 'w', '='}, {13, 'b', '0'}, {4, 'w', '='}});
    text += trf_player(8, 1.0, {{16, 'b', '-'}, {1, 'w', '0'}, {14, 'b', '1'}});
    text += trf_player(9, 2.0, {{1, 'b', '1'}, {3, 'w', '1'}, {13, 'b', '0'}});
    text += trf_player(10, 3.0, {{2, 'w', '1'}, {4, 'b', '1'}, {6, 'w', '1'}});
    text += trf_player(11, 1.0, {{3, 'b', '0'}, {0, '-', 'U'}, {2, 'w', '0'}});
    text += trf_player(12, 1.5, {{4, 'w', '='}, {15, 'b', '0'}, {3, 'b', '1'}});
    text += trf_player(13, 2.5, {{5, 'b', '='}, {7, 'w', '1'}, {9, 'w', '1'}});
    text += trf_player(14, 0.0, {{6, 'w', '0'}, {2, 'b', '0'}, {8, 'w', '0'}});
    text += trf_player(15, 2.5, {{7, 'b', '='}, {12, 'w', '1'}, {1, 'b', '1'}});
    text += trf_player(16, 1.5, {{8, 'w', '+'}, {6, 'b', '0'}, {5, 'w', '='}});
    auto t = read_trf(text);
    ASSERT_TRUE(t.ok()) << t.error().message;
    DutchTrace trace;
    auto r = pair_dutch(*t, &trace);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(write_pairing(*r), "8\n15 10\n2 13\n6 9\n5 3\n12 16\n4 1\n14 7\n8 11\n");
    check_against_reference(*t, 4, trace, "D.2 exchanges");
}

// D.1 (C.04.3) in a large field: among pairings equally good by every quality
// criterion, the transpositions of S2 in lexicographic order decide. Round 2 of
// 50 players (a round of bench/pairings/compare): in round 1 k met k+25, the odd
// k with White; 12 draws; 49 is absent in round 2. bbpPairings (built from its
// 2025 sources) pairs the 0.5-point bracket 34-17, 40-9, 42-15; before, the D.1
// field, which did not fit in 256 bits with the criteria above it, was dropped and
// Outpost gave 34-15, 40-17, 42-9. The weights now widen to hold every field.
TEST(DutchC04_3, LexicographicTranspositionsInAFiftyPlayerField_C04_3_D1) {
    std::string text = "012 fifty players\nXXR 5\nXXC white1\n";
    const std::string result = "100=111===101=====0=1=1=0";  // round 1, for players 1-25
    for (int k = 1; k <= 50; ++k) {
        const int top = k <= 25 ? k : k - 25, opp = k <= 25 ? k + 25 : k - 25;
        const char r = result[static_cast<std::size_t>(top - 1)];
        const char mine = r == '=' ? '=' : ((r == '1') == (k <= 25) ? '1' : '0');
        const char colour = (top % 2 == 1) == (k <= 25) ? 'w' : 'b';
        const double points = mine == '1' ? 1.0 : mine == '=' ? 0.5 : 0.0;
        std::vector<std::tuple<int, char, char>> rounds{{opp, colour, mine}};
        if (k == 49) rounds.push_back({0, '-', 'Z'});
        text += trf_player(k, points, rounds);
    }
    auto t = read_trf(text);
    ASSERT_TRUE(t.ok()) << t.error().message;
    auto r = pair_dutch(*t);
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_EQ(write_pairing(*r),
              "25\n21 1\n23 5\n6 27\n28 7\n44 11\n50 13\n4 37\n8 29\n40 9\n10 33\n14 35\n42 15\n16 39\n34 17\n"
              "18 41\n20 43\n22 45\n24 47\n2 30\n32 3\n12 31\n36 19\n38 25\n26 46\n48 0\n");
}

// The pairing of two players who have met cannot be made: an error, not a guess.
TEST(DutchC04_1, NoLegalPairingIsAnError) {
    Tournament t = empty_tournament(2, 3);
    set_entry(t, 1, 1, {2, Colour::WHITE, ResultCode::WIN});
    set_entry(t, 2, 1, {1, Colour::BLACK, ResultCode::LOSS});
    auto r = pair_dutch(t);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("round 2"), std::string::npos);
}

// A player who had the pairing-allocated bye does not get it again (C.04.1 c);
// three players: 3 had the bye, so the bye of round 2 goes to someone else.
TEST(DutchC04_1, NoSecondPairingAllocatedBye) {
    Tournament t = empty_tournament(3, 3);
    auto r1 = pair_dutch(t);
    ASSERT_TRUE(r1.ok());
    ASSERT_EQ(write_pairing(*r1), "2\n1 2\n3 0\n");
    set_entry(t, 1, 1, {2, Colour::WHITE, ResultCode::DRAW});
    set_entry(t, 2, 1, {1, Colour::BLACK, ResultCode::DRAW});
    set_entry(t, 3, 1, {0, Colour::NONE, ResultCode::PAIRING_BYE});
    auto r2 = pair_dutch(t);
    ASSERT_TRUE(r2.ok()) << r2.error().message;
    for (const Pairing& g : *r2)
        if (g.is_bye()) {
            EXPECT_NE(g.white, 3);
        }
}

// The exhaustive reference against the fast pairing, bracket by bracket, over
// hundreds of small random tournaments (4-10 players, late entries absent in
// round 1, half-point byes requested in advance, several rounds).
TEST(DutchC04_3, EveryBracketIsOptimalByTheCriteriaInOrderAgainstExhaustiveSearch) {
    std::mt19937 rng(2026);
    int checked_rounds = 0;
    DOrderCount d_order;
    for (int tour = 0; tour < 300; ++tour) {
        int n = 4 + static_cast<int>(rng() % 7);
        int rounds = std::min(n - 1, 3 + static_cast<int>(rng() % 4));
        Tournament t = empty_tournament(n, rounds);
        for (int r = 1; r <= rounds; ++r) {
            // A requested half-point bye now and then.
            if (r > 1 && rng() % 4 == 0) set_entry(t, 1 + static_cast<int>(rng() % n), r, {0, Colour::NONE, ResultCode::HALF_BYE});
            DutchTrace trace;
            auto pairing = pair_dutch(t, &trace);
            std::string where = "tournament " + std::to_string(tour) + " round " + std::to_string(r);
            if (!pairing.ok()) break;  // small events run out of legal pairings
            if (r > 1) {
                check_against_reference(t, r, trace, where, &d_order);
                if (::testing::Test::HasFatalFailure()) return;
                ++checked_rounds;
            }
            play(t, r, *pairing, rng);
        }
    }
    EXPECT_GT(checked_rounds, 500);
    std::printf("[ dutch ] D.1 order: %d homogeneous brackets compared, %d different; D.3: %d heterogeneous, %d different\n",
                d_order.homogeneous, d_order.homogeneous_different, d_order.heterogeneous, d_order.heterogeneous_different);
    EXPECT_GT(d_order.homogeneous, 300);
    EXPECT_EQ(d_order.homogeneous_different, 0);
}

TEST(DutchC04_3, RandomEventsKeepTheAbsoluteCriteriaAndColourLimits) {
    std::mt19937 rng(7);
    for (int k = 0; k < 120; ++k) {
        int n = 20 + static_cast<int>(rng() % 41);
        random_event(rng, n, 7 + static_cast<int>(rng() % 3), "event " + std::to_string(k), nullptr);
        if (HasFailure()) return;
    }
}

// 200 players, nine rounds: the time of the slowest round is printed (P20 asks
// for under a second; not asserted, the machine is shared).
TEST(DutchC04_3, TwoHundredPlayersRoundByRound) {
    std::mt19937 rng(200);
    double slowest = 0, slowest_cpu = 0;
    random_event(rng, 200, 9, "200 players", &slowest, &slowest_cpu);
    std::printf("[ dutch ] 200 players, 9 rounds: slowest round paired in %.3f s (%.3f s of processor time)\n", slowest,
                slowest_cpu);
}

// The widest weights: round 2 of 200 players who all drew in round 1, one
// bracket of 200 (D.1 over 100 S1 players needs about 2000 bits). P20 asks for
// under a second: the processor time (not wall time, the machine may be shared)
// is asserted in an optimised build without sanitizers (about 0.4 s there).
TEST(DutchC04_3, TwoHundredPlayersInOneBracket_C04_3_D1) {
    std::string text = "012 one bracket\nXXR 9\nXXC white1\n";
    for (int k = 1; k <= 200; ++k) {
        const int top = k <= 100 ? k : k - 100, opp = k <= 100 ? k + 100 : k - 100;
        text += trf_player(k, 0.5, {{opp, (top % 2 == 1) == (k <= 100) ? 'w' : 'b', '='}});
    }
    auto t = read_trf(text);
    ASSERT_TRUE(t.ok()) << t.error().message;
    auto start = std::chrono::steady_clock::now();
    std::clock_t cpu_start = std::clock();
    auto r = pair_dutch(*t);
    double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_EQ(r->size(), 100u);
    std::set<int> seen;
    for (const Pairing& g : *r) {
        ASSERT_FALSE(g.is_bye());
        EXPECT_NE(std::abs(g.white - g.black), 100) << "a rematch";
        seen.insert(g.white);
        seen.insert(g.black);
    }
    EXPECT_EQ(seen.size(), 200u);
    // The first boards as bbpPairings (2025 sources) pairs them: S1 = 1-100,
    // S2 = 101-200, each player with the earliest partner in S2 that is new and
    // gives both their colours (C.10).
    std::set<std::pair<int, int>> boards;
    for (const Pairing& g : *r) boards.insert({std::min(g.white, g.black), std::max(g.white, g.black)});
    for (auto pair : {std::pair{1, 103}, std::pair{2, 104}, std::pair{3, 101}, std::pair{4, 102}})
        EXPECT_TRUE(boards.count(pair)) << pair.first << "-" << pair.second;
    std::printf("[ dutch ] 200 players in one bracket (round 2): paired in %.3f s (%.3f s of processor time)\n", secs,
                cpu);
#if defined(NDEBUG) && defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    EXPECT_LT(cpu, 1.0) << "P20: a round of 200 players must be paired in under a second";
#endif
}

