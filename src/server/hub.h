// Outpost — the game hub: rooms, seats, spectators, clocks and the robot (SPEC P2,
// P9-P13, C5, D3, D4). Protocol: docs/protocol.md.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The hub is the authority over every live game. It knows no sockets and no timers:
// the network layer hands it requests and messages, and the environment (HubEnv)
// gives it the time, a way to be called back later, and a robot to ask for moves.
// That keeps every rule of play testable with an exact fake clock. All public
// functions are thread-safe (one mutex; nothing slow happens under it: the robot
// thinks on its own threads and answers through on_robot_move).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "chess/clock.h"
#include "chess/game.h"
#include "chess/result.h"
#include "server/storage.h"

namespace outpost::server {

enum class Seat : std::uint8_t { WHITE_SEAT, BLACK_SEAT, BOTH, SPECTATOR };

// A protocol error: a stable code (docs/protocol.md) and words for people.
struct ProtocolError {
    std::string code;
    std::string message;
    int http_status = 400;
};
template <class T>
using Answer = std::variant<T, ProtocolError>;

std::string error_json(const ProtocolError& e);

// Someone following a game: a player's or a spectator's connection.
class Subscriber {
public:
    virtual ~Subscriber() = default;
    // Called under the hub's lock: must not block and must not call the hub.
    virtual void deliver(std::shared_ptr<const std::string> message) = 0;
};

struct RobotRequest {
    std::string game_id;
    std::uint64_t request_id = 0;  // unique per request; the answer carries it back, and the
                                   // hub takes an answer only for its room's outstanding request
    Millis asked_at_ms = 0;        // monotonic time of asking: time spent queued counts against the budget
    int ply = 0;
    Position start;
    std::vector<Move> moves;
    int level = 0;               // 1-10, or 0 with elo set
    int elo = 0;
    Millis my_time = -1, their_time = -1, my_inc = 0, their_inc = 0;  // -1: no clock
};

struct HubEnv {
    std::function<Millis()> monotonic_ms;                              // for clocks
    std::function<std::int64_t()> wall_ms;                             // stored timestamps
    std::function<void(const std::string& game_id, Millis delay_ms)> call_back_in;  // then on_timer(game_id)
    std::function<void(RobotRequest)> ask_robot;                       // then on_robot_move(...)
    std::function<void(const std::string& game_id)> cancel_robot;      // drop queued and running requests of a game
    std::function<std::string(int length)> random_token;               // unguessable, [A-Za-z0-9]
    // The levels offered to players, with what is known of their strength.
    std::function<std::string()> levels_json;
    std::function<int(int level)> level_elo;                           // a level's approximate Elo
    // Limits: games started without a first move are aborted after this (R14).
    Millis first_move_timeout_ms = 60'000;
    Millis max_lag_credit_ms = 300;
};

struct CreatedGame {
    std::string id;
    std::optional<std::string> white_token, black_token;
    Seat you = Seat::WHITE_SEAT;
    std::string json() const;
};

class Hub {
public:
    Hub(HubEnv env, Storage* storage);
    ~Hub();

    // Loads every live game from storage and restarts its clocks and robot.
    Result<int> resume_from_storage();

    // HTTP-level operations.
    // `client` names who asks (the network layer's key for the peer), for per-client caps.
    Answer<CreatedGame> create_game(std::string_view json_body, std::string_view client = {});
    Answer<std::string> state_json(const std::string& id);             // a spectator's view
    Answer<std::string> pgn(const std::string& id);
    Answer<std::string> lookup(std::string_view json_body);
    std::string levels_json() const;

    // WebSocket-level operations. connect() sends the first state to the subscriber.
    Answer<Seat> connect(const std::string& id, std::string_view token, const std::shared_ptr<Subscriber>& who);
    void disconnect(const std::string& id, const Subscriber* who);
    // A message from a connection; errors go back to that connection only.
    void handle_message(const std::string& id, Seat seat, std::string_view text, Subscriber& from, Millis lag_ms = 0);

    // Environment callbacks.
    void on_timer(const std::string& id);
    void on_robot_move(const std::string& id, std::uint64_t request_id, Move move);

    // For tests and the load benchmark.
    size_t live_games() const;

private:
    struct Room;
    Room* find(const std::string& id);
    Answer<bool> act(Room& r, Seat seat, std::string_view type, const struct MessageFields& m, Millis lag_ms);
    Answer<bool> apply_move(Room& r, Color mover, Move m, Millis lag_ms, std::optional<DrawClaim> claim);
    void after_change(Room& r, bool one_move = false);  // one_move: a `move` message will do
    void check_flags(Room& r);
    void maybe_ask_robot(Room& r);
    void schedule(Room& r);
    void broadcast(Room& r);
    void broadcast_move(Room& r);
    void deliver_per_seat(Room& r, const std::function<std::string(Seat)>& make);
    std::string state_for(const Room& r, Seat seat) const;
    Result<bool> persist(Room& r);
    Answer<CreatedGame> create_room(const struct NewGame& spec, const std::string& rematch_of);
    std::unique_ptr<Room> room_from_stored(StoredGame g);

    HubEnv env_;
    Storage* storage_;
    mutable std::mutex mutex_;
    std::map<std::string, std::unique_ptr<Room>> rooms_;
    std::uint64_t next_robot_request_ = 0;
};

}  // namespace outpost::server
