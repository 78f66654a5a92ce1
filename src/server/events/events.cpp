// Outpost — tournaments run by the server, the model and its store (events.h;
// docs/events.md, "Events on the server"): an event as the TRF model sees it, and the
// service's opening, saving and finding of events through the EventStore. The
// operations are in events_operations.cpp, the games of the boards and what a restart
// recovers in events_recovery.cpp, the JSON, TRF and PGN in events_json.cpp, the routes
// in events_http.cpp.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/events/events.h"
#include "server/events/events_detail.h"

#include <sstream>

namespace outpost::server {

using namespace events_detail;

namespace {

// The codes of a stored result.
struct ResultPair {
    const char* text;
    club::ResultCode white, black;
};
constexpr ResultPair Results[] = {
    {"1-0", club::ResultCode::WIN, club::ResultCode::LOSS},
    {"0-1", club::ResultCode::LOSS, club::ResultCode::WIN},
    {"1/2-1/2", club::ResultCode::DRAW, club::ResultCode::DRAW},
    {"+-", club::ResultCode::FORFEIT_WIN, club::ResultCode::FORFEIT_LOSS},
    {"-+", club::ResultCode::FORFEIT_LOSS, club::ResultCode::FORFEIT_WIN},
    {"--", club::ResultCode::FORFEIT_LOSS, club::ResultCode::FORFEIT_LOSS},
};

std::string tiebreak_codes(const std::vector<club::Tiebreak>& v) {
    std::string s;
    for (auto t : v) s += (s.empty() ? "" : ",") + std::string(club::tiebreak_code(t));
    return s;
}

// An event as its store keeps it, and back.
StoredEvent event_to_stored(const Event& e) {
    StoredEvent s;
    s.id = e.id;
    s.name = e.name;
    s.organiser = e.organiser;
    s.organiser_name = e.organiser_name;
    s.system = system_name(e.system);
    s.rounds = e.rounds;
    s.time_control = e.time_control;
    s.rated = e.rated;
    s.online = e.online;
    s.tiebreaks = tiebreak_codes(e.tiebreaks);
    s.initial_colour = e.initial_colour == club::Colour::WHITE ? "W" : e.initial_colour == club::Colour::BLACK ? "B" : "";
    s.created_ms = e.created_ms;
    s.current_round = e.current_round;
    s.closed_ms = e.closed_ms;
    s.round_started_ms = e.round_started_ms;
    s.players = e.players;
    s.boards = e.boards;
    return s;
}

Event event_from_stored(StoredEvent s) {
    Event e;
    e.id = s.id;
    e.name = std::move(s.name);
    e.organiser = s.organiser;
    e.organiser_name = std::move(s.organiser_name);
    e.system = system_from(s.system).value_or(EventSystem::SWISS);
    e.rounds = s.rounds;
    e.time_control = std::move(s.time_control);
    e.rated = s.rated;
    e.online = s.online;
    std::stringstream codes(s.tiebreaks);
    std::string code;
    while (std::getline(codes, code, ','))
        if (auto tb = club::tiebreak_from_code(code)) e.tiebreaks.push_back(*tb);
    e.initial_colour = s.initial_colour == "W"   ? club::Colour::WHITE
                       : s.initial_colour == "B" ? club::Colour::BLACK
                                                 : club::Colour::NONE;
    e.created_ms = s.created_ms;
    e.current_round = s.current_round;
    e.closed_ms = s.closed_ms;
    e.round_started_ms = std::move(s.round_started_ms);
    e.players = std::move(s.players);
    e.boards = std::move(s.boards);
    return e;
}

ProtocolError store_failed(const Error& e) { return ProtocolError{"internal", e.message, 500}; }

}  // namespace

std::optional<std::pair<club::ResultCode, club::ResultCode>> board_result_codes(const std::string& result) {
    for (const ResultPair& r : Results)
        if (result == r.text) return std::pair{r.white, r.black};
    return std::nullopt;
}

bool Event::round_complete(int round) const {
    for (const EventBoard& b : boards)
        if (b.round == round && b.result.empty()) return false;
    return true;
}

const EventPlayer* Event::player_of(std::int64_t account) const {
    for (const EventPlayer& p : players)
        if (p.account == account) return &p;
    return nullptr;
}

club::Tournament to_tournament(const Event& e, int rounds) {
    club::Tournament t;
    t.name = e.name;
    t.total_rounds = e.rounds;
    t.initial_colour = e.initial_colour;
    std::map<int, std::size_t> index;
    for (const EventPlayer& p : e.players) {
        club::Player q;
        q.start_rank = p.start_rank;
        q.name = p.name;
        q.rating = p.rating;
        q.rounds.resize(std::size_t(rounds));
        index[p.start_rank] = t.players.size();
        t.players.push_back(std::move(q));
    }
    std::vector<std::vector<bool>> on_board(t.players.size(), std::vector<bool>(std::size_t(rounds)));
    for (const EventBoard& b : e.boards) {
        if (b.round < 1 || b.round > rounds || !index.count(b.white)) continue;
        const std::size_t w = index[b.white], r = std::size_t(b.round - 1);
        on_board[w][r] = true;
        if (b.black == 0) {
            // The pairing-allocated bye (Swiss); a round-robin's free round scores nothing.
            t.players[w].rounds[r] = {0, club::Colour::NONE,
                                      e.round_robin() ? club::ResultCode::ZERO_BYE : club::ResultCode::PAIRING_BYE};
            continue;
        }
        if (!index.count(b.black)) continue;
        const std::size_t k = index[b.black];
        on_board[k][r] = true;
        auto codes = board_result_codes(b.result).value_or(std::pair{club::ResultCode::NONE, club::ResultCode::NONE});
        t.players[w].rounds[r] = {b.black, club::Colour::WHITE, codes.first};
        t.players[k].rounds[r] = {b.white, club::Colour::BLACK, codes.second};
    }
    for (std::size_t i = 0; i < t.players.size(); ++i) {
        const EventPlayer& p = e.players[i];
        for (int r = 1; r <= rounds; ++r)
            if (!on_board[i][std::size_t(r - 1)])
                t.players[i].rounds[std::size_t(r - 1)].result =
                    p.byes.count(r) ? club::ResultCode::HALF_BYE : club::ResultCode::ZERO_BYE;
        t.players[i].points = t.score(t.players[i], rounds);
    }
    return t;
}

// --- Storage ---------------------------------------------------------------------------

Answer<std::unique_ptr<EventService>> EventService::open(EventStore* store, Hub& hub,
                                                         std::function<std::int64_t()> wall_ms,
                                                         std::vector<std::string> allowed_origins) {
    auto stored = store->load_all();
    if (!stored) return store_failed(stored.error());
    std::map<std::int64_t, Event> events;
    std::map<std::string, std::pair<std::int64_t, std::pair<int, int>>> by_game;
    for (StoredEvent& s : *stored) {
        Event e = event_from_stored(std::move(s));
        for (const EventBoard& b : e.boards)
            if (!b.game_id.empty()) by_game[b.game_id] = {e.id, {b.round, b.board}};
        const std::int64_t id = e.id;
        events[id] = std::move(e);
    }
    std::unique_ptr<EventService> service(new EventService(store, hub, std::move(wall_ms), std::move(allowed_origins)));
    service->events_ = std::move(events);
    service->by_game_ = std::move(by_game);
    return service;
}

Result<int> EventService::reload() {
    auto stored = store_->load_all();
    if (!stored) return make_error("the events: " + stored.error().message);
    std::map<std::int64_t, Event> events;
    std::map<std::string, std::pair<std::int64_t, std::pair<int, int>>> by_game;
    for (StoredEvent& st : *stored) {
        Event e = event_from_stored(std::move(st));
        for (const EventBoard& b : e.boards)
            if (!b.game_id.empty()) by_game[b.game_id] = {e.id, {b.round, b.board}};
        const std::int64_t id = e.id;
        events[id] = std::move(e);
    }
    std::lock_guard lock(mutex_);
    events_ = std::move(events);
    by_game_ = std::move(by_game);
    return int(events_.size());
}

EventService::EventService(EventStore* store, Hub& hub, std::function<std::int64_t()> wall_ms,
                           std::vector<std::string> allowed_origins)
    : store_(store), hub_(hub), wall_ms_(std::move(wall_ms)), allowed_origins_(std::move(allowed_origins)) {}

EventService::~EventService() = default;

Answer<bool> EventService::save(Event& e) {
    auto id = store_->save(event_to_stored(e));
    if (!id) return store_failed(id.error());
    e.id = *id;
    return true;
}

Answer<bool> EventService::save_result(std::int64_t event_id, const EventBoard& b) {
    if (auto r = store_->save_result(event_id, b); !r) return store_failed(r.error());
    return true;
}

Answer<bool> EventService::save_board_game(std::int64_t event_id, const EventBoard& b) {
    if (auto r = store_->save_board_game(event_id, b); !r) return store_failed(r.error());
    return true;
}

Answer<Event*> EventService::find(std::int64_t id) {
    auto it = events_.find(id);
    if (it == events_.end()) return not_found();
    return &it->second;
}

std::optional<Event> EventService::event(std::int64_t id) const {
    std::lock_guard lock(mutex_);
    auto it = events_.find(id);
    if (it == events_.end()) return std::nullopt;
    return it->second;
}

}  // namespace outpost::server
