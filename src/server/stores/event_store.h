// Outpost — the events' store (SPEC P20; issue 13): an event with its players and the
// boards of its rounds. An interface, as every store is (docs/architecture.md); SQLite
// implements it in stores/sqlite/sqlite_events.cpp. The rules of events (pairing,
// results, standings) are the events room's (events/events.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "chess/result.h"
#include "server/stores/domains_fence.h"

namespace outpost::server {

struct EventPlayer {
    int start_rank = 0;
    std::int64_t account = 0;
    std::string name;
    int rating = 0;
    int withdrawn_from = 0;  // 0: playing; n: not paired from round n on
    int joined_in = 1;       // the first round the player can be paired in (a late entry: later)
    std::set<int> byes;      // rounds with a half-point bye requested in advance
};

// One board of a round; a bye is black == 0. An online board's game_id is chosen when
// the round is saved; the seat tokens are set once the hub has made the game (empty
// tokens: the game is not made, or not linked, yet). Results: "" (pending), "1-0", "0-1",
// "1/2-1/2", "+-", "-+", "--" (forfeits), and for a bye "bye".
struct EventBoard {
    int round = 0, board = 0;
    int white = 0, black = 0;
    std::string game_id, white_token, black_token;
    std::string result;
    std::string note;  // "aborted": the online game ended without a result
};

// An event as stored: the events room's Event with its enums as the words the store
// keeps ("swiss", "round-robin", "double-round-robin"; tiebreak codes joined by commas;
// the initial colour "W", "B" or ""), so that no store depends on the club library.
struct StoredEvent {
    std::int64_t id = 0;  // 0: not stored yet (save gives it one)
    std::string name;
    std::int64_t organiser = 0;
    std::string organiser_name;
    std::string system = "swiss";
    int rounds = 0;
    std::string time_control;
    bool rated = false, online = true;
    std::string tiebreaks;
    std::string initial_colour;
    std::int64_t created_ms = 0;
    int current_round = 0;
    std::int64_t closed_ms = 0;  // SPEC D9: when an admin closed it (no more rounds or entries); 0: open
    std::vector<std::int64_t> round_started_ms;
    std::vector<EventPlayer> players;  // by start rank
    std::vector<EventBoard> boards;    // by round, then board
};

class EventStore {
public:
    // Opens (creating if needed) the events tables of the SQLite database at path (the
    // same file as the games; ":memory:" for tests).
    static Result<std::unique_ptr<EventStore>> open(const std::string& path, bool sync_full = false);
    virtual ~EventStore() = default;

    // Every event, by id, with its players and boards.
    virtual Result<std::vector<StoredEvent>> load_all() = 0;
    // The whole event in one transaction (an event is small: its rows are rewritten);
    // an event with id 0 gets a new id, returned (and the id it had otherwise).
    virtual Result<std::int64_t> save(const StoredEvent& e) = 0;
    // One board's result and note; an error when the board is not stored.
    virtual Result<bool> save_result(std::int64_t event_id, const EventBoard& b) = 0;
    // One board's game: its id, seats and note; an error when the board is not stored.
    virtual Result<bool> save_board_game(std::int64_t event_id, const EventBoard& b) = 0;

    // Several nodes (domains_fence.h): every write from now on is fenced by `token`.
    virtual void fence_with(FenceToken token) = 0;
    // Raises the stored domains token to `token` (a node that has just taken the domains
    // lease, before it reads the events): the stored token after, above `token` when a
    // higher one has written (Redis restarted empty: its counter must go past it).
    virtual Result<std::int64_t> claim_fence(std::int64_t token) = 0;
};

}  // namespace outpost::server
