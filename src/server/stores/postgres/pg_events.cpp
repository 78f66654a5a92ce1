// Outpost — the events' store in PostgreSQL (stores/event_store.h): the three tables of
// SQLite's (events, event_players, event_boards), made by the migrations.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Its own connection, as the accounts have: an event changes at a join, a round's start
// and a board's result, seldom beside the games' moves.
#include <map>
#include <sstream>

#include "server/stores/postgres/pg_db.h"
#include "server/stores/postgres/pg_fence.h"
#include "server/stores/postgres/pg_stores.h"

namespace outpost::server {
// In a namespace of their own: the unity build puts these files beside SQLite's.
namespace pg {
namespace {

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
        if (!part.empty()) out.push_back(std::strtoll(part.c_str(), nullptr, 10));
    return out;
}

class PgEventStore final : public EventStore {
public:
    Result<bool> open(const std::string& url) { return c_.open_store(url); }

    Result<std::vector<StoredEvent>> load_all() override {
        static const char* const Events =
            "SELECT id, name, organiser, organiser_name, system, rounds, time_control, rated, online, tiebreaks, "
            "initial_colour, created_ms, current_round, round_starts, closed_ms FROM events ORDER BY id";
        static const char* const Players =
            "SELECT event_id, start_rank, account_id, name, rating, withdrawn_from, joined_in, byes "
            "FROM event_players ORDER BY event_id, start_rank";
        static const char* const Boards =
            "SELECT event_id, round, board, white, black, game_id, white_token, black_token, result, note "
            "FROM event_boards ORDER BY event_id, round, board";
        std::lock_guard lock(c_.mutex);
        std::map<std::int64_t, StoredEvent> events;
        auto e = c_.run(Events);
        if (!e) return make_error("load events: " + e.error().message);
        for (int i = 0; i < e->size(); ++i) {
            StoredEvent ev;
            ev.id = e->integer(i, 0);
            ev.name = e->text(i, 1);
            ev.organiser = e->integer(i, 2);
            ev.organiser_name = e->text(i, 3);
            ev.system = e->text(i, 4);
            ev.rounds = int(e->integer(i, 5));
            ev.time_control = e->text(i, 6);
            ev.rated = e->integer(i, 7) != 0;
            ev.online = e->integer(i, 8) != 0;
            ev.tiebreaks = e->text(i, 9);
            ev.initial_colour = e->text(i, 10);
            ev.created_ms = e->integer(i, 11);
            ev.current_round = int(e->integer(i, 12));
            ev.round_started_ms = split_ints(e->text(i, 13));
            ev.closed_ms = e->integer(i, 14);
            events[ev.id] = std::move(ev);
        }
        auto p = c_.run(Players);
        if (!p) return make_error("load event players: " + p.error().message);
        for (int i = 0; i < p->size(); ++i) {
            auto it = events.find(p->integer(i, 0));
            if (it == events.end()) continue;
            EventPlayer pl;
            pl.start_rank = int(p->integer(i, 1));
            pl.account = p->integer(i, 2);
            pl.name = p->text(i, 3);
            pl.rating = int(p->integer(i, 4));
            pl.withdrawn_from = int(p->integer(i, 5));
            pl.joined_in = int(p->integer(i, 6));
            for (auto r : split_ints(p->text(i, 7))) pl.byes.insert(int(r));
            it->second.players.push_back(std::move(pl));
        }
        auto b = c_.run(Boards);
        if (!b) return make_error("load event boards: " + b.error().message);
        for (int i = 0; i < b->size(); ++i) {
            auto it = events.find(b->integer(i, 0));
            if (it == events.end()) continue;
            it->second.boards.push_back(EventBoard{int(b->integer(i, 1)), int(b->integer(i, 2)), int(b->integer(i, 3)),
                                                   int(b->integer(i, 4)), b->text(i, 5), b->text(i, 6), b->text(i, 7),
                                                   b->text(i, 8), b->text(i, 9)});
        }
        std::vector<StoredEvent> out;
        out.reserve(events.size());
        for (auto& [id, ev] : events) out.push_back(std::move(ev));
        return out;
    }

    Result<std::int64_t> save(const StoredEvent& e) override {
        // A new event gets its id from the table; a stored one is rewritten whole.
        static const char* const Insert =
            "INSERT INTO events (name, organiser, organiser_name, system, rounds, time_control, rated, online, tiebreaks, "
            "initial_colour, created_ms, current_round, round_starts, closed_ms) "
            "VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14) RETURNING id";
        static const char* const Upsert =
            "INSERT INTO events (name, organiser, organiser_name, system, rounds, time_control, rated, online, tiebreaks, "
            "initial_colour, created_ms, current_round, round_starts, closed_ms, id) "
            "VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15) ON CONFLICT (id) DO UPDATE SET "
            "name=EXCLUDED.name, organiser=EXCLUDED.organiser, organiser_name=EXCLUDED.organiser_name, "
            "system=EXCLUDED.system, rounds=EXCLUDED.rounds, time_control=EXCLUDED.time_control, rated=EXCLUDED.rated, "
            "online=EXCLUDED.online, tiebreaks=EXCLUDED.tiebreaks, initial_colour=EXCLUDED.initial_colour, "
            "created_ms=EXCLUDED.created_ms, current_round=EXCLUDED.current_round, round_starts=EXCLUDED.round_starts, "
            "closed_ms=EXCLUDED.closed_ms RETURNING id";
        static const char* const DropPlayers = "DELETE FROM event_players WHERE event_id=$1";
        static const char* const DropBoards = "DELETE FROM event_boards WHERE event_id=$1";
        static const char* const AddPlayer =
            "INSERT INTO event_players (event_id, start_rank, account_id, name, rating, withdrawn_from, joined_in, byes) "
            "VALUES ($1,$2,$3,$4,$5,$6,$7,$8)";
        static const char* const AddBoard =
            "INSERT INTO event_boards (event_id, round, board, white, black, game_id, white_token, black_token, result, "
            "note) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10)";
        std::lock_guard lock(c_.mutex);
        std::int64_t id = e.id;
        auto done = c_.transaction([&]() -> Result<bool> {
            if (auto f = pg::check_fence(c_, fence_); !f) return f;
            pg::Params p;
            p(e.name)(e.organiser)(e.organiser_name)(e.system)(e.rounds)(e.time_control)(e.rated)(e.online)(e.tiebreaks);
            p(e.initial_colour)(e.created_ms)(e.current_round)(join_ints(e.round_started_ms))(e.closed_ms);
            if (id) p(id);
            auto row = c_.run(id ? Upsert : Insert, p);
            if (!row) return row.error();
            id = row->integer(0, 0);
            for (const char* sql : {DropPlayers, DropBoards})
                if (auto r = c_.run(sql, pg::Params()(id)); !r) return r.error();
            for (const EventPlayer& pl : e.players) {
                auto r = c_.run(AddPlayer, pg::Params()(id)(pl.start_rank)(pl.account)(pl.name)(pl.rating)(pl.withdrawn_from)(
                                               pl.joined_in)(join_ints(std::vector<std::int64_t>(pl.byes.begin(), pl.byes.end()))));
                if (!r) return r.error();
            }
            for (const EventBoard& b : e.boards) {
                auto r = c_.run(AddBoard, pg::Params()(id)(b.round)(b.board)(b.white)(b.black)(b.game_id)(b.white_token)(
                                              b.black_token)(b.result)(b.note));
                if (!r) return r.error();
            }
            return true;
        });
        if (!done) return make_error("save event: " + done.error().message);
        return id;
    }

    Result<bool> save_result(std::int64_t event_id, const EventBoard& b) override {
        static const char* const Sql = "UPDATE event_boards SET result=$1, note=$2 WHERE event_id=$3 AND round=$4 AND board=$5";
        std::lock_guard lock(c_.mutex);
        auto done = c_.transaction([&]() -> Result<bool> {
            if (auto f = pg::check_fence(c_, fence_); !f) return f;
            auto r = c_.run(Sql, pg::Params()(b.result)(b.note)(event_id)(b.round)(b.board));
            if (!r) return r.error();
            if (r->changed() != 1) return make_error("the board is not stored");
            return true;
        });
        if (!done) return make_error("save result: " + done.error().message);
        return true;
    }

    Result<bool> save_board_game(std::int64_t event_id, const EventBoard& b) override {
        static const char* const Sql =
            "UPDATE event_boards SET game_id=$1, white_token=$2, black_token=$3, note=$4 "
            "WHERE event_id=$5 AND round=$6 AND board=$7";
        std::lock_guard lock(c_.mutex);
        auto done = c_.transaction([&]() -> Result<bool> {
            if (auto f = pg::check_fence(c_, fence_); !f) return f;
            auto r = c_.run(Sql, pg::Params()(b.game_id)(b.white_token)(b.black_token)(b.note)(event_id)(b.round)(b.board));
            if (!r) return r.error();
            if (r->changed() != 1) return make_error("the board is not stored");
            return true;
        });
        if (!done) return make_error("save board: " + done.error().message);
        return true;
    }

    void fence_with(FenceToken token) override {
        std::lock_guard lock(c_.mutex);
        fence_ = std::move(token);
    }

    Result<std::int64_t> claim_fence(std::int64_t token) override {
        std::lock_guard lock(c_.mutex);
        auto r = pg::claim_fence(c_, token);
        if (!r) return make_error("claim the domains fence: " + r.error().message);
        return r;
    }

private:
    pg::Connection c_;
    FenceToken fence_;  // under c_.mutex
};

}  // namespace
}  // namespace pg

Result<std::unique_ptr<EventStore>> postgres::open_events(const std::string& url) {
    auto store = std::make_unique<pg::PgEventStore>();
    if (auto r = store->open(url); !r) return r.error();
    return std::unique_ptr<EventStore>(std::move(store));
}

}  // namespace outpost::server
