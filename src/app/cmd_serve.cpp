// Outpost — `outpost serve [--config FILE] [--host 127.0.0.1] [--port 8080] [--db outpost.db] …`:
// every option also from OUTPOST_… environment variables and the TOML file (config_file.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <iostream>
#include <memory>

#include "app/commands.h"
#include "app/config_file.h"
#include "server/edge/listen_address.h"
#include "server/common/client_address.h"
#include "server/edge/server.h"
#include "server/bus/redis/redis_bus.h"
#include "server/bus/redis/redis_limits.h"
#include "server/stores/postgres/pg_stores.h"

namespace outpost::app {

namespace {

// The commit window on PostgreSQL (issue 26, docs/scaling.md): each transaction costs
// the server about the same CPU whatever it holds, and three nodes' writers each
// committing as soon as they can made three times the transactions of one node.
constexpr int PostgresCommitWindowMs = 8;

// Every store on the PostgreSQL database at `url` (issue 26).
void use_postgres(server::ServerConfig& cfg, const std::string& url) {
    namespace pg = server::postgres;
    const server::PasswordCost cost = cfg.password_cost;
    cfg.stores.shown = pg::shown_url(url);
    cfg.stores.games = [url] { return pg::open_games(url); };
    cfg.stores.accounts = [url, cost] { return pg::open_accounts(url, cost); };
    cfg.stores.events = [url] { return pg::open_events(url); };
    cfg.stores.simuls = [url] { return pg::open_simuls(url); };
    cfg.stores.admin = [url] { return pg::open_admin(url); };
    cfg.stores.puzzles = [url] { return pg::open_puzzles(url); };
}

// "HOST-PID", cut to a valid node name (redis_lease.h).
std::string default_node_name() {
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) != 0) host[0] = 0;
    std::string name;
    for (const char* c = host; *c && name.size() < 48; ++c)
        name += std::isalnum(static_cast<unsigned char>(*c)) || *c == '.' || *c == '-' || *c == '_' ? *c : '-';
    if (name.empty()) name = "node";
    return name + "-" + std::to_string(getpid());
}

}  // namespace

void add_serve_command(CLI::App& parent, std::function<int()>& run) {
    auto cfg = std::make_shared<server::ServerConfig>();
    CLI::App* cmd = parent.add_subcommand("serve", "Serve the web UI and run games (HTTP and WebSocket on one port)");
    cmd->add_option("--host", cfg->host, "Address to listen on (0.0.0.0 for every interface)");
    cmd->add_option("--port", cfg->port, "Port (0 picks a free one)");
    cmd->add_option("--db", cfg->db, "SQLite database file (created if missing)");
    auto database = std::make_shared<std::string>();
    cmd->add_option("--database", *database,
                    "PostgreSQL database instead of --db: postgresql://USER@HOST[:PORT]/DB (or postgresql:///DB?host=/run/postgresql)")
        ->check(CLI::Validator(
            [](std::string& v) {
                return v.empty() || server::postgres::is_url(v) ? std::string()
                                                                : std::string("a postgresql:// URL (an SQLite file is --db FILE)");
            },
            "URL"));
    cmd->add_option("--web", cfg->web_dir, "Serve the web UI from this folder (development) instead of the one built in");
    cmd->add_option("--io-threads", cfg->io_threads, "Network threads (default: one a core)")->check(CLI::Range(1, 64));
    cmd->add_option("--robot-threads", cfg->robot_threads,
                    "Threads that think for the robot (0: one per core), plus one for the quick levels")
        ->check(CLI::Range(0, 64));
    cmd->add_option("--allow-origin", cfg->allowed_origins,
                    "Another origin whose pages may open WebSockets (e.g. https://club.example.org; * for any); repeatable");
    cmd->add_option("--max-connections-per-ip", cfg->limits.connections_per_ip, "Open connections of one address (an IPv6 /64)")
        ->check(CLI::Range(1, 1'000'000));
    cmd->add_option("--max-connections", cfg->limits.max_connections,
                    "Open connections in all (0: the file limit less 64)")
        ->check(CLI::Range(0, 10'000'000));
    cmd->add_option("--host-name", cfg->host_names,
                    "A name the server is reached by (Host header), besides IP addresses and localhost; repeatable")
        ->check([](const std::string& v) {
            return v.empty() || v.find_first_of(" /\\\"'<>") != std::string::npos ? std::string("a host name such as chess.example.org")
                                                                              : std::string();
        });
    cmd->add_option("--send-queue-bytes", cfg->limits.send_queue_bytes,
                    "Unsent data a connection may hold; a slower reader is disconnected")
        ->check(CLI::Range(size_t(1024), size_t(1) << 40));
    cmd->add_flag("!--no-client-limits", cfg->limits.enabled,
                  "No per-address rate limits, connection cap or open-games cap (benchmarks and tests from one address)");
    cmd->add_flag("--sync-full", cfg->sync_full, "Also survive an operating-system crash (slower writes)");
    auto commit_window = std::make_shared<int>(-1);
    cmd->add_option("--commit-window", *commit_window,
                    "Milliseconds a transaction of moves begins at the soonest after the one before, so that a busy "
                    "server writes more moves in each (default: 0 with SQLite, " +
                        std::to_string(PostgresCommitWindowMs) + " with PostgreSQL)")
        ->check(CLI::Range(0, 100));
    cmd->add_option("--max-open-games", cfg->max_open_games, "Unfinished games one client address may have (0: no cap)")
        ->check(CLI::Range(0, 1'000'000));
    cmd->add_option("--invite-wait", cfg->invite_wait_minutes,
                    "Minutes an invitation link waits for the friend before the game is dropped")
        ->check(CLI::Range(1, 30 * 24 * 60));
    cmd->add_option("--finished-cache-mib", cfg->finished_cache_mib,
                    "MiB of finished games kept in memory for reading (older ones are read from the database)")
        ->check(CLI::Range(0, 1 << 16));
    cmd->add_option("--analysis-nodes", cfg->analysis_nodes, "Nodes per position when analysing a finished game")
        ->check(CLI::Range(std::uint64_t(1), std::uint64_t(2'000'000)));
    cmd->add_option("--analysis-workers", cfg->analysis_workers, "Games analysed at once")->check(CLI::Range(1, 16));
    cmd->add_option("--analysis-queue", cfg->analysis_queue, "Games that may wait for analysis")->check(CLI::Range(1, 10'000));
    cmd->add_option("--starter-puzzles", cfg->starter_puzzles,
                    "Puzzles (lichess CSV) loaded when the database has none and the file exists");
    cmd->add_option("--puzzle-cpu", cfg->puzzle_cpu,
                    "Percent of one core for cutting puzzles from finished games in the background, at the lowest "
                    "priority (0: off)")
        ->check(CLI::Range(0, 100));
    cmd->add_option("--dead-position-cpu", cfg->dead_position_cpu,
                    "Percent of one core for the deeper dead-position test of live games (FIDE 5.2.2), at the lowest "
                    "priority")
        ->check(CLI::Range(1, 100));
    cmd->add_option("--dead-position-busy", cfg->dead_position_busy,
                    "Percent of the machine's processors busy with other work past which that test and the puzzle "
                    "miner keep to a tenth of their shares (100: never)")
        ->check(CLI::Range(1, 100));
    cmd->add_flag("!--robot-instant", cfg->robot_human_time,
                  "Casual robot levels answer as soon as they have searched (tests, benchmarks), not after a person's time");
    cmd->add_option("--metrics-listen", cfg->metrics_listen,
                    "Serve Prometheus metrics at /metrics on this address (e.g. 127.0.0.1:9464); off when not given")
        ->check(CLI::Validator(
            [](std::string& v) {
                std::string why;
                return v.empty() || server::parse_listen_address(v, why) ? std::string() : why;
            },
            "ADDRESS:PORT"));
    cmd->add_option("--log-format", cfg->log_format, "Log lines on standard error as text or json")
        ->check(CLI::IsMember({"text", "json"}));
    cmd->add_option("--log-level", cfg->log_level, "Log events from this level on: debug, info, warn or error")
        ->check(CLI::IsMember({"debug", "info", "warn", "error"}));
    cmd->add_option("--tls-cert", cfg->tls_cert,
                    "Serve HTTPS and wss:// with this certificate (PEM, with its chain); read again on SIGHUP");
    cmd->add_option("--tls-key", cfg->tls_key, "The private key of --tls-cert (PEM, without a passphrase)");
    cmd->add_option("--http-redirect-port", cfg->http_redirect_port,
                    "Also listen for plain HTTP on this port, answering 308 to the https:// address (0: a free port)");
    cmd->add_option("--trust-proxy", cfg->trusted_proxies,
                    "A reverse proxy (address or network: 127.0.0.1, 10.0.0.0/8, ::1) whose X-Forwarded-For, "
                    "X-Forwarded-Proto and Forwarded headers are believed; repeatable")
        ->check(CLI::Validator(
            [](std::string& text) {
                auto network = server::parse_ip_network(text);
                return network ? std::string() : network.error().message;
            },
            "ADDR|CIDR"));
    // Issue 26: several nodes on one Redis and one PostgreSQL database.
    cmd->add_option("--bus", cfg->bus,
                    "Redis that several nodes share (redis://HOST:PORT); needs --database: any node then serves any game")
        ->check(CLI::Validator(
            [](std::string& v) {
                if (v.empty()) return std::string();
                auto at = server::redis::Endpoint::parse(v);
                return at ? std::string() : at.error().message;
            },
            "URL"));
    auto node = std::make_shared<std::string>();
    cmd->add_option("--node", *node, "This node's name among several (default: the host's name and the process id)")
        ->check(CLI::Validator(
            [](std::string& v) {
                return server::redis::LeaseTable::valid_node_name(v) ? std::string()
                                                                      : std::string("1 to 64 of A-Z a-z 0-9 . _ -");
            },
            "NAME"));
    auto cost = std::make_shared<std::string>("interactive");
    cmd->add_option("--password-cost", *cost,
                    "Cost of a password hash: interactive (64 MiB Argon2id, for service) or cheapest (tests only)")
        ->check(CLI::IsMember({"interactive", "cheapest"}));
    auto config_path = std::make_shared<std::string>();
    CLI::Option* config = cmd->add_option(
        "--config", *config_path,
        "TOML file of settings, keys named as these options (port = 8080); the environment (OUTPOST_PORT) "
        "and then the command line override it");
    cmd->callback([cmd, config, config_path, cfg, cost, database, node, commit_window, &run] {
        if (config_path->empty())
            if (const char* env = std::getenv("OUTPOST_CONFIG")) *config_path = env;
        apply_environment_and_file(*cmd, "OUTPOST_", *config_path, config);
        cfg->password_cost = *cost == "cheapest" ? server::PasswordCost::cheapest() : server::PasswordCost::interactive();
        if (!database->empty()) use_postgres(*cfg, *database);
        cfg->commit_window_ms = *commit_window >= 0 ? *commit_window : database->empty() ? 0 : PostgresCommitWindowMs;
        cfg->node = node->empty() ? default_node_name() : *node;
        if (!cfg->bus.empty())
            cfg->open_bus = [cfg]() -> Result<std::unique_ptr<server::ClusterBus>> {
                auto where = server::redis::Endpoint::parse(cfg->bus);
                if (!where) return where.error();
                server::redis::RedisBus::Options options;
                options.where = *where;
                options.node = cfg->node;
                auto bus = server::redis::RedisBus::open(std::move(options));
                if (!bus) return bus.error();
                return std::unique_ptr<server::ClusterBus>(std::move(*bus));
            };
        if (!cfg->bus.empty())
            cfg->open_limits = [cfg]() -> std::unique_ptr<server::SharedLimits> {
                server::redis::RedisLimits::Options options;
                options.where = *server::redis::Endpoint::parse(cfg->bus);  // checked by open_bus, first
                options.node = cfg->node;
                return std::make_unique<server::redis::RedisLimits>(std::move(options));
            };
        run = [cfg, database] {
            if (!cfg->bus.empty() && database->empty()) {
                std::cerr << "outpost serve: --bus needs --database postgresql://...: the nodes must share one "
                             "PostgreSQL database (an SQLite file is one machine's)"
                          << std::endl;
                return 1;
            }
            // A database that cannot be reached is one line and an exit, before anything listens.
            if (!database->empty())
                if (auto ok = server::postgres::check_reachable(*database); !ok) {
                    std::cerr << "outpost serve: " << ok.error().message << std::endl;
                    return 1;
                }
            return server::run_server(*cfg);
        };
    });
}

}  // namespace outpost::app
