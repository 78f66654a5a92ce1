// Outpost — FIDE Dutch system: participants, colour preferences, colour
// allocation, round 1, the absolute criteria.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "club/dutch.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>

namespace outpost::club {

void set_colour_preference(PairingPlayer& p) {
    std::vector<Colour> played;
    for (Colour c : p.colour_by_round)
        if (c != Colour::NONE) played.push_back(c);
    p.colour_difference = 0;
    for (Colour c : played) p.colour_difference += c == Colour::WHITE ? 1 : -1;
    p.preference = Colour::NONE;
    p.strength = PreferenceStrength::NONE;
    if (played.empty()) return;
    const Colour last = played.back();
    const bool same_twice = played.size() >= 2 && played[played.size() - 2] == last;
    if (p.colour_difference > 1 || p.colour_difference < -1 || same_twice) {
        p.strength = PreferenceStrength::ABSOLUTE;
        p.preference = p.colour_difference > 1 ? Colour::BLACK
                       : p.colour_difference < -1 ? Colour::WHITE
                                                  : opposite(last);
    } else if (p.colour_difference != 0) {
        p.strength = PreferenceStrength::STRONG;
        p.preference = p.colour_difference > 0 ? Colour::BLACK : Colour::WHITE;
    } else {
        p.strength = PreferenceStrength::MILD;
        p.preference = opposite(last);
    }
}

namespace {

// In that round's pairing: a game (played or forfeited), the pairing-allocated bye, or
// a win by forfeit without a named opponent. Requested byes and absences are not.
bool took_part_in_pairing(const RoundEntry& e) {
    return e.opponent != 0 || e.result == ResultCode::PAIRING_BYE || e.result == ResultCode::FORFEIT_WIN;
}

// An entry already written in for the round (a requested bye, an absence, a result):
// the player is not in that round's pairing.
bool decided(const RoundEntry& e) { return e.opponent != 0 || e.result != ResultCode::NONE; }

bool took_part_by(const Player& pl, int round) {
    for (int r = 1; r <= round; ++r)
        if (took_part_in_pairing(pl.round(r))) return true;
    return false;
}

std::vector<const Player*> by_start_rank(const Tournament& t) {
    std::vector<const Player*> out;
    for (const Player& pl : t.players) out.push_back(&pl);
    std::sort(out.begin(), out.end(), [](const Player* a, const Player* b) { return a->start_rank < b->start_rank; });
    return out;
}

}  // namespace

Colour infer_initial_colour(const Tournament& t) {
    int first = 0;
    for (const Player& pl : t.players)
        for (int r = 1; r <= static_cast<int>(pl.rounds.size()); ++r)
            if (pl.round(r).colour != Colour::NONE && (first == 0 || r < first)) first = r;
    if (first == 0) return Colour::NONE;
    int number = 0;
    for (const Player* pl : by_start_rank(t)) {
        if (!took_part_by(*pl, first)) continue;
        ++number;
        const Colour c = pl->round(first).colour;
        if (c != Colour::NONE) return number % 2 == 1 ? c : opposite(c);
    }
    return Colour::NONE;
}

std::vector<PairingPlayer> pairing_players(const Tournament& t, int round) {
    std::map<int, int> number;  // E.5's pairing numbers (PairingPlayer::pairing_number)
    for (const Player* pl : by_start_rank(t)) {
        if (!decided(pl->round(round)) || took_part_by(*pl, round - 1)) {
            const int next = static_cast<int>(number.size()) + 1;
            number[pl->start_rank] = next;
        }
    }
    std::vector<PairingPlayer> out;
    for (const Player& pl : t.players) {
        if (decided(pl.round(round))) continue;
        PairingPlayer p;
        p.id = pl.start_rank;
        p.pairing_number = number[pl.start_rank];
        for (int r = 1; r < round; ++r) {
            RoundEntry e = pl.round(r);
            p.score += t.scoring.points(e.result);
            p.colour_by_round.push_back(e.played() ? e.colour : Colour::NONE);
            // C.04.1 (2025) 2: two players shall not *play* each other more than
            // once; a forfeited game was not played, so they may still meet.
            if (e.opponent != 0 && e.played()) p.opponents.insert(e.opponent);
            // A.4: scores at the start of that round decide the float.
            // C.04.3 1.4.3 (2025): scoring more than a loss without playing is a downfloat.
            Float f = t.scoring.points(e.result) > t.scoring.loss ? Float::DOWN : Float::NONE;
            if (e.played()) {
                double mine = t.score(pl, r - 1);
                const Player* opp = t.find(e.opponent);
                double theirs = opp ? t.score(*opp, r - 1) : mine;
                f = theirs < mine ? Float::DOWN : theirs > mine ? Float::UP : Float::NONE;
            }
            p.floats.push_back(f);
            if (e.result == ResultCode::PAIRING_BYE) p.may_get_bye = false;
            if (!e.played() && t.scoring.points(e.result) >= t.scoring.win && t.scoring.win > 0) p.may_get_bye = false;
        }
        set_colour_preference(p);
        out.push_back(std::move(p));
    }
    return out;
}

std::vector<std::vector<int>> score_brackets(const std::vector<PairingPlayer>& players) {
    std::vector<const PairingPlayer*> sorted;
    for (const PairingPlayer& p : players) sorted.push_back(&p);
    std::sort(sorted.begin(), sorted.end(), [](const PairingPlayer* a, const PairingPlayer* b) {
        return a->score != b->score ? a->score > b->score : a->id < b->id;
    });
    std::vector<std::vector<int>> out;
    for (std::size_t i = 0; i < sorted.size(); ++i) {
        if (i == 0 || sorted[i]->score != sorted[i - 1]->score) out.emplace_back();
        out.back().push_back(sorted[i]->id);
    }
    return out;
}

Colour allocate_colours(const PairingPlayer& a, const PairingPlayer& b, bool a_ranks_higher, Colour initial) {
    // E.1: both preferences can be granted.
    if (a.preference != Colour::NONE && b.preference != Colour::NONE && a.preference != b.preference)
        return a.preference;
    // E.2: the stronger preference (a missing one is the weakest); between two
    // absolute ones, the wider colour difference.
    if (a.strength != b.strength) {
        if (a.strength > b.strength) return a.preference;
        return opposite(b.preference);
    }
    if (a.strength == PreferenceStrength::ABSOLUTE && std::abs(a.colour_difference) != std::abs(b.colour_difference))
        return std::abs(a.colour_difference) > std::abs(b.colour_difference) ? a.preference : opposite(b.preference);
    // E.3: alternate from the most recent time in which one had White and the
    // other Black. By C.04.2 D.5 only played games count: a round without a game
    // is taken out and the histories compared from each one's latest game back
    // (W B - W is read as - W B W), not round by round.
    std::vector<Colour> pa, pb;
    for (Colour c : a.colour_by_round)
        if (c != Colour::NONE) pa.push_back(c);
    for (Colour c : b.colour_by_round)
        if (c != Colour::NONE) pb.push_back(c);
    for (std::size_t i = pa.size(), j = pb.size(); i > 0 && j > 0; --i, --j)
        if (pa[i - 1] != pb[j - 1]) return opposite(pa[i - 1]);
    // E.4: the higher ranked player's preference.
    const PairingPlayer& hi = a_ranks_higher ? a : b;
    if (hi.preference != Colour::NONE) return a_ranks_higher ? hi.preference : opposite(hi.preference);
    // E.5: an odd pairing number of the higher ranked player gets the initial colour.
    // The number counts the players in the pairing (PairingPlayer::pairing_number).
    Colour start = initial == Colour::NONE ? Colour::WHITE : initial;
    const int number = hi.pairing_number > 0 ? hi.pairing_number : hi.id;
    Colour hi_colour = number % 2 == 1 ? start : opposite(start);
    return a_ranks_higher ? hi_colour : opposite(hi_colour);
}

Result<Round> pair_dutch(const Tournament& t, DutchTrace* trace) {
    const int round = t.rounds_paired() + 1;
    if (t.total_rounds > 0 && round > t.total_rounds)
        return make_error("all " + std::to_string(t.total_rounds) + " rounds are paired");
    if (t.initial_colour == Colour::NONE && round > 1) {
        // No XXC / 152 line: the colours of the rounds played tell it (E.5).
        if (Colour inferred = infer_initial_colour(t); inferred != Colour::NONE) {
            Tournament with_colour = t;
            with_colour.initial_colour = inferred;
            return pair_dutch_later_round(with_colour, round, trace);
        }
    }
    if (round > 1) return pair_dutch_later_round(t, round, trace);
    std::vector<PairingPlayer> players = pairing_players(t, round);
    std::sort(players.begin(), players.end(), [](const PairingPlayer& x, const PairingPlayer& y) { return x.id < y.id; });
    Round out;
    std::optional<Pairing> bye;
    if (players.size() % 2 == 1) {
        // The bye to the lowest-ranked participant who may have it.
        auto it = std::find_if(players.rbegin(), players.rend(), [](const PairingPlayer& p) { return p.may_get_bye; });
        if (it == players.rend()) return make_error("round 1: nobody may receive the pairing-allocated bye");
        bye = Pairing{it->id, 0};
        players.erase(std::next(it).base());
    }
    // Round 1: the top half meets the bottom half in rank order.
    const std::size_t half = players.size() / 2;
    for (std::size_t i = 0; i < half; ++i) {
        const PairingPlayer& hi = players[i];
        const PairingPlayer& lo = players[i + half];
        Colour c = allocate_colours(hi, lo, true, t.initial_colour);
        out.push_back(c == Colour::WHITE ? Pairing{hi.id, lo.id} : Pairing{lo.id, hi.id});
    }
    if (bye) out.push_back(*bye);
    return out;
}

std::string check_absolute_criteria(const std::vector<PairingPlayer>& players, const Round& round) {
    std::map<int, const PairingPlayer*> by_id;
    for (const PairingPlayer& p : players) by_id[p.id] = &p;
    std::map<int, int> seen;
    int byes = 0;
    for (const Pairing& g : round) {
        for (int id : {g.white, g.black}) {
            if (id == 0) continue;
            if (!by_id.count(id)) return "player " + std::to_string(id) + " is not a participant of this round";
            if (seen[id]++) return "player " + std::to_string(id) + " is paired twice";
        }
        if (g.is_bye()) {
            ++byes;
            if (!by_id[g.white]->may_get_bye)
                return "player " + std::to_string(g.white) + " may not receive the pairing-allocated bye (C.04.1)";
            continue;
        }
        const PairingPlayer& w = *by_id[g.white];
        const PairingPlayer& b = *by_id[g.black];
        if (w.opponents.count(b.id))
            return "players " + std::to_string(w.id) + " and " + std::to_string(b.id) + " have met before (C.04.1)";
        if (w.strength == PreferenceStrength::ABSOLUTE && b.strength == PreferenceStrength::ABSOLUTE &&
            w.preference == b.preference)
            return "players " + std::to_string(w.id) + " and " + std::to_string(b.id) +
                   " both have an absolute preference for " + (w.preference == Colour::WHITE ? "White" : "Black") +
                   " (C.04.3 C.3)";
    }
    if (byes > 1) return "more than one pairing-allocated bye";
    for (const PairingPlayer& p : players)
        if (!seen.count(p.id)) return "player " + std::to_string(p.id) + " is not paired";
    return "";
}

std::string write_pairing(const Round& round) {
    std::string out = std::to_string(round.size()) + "\n";
    for (const Pairing& p : round) out += std::to_string(p.white) + " " + std::to_string(p.black) + "\n";
    return out;
}

}  // namespace outpost::club
