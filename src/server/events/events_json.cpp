// Outpost — tournaments run by the server: what is read (events.h; docs/protocol.md,
// "Events"): an event's JSON, the list, the standings, the TRF export and the PGN of
// its games.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/events/events.h"
#include "server/events/events_detail.h"

#include <algorithm>

#include "club/trf.h"

namespace outpost::server {

using namespace events_detail;

namespace {

// The standings; in a round-robin with FIDE Handbook C.06 (FIDE Tournament Rules)
// V.4: a player who withdrew having completed fewer than half of their games is not
// ranked (listed after everyone, place 0), and the games against them do not count.
struct EventStandings {
    std::vector<club::Standing> ranked, not_ranked;
};
EventStandings event_standings(const Event& e, const club::Tournament& t) {
    club::TiebreakOptions options;
    options.swiss = !e.round_robin();
    options.total_rounds = e.rounds;
    if (!e.round_robin()) return {club::standings(t, e.current_round, e.tiebreaks, options), {}};
    std::vector<int> withdrawn;
    for (const EventPlayer& p : e.players)
        if (p.withdrawn_from != 0) withdrawn.push_back(p.start_rank);
    // Each player's games: the rounds, less the free round of an odd count.
    const int n = std::max(1, int(e.players.size()));
    const int games_each = n % 2 == 0 ? e.rounds : e.rounds * (n - 1) / n;
    const club::CountedForStandings counted = club::annul_early_withdrawals(t, withdrawn, games_each);
    EventStandings out{club::standings(counted.tournament, e.current_round, e.tiebreaks, options), {}};
    for (const int rank : counted.not_ranked) {
        club::Standing s;
        s.start_rank = rank;
        if (const club::Player* p = t.find(rank)) s.points = t.score(*p, e.current_round);
        out.not_ranked.push_back(s);
    }
    return out;
}

}  // namespace

std::string EventService::to_json(const Event& e, const Account* viewer) const {
    json j;
    j["v"] = 1;
    j["id"] = e.id;
    j["name"] = e.name;
    j["organiser"] = e.organiser_name;
    j["system"] = system_name(e.system);
    j["rounds"] = e.rounds;
    j["time_control"] = e.time_control;
    j["rated"] = e.rated;
    j["mode"] = e.online ? "online" : "otb";
    j["status"] = status_of(e);
    j["current_round"] = e.current_round;
    j["created_ms"] = e.created_ms;
    j["round_started_ms"] = e.round_started_ms;
    json codes = json::array();
    for (auto t : e.tiebreaks) codes.push_back(std::string(club::tiebreak_code(t)));
    j["tiebreaks"] = codes;
    const club::Tournament t = to_tournament(e, e.current_round);
    std::map<int, const EventPlayer*> by_rank;
    json players = json::array();
    for (std::size_t i = 0; i < e.players.size(); ++i) {
        const EventPlayer& p = e.players[i];
        by_rank[p.start_rank] = &p;
        players.push_back({{"rank", p.start_rank},
                           {"name", p.name},
                           {"rating", p.rating},
                           {"withdrawn_from", p.withdrawn_from},
                           {"byes", p.byes},
                           {"points", t.players[i].points}});
    }
    j["players"] = players;
    json rounds = json::array();
    for (int r = 1; r <= e.current_round; ++r) {
        json boards = json::array();
        for (const EventBoard& b : e.boards) {
            if (b.round != r) continue;
            auto side = [&](int rank) -> json {
                if (!rank || !by_rank.count(rank)) return nullptr;
                return {{"rank", rank}, {"name", by_rank[rank]->name}};
            };
            json x = {{"board", b.board}, {"white", side(b.white)}, {"black", side(b.black)}, {"result", b.result}};
            if (!b.game_id.empty() && !b.white_token.empty()) x["game"] = b.game_id;  // (made and linked)
            if (!b.note.empty()) x["note"] = b.note;
            // The viewer's own seat, to play from the event page.
            if (viewer && !b.game_id.empty() && !b.white_token.empty()) {
                const EventPlayer* w = by_rank.count(b.white) ? by_rank[b.white] : nullptr;
                const EventPlayer* k = by_rank.count(b.black) ? by_rank[b.black] : nullptr;
                if (w && w->account == viewer->id) x["seat"] = b.white_token;
                else if (k && k->account == viewer->id) x["seat"] = b.black_token;
            }
            boards.push_back(std::move(x));
        }
        json half = json::array();
        for (const EventPlayer& p : e.players)
            if (p.byes.count(r)) half.push_back(p.start_rank);
        rounds.push_back({{"round", r},
                          {"started_ms", r <= int(e.round_started_ms.size()) ? e.round_started_ms[std::size_t(r - 1)] : 0},
                          {"boards", boards},
                          {"half_point_byes", half}});
    }
    j["pairings"] = rounds;
    json standings = json::array();
    const EventStandings st = event_standings(e, t);
    for (const auto* list : {&st.ranked, &st.not_ranked})
        for (const club::Standing& s : *list)
            standings.push_back({{"place", s.place},
                                 {"rank", s.start_rank},
                                 {"name", by_rank.count(s.start_rank) ? by_rank[s.start_rank]->name : ""},
                                 {"points", s.points},
                                 {"tiebreaks", s.tiebreaks},
                                 {"counted", list == &st.ranked}});
    j["standings"] = standings;
    if (viewer) {
        const EventPlayer* me = e.player_of(viewer->id);
        j["you"] = {{"organiser", viewer->id == e.organiser},
                    {"rank", me ? me->start_rank : 0},
                    {"playing", me && me->withdrawn_from == 0}};
    }
    return j.dump();
}

Answer<std::string> EventService::event_json(std::int64_t id, const Account* viewer) {
    std::lock_guard lock(mutex_);
    auto found = find(id);
    if (!found) return found.error();
    return to_json(**found, viewer);
}

Answer<std::string> EventService::standings_json(std::int64_t id) {
    std::lock_guard lock(mutex_);
    auto found = find(id);
    if (!found) return found.error();
    json all = json::parse(to_json(**found, nullptr));
    return json{{"v", 1}, {"id", id}, {"round", all["current_round"]}, {"tiebreaks", all["tiebreaks"]},
                {"standings", all["standings"]}}
        .dump();
}

Answer<std::string> EventService::list_json() {
    std::lock_guard lock(mutex_);
    json list = json::array();
    for (auto it = events_.rbegin(); it != events_.rend() && list.size() < MaxListed; ++it) {
        const Event& e = it->second;
        list.push_back({{"id", e.id},
                        {"name", e.name},
                        {"organiser", e.organiser_name},
                        {"system", system_name(e.system)},
                        {"rounds", e.rounds},
                        {"time_control", e.time_control},
                        {"rated", e.rated},
                        {"mode", e.online ? "online" : "otb"},
                        {"status", status_of(e)},
                        {"current_round", e.current_round},
                        {"players", e.players.size()},
                        {"created_ms", e.created_ms}});
    }
    return json{{"v", 1}, {"events", list}}.dump();
}

Answer<std::string> EventService::trf(std::int64_t id) {
    std::lock_guard lock(mutex_);
    auto found = find(id);
    if (!found) return found.error();
    const Event& e = **found;
    club::Tournament t = to_tournament(e, e.current_round);
    for (const club::Standing& s : event_standings(e, t).ranked)
        for (club::Player& p : t.players)
            if (p.start_rank == s.start_rank) p.rank = s.place;
    return club::write_trf(t, club::TrfFlavour::TRF26);
}

Answer<std::string> EventService::pgn(std::int64_t id) {
    std::vector<std::pair<std::string, std::string>> games;  // game id, "round.board"
    std::string name;
    {
        std::lock_guard lock(mutex_);
        auto found = find(id);
        if (!found) return found.error();
        name = (*found)->name;
        for (const EventBoard& b : (*found)->boards)
            if (!b.game_id.empty() && !b.white_token.empty())
                games.emplace_back(b.game_id, std::to_string(b.round) + "." + std::to_string(b.board));
    }
    std::string out;
    std::string safe_name;
    for (char ch : name) safe_name += ch == '"' || ch == '\\' ? '\'' : ch;
    for (const auto& [game, round] : games) {
        auto one = hub_.pgn(game);
        if (!one) continue;
        // The event's name and the round.board in the Seven Tag Roster.
        std::istringstream in(*one);
        std::string line;
        while (std::getline(in, line)) {
            if (line.rfind("[Event ", 0) == 0) line = "[Event \"" + safe_name + "\"]";
            else if (line.rfind("[Round ", 0) == 0) line = "[Round \"" + round + "\"]";
            out += line + "\n";
        }
        if (!out.ends_with("\n\n")) out += "\n";
    }
    return out;
}

}  // namespace outpost::server
