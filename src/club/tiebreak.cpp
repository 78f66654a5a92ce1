// Outpost — tiebreaks (FIDE Handbook C.07). Article numbers in the comments are
// those of C.07; docs/events.md lists them with their tests.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "club/tiebreak.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

namespace outpost::club {

namespace {

enum class Category : std::uint8_t {
    PLAYED,
    BYE,                     // 16.2.1 pairing-allocated or full-point bye
    FORFEIT_WIN,             // 16.2.2
    REQUESTED_BYE_FOLLOWED,  // 16.2.3
    FORFEIT_LOSS,            // 16.2.4
    REQUESTED_BYE_LAST,      // 16.2.5
};

bool is_requested_bye(const RoundEntry& e) {
    return e.opponent == 0 && (e.result == ResultCode::HALF_BYE || e.result == ResultCode::ZERO_BYE ||
                               e.result == ResultCode::NONE);
}

// 16.1.2: a requested bye or a forfeit loss.
bool is_voluntary_unplayed(const RoundEntry& e) {
    return is_requested_bye(e) || (e.opponent != 0 && e.result == ResultCode::FORFEIT_LOSS);
}

Category category(const Player& p, int r, int rounds) {
    RoundEntry e = p.round(r);
    if (e.played()) return Category::PLAYED;
    if (e.opponent != 0) return e.result == ResultCode::FORFEIT_WIN ? Category::FORFEIT_WIN : Category::FORFEIT_LOSS;
    if (e.result == ResultCode::PAIRING_BYE || e.result == ResultCode::FULL_BYE) return Category::BYE;
    for (int later = r + 1; later <= rounds; ++later)
        if (!is_voluntary_unplayed(p.round(later))) return Category::REQUESTED_BYE_FOLLOWED;
    return Category::REQUESTED_BYE_LAST;
}

// The result as a fraction of a win: 1, ½ or 0, from the points awarded.
double result_fraction(const Tournament& t, ResultCode r) {
    double pts = t.scoring.points(r);
    if (t.scoring.win <= 0.0) return 0.0;
    if (pts >= t.scoring.win) return 1.0;
    if (pts > t.scoring.loss && pts >= t.scoring.draw) return 0.5;
    return 0.0;
}

// One round's contribution to a sum-based tiebreak, and whether it is a VUR.
struct Element {
    double value = 0.0;
    double opponent_score = 0.0;  // for SB's least significant value
    bool voluntary_unplayed = false;
};

// Removes the elements a modifier cuts: `low` least significant values, then
// `high` most significant ones (14.1-14.4), a VUR first where 16.5 says so.
double sum_with_cuts(std::vector<Element> elements, int low, int high, bool sonneborn_berger, bool swiss) {
    for (int i = 0; i < low && !elements.empty(); ++i) {
        // 14.1.1: the least significant value; for SB the contribution of the
        // opponent with the lowest score (the lowest such contribution on a tie).
        auto least = std::min_element(elements.begin(), elements.end(), [&](const Element& a, const Element& b) {
            if (sonneborn_berger)
                return a.opponent_score != b.opponent_score ? a.opponent_score < b.opponent_score : a.value < b.value;
            return a.value < b.value;
        });
        auto cut = least;
        if (swiss) {
            auto vur = elements.end();
            for (auto it = elements.begin(); it != elements.end(); ++it)
                if (it->voluntary_unplayed && (vur == elements.end() || it->value < vur->value)) vur = it;
            // 16.5.1: for Buchholz the lowest VUR contribution; for SB the higher
            // of it and the least significant value.
            if (vur != elements.end()) cut = (!sonneborn_berger || vur->value >= least->value) ? vur : least;
        }
        elements.erase(cut);
    }
    for (int i = 0; i < high && !elements.empty(); ++i) {
        auto most = std::max_element(elements.begin(), elements.end(),
                                     [](const Element& a, const Element& b) { return a.value < b.value; });
        elements.erase(most);
    }
    double sum = 0.0;
    for (const Element& e : elements) sum += e.value;
    return sum;
}

std::vector<Element> buchholz_elements(const Tournament& t, const Player& p, int rounds, const TiebreakOptions& o,
                                       bool sonneborn_berger) {
    std::vector<Element> out;
    const double own = t.score(p, rounds);
    const int event_rounds = o.total_rounds > 0 ? o.total_rounds : rounds;
    for (int r = 1; r <= rounds; ++r) {
        RoundEntry e = p.round(r);
        Element el;
        double fraction = result_fraction(t, e.result);
        const Player* opp = e.opponent ? t.find(e.opponent) : nullptr;
        if (!o.swiss) {
            // 15.2: with pre-determined pairings forfeits are regular results.
            if (!opp) continue;
            el.opponent_score = t.score(*opp, rounds);
        } else {
            Category c = category(p, r, rounds);
            el.voluntary_unplayed = is_voluntary_unplayed(e);
            if (c == Category::PLAYED) {
                el.opponent_score = adjusted_score(t, *opp, rounds, o);
            } else {
                // 16.4: a dummy with the participant's own score, capped.
                double cap = (c == Category::FORFEIT_WIN || c == Category::FORFEIT_LOSS) && opp
                                 ? adjusted_score(t, *opp, rounds, o)
                                 : t.scoring.draw * event_rounds;
                el.opponent_score = std::min(own, cap);
            }
        }
        el.value = sonneborn_berger ? el.opponent_score * fraction : el.opponent_score;
        out.push_back(el);
    }
    return out;
}

}  // namespace

std::string_view tiebreak_code(Tiebreak t) {
    switch (t) {
        case Tiebreak::BUCHHOLZ: return "BH";
        case Tiebreak::BUCHHOLZ_CUT1: return "BH-C1";
        case Tiebreak::BUCHHOLZ_CUT2: return "BH-C2";
        case Tiebreak::BUCHHOLZ_MEDIAN1: return "BH-M1";
        case Tiebreak::BUCHHOLZ_MEDIAN2: return "BH-M2";
        case Tiebreak::SONNEBORN_BERGER: return "SB";
        case Tiebreak::SONNEBORN_BERGER_CUT1: return "SB-C1";
        case Tiebreak::DIRECT_ENCOUNTER: return "DE";
        case Tiebreak::WINS: return "WIN";
        case Tiebreak::GAMES_WON: return "WON";
        case Tiebreak::AVERAGE_RATING_OF_OPPONENTS: return "ARO";
        case Tiebreak::PROGRESSIVE: return "PS";
        case Tiebreak::PROGRESSIVE_CUT1: return "PS-C1";
    }
    return "?";
}

Result<Tiebreak> tiebreak_from_code(std::string_view code) {
    for (int i = 0; i <= static_cast<int>(Tiebreak::PROGRESSIVE_CUT1); ++i)
        if (tiebreak_code(static_cast<Tiebreak>(i)) == code) return static_cast<Tiebreak>(i);
    return make_error("unknown tiebreak '" + std::string(code) +
                      "' (BH, BH-C1, BH-C2, BH-M1, BH-M2, SB, SB-C1, DE, WIN, WON, ARO, PS, PS-C1)");
}

double adjusted_score(const Tournament& t, const Player& p, int rounds, const TiebreakOptions& options) {
    double s = 0.0;
    for (int r = 1; r <= rounds; ++r) {
        // 16.3.2: requested byes followed only by VURs (or in the last round) count as draws.
        if (options.swiss && category(p, r, rounds) == Category::REQUESTED_BYE_LAST) s += t.scoring.draw;
        else s += t.scoring.points(p.round(r).result);
    }
    return s;
}

double tiebreak_value(const Tournament& t, const Player& p, Tiebreak tb, int rounds, const TiebreakOptions& o) {
    switch (tb) {
        case Tiebreak::BUCHHOLZ: return sum_with_cuts(buchholz_elements(t, p, rounds, o, false), 0, 0, false, o.swiss);
        case Tiebreak::BUCHHOLZ_CUT1: return sum_with_cuts(buchholz_elements(t, p, rounds, o, false), 1, 0, false, o.swiss);
        case Tiebreak::BUCHHOLZ_CUT2: return sum_with_cuts(buchholz_elements(t, p, rounds, o, false), 2, 0, false, o.swiss);
        case Tiebreak::BUCHHOLZ_MEDIAN1: return sum_with_cuts(buchholz_elements(t, p, rounds, o, false), 1, 1, false, o.swiss);
        case Tiebreak::BUCHHOLZ_MEDIAN2: return sum_with_cuts(buchholz_elements(t, p, rounds, o, false), 2, 2, false, o.swiss);
        case Tiebreak::SONNEBORN_BERGER: return sum_with_cuts(buchholz_elements(t, p, rounds, o, true), 0, 0, true, o.swiss);
        case Tiebreak::SONNEBORN_BERGER_CUT1: return sum_with_cuts(buchholz_elements(t, p, rounds, o, true), 1, 0, true, o.swiss);
        case Tiebreak::WINS: {
            int n = 0;
            for (int r = 1; r <= rounds; ++r)
                if (t.scoring.points(p.round(r).result) >= t.scoring.win) ++n;
            return n;
        }
        case Tiebreak::GAMES_WON: {
            int n = 0;
            for (int r = 1; r <= rounds; ++r) {
                RoundEntry e = p.round(r);
                if (e.played() && result_fraction(t, e.result) == 1.0) ++n;
            }
            return n;
        }
        case Tiebreak::AVERAGE_RATING_OF_OPPONENTS: {
            // 10.1 with 15.2: only opponents met over the board; unrated ones
            // (rating 0 in the file) carry no rating to average.
            double sum = 0.0;
            int n = 0;
            for (int r = 1; r <= rounds; ++r) {
                RoundEntry e = p.round(r);
                const Player* opp = e.played() ? t.find(e.opponent) : nullptr;
                if (opp && opp->rating > 0) sum += opp->rating, ++n;
            }
            return n ? std::round(sum / n) : 0.0;
        }
        case Tiebreak::PROGRESSIVE:
        case Tiebreak::PROGRESSIVE_CUT1: {
            double running = 0.0, sum = 0.0;
            for (int r = 1; r <= rounds; ++r) {
                running += t.scoring.points(p.round(r).result);
                if (!(tb == Tiebreak::PROGRESSIVE_CUT1 && r == 1)) sum += running;
            }
            return sum;
        }
        case Tiebreak::DIRECT_ENCOUNTER: return 0.0;  // depends on the tied group: see standings()
    }
    return 0.0;
}

namespace {

// C.07 Article 6: the points scored in the games among the tied players, when
// every two of them have met; otherwise DE does not separate them.
std::map<int, double> direct_encounter(const Tournament& t, const std::vector<const Player*>& group, int rounds) {
    std::map<int, double> value;
    for (const Player* p : group) value[p->start_rank] = 0.0;
    if (group.size() < 2) return value;
    std::map<std::pair<int, int>, bool> met;
    for (const Player* p : group)
        for (int r = 1; r <= rounds; ++r) {
            RoundEntry e = p->round(r);
            if (e.opponent != 0 && value.count(e.opponent)) {
                met[{p->start_rank, e.opponent}] = true;
                value[p->start_rank] += t.scoring.points(e.result);
            }
        }
    for (const Player* a : group)
        for (const Player* b : group)
            if (a != b && !met.count({a->start_rank, b->start_rank})) {
                for (auto& [k, v] : value) v = 0.0;
                return value;
            }
    return value;
}

}  // namespace

std::vector<Standing> standings(const Tournament& t, int rounds, const std::vector<Tiebreak>& order,
                                const TiebreakOptions& options) {
    struct Row {
        const Player* player;
        Standing s;
    };
    std::vector<Row> rows;
    for (const Player& p : t.players) {
        Row row{&p, {}};
        row.s.start_rank = p.start_rank;
        row.s.points = t.score(p, rounds);
        for (Tiebreak tb : order) row.s.tiebreaks.push_back(tiebreak_value(t, p, tb, rounds, options));
        rows.push_back(row);
    }
    auto key_less = [](const Row& a, const Row& b, std::size_t upto) {
        if (a.s.points != b.s.points) return a.s.points > b.s.points;
        for (std::size_t i = 0; i < upto; ++i)
            if (a.s.tiebreaks[i] != b.s.tiebreaks[i]) return a.s.tiebreaks[i] > b.s.tiebreaks[i];
        return false;
    };
    // Tiebreak by tiebreak: DE is computed inside each group still tied.
    for (std::size_t i = 0; i <= order.size(); ++i) {
        std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
            if (key_less(a, b, i)) return true;
            if (key_less(b, a, i)) return false;
            return a.s.start_rank < b.s.start_rank;
        });
        if (i == order.size() || order[i] != Tiebreak::DIRECT_ENCOUNTER) continue;
        for (std::size_t g = 0; g < rows.size();) {
            std::size_t h = g + 1;
            while (h < rows.size() && !key_less(rows[g], rows[h], i)) ++h;
            std::vector<const Player*> group;
            for (std::size_t k = g; k < h; ++k) group.push_back(rows[k].player);
            auto de = direct_encounter(t, group, rounds);
            for (std::size_t k = g; k < h; ++k) rows[k].s.tiebreaks[i] = de[rows[k].s.start_rank];
            g = h;
        }
    }
    std::vector<Standing> out;
    for (std::size_t k = 0; k < rows.size(); ++k) {
        rows[k].s.place = (k > 0 && !key_less(rows[k - 1], rows[k], order.size())) ? out.back().place
                                                                                   : static_cast<int>(k) + 1;
        out.push_back(rows[k].s);
    }
    return out;
}

CountedForStandings annul_early_withdrawals(const Tournament& t, const std::vector<int>& withdrawn, int games_each) {
    CountedForStandings out{t, {}};
    for (const int rank : withdrawn) {
        const Player* p = nullptr;
        for (const Player& x : t.players)
            if (x.start_rank == rank) p = &x;
        if (!p) continue;
        int completed = 0;
        for (const RoundEntry& r : p->rounds) completed += r.played() ? 1 : 0;
        if (2 * completed >= games_each) continue;  // half or more: everything counts
        out.not_ranked.push_back(rank);
    }
    if (out.not_ranked.empty()) return out;
    auto annulled = [&](int rank) {
        return std::find(out.not_ranked.begin(), out.not_ranked.end(), rank) != out.not_ranked.end();
    };
    std::erase_if(out.tournament.players, [&](const Player& x) { return annulled(x.start_rank); });
    for (Player& x : out.tournament.players)
        for (RoundEntry& r : x.rounds)
            if (r.opponent != 0 && annulled(r.opponent)) r = RoundEntry{0, Colour::NONE, ResultCode::ZERO_BYE};
    return out;
}

}  // namespace outpost::club
