// Outpost — the game hub: rooms, seats, spectators, clocks and the robot (SPEC P2,
// P9-P13, C5, D3, D4). Protocol: docs/protocol.md.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The hub is the authority over every live game. It knows no sockets and no timers:
// the network layer hands it requests, and the bus (server/bus/bus.h) the joins,
// messages (typed by protocol.h) and leaves of connections to its games; the
// environment (HubEnv) gives it the time, a way to be called back later, and a robot
// to ask for moves. That keeps every rule of play testable with an exact fake clock.
// The games themselves are Rooms (room.h); what the hub adds is who may do what,
// the limits, and the way of every change: room -> storage writer -> (durable) ->
// messages. All public functions are thread-safe (one mutex; nothing slow happens
// under it: the robot thinks on its own threads, the writer commits on its own).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <list>
#include <unordered_map>
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
#include "server/accounts/accounts.h"
#include "server/bus/bus.h"
#include "server/common/protocol.h"
#include "server/common/shared_limits.h"
#include "server/play/dead_watch.h"
#include "server/play/room.h"
#include "server/play/shared_open_cap.h"
#include "server/stores/game_store.h"
#include "server/stores/writer.h"

namespace outpost::server {

// What the hub asks the robot pool (robot.h): the position of one game, and the time.
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
    bool instant = false;        // the player asked for moves at once: no human time
    // Issue 25 (fair shares): whose game it is: "account:ID" for a signed-in player, else
    // the creator's address group (an IPv4 address, an IPv6 /64); "" counts as the game
    // alone. The pool serves owners in turn, not games (robot.h).
    std::string owner;
};

// A game's moves from its start, for the analysis service (analysis_service.h).
struct GameMoves {
    Position start;
    std::vector<Move> moves;
    bool over = false;
};

// A game as the lobby lists it (players/lobby.h), reported after every change.
struct LiveGame {
    std::string id, white, black, time_control, variant;
    bool rated = false;
    int ply = 0;
    bool over = false;
    bool listed = true;  // false: not for the list of games to watch (hotseat, at one screen)
    Outcome outcome;     // how it ended, once over (an event's result, events.h)
    std::string result = "*";  // the PGN result once over ("*": playing, or aborted); for simuls (simul.h)
    std::string fen, last_move;  // the position now and the move that made it (UCI; "" for none): mini boards
};

struct HubEnv {
    std::function<Millis()> monotonic_ms;                              // for clocks
    std::function<std::int64_t()> wall_ms;                             // stored timestamps
    std::function<void(const std::string& game_id, Millis delay_ms)> call_back_in;  // then on_timer(game_id)
    std::function<void(RobotRequest)> ask_robot;                       // then on_robot_move(...)
    std::function<void(const std::string& game_id)> cancel_robot;      // drop queued and running requests of a game
    // R7 off the move path (dead_watch.h): the positions of a move the quick test after
    // it did not prove dead; then on_dead_position(...) if one is. Unset: no deeper test.
    std::function<void(DeadPositionRequest)> check_dead_position;
    std::function<void(const std::string& game_id)> cancel_dead_position;
    std::function<std::string(int length)> random_token;               // unguessable, [A-Za-z0-9]
    // Issue 26: the open-games cap counted by every node too (null: this node's count alone).
    SharedLimits* shared_limits = nullptr;
    // Issue 26: runs a job that may wait (for Redis) off the network threads, as the
    // request pool does; false when it cannot be queued now. Unset: a rematch is
    // checked against this node's count of open games alone.
    std::function<bool(std::function<void()>)> run_blocking;
    // The levels offered to players, with what is known of their strength.
    std::function<std::string()> levels_json;
    std::function<int(int level)> level_elo;                           // a level's approximate Elo
    std::function<void(const LiveGame&)> on_live_game;                 // the lobby's list (P22); under the hub's lock
    // Limits (docs/protocol.md, "Limits"). An invite game without both first moves is
    // aborted after first_move_timeout_ms (R14), any other after unstarted_abort_ms.
    // On an event's or a simul's board (StoredGame::first_move) the side that has not
    // made its first move in that time loses by forfeit (a simul's host: unstarted_abort_ms).
    Millis first_move_timeout_ms = 60'000;
    Millis unstarted_abort_ms = 3'600'000;
    // Issue 28: an invitation (a game made by `POST /api/v1/games` with opponent
    // "invite") waits this long for the friend to open the link; the first-move rule
    // (R14, first_move_timeout_ms) starts only once both players are there.
    Millis invite_wait_ms = 24 * 3'600'000;
    // A side to move that has had no connection to the game for this long (and has
    // not moved for as long) has abandoned it: the opponent may claim (docs).
    Millis abandonment_ms = 300'000;
    Millis max_lag_credit_ms = 300;
    int max_open_games_per_client = 20;     // unfinished games one client may have created
    // C3: correspondence games are counted apart, with a cap of their own (a player
    // has many at once).
    int max_open_correspondence_per_client = 200;
    // R18: how often an adjourned game looks for a resumption time set by the arbiter.
    Millis arbiter_poll_ms = 5'000;
    size_t max_finished_in_memory = 1000;   // finished games kept in memory (LRU beyond)
    // Issue 28 (14): ... and their bytes (Room::approx_bytes), least recently used out
    // first beyond either bound (`outpost serve --finished-cache-mib`).
    size_t max_finished_bytes = size_t(32) << 20;
    int draw_offer_interval_plies = 20;     // a side offers a draw at most once per this many plies
    // Issue 25 (rating farming): of the rated games between the same two accounts that
    // end within 24 hours, only this many change ratings; later ones are played as
    // made (rated) but change nothing (0: no limit). Counted from the stored ratings'
    // history (RatingStore::rated_games_between), so a restart does not reset it.
    int max_rated_games_per_pair_per_day = 3;
    // Writes go through a writer thread with group commit; tests may write inline.
    bool inline_writes = false;
    // The writer's commit window (stores/writer.h): a batch begins no sooner than this
    // after the one before (0: at once).
    std::chrono::microseconds commit_window{0};
    // The arbiter's reason for a game an admin ended (hub_arbiter.cpp), read when the
    // game is loaded from storage; unset: none is known.
    std::function<std::string(const std::string& game_id)> arbiter_reason;
    // Issue 26: the name of this node, in every state as "node".
    std::string node = "local";
    // Issue 26, several nodes: called (under the hub's lock) before this hub runs a game
    // it does not hold in memory: a new one (stored_fence 0) or one read from storage
    // (the highest fencing token that wrote it). The fencing token of this node's lease
    // on it, or none when another node runs it (the hub then answers "unavailable",
    // and serves reads from storage). Unset: one node, every game here (token 0).
    std::function<std::optional<std::int64_t>(const std::string& game_id, std::int64_t stored_fence)> take_game;
    // ... a game taken that is over (its end durable, or read finished from storage):
    // its lease need not be renewed as a live one's ...
    std::function<void(const std::string& game_id)> game_ended;
    // ... and a game taken that left memory (a finished one evicted): its lease goes.
    std::function<void(const std::string& game_id)> game_forgotten;
    // ... and the node that runs a game another node runs ("": none), for the state
    // read from storage here.
    std::function<std::string(const std::string& game_id)> node_of;
};

// A game being played as the admin page lists it (server/admin): with the number of
// connections that follow it.
struct LiveGameView {
    LiveGame game;
    int connections = 0;
};

class Hub final : public BusHandler {
public:
    Hub(HubEnv env, Storage* storage);
    ~Hub();

    // Loads every live game from storage and restarts its clocks and robot.
    Result<int> resume_from_storage();

    // HTTP-level operations.
    // `client` names who asks (the network layer's key for the peer), for per-client caps.
    // `account`: the signed-in creator (P21), whose seat then records the account and
    // carries its name; none for an anonymous creator.
    // `opponent` (the lobby, P22): the other seat's account, which it then carries with
    // its name (a rated lobby game has both accounts from its start).
    // `invitation`: made from the new-game panel (the router), so an invite waits for
    // the friend (HubEnv::invite_wait_ms); the lobby's games are played at once.
    Answer<CreatedGame> create_game(std::string_view json_body, std::string_view client = {},
                                    const Account* account = nullptr, const Account* opponent = nullptr,
                                    bool invitation = false);
    // For a service that seats two known parties (simuls, simul.h): the request already
    // read (its in-process fields too), and the opponent's account (0: anonymous, robot).
    // With spec.game_id set, a game made before with that id and these seats is answered
    // again (its seats), not made twice (issue 13: a start cut short by a stop).
    Answer<CreatedGame> create_game(NewGameRequest spec, std::string_view client, const Account* account,
                                    std::int64_t opponent_account);
    Answer<std::string> state_json(const std::string& id);             // a spectator's view
    Answer<std::string> pgn(const std::string& id);
    Answer<std::string> lookup(std::string_view json_body);
    Answer<GameMoves> game_moves(const std::string& id);  // anyone who can read the game
    // P23: an account's rating in a class (club::rating_class_name) as the hub last
    // computed or stored it; none when it has no rated game in the class (issue 13:
    // an event's starting ranks).
    Result<std::optional<StoredRating>> rating_of(std::int64_t account, const std::string& rating_class);
    // The game as on_live_game reports it (its outcome once over), read from storage
    // when it is not in memory: for the events and simuls after a restart (issue 13).
    Answer<LiveGame> game_report(const std::string& id);
    std::string levels_json() const;
    // Issue 13: a game of an event (events.h) between two accounts, each holding its
    // seat from the start; no per-client cap (the organiser starts the round).
    // `casual`: draws at threefold/fifty at once (an unrated event). `game_id`: as
    // NewGameRequest::game_id (the board's id, stored before; "" for a random one).
    Answer<CreatedGame> create_event_game(const std::string& time_control, bool casual, const Account& white,
                                          const Account& black, const std::string& game_id = "");

    // WebSocket-level operations. connect() sends the first state to the subscriber.
    // `account`: the connection's signed-in account (P21). A signed-in player who
    // connects with the token of a seat that has no account yet takes it (take_seat).
    // Issue 25: a seat that is an account's is that account's alone: anyone else with
    // its token is a spectator (told so with a not_your_seat error after the state).
    Answer<Seat> connect(const std::string& id, std::string_view token, const std::shared_ptr<Subscriber>& who,
                         const Account* account = nullptr);
    // P21: the seat `token` holds in game `id` becomes the account's (an anonymous game
    // kept after signing up or in). Answers {"v":1,"game":ID,"you":SEAT}; errors:
    // not_found, not_your_seat (no seat of this game, or the seat is another
    // account's), game_over, not_allowed (a hotseat game, or the other seat is already
    // this account's).
    Answer<std::string> claim_seat(const std::string& id, std::string_view token, const Account& account);
    void disconnect(const std::string& id, const Subscriber* who);
    // A message from a connection; errors go back to that connection only.
    void handle_message(const std::string& id, Seat seat, std::string_view text, Subscriber& from, Millis lag_ms = 0);
    void handle_message(const std::string& id, Seat seat, const ClientMessage& msg, Subscriber& from, Millis lag_ms = 0);

    // The hub on the bus (server/bus/bus.h): the owner of the "game:ID" addresses. A join
    // is connect() (the credentials' token is the seat's), a message handle_message()
    // (the message as the bus read it) with the seat the bus kept from the join, a
    // leave disconnect().
    Answer<Seat> on_join(const Address& at, const std::shared_ptr<Subscriber>& who, const Credentials& c) override;
    void on_message(const ClientIn& in) override;
    void on_leave(const Address& at, const Subscriber* who) override;

    // Environment callbacks.
    void on_timer(const std::string& id);
    void on_robot_move(const std::string& id, std::uint64_t request_id, Move move);
    // The deeper test proved the position at `ply` dead (its repetition key `key`):
    // the game ended there (FIDE 5.2.2), drawn; a move made since is taken back
    // (hub_dead_position.cpp, docs/laws.md).
    void on_dead_position(const std::string& id, int ply, Key key);

    // The admin page (hub_arbiter.cpp). FIDE 12.9: the arbiter ends a game with a
    // result ("1-0", "0-1", "1/2-1/2") and a reason, which the players are shown and the
    // PGN keeps; errors: not_found, game_over, bad_request. Answers the game's state.
    Answer<std::string> arbiter_decision(const std::string& id, std::string_view result, const std::string& reason);
    // The games being played (at most `max`, most moves first), for the admin page.
    std::vector<LiveGameView> live_game_views(size_t max) const;

    // Issue 26: this node no longer runs game `id` (its lease was lost, or handed over
    // on SIGTERM): the room leaves memory (its clocks and robot stop) and nothing more
    // of it is written from here. The connections that followed it, to be joined again
    // wherever it runs now.
    std::vector<std::shared_ptr<Subscriber>> drop_game(const std::string& id);
    // Issue 26, games follow their players: game `id` moves to the node its players'
    // connections are on. Its clocks as they read now are written (the side to move is
    // charged the time it used here, not the hand-over: docs/laws.md), then it is
    // dropped as above; `durable` runs once that write and every one before it is
    // durable. None (and `durable` never runs): no live game `id` in memory.
    std::optional<std::vector<std::shared_ptr<Subscriber>>> hand_over_game(const std::string& id,
                                                                          std::function<void()> durable);
    // The games in memory that are not over (a SIGTERM hand-over drops them all).
    std::vector<std::string> live_game_ids() const;
    // Issue 26: runs game `id` here from now on (read from the database, its lease
    // taken), unless it is in memory already or another node runs it.
    void take_over(const std::string& id);

    // For tests and the load benchmark.
    size_t live_games() const;
    size_t rooms_in_memory() const;
    size_t finished_rooms_in_memory() const;
    size_t finished_bytes_in_memory() const;  // the sum the cache is bounded by
    // Waits until every write handed to the storage writer is durable and its
    // messages delivered.
    void flush();
    const StorageWriter& writer() const { return writer_; }

private:
    // What a handled message changed: nothing to tell, the whole state, or one move.
    enum class Change : std::uint8_t { NONE, STATE, MOVE };
    using Handled = Answer<Change>;
    struct Context {
        Room& room;
        Seat seat;
        Color me;  // the colour acting: the seat's, or in a hotseat game the side to move
        Millis lag_ms;
        // Issue 26 (hub_rematch.cpp): a rematch's place in the shared open-games count,
        // held; or to be asked for first, off the network thread; and the game it made.
        SharedOpenCap* reserved = nullptr;
        bool reserve_first = false;
        std::string made;
    };
    void handle_message(const std::string& id, Seat seat, const ClientMessage& msg, Subscriber& from, Millis lag_ms,
                        SharedOpenCap* reserved, std::string* made);
    // The rematch a connection asked for, once its place is held (on run_blocking).
    void rematch_with_place(const std::string& id, Seat seat, const in::Rematch& m, std::weak_ptr<Subscriber> who,
                            const std::string& client);
    std::set<std::string> rematch_asking_;  // games whose rematch's place is being asked for
    // A place among the open games of `client` (Room::client) in the shared count; may
    // wait for Redis: never on a network thread, never under the lock.
    std::unique_ptr<SharedOpenCap> reserve_open_place(const std::string& client);
    Handled handle(Context& c, const in::Move& m);
    Handled handle(Context& c, const in::Claim& m);
    Handled handle(Context& c, const in::Resign& m);
    Handled handle(Context& c, const in::Abort& m);
    Handled handle(Context& c, const in::Draw& m);
    Handled handle(Context& c, const in::Takeback& m);
    Handled handle(Context& c, const in::GiveTime& m);
    Handled handle(Context& c, const in::Rematch& m);
    Handled handle(Context&, const in::Ping&) { return Change::NONE; }  // answered before
    Handled handle(Context&, const in::Sync&) { return Change::NONE; }
    Handled handle(Context&, const in::Presence&) { return Change::NONE; }  // answered before
    void broadcast_presence(Room& r);  // P22: a seat's connection opened, closed or went away
    void report_live(const Room& r) const;  // to env_.on_live_game
    LiveGame live_report(const Room& r) const;
    Handled handle(Context& c, const in::Seal& m);    // R18 (hub_adjournment.cpp)
    Handled handle(Context& c, const in::Resume& m);
    Handled handle(Context& c, const in::Name& m);  // P21
    // R18: at the agreed time the sealed move is played (or the sealer loses); true
    // if the game changed. Also reads the arbiter's time (`outpost game resume`).
    bool check_resumption(Room& r);
    Answer<Move> read_move(const Room& r, const in::Move& m) const;

    Answer<Room*> find(const std::string& id);
    // For reading: find(), or when another node runs the game (issue 26), the game as
    // storage has it, held in `scratch` (hub_ownership.cpp).
    Answer<Room*> find_to_read(const std::string& id, std::unique_ptr<Room>& scratch);
    // A room read from storage that this hub may run: env_.take_game asked (issue 26).
    // A live game taken over from another node restarts its clock from the last durable
    // reading (docs/laws.md, "A node fails"). Errors: unavailable (another node runs it).
    Answer<std::unique_ptr<Room>> adopt(StoredGame stored);
    void touch(Room& r);  // LRU of finished rooms
    void evict_finished();
    // After a change: store it, and once it is durable send the messages (the move
    // or the state) to everyone; re-arm the timer; ask the robot if it is to move.
    void commit(Room& r, Change change, int ply_before);
    GameWrite write_for(Room& r, int ply_before) const;
    void end_game_tasks(Room& r);  // the robot's request is obsolete when a game ends
    // P23: a rated game that has just ended gets both ratings' changes (accounts/ratings.h),
    // stored with its row by the next write; once per game.
    void rate(Room& r);
    Result<StoredRating> current_rating(std::int64_t account, const std::string& rating_class);
    Millis credited_lag(Millis measured, std::optional<int> claimed) const;
    // Gives the seat to the account if the rules allow; an error says why not.
    Answer<bool> take_seat(Room& r, Seat seat, const Account& account);
    bool check_timeouts(Room& r);   // flag fall, first-move and unstarted aborts
    // R14: how long the side to move has for its first move (StoredGame::first_move).
    Millis first_move_limit(const Room& r) const;
    void maybe_ask_robot(Room& r);
    void ask_dead_position(Room& r, int ply_before);  // hub_dead_position.cpp
    void schedule(Room& r);
    // Issue 25: a game's start position, with a PGN's moves parsed and replayed, made
    // before the hub's lock is taken (a long PGN never holds the other games).
    struct Start {
        Position position = Position::startpos();
        int chess960 = -1;
        std::int64_t wall_ms = 0;
        std::string id;                  // a new game's id, free in storage ("": choose under the lock)
        std::unique_ptr<Room> replayed;  // the PGN's moves played (none: no PGN)
    };
    Answer<Start> read_start(const NewGameRequest& spec) const;
    // `start`: as read_start made it (none: made here, under the lock).
    Answer<CreatedGame> create_room(const NewGameRequest& spec, const std::string& rematch_of, std::string client,
                                    StorageWriter::Done on_durable, std::int64_t creator_account = 0,
                                    std::int64_t opponent_account = 0, Start* start = nullptr);
    // Issue 13: the game a service's chosen id names, if made before (none: not yet);
    // an error when the id is another game's.
    Answer<std::optional<CreatedGame>> made_before(const NewGameRequest& spec, std::int64_t creator_account,
                                                   std::int64_t opponent_account);
    int open_games_of(const std::string& key) const;
    // The keys a game counts under, from Room::client: its creator's address group and,
    // signed in, "account:ID" (issue 25), each with "/correspondence" for those games.
    static std::vector<std::string> open_keys(const std::string& client);
    // The cap on a client's unfinished games (issue 25: every way a game is made, a
    // rematch too; per address and per account); `client` as Room::client ("": not counted).
    std::optional<ProtocolError> over_open_cap(const std::string& client) const;
    static ProtocolError open_cap_refusal(const std::string& key, int cap);
    int open_cap_of(const std::string& key) const;
    void count_open(Room& r);
    void uncount_open(Room& r);
    std::string robot_name(int level, int elo) const;
    void fill_robot_elo(Room& r) const;

    HubEnv env_;
    Storage* storage_;
    mutable std::mutex mutex_;
    // Found by id with every message, timer and commit: hashed, not a tree.
    std::unordered_map<std::string, std::unique_ptr<Room>> rooms_;
    // Finished rooms in memory with their bytes (Room::approx_bytes as last touched),
    // least recently used first; their sum.
    std::list<std::pair<std::string, size_t>> finished_lru_;
    std::unordered_map<std::string, std::list<std::pair<std::string, size_t>>::iterator> lru_pos_;
    size_t finished_bytes_ = 0;
    void forget_finished(const std::string& id);
    // drop_game under the hub's lock: the room out of memory, its followers.
    std::vector<std::shared_ptr<Subscriber>> drop_locked(const std::string& id);
    void after_drop(const std::string& id);  // without the lock: its robot and dead-position watch cancelled
    std::unordered_map<std::string, int> open_games_;  // per key of open_keys
    std::uint64_t next_robot_request_ = 0;
    // When the player's move being handled came in (for outpost_move_latency_seconds,
    // observe/metrics.h): set by handle_message around its commit, under mutex_.
    std::optional<std::chrono::steady_clock::time_point> move_received_;
    // Games whose last write failed: reloaded from storage before their next use.
    std::mutex failed_mutex_;
    std::set<std::string> failed_;
    std::set<std::int64_t> stale_ratings_;  // accounts whose rating write failed: read again
    // P23: the ratings as the hub last computed or read them (it is their only writer,
    // and storage may be a batch behind), per (account, class).
    std::map<std::pair<std::int64_t, std::string>, StoredRating> ratings_;
    // Issue 25: when each pair of accounts (the smaller id first) last had rated games
    // change ratings, within the last 24 hours (wall ms; HubEnv::max_rated_games_per_pair_per_day).
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::int64_t>> rated_pairs_;
    bool pair_rated_too_often(std::int64_t a, std::int64_t b);
    // Last: made after and gone before everything its completions use.
    StorageWriter writer_;
};

}  // namespace outpost::server
