// Outpost — `outpost serve`: HTTP and WebSocket on one port (SPEC D1).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <algorithm>
#include <vector>

#include "server/accounts/accounts.h"
#include "server/bus/cluster_bus.h"
#include "server/common/guards.h"
#include "server/common/shared_limits.h"
#include "server/stores/store_openers.h"

namespace outpost::server {

struct ServerConfig {
    std::string host = "127.0.0.1";
    unsigned short port = 8080;
    std::string db = "outpost.db";
    // The stores, as the executable chose them (--db FILE or --database URL); a store
    // without an opener is SQLite's on `db`.
    StoreOpeners stores;
    std::string web_dir;  // "": the web UI compiled into the executable (edge/static_files.h)
    // Issue 25: one network thread a core. They only parse, route and write: the API's
    // routes run on the request pool, the lobby's and simuls' messages on a thread of
    // their own, so a heavy request waits for a worker, never the other connections.
    int io_threads = int(std::max(1u, std::thread::hardware_concurrency()));
    int robot_threads = 0;  // 0: one per core (and one more for the quick levels)
    bool sync_full = false;
    // Milliseconds a database transaction of moves begins at the soonest after the one
    // before, to carry more moves (stores/writer.h; `outpost serve --commit-window`).
    int commit_window_ms = 0;
    int max_open_games = 20;  // unfinished games per client address (docs/protocol.md, Limits); 0: no cap
    int finished_cache_mib = 32;  // finished games kept in memory, in MiB (issue 28, item 14)
    int invite_wait_minutes = 24 * 60;  // how long an invitation waits for the friend (issue 28)
    // Origins besides the server's own whose pages may open WebSockets ("*": any).
    std::vector<std::string> allowed_origins;
    // Names besides IP literals and localhost that requests may carry in Host (issue
    // 25: DNS rebinding; common/guards.h host_allowed).
    std::vector<std::string> host_names;
    EdgeLimits limits;
    // Analysis of finished games (docs/protocol.md, "Analysis"): nodes per position,
    // games analysed at once, games waiting.
    std::uint64_t analysis_nodes = 80'000;
    int analysis_workers = 1;
    int analysis_queue = 16;
    // Casual robot levels take a person's time over a move (engine/human_time.h).
    bool robot_human_time = true;
    // The cost of a password hash (P21): interactive() in service; tests pass
    // --password-cost cheapest.
    PasswordCost password_cost = PasswordCost::interactive();
    // Issue 27: GET /metrics on this address ("127.0.0.1:9464"; "": none), never on the
    // public port; the log on standard error (observe/log.h).
    std::string metrics_listen;
    std::string log_format = "text";  // text | json
    std::string log_level = "info";   // debug | info | warn | error
    // Issue 27 item 6: HTTPS and wss:// on the port with this certificate (PEM, with
    // its chain) and key, both or neither, read again on SIGHUP (edge/tls.h); a plain
    // HTTP port that sends browsers there (0: a free one); the reverse proxies whose
    // X-Forwarded-For, X-Forwarded-Proto and Forwarded are believed (addresses or
    // networks: common/client_address.h).
    std::string tls_cert, tls_key;
    std::optional<unsigned short> http_redirect_port;
    std::vector<std::string> trusted_proxies;
    // Issue 29: the starter puzzles, loaded when the database holds no puzzle and the
    // file exists (the Debian package installs data/puzzles.csv there).
    std::string starter_puzzles = "/usr/share/outpost/puzzles.csv";
    // Issue 29: the background puzzle generator's share of one core, in percent (0: off);
    // it runs at the lowest priority besides (training/puzzle_miner.h).
    int puzzle_cpu = 10;
    // R7: the dead-position watch's share of one core, in percent (play/dead_watch.h).
    int dead_position_cpu = 50;
    // Past this percent of the machine's processors busy with normal-priority work, the
    // watch and the puzzle miner keep to a tenth of their shares (100: never).
    int dead_position_busy = 60;
    // Issue 26: this node's name (every HTTP answer's X-Outpost-Node, a game state's
    // "node"), and the Redis that several nodes share (redis://HOST:PORT; "": one node,
    // every game in this process).
    std::string node = "local";
    std::string bus;
    // ... opened by the executable (server/bus/redis is its choice, as the stores are);
    // unset: one node.
    std::function<Result<std::unique_ptr<ClusterBus>>()> open_bus;
    // ... and the per-address limits every node counts in that Redis (common/shared_limits.h);
    // unset: each node its own.
    std::function<std::unique_ptr<SharedLimits>()> open_limits;
};

// Runs until SIGINT or SIGTERM. Returns the process exit status.
int run_server(const ServerConfig& config);

}  // namespace outpost::server
