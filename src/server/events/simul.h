// Outpost — simultaneous exhibitions (SPEC P18; docs/protocol.md, "Simuls"): a host
// plays many boards at once. The host (a signed-in account: a simul outlives a
// browser tab and is listed under its host's name, so anonymous hosts are not
// allowed) sets the name, the host's colour (white, black, or alternate by board),
// one time control for every board, extra time for the host's clock on each board
// (seconds per player, as lichess gives it), the most boards, and whether players
// join directly or apply and wait to be accepted. Players (signed-in, or anonymous
// with a name and the secret key the join answers) join before the start; the host
// may add robots to fill boards. At the start the hub makes one game per player,
// the host's seat in every one of them the host's. Each board's result comes from
// the hub's report of its games (HubEnv::on_live_game); when every board is over
// the simul is finished, with the host's score (+W −L =D).
//
// Live updates: a WebSocket at /api/v1/simul?id=ID[&key=KEY] gets the simul as its
// holder sees it after every change (join, accept, start, a board's result). The
// moves themselves go over the games' own sockets.
//
// Locking: one mutex; the service never calls the hub while holding it (the hub
// calls on_live_game under its own lock), so there is no lock cycle. The start saves
// the boards, each with its game's id, as "starting" before the hub makes any game;
// load() finishes a start that a stop cut short (issue 13). A simul is
// written to its store (stores/simul_store.h) after every change made by a request at
// once, and after a board's result (reported under the hub's lock) at the next
// tick(); at load the boards still playing ask the hub for results missed.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "chess/result.h"
#include "server/accounts/accounts.h"
#include "server/play/hub.h"  // LiveGame, NewGameRequest
#include "server/common/http.h"
#include "server/stores/simul_store.h"

namespace outpost::server {

struct SimulEnv {
    std::function<std::int64_t()> wall_ms;
    std::function<std::string(int length)> random_token;
    // Makes a game (Hub::create_game with a NewGameRequest): the host is `host`, the
    // opponent's account `opponent_account` (0: anonymous, or a robot).
    std::function<Answer<CreatedGame>(const NewGameRequest&, const Account& host, std::int64_t opponent_account)> create_game;
    // The PGN result of a game that is over ("*" when aborted), none while it goes on
    // or when unknown: at load, for results reported while the simul was not saved.
    std::function<std::optional<std::string>(const std::string& game_id)> game_result;
    std::vector<std::string> allowed_origins;  // as --allow-origin (common/guards.h origin_allowed)
    // Bounds (docs/protocol.md "Simuls").
    int max_boards = 50;             // the most a host may ask for
    int max_open_per_host = 3;       // simuls not finished per host
    std::size_t max_open = 500;      // simuls not finished in all
    int max_applicants = 100;        // entries (accepted or not) per simul
    std::size_t max_finished_in_memory = 200;
    // Issue 25: an open simul without a player (robots are not players) this long after
    // its creation is cancelled, and any open simul this long after it.
    std::int64_t empty_expiry_ms = 3'600'000;
    std::int64_t open_expiry_ms = 24 * 3'600'000;
};

class SimulService {
public:
    SimulService(SimulEnv env, SimulStore* store);

    // Reads the simuls back from the store (after the hub resumed its games).
    Result<int> load();

    // Whether this service answers the request's path (/api/v1/simuls…).
    static bool handles(const HttpRequest& req);
    HttpResponse handle(const HttpRequest& req);
    // SPEC D9, the admin page (simul_admin.cpp): a simul that has not started is
    // cancelled, whoever hosts it. Answers the status before and after.
    Answer<std::pair<std::string, std::string>> close(const std::string& id);

    // The WebSocket of one simul (/api/v1/simul?id=ID&key=KEY): sent the simul at once
    // and after every change; an error when there is no such simul.
    void watch(const std::shared_ptr<Subscriber>& who, const std::string& id, const std::string& key,
               const Account* account);
    void unwatch(const Subscriber* who);
    void handle_message(Subscriber& from, std::string_view text);  // only pings

    // From the hub, after every change of a game (under the hub's lock).
    void on_live_game(const LiveGame& g);
    // Writes the simuls changed by game results (every half second or so).
    void tick();

    // For tests.
    std::size_t simuls_in_memory() const;

private:
    struct Player {
        std::string id;     // "p1", "p2", … in the order of joining (public)
        std::string name;
        std::int64_t account = 0;  // 0: anonymous or a robot
        std::string key;           // the player's secret (anonymous players show it to be known)
        int robot_level = 0;       // 1-10: a robot the host added
        bool accepted = false;
        std::int64_t joined_ms = 0;
    };
    struct Board {
        std::string player;        // Player::id
        std::string game;          // "" when the game could not be made
        bool host_white = true;
        std::string host_token, player_token;
        int ply = 0;
        bool over = false;
        std::string result = "*";
    };
    struct Simul {
        std::string id, name, host_name, host_color, time_control;
        std::int64_t host_account = 0;
        int host_extra = 0;  // seconds per player added to the host's clock on every board
        int max_boards = 0;
        bool join_directly = true;
        std::string status = "open";  // open | starting | started | finished | cancelled
        std::int64_t created_ms = 0, started_ms = 0, finished_ms = 0, updated_ms = 0;
        std::vector<Player> players;
        std::vector<Board> boards;
        int next_player = 0;
    };
    struct Watcher {
        std::weak_ptr<Subscriber> sub;
        std::string simul, key;
        std::int64_t account = 0;
    };
    struct Viewer {
        std::int64_t account = 0;
        std::string key;
    };

    HttpResponse create(const HttpRequest& req);
    HttpResponse list();
    HttpResponse get(const std::string& id, const Viewer& v);
    HttpResponse join(const HttpRequest& req, const std::string& id);
    HttpResponse accept(const HttpRequest& req, const std::string& id);
    HttpResponse withdraw(const HttpRequest& req, const std::string& id);
    HttpResponse start(const HttpRequest& req, const std::string& id);
    HttpResponse cancel(const HttpRequest& req, const std::string& id);

    Simul* find(const std::string& id);  // in memory, or read back from the store
    std::string view(const Simul& s, const Viewer& v) const;
    int accepted(const Simul& s) const;
    void changed(Simul& s);  // after a change made by a request: saved, sent to the watchers
    void send_to_watchers(const Simul& s);
    void save(const Simul& s);
    void finish_if_done(Simul& s);
    void plan_boards(Simul& s);             // under the lock
    void make_games(const std::string& id);  // not under it (it calls the hub)
    void evict_finished();
    std::string to_stored(const Simul& s) const;
    static std::optional<Simul> from_stored(const std::string& body);

    SimulEnv env_;
    SimulStore* store_;
    mutable std::mutex mutex_;
    std::map<std::string, Simul> simuls_;
    std::map<std::string, std::pair<std::string, size_t>> by_game_;  // game id -> simul id, board index
    std::map<const Subscriber*, Watcher> watchers_;
    std::set<std::string> dirty_;  // changed by game results, not yet saved
};

}  // namespace outpost::server
