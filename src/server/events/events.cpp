// Outpost — tournaments run by the server (events.h; docs/events.md, "Events on the
// server"; docs/protocol.md, "Events").
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/events/events.h"
#include "server/common/http_answer.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "chess/clock.h"
#include "club/dutch.h"
#include "club/glicko2.h"
#include "club/round_robin.h"
#include "club/trf.h"
#include "server/common/guards.h"
#include "server/accounts/ratings.h"
#include "server/stores/sqlite/sqlite_db.h"

namespace outpost::server {

using nlohmann::json;

namespace {

constexpr const char* EventsPrefix = "/api/v1/events";
constexpr std::size_t MaxName = 100;
constexpr int MaxSwissRounds = 30;
constexpr std::size_t MaxSwissPlayers = 500;
constexpr std::size_t MaxRoundRobinPlayers = 20;  // C.05 Annex 1: the tables go to 20
constexpr std::size_t MaxTiebreaks = 6;
constexpr int MaxOpenEventsPerOrganiser = 20;
constexpr std::size_t MaxListed = 200;

constexpr const char* EventSchema = R"sql(
CREATE TABLE IF NOT EXISTS events (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL, organiser INTEGER NOT NULL, organiser_name TEXT NOT NULL,
  system TEXT NOT NULL, rounds INTEGER NOT NULL, time_control TEXT NOT NULL,
  rated INTEGER NOT NULL, online INTEGER NOT NULL, tiebreaks TEXT NOT NULL,
  initial_colour TEXT NOT NULL, created_ms INTEGER NOT NULL,
  current_round INTEGER NOT NULL, round_starts TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS event_players (
  event_id INTEGER NOT NULL REFERENCES events(id), start_rank INTEGER NOT NULL,
  account_id INTEGER NOT NULL, name TEXT NOT NULL, rating INTEGER NOT NULL,
  withdrawn_from INTEGER NOT NULL, joined_in INTEGER NOT NULL, byes TEXT NOT NULL,
  PRIMARY KEY (event_id, start_rank)
);
CREATE TABLE IF NOT EXISTS event_boards (
  event_id INTEGER NOT NULL REFERENCES events(id), round INTEGER NOT NULL, board INTEGER NOT NULL,
  white INTEGER NOT NULL, black INTEGER NOT NULL, game_id TEXT NOT NULL,
  white_token TEXT NOT NULL, black_token TEXT NOT NULL, result TEXT NOT NULL, note TEXT NOT NULL,
  PRIMARY KEY (event_id, round, board)
);
)sql";

ProtocolError bad_field(const std::string& field, const std::string& what) {
    return {"bad_request", "field '" + field + "' " + what, 400};
}
ProtocolError not_found() { return {"not_found", "no such event", 404}; }
ProtocolError refused(std::string why) { return {"not_allowed", std::move(why), 409}; }
ProtocolError organiser_only() { return {"not_organiser", "only the organiser of the event may do this", 403}; }

HttpResponse answer(const Answer<std::string>& a, int status = 200) {
    return a ? json_answer(status, *a) : error_answer(a.error());
}

const char* system_name(EventSystem s) {
    switch (s) {
        case EventSystem::SWISS: return "swiss";
        case EventSystem::ROUND_ROBIN: return "round-robin";
        case EventSystem::DOUBLE_ROUND_ROBIN: return "double-round-robin";
    }
    return "swiss";
}
std::optional<EventSystem> system_from(std::string_view s) {
    if (s == "swiss") return EventSystem::SWISS;
    if (s == "round-robin") return EventSystem::ROUND_ROBIN;
    if (s == "double-round-robin") return EventSystem::DOUBLE_ROUND_ROBIN;
    return std::nullopt;
}

std::string join_ints(const std::vector<std::int64_t>& v) {
    std::string s;
    for (auto x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
    return s;
}
std::vector<std::int64_t> split_ints(const std::string& s) {
    std::vector<std::int64_t> out;
    std::stringstream in(s);
    std::string part;
    while (std::getline(in, part, ','))
        if (!part.empty()) out.push_back(std::stoll(part));
    return out;
}
std::string tiebreak_codes(const std::vector<club::Tiebreak>& v) {
    std::string s;
    for (auto t : v) s += (s.empty() ? "" : ",") + std::string(club::tiebreak_code(t));
    return s;
}

// An integer field in [lo, hi].
Answer<int> int_field(const json& j, const char* name, int lo, int hi, std::optional<int> fallback = std::nullopt) {
    auto it = j.find(name);
    if (it == j.end()) {
        if (fallback) return *fallback;
        return bad_field(name, "is missing");
    }
    if (!it->is_number_integer()) return bad_field(name, "must be an integer");
    const auto v = it->get<std::int64_t>();
    if (v < lo || v > hi) return bad_field(name, "must be " + std::to_string(lo) + " to " + std::to_string(hi));
    return int(v);
}

std::string status_of(const Event& e) {
    if (e.current_round == 0) return "registration";
    return e.finished() ? "finished" : "running";
}

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

// The result of a finished game of an event; "" when it ended without one (aborted).
std::string result_of(const Outcome& o) {
    if (o.reason == Status::ABORTED || o.reason == Status::ONGOING) return "";
    if (!o.winner) return "1/2-1/2";
    if (o.reason == Status::FORFEIT) return *o.winner == WHITE ? "+-" : "-+";
    return *o.winner == WHITE ? "1-0" : "0-1";
}

// The rating class of an event's games (P23: the class of its time control; an event
// has no Chess960 games), "" for an untimed event, whose players are unrated.
std::string event_rating_class(const std::string& time_control) {
    auto tc = parse_time_control(time_control);
    if (!tc) return "";
    return rating_class_of(*tc, false).value_or("");
}

// The id of an event board's game, chosen before the hub makes it (as the hub's own:
// 8 letters and digits; game ids are public, the seat tokens are the secrets).
std::string event_game_id() {
    static constexpr char Alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static std::mutex m;
    static std::random_device device;
    std::lock_guard lock(m);
    std::uniform_int_distribution<int> pick(0, 61);
    std::string id;
    for (int i = 0; i < 8; ++i) id += Alphabet[pick(device)];
    return id;
}

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

struct EventService::Db {
    Connection c;
};

Answer<std::unique_ptr<EventService>> EventService::open(const std::string& path, Hub& hub,
                                                         std::function<std::int64_t()> wall_ms,
                                                         std::vector<std::string> allowed_origins) {
    auto db = std::make_unique<Db>();
    if (auto r = db->c.open_store(path, EventSchema); !r) return ProtocolError{"internal", r.error().message, 500};

    std::map<std::int64_t, Event> events;
    {
        Statement s(db->c.db,
                    "SELECT id, name, organiser, organiser_name, system, rounds, time_control, rated, online, tiebreaks, "
                    "initial_colour, created_ms, current_round, round_starts FROM events");
        while (s.ok() && s.step() == SQLITE_ROW) {
            Event e;
            e.id = s.integer(0);
            e.name = s.text(1);
            e.organiser = s.integer(2);
            e.organiser_name = s.text(3);
            e.system = system_from(s.text(4)).value_or(EventSystem::SWISS);
            e.rounds = int(s.integer(5));
            e.time_control = s.text(6);
            e.rated = s.integer(7) != 0;
            e.online = s.integer(8) != 0;
            std::stringstream codes(s.text(9));
            std::string code;
            while (std::getline(codes, code, ','))
                if (auto tb = club::tiebreak_from_code(code)) e.tiebreaks.push_back(*tb);
            const std::string c = s.text(10);
            e.initial_colour = c == "W" ? club::Colour::WHITE : c == "B" ? club::Colour::BLACK : club::Colour::NONE;
            e.created_ms = s.integer(11);
            e.current_round = int(s.integer(12));
            e.round_started_ms = split_ints(s.text(13));
            events[e.id] = std::move(e);
        }
    }
    {
        Statement s(db->c.db, "SELECT event_id, start_rank, account_id, name, rating, withdrawn_from, joined_in, byes "
                              "FROM event_players ORDER BY event_id, start_rank");
        while (s.ok() && s.step() == SQLITE_ROW) {
            auto it = events.find(s.integer(0));
            if (it == events.end()) continue;
            EventPlayer p;
            p.start_rank = int(s.integer(1));
            p.account = s.integer(2);
            p.name = s.text(3);
            p.rating = int(s.integer(4));
            p.withdrawn_from = int(s.integer(5));
            p.joined_in = int(s.integer(6));
            for (auto r : split_ints(s.text(7))) p.byes.insert(int(r));
            it->second.players.push_back(std::move(p));
        }
    }
    std::map<std::string, std::pair<std::int64_t, std::pair<int, int>>> by_game;
    {
        Statement s(db->c.db, "SELECT event_id, round, board, white, black, game_id, white_token, black_token, result, "
                              "note FROM event_boards ORDER BY event_id, round, board");
        while (s.ok() && s.step() == SQLITE_ROW) {
            auto it = events.find(s.integer(0));
            if (it == events.end()) continue;
            EventBoard b{int(s.integer(1)), int(s.integer(2)), int(s.integer(3)), int(s.integer(4)),
                         s.text(5),          s.text(6),          s.text(7),          s.text(8),
                         s.text(9)};
            if (!b.game_id.empty()) by_game[b.game_id] = {it->first, {b.round, b.board}};
            it->second.boards.push_back(std::move(b));
        }
    }
    std::unique_ptr<EventService> service(new EventService(std::move(db), hub, std::move(wall_ms), std::move(allowed_origins)));
    service->events_ = std::move(events);
    service->by_game_ = std::move(by_game);
    return service;
}

EventService::EventService(std::unique_ptr<Db> db, Hub& hub, std::function<std::int64_t()> wall_ms,
                           std::vector<std::string> allowed_origins)
    : db_(std::move(db)), hub_(hub), wall_ms_(std::move(wall_ms)), allowed_origins_(std::move(allowed_origins)) {}

EventService::~EventService() = default;

// The whole event in one transaction (an event is small: its rows are rewritten).
Answer<bool> EventService::save(Event& e) {
    Connection& c = db_->c;
    std::lock_guard lock(c.mutex);
    auto done = c.transaction([&]() -> Result<bool> {
        Statement s(c.db, "INSERT OR REPLACE INTO events(id, name, organiser, organiser_name, system, rounds, "
                          "time_control, rated, online, tiebreaks, initial_colour, created_ms, current_round, round_starts) "
                          "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)");
        if (e.id) s.bind(1, e.id);
        else s.bind_null(1);
        s.bind(2, e.name).bind(3, e.organiser).bind(4, e.organiser_name).bind(5, std::string(system_name(e.system)));
        s.bind(6, std::int64_t(e.rounds)).bind(7, e.time_control).bind(8, std::int64_t(e.rated));
        s.bind(9, std::int64_t(e.online)).bind(10, tiebreak_codes(e.tiebreaks));
        s.bind(11, std::string(e.initial_colour == club::Colour::WHITE   ? "W"
                               : e.initial_colour == club::Colour::BLACK ? "B"
                                                                         : ""));
        s.bind(12, e.created_ms).bind(13, std::int64_t(e.current_round)).bind(14, join_ints(e.round_started_ms));
        if (!s.ok() || s.step() != SQLITE_DONE) return db_error(c.db, "save event");
        if (!e.id) e.id = sqlite3_last_insert_rowid(c.db);
        for (const char* sql : {"DELETE FROM event_players WHERE event_id = ?1", "DELETE FROM event_boards WHERE event_id = ?1"}) {
            Statement d(c.db, sql);
            d.bind(1, e.id);
            if (!d.ok() || d.step() != SQLITE_DONE) return db_error(c.db, "save event");
        }
        for (const EventPlayer& p : e.players) {
            Statement i(c.db, "INSERT INTO event_players(event_id, start_rank, account_id, name, rating, withdrawn_from, "
                              "joined_in, byes) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
            i.bind(1, e.id).bind(2, std::int64_t(p.start_rank)).bind(3, p.account).bind(4, p.name);
            i.bind(5, std::int64_t(p.rating)).bind(6, std::int64_t(p.withdrawn_from)).bind(7, std::int64_t(p.joined_in));
            i.bind(8, join_ints(std::vector<std::int64_t>(p.byes.begin(), p.byes.end())));
            if (!i.ok() || i.step() != SQLITE_DONE) return db_error(c.db, "save event player");
        }
        for (const EventBoard& b : e.boards) {
            Statement i(c.db, "INSERT INTO event_boards(event_id, round, board, white, black, game_id, white_token, "
                              "black_token, result, note) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
            i.bind(1, e.id).bind(2, std::int64_t(b.round)).bind(3, std::int64_t(b.board)).bind(4, std::int64_t(b.white));
            i.bind(5, std::int64_t(b.black)).bind(6, b.game_id).bind(7, b.white_token).bind(8, b.black_token);
            i.bind(9, b.result).bind(10, b.note);
            if (!i.ok() || i.step() != SQLITE_DONE) return db_error(c.db, "save event board");
        }
        return true;
    });
    if (!done) return ProtocolError{"internal", done.error().message, 500};
    return true;
}

Answer<bool> EventService::save_result(std::int64_t event_id, const EventBoard& b) {
    Connection& c = db_->c;
    std::lock_guard lock(c.mutex);
    Statement s(c.db, "UPDATE event_boards SET result = ?1, note = ?2 WHERE event_id = ?3 AND round = ?4 AND board = ?5");
    s.bind(1, b.result).bind(2, b.note).bind(3, event_id).bind(4, std::int64_t(b.round)).bind(5, std::int64_t(b.board));
    if (!s.ok() || s.step() != SQLITE_DONE) return ProtocolError{"internal", db_error(c.db, "save result").message, 500};
    if (sqlite3_changes(c.db) != 1) return ProtocolError{"internal", "save result: the board is not stored", 500};
    return true;
}

Answer<bool> EventService::save_board_game(std::int64_t event_id, const EventBoard& b) {
    Connection& c = db_->c;
    std::lock_guard lock(c.mutex);
    Statement s(c.db, "UPDATE event_boards SET game_id = ?1, white_token = ?2, black_token = ?3, note = ?4 "
                      "WHERE event_id = ?5 AND round = ?6 AND board = ?7");
    s.bind(1, b.game_id).bind(2, b.white_token).bind(3, b.black_token).bind(4, b.note);
    s.bind(5, event_id).bind(6, std::int64_t(b.round)).bind(7, std::int64_t(b.board));
    if (!s.ok() || s.step() != SQLITE_DONE) return ProtocolError{"internal", db_error(c.db, "save board").message, 500};
    if (sqlite3_changes(c.db) != 1) return ProtocolError{"internal", "save board: the board is not stored", 500};
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

// --- Operations ---------------------------------------------------------------------------

Answer<std::string> EventService::create(const Account& organiser, std::string_view body) {
    auto j = read_json_object(body);
    if (!j) return j.error();
    Event e;
    e.organiser = organiser.id;
    e.organiser_name = organiser.name;
    e.created_ms = wall_ms_();
    auto name = j->find("name");
    if (name == j->end() || !name->is_string()) return bad_field("name", "must be a string");
    e.name = name->get<std::string>();
    if (e.name.empty() || e.name.size() > MaxName) return bad_field("name", "must be 1 to 100 characters");
    for (unsigned char ch : e.name)
        if (ch < 0x20 || ch == 0x7f) return bad_field("name", "must not hold control characters");
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
    auto parsed = parse_time_control(tc->get<std::string>());
    if (!parsed) return bad_field("time_control", parsed.error().message);
    if (parsed->correspondence() && parsed->days_per_move > 14) return bad_field("time_control", "days per move must be 1 to 14");
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
    Event next = **found;
    if (next.finished()) return refused("the event is over");
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
    std::vector<GameToMake> games;
    int round = 0;
    // P23: the players' ratings in the event's class as the first round starts (read
    // from the hub outside the lock: the hub reports results under its own).
    std::map<std::int64_t, int> ratings;
    {
        std::vector<std::int64_t> accounts;
        std::string cls;
        {
            std::lock_guard lock(mutex_);
            auto found = find(id);
            if (!found) return found.error();
            if ((*found)->current_round == 0 && (*found)->organiser == a.id) {
                cls = event_rating_class((*found)->time_control);
                for (const EventPlayer& p : (*found)->players) accounts.push_back(p.account);
            }
        }
        if (!cls.empty())
            for (std::int64_t account : accounts)
                if (auto r = hub_.rating_of(account, cls); r && *r) ratings[account] = int(std::lround((*r)->rating));
    }
    {
        std::lock_guard lock(mutex_);
        auto found = find(id);
        if (!found) return found.error();
        Event next = **found;
        if (next.organiser != a.id) return organiser_only();
        if (starting_.count(id)) return refused("the round is being started");
        if (next.current_round > 0 && !next.round_complete(next.current_round))
            return refused("round " + std::to_string(next.current_round) + " still has boards without a result");
        if (next.current_round > 0 && next.current_round >= next.rounds) return refused("every round has been played");
        round = next.current_round + 1;
        if (round == 1)
            for (EventPlayer& p : next.players) p.rating = ratings.count(p.account) ? ratings[p.account] : 0;
        auto active = [&](const EventPlayer& p) {
            return (p.withdrawn_from == 0 || p.withdrawn_from > round) && p.joined_in <= round;
        };
        club::Round pairing;
        if (next.round_robin()) {
            if (round == 1) {
                const int n = int(next.players.size());
                if (n < 3) return refused("a round-robin needs 3 to 20 players (C.05 Annex 1); it has " + std::to_string(n));
                // C.05: the start numbers by the drawing of lots.
                std::shuffle(next.players.begin(), next.players.end(), lots_);
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
        if (auto ok = save(next); !ok) return ok.error();
        **found = std::move(next);
        for (const GameToMake& g : games) by_game_[g.game_id] = {id, {round, g.board}};
        if (!games.empty()) starting_.insert(id);
    }
    // The games, outside the lock (the hub reports to on_game_over under its own).
    (void)make_games(games);
    std::lock_guard lock(mutex_);
    starting_.erase(id);
    auto found = find(id);
    if (!found) return found.error();
    return to_json(**found, &a);
}

int EventService::make_games(const std::vector<GameToMake>& games) {
    int linked = 0;
    for (const GameToMake& g : games) {
        auto board_of = [&](Event& e) -> EventBoard* {
            for (EventBoard& b : e.boards)
                if (b.round == g.round && b.board == g.board) return &b;
            return nullptr;
        };
        {
            std::lock_guard lock(mutex_);
            auto found = find(g.event);
            EventBoard* b = found ? board_of(**found) : nullptr;
            // Decided meanwhile (the organiser's result), or already linked: no game to make.
            if (!b || b->game_id != g.game_id || !b->white_token.empty() || !b->result.empty() || !b->note.empty())
                continue;
        }
        auto created = hub_.create_event_game(g.time_control, g.casual, g.white, g.black, g.game_id);
        std::lock_guard lock(mutex_);
        auto found = find(g.event);
        EventBoard* b = found ? board_of(**found) : nullptr;
        if (!b || b->game_id != g.game_id) continue;
        EventBoard next = *b;
        if (!created) {
            next.note = "the game could not be made: " + created.error().message;
            next.game_id.clear();
        } else {
            next.white_token = created->white_token.value_or("");
            next.black_token = created->black_token.value_or("");
        }
        if (!save_board_game(g.event, next)) continue;  // stored as before: the next start tries again
        if (!created) by_game_.erase(g.game_id);
        else ++linked;
        *b = std::move(next);
    }
    return linked;
}

int EventService::recover_games() {
    std::vector<GameToMake> games;
    {
        std::lock_guard lock(mutex_);
        for (auto& [id, e] : events_) {
            if (!e.online) continue;  // over the board: the organiser types the results
            Event next = e;
            bool chosen = false;
            std::vector<GameToMake> mine;
            for (EventBoard& b : next.boards) {
                if (b.black == 0 || !b.result.empty() || !b.note.empty() || !b.white_token.empty()) continue;
                const EventPlayer* w = nullptr;
                const EventPlayer* k = nullptr;
                for (const EventPlayer& p : next.players) {
                    if (p.start_rank == b.white) w = &p;
                    if (p.start_rank == b.black) k = &p;
                }
                if (!w || !k) continue;
                // A round saved without ids (by an older version) gets them now.
                if (b.game_id.empty()) {
                    b.game_id = event_game_id();
                    chosen = true;
                }
                mine.push_back({id, b.round, b.board, b.game_id, next.time_control, !next.rated,
                                Account{w->account, w->name}, Account{k->account, k->name}});
            }
            if (chosen) {
                if (!save(next)) continue;
                e = std::move(next);
            }
            for (const GameToMake& g : mine) {
                by_game_[g.game_id] = {id, {g.round, g.board}};
                games.push_back(g);
            }
        }
    }
    return make_games(games);
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

void EventService::on_game_over(const LiveGame& g) {
    if (!g.over) return;
    std::lock_guard lock(mutex_);
    auto it = by_game_.find(g.id);
    if (it == by_game_.end()) return;
    auto found = find(it->second.first);
    if (!found) return;
    Event next = **found;
    for (EventBoard& b : next.boards) {
        if (b.round != it->second.second.first || b.board != it->second.second.second) continue;
        if (!b.result.empty() || !b.note.empty()) return;  // the organiser's result stands
        b.result = result_of(g.outcome);
        if (b.result.empty()) b.note = "aborted";  // the organiser decides (docs/events.md)
        // R14 in a Swiss, as lichess runs one: who lost for want of a first move is
        // withdrawn from the next round on (and may join again); a round-robin keeps
        // its schedule.
        EventPlayer* absent = nullptr;
        if (!next.round_robin() && g.outcome.reason == Status::FORFEIT && g.outcome.winner) {
            const int rank = *g.outcome.winner == WHITE ? b.black : b.white;
            for (EventPlayer& p : next.players)
                if (p.start_rank == rank && p.withdrawn_from == 0) absent = &p;
        }
        if (absent) {
            absent->withdrawn_from = b.round + 1;
            if (save(next)) **found = std::move(next);
        } else if (save_result(next.id, b)) {
            **found = std::move(next);
        }
        return;
    }
}

int EventService::recover_results() {
    std::vector<std::string> waiting;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [id, e] : events_)
            for (const EventBoard& b : e.boards)
                if (!b.game_id.empty() && !b.white_token.empty() && b.result.empty() && b.note.empty())
                    waiting.push_back(b.game_id);
    }
    // The hub outside the lock (it calls on_game_over under its own).
    int recovered = 0;
    for (const std::string& game : waiting) {
        auto g = hub_.game_report(game);
        if (!g || !g->over) continue;
        on_game_over(*g);
        ++recovered;
    }
    return recovered;
}

// --- Reading ------------------------------------------------------------------------------

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

// --- HTTP ----------------------------------------------------------------------------------

bool EventService::handles(const HttpRequest& req) {
    const std::string path = split_target(req.target).first;
    return path == EventsPrefix || path.rfind(std::string(EventsPrefix) + "/", 0) == 0;
}

HttpResponse EventService::handle(const HttpRequest& req) {
    const std::string path = split_target(req.target).first;
    const bool post = req.method == "POST";
    if (post) {  // the account routes' rules (account_service.h, CSRF)
        if (!is_json_content_type(req.content_type) && !req.content_type.empty())
            return error_answer({"bad_request", "a POST body must be JSON, sent with Content-Type: application/json", 415});
        if (!req.origin.empty() && !origin_allowed(req.origin, req.host, allowed_origins_))
            return error_answer({"forbidden_origin", "events are changed only from pages of this server", 403});
        if (!req.account) return error_answer({"not_signed_in", "sign in first", 401});
    } else if (req.method != "GET" && req.method != "HEAD") {
        return error_answer({"bad_request", "use GET or POST", 405});
    }
    const Account* who = req.account ? &*req.account : nullptr;
    if (path == EventsPrefix) {
        if (post) return answer(create(*who, req.body), 201);
        return answer(list_json());
    }
    std::string rest = path.substr(std::string_view(EventsPrefix).size() + 1);
    const std::size_t slash = rest.find('/');
    const std::string id_text = rest.substr(0, slash);
    const std::string action = slash == std::string::npos ? "" : rest.substr(slash + 1);
    if (id_text.empty() || id_text.size() > 15 || !std::all_of(id_text.begin(), id_text.end(), ::isdigit))
        return error_answer(not_found());
    const std::int64_t id = std::stoll(id_text);
    auto need = [&](bool want_post) -> std::optional<HttpResponse> {
        if (want_post != post) return error_answer({"bad_request", want_post ? "use POST" : "use GET", 405});
        return std::nullopt;
    };
    if (action.empty()) {
        if (auto wrong = need(false)) return *wrong;
        return answer(event_json(id, who));
    }
    if (action == "join" || action == "withdraw" || action == "bye" || action == "rounds" || action == "results") {
        if (auto wrong = need(true)) return *wrong;
        if (action == "join") return answer(join(id, *who));
        if (action == "withdraw") return answer(withdraw(id, *who));
        if (action == "bye") return answer(request_bye(id, *who, req.body));
        if (action == "rounds") return answer(start_round(id, *who), 201);
        return answer(enter_result(id, *who, req.body));
    }
    if (auto wrong = need(false)) return *wrong;
    if (action == "standings") return answer(standings_json(id));
    if (action == "trf" || action == "pgn") {
        auto text = action == "trf" ? trf(id) : pgn(id);
        if (!text) return error_answer(text.error());
        HttpResponse r{200, action == "trf" ? "text/plain; charset=utf-8" : "application/x-chess-pgn; charset=utf-8", *text, {}};
        r.headers.emplace_back("Content-Disposition",
                               "attachment; filename=\"outpost-event-" + id_text + (action == "trf" ? ".trf" : ".pgn") + "\"");
        return r;
    }
    return error_answer({"not_found", "no event route " + action.substr(0, 40), 404});
}

}  // namespace outpost::server
