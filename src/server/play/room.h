// Outpost — a room: one live game, its seats, its clock and its one history.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The history of a game is chess::Game's list of moves; the room keeps beside it one
// record per ply with what the Game does not know (the SAN as written when the move
// was made, the clocks after it, the wall time). Both change only in play() and
// take_back(), together, so they cannot drift apart. The room knows no storage, no
// network and no robot: the hub does those.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "chess/clock.h"
#include "chess/game.h"
#include "server/bus/subscriber.h"  // the followers' connections
#include "server/play/adjournment.h"
#include "server/common/protocol.h"
#include "server/stores/game_store.h"

namespace outpost::server {

struct PlyRecord {
    std::string uci;                          // as sent and stored (Chess960: king takes rook)
    std::string san;                          // as written when the move was made
    Millis clock_after = -1;                  // the mover's clock after the move; -1: not timed
    std::int64_t white_ms = 0, black_ms = 0;  // both clocks after the move (as stored)
    std::int64_t at_ms = 0;                   // wall-clock time of the move
};

class Room {
public:
    Room(StoredGame row_, Game game_) : info(std::move(row_)), game(std::move(game_)) { info.moves.clear(); }

    // Who plays, the settings and the seat tokens: the game's row. Its `moves` stay
    // empty; the moves are `game` and `history`.
    StoredGame info;
    Game game;
    std::vector<PlyRecord> history;  // history[i] is the record of game.moves()[i]
    std::optional<Clock> clock;
    bool clock_started = false;
    std::optional<Color> takeback_request;
    std::optional<Color> rematch_offer;
    int last_offer_ply[COLOR_NB] = {-1'000'000, -1'000'000};  // plies of each side's last draw offer
    std::uint64_t robot_request = 0;                          // the outstanding robot request (0: none)
    Millis turn_began = 0;                                    // monotonic: the last move (or creation)
    Millis absent_since[COLOR_NB] = {0, 0};                   // monotonic: since when no connection holds the seat
    // Who created it (per-client caps): the address group, then " account:ID" for a
    // signed-in creator (issue 25), each with "/correspondence" for those (Hub::open_keys).
    std::string client;
    bool counted_open = false;  // counted in the creator's open games
    bool robot_instant = false;  // the creator asked the robot to move at once (not stored: a restart forgets it)
    int preset_plies = 0;  // moves of the PGN the game started from (nobody's to take back)
    std::map<const Subscriber*, std::pair<std::weak_ptr<Subscriber>, Seat>> subscribers;
    std::set<const Subscriber*> away;  // seat connections whose client says its tab is hidden (P22)
    Millis abandonment_ms = 300'000;   // the hub's rule, shown in the presence (server/presence.h)
    std::optional<AdjournState> adjourned;  // R18: sealed (and later resumed); adjournment.h
    // FIDE 12.9: the arbiter's reason when an admin ended the game (hub_arbiter.cpp);
    // kept by the admin store, read back through HubEnv::arbiter_reason.
    std::string arbiter_reason;

    // R18: a move is sealed and the game waits for its resumption (clocks stopped).
    bool waiting_for_resumption() const { return adjourned && adjourned->waiting() && !game.is_over(); }
    bool correspondence() const { return clock && clock->time_control().correspondence(); }

    const std::string& id() const { return info.id; }
    bool robot(Color c) const { return (c == WHITE ? info.white_kind : info.black_kind) == "robot"; }
    bool robot_game() const { return robot(WHITE) || robot(BLACK); }
    bool hotseat() const { return !robot_game() && info.white_token == info.black_token; }
    bool invite() const { return !robot_game() && !hotseat(); }
    // R14 on an event's or a simul's board: the side that does not start loses; such a
    // game is never aborted (StoredGame::first_move). An invitation ("invite") is not one.
    bool forfeits_first_move() const { return !info.first_move.empty() && info.first_move != "invite"; }
    // An invitation whose friend has not come yet (issue 28): both seats have not been
    // connected at once since it was made (or loaded), and nobody has moved.
    bool awaiting_friend() const { return info.first_move == "invite" && !both_arrived && game.ply() == 0; }
    bool both_arrived = false;
    bool may_move(Seat seat) const;
    // The seat a token holds. A robot's side is never held by any token.
    Seat seat_of(std::string_view token) const;
    bool connected(Color c) const;  // a live connection holds c's seat

    // The one way a move enters a game: the clock is pressed first (a move after the
    // flag fell does not count), legality is checked once (by Game), and the record of
    // the ply is written beside it. On an error nothing changed except a fallen flag.
    Answer<bool> play(Color mover, Move m, std::optional<DrawClaim> claim, Millis lag_ms, std::int64_t wall_ms,
                      Millis now_ms);
    // Takes back the last `plies` plies (game, records and clock together).
    Answer<bool> take_back(int plies);
    // Ends the game on the running clock's flag if it fell; true if it did.
    bool check_flag();

    // The game row as stored now (without moves).
    StoredGame row(std::int64_t wall_ms) const;
    StoredMove stored_move(int ply) const;  // ply counts from 1

    // Issue 28 (14): what the room holds on the heap and in itself, in bytes: the
    // positions and moves of the game, the ply records, the row's strings (each
    // allocation with the allocator's own few bytes). The hub bounds its cache of
    // finished rooms by the sum of these.
    size_t approx_bytes() const;
};

// Rebuilds a room from its stored row and moves; an error says what is wrong with it.
Result<std::unique_ptr<Room>> room_from_stored(StoredGame g, const Clock::TimeSource& monotonic, std::int64_t wall_now);

}  // namespace outpost::server
