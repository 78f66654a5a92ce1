// Outpost — tournaments run by the server: the operations behind the routes (events.h;
// docs/protocol.md, "Events"): creating an event, joining, withdrawing, byes, starting a
// round (pairing it with src/club) and entering results.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/events/events.h"
#include "server/common/http_answer.h"
#include "server/common/names.h"
#include "server/common/game_bounds.h"
#include "server/events/events_detail.h"
#include "server/common/http_answer.h"

#include <algorithm>
#include <cctype>
#include <future>
#include <memory>

#include "club/dutch.h"
#include "club/glicko2.h"
#include "club/round_robin.h"
#include "server/common/http_answer.h"  // read_json_object

namespace outpost::server {

using namespace events_detail;

namespace {

// C.04.2's initial order: rating, highest first (unrated: 0, last); then the FIDE title
// (accounts have none); then alphabetically by name (case aside, then as written).
bool c04_2_initial_order(const EventPlayer& x, const EventPlayer& y) {
    if (x.rating != y.rating) return x.rating > y.rating;
    auto lower = [](const std::string& n) {
        std::string l = n;
        for (char& ch : l) ch = char(std::tolower(static_cast<unsigned char>(ch)));
        return l;
    };
    const std::string a = lower(x.name), b = lower(y.name);
    if (a != b) return a < b;
    return x.name < y.name;
}

}  // namespace

Answer<std::string> EventService::create(const Account& organiser, std::string_view body) {
    auto j = read_json_object(body);
    if (!j) return j.error();
    Event e;
    e.organiser = organiser.id;
    e.organiser_name = organiser.name;
    e.created_ms = wall_ms_();
    auto name = j->find("name");
    if (name == j->end() || !name->is_string()) return bad_field("name", "must be a string");
    // Issue 25: the one rule for names (common/names.h), counted in characters.
    auto read = read_name(name->get<std::string>(), "field 'name'", MaxName);
    if (!read) return read.error();
    e.name = *read;
    auto system = j->find("system");
    if (system == j->end() || !system->is_string() || !system_from(system->get<std::string>()))
        return bad_field("system", "must be swiss, round-robin or double-round-robin");
    e.system = *system_from(system->get<std::string>());
    if (e.system == EventSystem::SWISS) {
        auto rounds = int_field(*j, "rounds", 1, MaxSwissRounds);
        if (!rounds) return rounds.error();
        e.rounds = *rounds;
    }
    auto tc = j->find("time_control");
    if (tc == j->end() || !tc->is_string()) return bad_field("time_control", "must be a string such as 15+10");
    auto parsed = read_served_time_control(tc->get<std::string>());  // issue 25
    if (!parsed) return bad_field("time_control", parsed.error().message);
    e.time_control = parsed->to_string();
    if (auto rated = j->find("rated"); rated != j->end()) {
        if (!rated->is_boolean()) return bad_field("rated", "must be true or false");
        e.rated = rated->get<bool>();
    }
    if (auto mode = j->find("mode"); mode != j->end()) {
        if (!mode->is_string() || (*mode != "online" && *mode != "otb")) return bad_field("mode", "must be online or otb");
        e.online = *mode == "online";
    }
    if (auto tbs = j->find("tiebreaks"); tbs != j->end()) {
        if (!tbs->is_array() || tbs->size() > MaxTiebreaks) return bad_field("tiebreaks", "must be a list of at most 6 codes");
        for (const json& code : *tbs) {
            if (!code.is_string()) return bad_field("tiebreaks", "must be a list of codes such as BH-C1");
            auto tb = club::tiebreak_from_code(code.get<std::string>());
            if (!tb) return bad_field("tiebreaks", tb.error().message);
            if (std::find(e.tiebreaks.begin(), e.tiebreaks.end(), *tb) != e.tiebreaks.end())
                return bad_field("tiebreaks", "names " + code.get<std::string>() + " twice");
            e.tiebreaks.push_back(*tb);
        }
    } else if (e.round_robin()) {  // C.07 Article 15.1's list for round-robins starts with these
        e.tiebreaks = {club::Tiebreak::DIRECT_ENCOUNTER, club::Tiebreak::WINS, club::Tiebreak::SONNEBORN_BERGER};
    } else {
        e.tiebreaks = {club::Tiebreak::BUCHHOLZ_CUT1, club::Tiebreak::BUCHHOLZ, club::Tiebreak::SONNEBORN_BERGER};
    }
    std::lock_guard lock(mutex_);
    int open = 0;
    for (const auto& [id, other] : events_)
        if (other.organiser == organiser.id && !other.finished()) ++open;
    if (open >= MaxOpenEventsPerOrganiser)
        return ProtocolError{"rate_limited", "you organise " + std::to_string(open) + " unfinished events already", 429};
    if (auto ok = save(e); !ok) return ok.error();
    events_[e.id] = e;
    return to_json(e, &organiser);
}

Answer<std::string> EventService::join(std::int64_t id, const Account& a) {
    // A late entry's rating as it enters (the others' are read when round 1 starts).
    int rating = 0;
    {
        std::string cls;
        {
            std::lock_guard lock(mutex_);
            auto found = find(id);
            if (!found) return found.error();
            if ((*found)->current_round > 0) cls = event_rating_class((*found)->time_control);
        }
        if (!cls.empty())
            if (auto r = hub_.rating_of(a.id, cls); r && *r) rating = int(std::lround((*r)->rating));
    }
    std::lock_guard lock(mutex_);
    auto found = find(id);
    if (!found) return found.error();
    if (starting_.count(id)) return refused("the round is being started; try again in a moment");
    Event next = **found;
    if (next.finished()) return refused("the event is over");
    if (next.closed_ms) return refused("the event was closed by an administrator");
    if (next.round_robin() && next.current_round > 0)
        return refused("a round-robin takes no entries after its first round (C.05: the schedule is fixed)");
    for (EventPlayer& p : next.players) {
        if (p.account != a.id) continue;
        if (p.withdrawn_from == 0) return refused("you are in this event already");
        // Back after a withdrawal: paired again from the next round.
        p.withdrawn_from = 0;
        p.joined_in = std::max(p.joined_in, next.current_round + 1);
        if (auto ok = save(next); !ok) return ok.error();
        **found = std::move(next);
        return to_json(**found, &a);
    }
    const std::size_t cap = next.round_robin() ? MaxRoundRobinPlayers : MaxSwissPlayers;
    if (next.players.size() >= cap) return refused("the event is full (" + std::to_string(cap) + " players)");
    EventPlayer p;
    p.start_rank = int(next.players.size()) + 1;
    p.account = a.id;
    p.name = a.name;
    p.joined_in = next.current_round + 1;  // a late entry: absent from the rounds before
    if (next.current_round > 0) p.rating = rating;
    next.players.push_back(std::move(p));
    if (auto ok = save(next); !ok) return ok.error();
    **found = std::move(next);
    return to_json(**found, &a);
}

Answer<std::string> EventService::withdraw(std::int64_t id, const Account& a) {
    std::lock_guard lock(mutex_);
    auto found = find(id);
    if (!found) return found.error();
    if (starting_.count(id)) return refused("the round is being started; try again in a moment");
    Event next = **found;
    if (next.finished()) return refused("the event is over");
    auto it = std::find_if(next.players.begin(), next.players.end(), [&](const EventPlayer& p) { return p.account == a.id; });
    if (it == next.players.end() || it->withdrawn_from != 0) return refused("you are not playing in this event");
    if (next.current_round == 0) {
        // Before the start: off the list, and the starting ranks close up.
        next.players.erase(it);
        for (std::size_t i = 0; i < next.players.size(); ++i) next.players[i].start_rank = int(i) + 1;
    } else {
        it->withdrawn_from = next.current_round + 1;  // the round being played stands
    }
    if (auto ok = save(next); !ok) return ok.error();
    **found = std::move(next);
    return to_json(**found, &a);
}

Answer<std::string> EventService::request_bye(std::int64_t id, const Account& a, std::string_view body) {
    auto j = read_json_object(body);
    if (!j) return j.error();
    auto round = int_field(*j, "round", 1, MaxSwissRounds);
    if (!round) return round.error();
    bool cancel = false;
    if (auto c = j->find("cancel"); c != j->end()) {
        if (!c->is_boolean()) return bad_field("cancel", "must be true or false");
        cancel = c->get<bool>();
    }
    std::lock_guard lock(mutex_);
    auto found = find(id);
    if (!found) return found.error();
    if (starting_.count(id)) return refused("the round is being started; try again in a moment");
    Event next = **found;
    if (next.round_robin()) return refused("half-point byes are for Swiss events");
    if (*round <= next.current_round || *round > next.rounds)
        return bad_field("round", "must be a round not started yet (" + std::to_string(next.current_round + 1) + " to " +
                                      std::to_string(next.rounds) + ")");
    auto it = std::find_if(next.players.begin(), next.players.end(), [&](const EventPlayer& p) { return p.account == a.id; });
    if (it == next.players.end() || it->withdrawn_from != 0) return refused("you are not playing in this event");
    if (cancel) it->byes.erase(*round);
    else it->byes.insert(*round);
    if (auto ok = save(next); !ok) return ok.error();
    **found = std::move(next);
    return to_json(**found, &a);
}

Answer<std::string> EventService::start_round(std::int64_t id, const Account& a) {
    // Issue 25: a round is paired on a copy of the event, outside the lock (a 500-player
    // Swiss takes seconds): the event is marked as starting, which refuses entries,
    // withdrawals, byes and another start meanwhile; results and a closing may come and
    // are kept (the new round is added to the event as it is then).
    Event next;
    {
        std::lock_guard lock(mutex_);
        auto found = find(id);
        if (!found) return found.error();
        if ((*found)->organiser != a.id) return organiser_only();
        if (starting_.count(id)) return refused("the round is being started");
        next = **found;
        if (auto why = cannot_start(next)) return *why;
        starting_.insert(id);
    }
    struct Started {  // the mark comes off however the start ends
        EventService& service;
        std::int64_t id;
        bool keep = false;
        ~Started() {
            if (keep) return;
            std::lock_guard lock(service.mutex_);
            service.starting_.erase(id);
        }
    } started{*this, id};
    std::vector<GameToMake> games;
    auto paired = pair_on_its_thread(next, games);
    if (!paired) return paired.error();
    const int round = next.current_round;
    {
        std::lock_guard lock(mutex_);
        auto found = find(id);
        if (!found) return found.error();
        Event now = **found;
        if (now.closed_ms) return refused("the event was closed by an administrator");
        // The round onto the event as it is now (a result entered meanwhile stands).
        now.players = next.players;  // round 1: start ranks, ratings (nobody entered meanwhile)
        now.rounds = next.rounds;
        now.initial_colour = next.initial_colour;
        for (const EventBoard& b : next.boards)
            if (b.round == round) now.boards.push_back(b);
        now.current_round = round;
        now.round_started_ms = next.round_started_ms;
        if (auto ok = save(now); !ok) return ok.error();
        **found = std::move(now);
        for (const GameToMake& g : games) by_game_[g.game_id] = {id, {round, g.board}};
    }
    // The games, outside the lock (the hub is never called under it).
    (void)make_games(games);
    std::lock_guard lock(mutex_);
    started.keep = true;
    starting_.erase(id);
    auto found = find(id);
    if (!found) return found.error();
    return to_json(**found, &a);
}

// On the pairing thread when serve gave one (run_pairing_on), this thread waiting for it.
Answer<bool> EventService::pair_on_its_thread(Event& next, std::vector<GameToMake>& games) {
    if (!run_pairing_) return pair_next_round(next, games);
    auto task = std::make_shared<std::packaged_task<Answer<bool>()>>([&] { return pair_next_round(next, games); });
    std::future<Answer<bool>> done = task->get_future();
    if (!run_pairing_([task] { (*task)(); }))
        return ProtocolError{"rate_limited", "other rounds are being paired; try again in a few seconds", 503};
    return done.get();  // an exception of the pairing comes here (the route answers 500)
}

std::optional<ProtocolError> EventService::cannot_start(const Event& e) {
    if (e.closed_ms) return refused("the event was closed by an administrator");
    if (e.current_round > 0 && !e.round_complete(e.current_round))
        return refused("round " + std::to_string(e.current_round) + " still has boards without a result");
    if (e.current_round > 0 && e.current_round >= e.rounds) return refused("every round has been played");
    return std::nullopt;
}

Answer<bool> EventService::pair_next_round(Event& next, std::vector<GameToMake>& games) {
    const std::int64_t id = next.id;
    const int round = next.current_round + 1;
    // P23: the players' ratings in the event's class as the first round starts.
    if (round == 1) {
        const std::string cls = event_rating_class(next.time_control);
        for (EventPlayer& p : next.players) {
            auto r = hub_.rating_of(p.account, cls);
            p.rating = r && *r ? int(std::lround((*r)->rating)) : 0;
        }
    }
    auto active = [&](const EventPlayer& p) {
        return (p.withdrawn_from == 0 || p.withdrawn_from > round) && p.joined_in <= round;
    };
    club::Round pairing;
    if (next.round_robin()) {
        if (round == 1) {
            const int n = int(next.players.size());
            if (n < 3) return refused("a round-robin needs 3 to 20 players (C.05 Annex 1); it has " + std::to_string(n));
            // C.05: the start numbers by the drawing of lots.
            {
                std::lock_guard lock(mutex_);
                std::shuffle(next.players.begin(), next.players.end(), lots_);
            }
            for (std::size_t i = 0; i < next.players.size(); ++i) next.players[i].start_rank = int(i) + 1;
        }
        club::RoundRobinOptions options;
        options.double_round = next.system == EventSystem::DOUBLE_ROUND_ROBIN;
        auto schedule = club::berger_schedule(int(next.players.size()), options);
        if (!schedule) return ProtocolError{"internal", schedule.error().message, 500};
        next.rounds = int(schedule->size());
        pairing = (*schedule)[std::size_t(round - 1)];
    } else {
        int playing = 0;
        for (const EventPlayer& p : next.players) playing += active(p) && !p.byes.count(round);
        if (playing < 2) return refused("round " + std::to_string(round) + " needs at least 2 players to pair");
        if (round == 1) {
            // Starting ranks in C.04.2's initial order; the initial colour by lot.
            std::stable_sort(next.players.begin(), next.players.end(), c04_2_initial_order);
            for (std::size_t i = 0; i < next.players.size(); ++i) next.players[i].start_rank = int(i) + 1;
            std::lock_guard lock(mutex_);
            next.initial_colour = lots_() % 2 ? club::Colour::WHITE : club::Colour::BLACK;
        }
        club::Tournament t = to_tournament(next, round - 1);
        // Entries made before pairing: requested half-point byes and absences.
        for (std::size_t i = 0; i < next.players.size(); ++i) {
            const EventPlayer& p = next.players[i];
            if (!active(p)) t.players[i].rounds.push_back({0, club::Colour::NONE, club::ResultCode::ZERO_BYE});
            else if (p.byes.count(round)) t.players[i].rounds.push_back({0, club::Colour::NONE, club::ResultCode::HALF_BYE});
        }
        if (t.rounds_paired() != round - 1)
            return ProtocolError{"internal", "the event's rounds do not match its pairings", 500};
        auto paired = club::pair_dutch(t);
        if (!paired) return refused("round " + std::to_string(round) + " cannot be paired: " + paired.error().message);
        pairing = std::move(*paired);
    }
    auto player = [&](int rank) -> const EventPlayer* {
        for (const EventPlayer& p : next.players)
            if (p.start_rank == rank) return &p;
        return nullptr;
    };
    int board = 0;
    for (const club::Pairing& pr : pairing) {
        EventBoard b;
        b.round = round;
        b.board = ++board;
        b.white = pr.white;
        b.black = pr.black;
        const EventPlayer* w = player(pr.white);
        const EventPlayer* k = pr.black ? player(pr.black) : nullptr;
        if (!w || (pr.black && !k)) return ProtocolError{"internal", "the pairing names a player the event lacks", 500};
        if (pr.is_bye()) {
            b.result = "bye";
        } else if (!active(*w) || !active(*k)) {
            // A round-robin keeps its schedule: a withdrawn player's games are lost by forfeit.
            b.result = !active(*w) && !active(*k) ? "--" : !active(*w) ? "-+" : "+-";
        } else if (next.online) {
            b.game_id = event_game_id();  // saved with the round, made after (recover_games)
            games.push_back({id, round, b.board, b.game_id, next.time_control, !next.rated,
                             Account{w->account, w->name}, Account{k->account, k->name}});
        }
        next.boards.push_back(std::move(b));
    }
    next.current_round = round;
    next.round_started_ms.push_back(wall_ms_());
    return true;
}

Answer<std::string> EventService::enter_result(std::int64_t id, const Account& a, std::string_view body) {
    auto j = read_json_object(body);
    if (!j) return j.error();
    auto round = int_field(*j, "round", 1, 1000);
    if (!round) return round.error();
    auto board = int_field(*j, "board", 1, 1000);
    if (!board) return board.error();
    auto result = j->find("result");
    if (result == j->end() || !result->is_string()) return bad_field("result", "must be one of 1-0, 0-1, 1/2-1/2, +-, -+, --");
    std::string text = result->get<std::string>();
    if (text == "\xC2\xBD-\xC2\xBD") text = "1/2-1/2";  // ½-½
    if (text != "*" && !board_result_codes(text)) return bad_field("result", "must be one of 1-0, 0-1, 1/2-1/2, +-, -+, -- (or * to clear)");
    std::lock_guard lock(mutex_);
    auto found = find(id);
    if (!found) return found.error();
    Event next = **found;
    if (next.organiser != a.id) return organiser_only();
    if (*round > next.current_round) return bad_field("round", "names a round not started");
    auto b = std::find_if(next.boards.begin(), next.boards.end(),
                          [&](const EventBoard& x) { return x.round == *round && x.board == *board; });
    if (b == next.boards.end()) return bad_field("board", "names no board of round " + std::to_string(*round));
    if (b->black == 0) return bad_field("board", "is a bye, which has no result to enter");
    // A correction of an earlier round stands; the rounds paired on it keep their pairings.
    b->result = text == "*" ? "" : text;
    if (auto ok = save_result(id, *b); !ok) return ok.error();
    **found = std::move(next);
    return to_json(**found, &a);
}

}  // namespace outpost::server
