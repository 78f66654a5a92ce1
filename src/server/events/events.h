// Outpost — tournaments run by the server (SPEC P20; issue 13; docs/events.md,
// "Events on the server"; routes in docs/protocol.md, "Events").
// SPDX-License-Identifier: GPL-3.0-or-later
//
// An organiser (a signed-in account) creates an event — a Swiss by the Dutch system,
// or a single or double round-robin — players join and withdraw, the organiser starts
// each round. The pairing always comes from src/club: the stored event becomes a
// club::Tournament (the TRF model) and pair_dutch / berger_schedule pair it; the
// standings are club::standings with the organiser's tiebreaks; the TRF export is
// club::write_trf. For an online event every board is a hub game whose seats belong
// to the two accounts; its result comes back through on_game_over (the hub's
// on_live_game). Over-the-board results are typed by the organiser, who may also
// correct any result.
//
// The events live in memory and in an EventStore (stores/event_store.h; in SQLite three
// tables of the games' database); every change is written before it is answered.
// Locking: the service's mutex is never held while calling the hub, nor while a round
// is paired (issue 25: on a copy); the hub reports results by message (on_game_over,
// called on the server's thread of reports, never under the hub's lock).
//
// A round starts in two steps: the pairing is saved with a game id chosen for every
// board to be played online, then the hub makes each game with that id and the board
// is linked to it (its seats saved). A stop between or during the steps leaves boards
// whose id has no game yet, or a game not linked; recover_games() at the next start
// makes the missing games and links the others, each once (Hub::create_event_game
// answers a game made before with the same id).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "club/tiebreak.h"
#include "club/tournament.h"
#include "server/accounts/accounts.h"
#include "server/play/hub.h"
#include "server/common/http.h"
#include "server/stores/event_store.h"

namespace outpost::server {

enum class EventSystem : std::uint8_t { SWISS, ROUND_ROBIN, DOUBLE_ROUND_ROBIN };

// EventPlayer and EventBoard are the store's records (stores/event_store.h).

struct Event {
    std::int64_t id = 0;
    std::string name;
    std::int64_t organiser = 0;
    std::string organiser_name;
    EventSystem system = EventSystem::SWISS;
    int rounds = 0;  // Swiss: as created; round-robin: set by the schedule at the start
    std::string time_control;
    bool rated = false;
    bool online = true;
    std::vector<club::Tiebreak> tiebreaks;
    club::Colour initial_colour = club::Colour::NONE;  // by lot at the start
    std::int64_t created_ms = 0;
    int current_round = 0;  // rounds started
    std::int64_t closed_ms = 0;  // SPEC D9: an admin closed it: no more rounds nor entries
    std::vector<std::int64_t> round_started_ms;
    std::vector<EventPlayer> players;  // by start rank
    std::vector<EventBoard> boards;

    bool round_robin() const { return system != EventSystem::SWISS; }
    bool round_complete(int round) const;
    bool finished() const { return current_round > 0 && current_round == rounds && round_complete(rounds); }
    const EventPlayer* player_of(std::int64_t account) const;
};

// The event as the TRF model has it after `rounds` rounds (pending results blank).
club::Tournament to_tournament(const Event& e, int rounds);
// "1-0" … as two TRF result codes (white's, black's); nullopt for anything else.
std::optional<std::pair<club::ResultCode, club::ResultCode>> board_result_codes(const std::string& result);

class EventService {
public:
    // The events the store holds, served from memory; every change is written through
    // the store before it is answered. The store outlives the service.
    static Answer<std::unique_ptr<EventService>> open(EventStore* store, Hub& hub,
                                                      std::function<std::int64_t()> wall_ms,
                                                      std::vector<std::string> allowed_origins = {});
    ~EventService();
    EventService(const EventService&) = delete;
    EventService& operator=(const EventService&) = delete;

    // Whether the request's path is /api/v1/events or below.
    static bool handles(const HttpRequest& req);
    HttpResponse handle(const HttpRequest& req);

    // A game's end, as the hub reports it (HubEnv::on_live_game; in `outpost serve`
    // by message, on a thread of its own: never under the hub's lock).
    void on_game_over(const LiveGame& g);
    // After the hub resumed its games at start-up: every board whose game is over in the
    // game store but has no result here gets it (the result of a game that ended while
    // the server was down, or in the hub just before a stop). Returns the boards seen over.
    int recover_results();
    // At start-up, after the hub resumed its games and before recover_results: every
    // board of a started online round that has neither a result nor a note and no game
    // linked gets its game (the same id, colours, players and time control as saved;
    // a game made before the stop is linked, not made again). Over-the-board events,
    // byes and decided boards get none. Returns the boards given a game.
    int recover_games();
    // Several nodes (issue 26): the events read again from the store, as open() does,
    // when this node becomes the one that runs them (another ran them meanwhile).
    Result<int> reload();

    // The operations behind the routes (also for tests). JSON bodies as in docs/protocol.md.
    Answer<std::string> create(const Account& organiser, std::string_view body);
    Answer<std::string> join(std::int64_t id, const Account& a);
    Answer<std::string> withdraw(std::int64_t id, const Account& a);
    Answer<std::string> request_bye(std::int64_t id, const Account& a, std::string_view body);
    Answer<std::string> start_round(std::int64_t id, const Account& a);
    Answer<std::string> enter_result(std::int64_t id, const Account& a, std::string_view body);
    Answer<std::string> event_json(std::int64_t id, const Account* viewer);
    Answer<std::string> list_json();
    Answer<std::string> standings_json(std::int64_t id);
    Answer<std::string> trf(std::int64_t id);
    Answer<std::string> pgn(std::int64_t id);
    std::optional<Event> event(std::int64_t id) const;
    // SPEC D9, the admin page (events_admin.cpp): no round starts and nobody enters any
    // more; the games being played go on. Answers the status before and after.
    Answer<std::pair<std::string, std::string>> close(std::int64_t id);
    // Issue 25: where a round is paired. By default on the caller's thread; `outpost
    // serve` gives a thread of its own at the process's priority (the request pool runs
    // at nice +5, where on a loaded machine a seconds-long pairing starved and its
    // request went unanswered). `run` runs the job it is given on some thread and
    // returns false when it cannot take it now (the start is then refused, busy).
    void run_pairing_on(std::function<bool(std::function<void()>)> run) { run_pairing_ = std::move(run); }

private:
    EventService(EventStore* store, Hub& hub, std::function<std::int64_t()> wall_ms,
                 std::vector<std::string> allowed_origins);
    Answer<bool> save(Event& e);  // under mutex_; gives a new event its id
    // One board's result and note (a result is one row, not the whole event: the hub
    // reports results under its own lock).
    Answer<bool> save_result(std::int64_t event_id, const EventBoard& b);
    // One board's game: its id, seats and note.
    Answer<bool> save_board_game(std::int64_t event_id, const EventBoard& b);
    // The games of boards saved with their ids: made (or found made) in the hub outside
    // the lock, each board linked as soon as its game is; a board decided meanwhile, or
    // of an event gone, gets none. Returns the boards linked.
    struct GameToMake {
        std::int64_t event = 0;
        int round = 0, board = 0;
        std::string game_id, time_control;
        bool casual = true;
        Account white, black;
    };
    int make_games(const std::vector<GameToMake>& games);
    // Issue 25: why the event's next round cannot start (none: it can); the next round
    // paired on `next`, a copy of the event, outside the lock (its games to make).
    static std::optional<ProtocolError> cannot_start(const Event& e);
    Answer<bool> pair_next_round(Event& next, std::vector<GameToMake>& games);
    Answer<bool> pair_on_its_thread(Event& next, std::vector<GameToMake>& games);
    Answer<Event*> find(std::int64_t id);
    std::string to_json(const Event& e, const Account* viewer) const;

    EventStore* store_;
    Hub& hub_;
    std::function<std::int64_t()> wall_ms_;
    std::vector<std::string> allowed_origins_;
    mutable std::mutex mutex_;
    std::map<std::int64_t, Event> events_;
    std::map<std::string, std::pair<std::int64_t, std::pair<int, int>>> by_game_;  // game -> event, (round, board)
    std::set<std::int64_t> starting_;  // events whose round is being started (games being made)
    std::mt19937 lots_{std::random_device{}()};  // the drawing of lots, not a secret
    std::function<bool(std::function<void()>)> run_pairing_;
};

}  // namespace outpost::server
