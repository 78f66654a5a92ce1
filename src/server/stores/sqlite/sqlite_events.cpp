// Outpost — the events' store in SQLite (stores/event_store.h): three tables beside the
// games (events, event_players, event_boards), made by the migrations.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Its own connection to the database file, as the accounts have: an event changes at a
// join, a round's start and a board's result, seldom beside the games' moves.
#include "server/stores/event_store.h"
#include "server/stores/sqlite/sqlite_db.h"
#include "server/stores/sqlite/sqlite_fence.h"

#include <map>
#include <sstream>

namespace outpost::server {
namespace {

std::string join_event_ints(const std::vector<std::int64_t>& v) {
    std::string s;
    for (auto x : v) s += (s.empty() ? "" : ",") + std::to_string(x);
    return s;
}
std::vector<std::int64_t> split_event_ints(const std::string& s) {
    std::vector<std::int64_t> out;
    std::stringstream in(s);
    std::string part;
    while (std::getline(in, part, ','))
        if (!part.empty()) out.push_back(std::stoll(part));
    return out;
}

class SqliteEventStore final : public EventStore {
public:
    Result<bool> open(const std::string& path, bool sync_full) { return c_.open_store(path, sync_full); }

    Result<std::vector<StoredEvent>> load_all() override {
        std::lock_guard lock(c_.mutex);
        std::map<std::int64_t, StoredEvent> events;
        {
            Statement s(c_.db,
                        "SELECT id, name, organiser, organiser_name, system, rounds, time_control, rated, online, tiebreaks, "
                        "initial_colour, created_ms, current_round, round_starts, closed_ms FROM events");
            if (!s.ok()) return db_error(c_.db, "load events");
            while (s.step() == SQLITE_ROW) {
                StoredEvent e;
                e.id = s.integer(0);
                e.name = s.text(1);
                e.organiser = s.integer(2);
                e.organiser_name = s.text(3);
                e.system = s.text(4);
                e.rounds = int(s.integer(5));
                e.time_control = s.text(6);
                e.rated = s.integer(7) != 0;
                e.online = s.integer(8) != 0;
                e.tiebreaks = s.text(9);
                e.initial_colour = s.text(10);
                e.created_ms = s.integer(11);
                e.current_round = int(s.integer(12));
                e.round_started_ms = split_event_ints(s.text(13));
                e.closed_ms = s.integer(14);
                events[e.id] = std::move(e);
            }
        }
        {
            Statement s(c_.db, "SELECT event_id, start_rank, account_id, name, rating, withdrawn_from, joined_in, byes "
                               "FROM event_players ORDER BY event_id, start_rank");
            if (!s.ok()) return db_error(c_.db, "load event players");
            while (s.step() == SQLITE_ROW) {
                auto it = events.find(s.integer(0));
                if (it == events.end()) continue;
                EventPlayer p;
                p.start_rank = int(s.integer(1));
                p.account = s.integer(2);
                p.name = s.text(3);
                p.rating = int(s.integer(4));
                p.withdrawn_from = int(s.integer(5));
                p.joined_in = int(s.integer(6));
                for (auto r : split_event_ints(s.text(7))) p.byes.insert(int(r));
                it->second.players.push_back(std::move(p));
            }
        }
        {
            Statement s(c_.db, "SELECT event_id, round, board, white, black, game_id, white_token, black_token, result, "
                               "note FROM event_boards ORDER BY event_id, round, board");
            if (!s.ok()) return db_error(c_.db, "load event boards");
            while (s.step() == SQLITE_ROW) {
                auto it = events.find(s.integer(0));
                if (it == events.end()) continue;
                it->second.boards.push_back(EventBoard{int(s.integer(1)), int(s.integer(2)), int(s.integer(3)),
                                                       int(s.integer(4)), s.text(5), s.text(6), s.text(7), s.text(8),
                                                       s.text(9)});
            }
        }
        std::vector<StoredEvent> out;
        out.reserve(events.size());
        for (auto& [id, e] : events) out.push_back(std::move(e));
        return out;
    }

    Result<std::int64_t> save(const StoredEvent& e) override {
        std::lock_guard lock(c_.mutex);
        std::int64_t id = e.id;
        auto done = c_.transaction([&]() -> Result<bool> {
            if (auto f = sqlite_check_fence(c_, fence_); !f) return f;
            Statement s(c_.db, "INSERT OR REPLACE INTO events(id, name, organiser, organiser_name, system, rounds, "
                               "time_control, rated, online, tiebreaks, initial_colour, created_ms, current_round, round_starts, "
                               "closed_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)");
            if (id) s.bind(1, id);
            else s.bind_null(1);
            s.bind(2, e.name).bind(3, e.organiser).bind(4, e.organiser_name).bind(5, e.system);
            s.bind(6, std::int64_t(e.rounds)).bind(7, e.time_control).bind(8, std::int64_t(e.rated));
            s.bind(9, std::int64_t(e.online)).bind(10, e.tiebreaks).bind(11, e.initial_colour);
            s.bind(12, e.created_ms).bind(13, std::int64_t(e.current_round)).bind(14, join_event_ints(e.round_started_ms));
            s.bind(15, e.closed_ms);
            if (!s.ok() || s.step() != SQLITE_DONE) return db_error(c_.db, "save event");
            if (!id) id = sqlite3_last_insert_rowid(c_.db);
            for (const char* sql : {"DELETE FROM event_players WHERE event_id = ?1", "DELETE FROM event_boards WHERE event_id = ?1"}) {
                Statement d(c_.db, sql);
                d.bind(1, id);
                if (!d.ok() || d.step() != SQLITE_DONE) return db_error(c_.db, "save event");
            }
            for (const EventPlayer& p : e.players) {
                Statement i(c_.db, "INSERT INTO event_players(event_id, start_rank, account_id, name, rating, withdrawn_from, "
                                   "joined_in, byes) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
                i.bind(1, id).bind(2, std::int64_t(p.start_rank)).bind(3, p.account).bind(4, p.name);
                i.bind(5, std::int64_t(p.rating)).bind(6, std::int64_t(p.withdrawn_from)).bind(7, std::int64_t(p.joined_in));
                i.bind(8, join_event_ints(std::vector<std::int64_t>(p.byes.begin(), p.byes.end())));
                if (!i.ok() || i.step() != SQLITE_DONE) return db_error(c_.db, "save event player");
            }
            for (const EventBoard& b : e.boards) {
                Statement i(c_.db, "INSERT INTO event_boards(event_id, round, board, white, black, game_id, white_token, "
                                   "black_token, result, note) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)");
                i.bind(1, id).bind(2, std::int64_t(b.round)).bind(3, std::int64_t(b.board)).bind(4, std::int64_t(b.white));
                i.bind(5, std::int64_t(b.black)).bind(6, b.game_id).bind(7, b.white_token).bind(8, b.black_token);
                i.bind(9, b.result).bind(10, b.note);
                if (!i.ok() || i.step() != SQLITE_DONE) return db_error(c_.db, "save event board");
            }
            return true;
        });
        if (!done) return done.error();
        return id;
    }

    Result<bool> save_result(std::int64_t event_id, const EventBoard& b) override {
        std::lock_guard lock(c_.mutex);
        return c_.transaction([&]() -> Result<bool> {
            if (auto f = sqlite_check_fence(c_, fence_); !f) return f;
            Statement s(c_.db, "UPDATE event_boards SET result = ?1, note = ?2 WHERE event_id = ?3 AND round = ?4 AND board = ?5");
            s.bind(1, b.result).bind(2, b.note).bind(3, event_id).bind(4, std::int64_t(b.round)).bind(5, std::int64_t(b.board));
            if (!s.ok() || s.step() != SQLITE_DONE) return db_error(c_.db, "save result");
            if (sqlite3_changes(c_.db) != 1) return make_error("save result: the board is not stored");
            return true;
        });
    }

    Result<bool> save_board_game(std::int64_t event_id, const EventBoard& b) override {
        std::lock_guard lock(c_.mutex);
        return c_.transaction([&]() -> Result<bool> {
            if (auto f = sqlite_check_fence(c_, fence_); !f) return f;
            Statement s(c_.db, "UPDATE event_boards SET game_id = ?1, white_token = ?2, black_token = ?3, note = ?4 "
                               "WHERE event_id = ?5 AND round = ?6 AND board = ?7");
            s.bind(1, b.game_id).bind(2, b.white_token).bind(3, b.black_token).bind(4, b.note);
            s.bind(5, event_id).bind(6, std::int64_t(b.round)).bind(7, std::int64_t(b.board));
            if (!s.ok() || s.step() != SQLITE_DONE) return db_error(c_.db, "save board");
            if (sqlite3_changes(c_.db) != 1) return make_error("save board: the board is not stored");
            return true;
        });
    }

    void fence_with(FenceToken token) override {
        std::lock_guard lock(c_.mutex);
        fence_ = std::move(token);
    }

    Result<std::int64_t> claim_fence(std::int64_t token) override {
        std::lock_guard lock(c_.mutex);
        return sqlite_claim_fence(c_, token);
    }

private:
    Connection c_;
    FenceToken fence_;  // under c_.mutex
};

}  // namespace

Result<std::unique_ptr<EventStore>> EventStore::open(const std::string& path, bool sync_full) {
    auto store = std::make_unique<SqliteEventStore>();
    if (auto r = store->open(path, sync_full); !r) return r.error();
    return std::unique_ptr<EventStore>(std::move(store));
}

}  // namespace outpost::server
