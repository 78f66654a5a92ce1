// Outpost — `outpost serve` put together: the stores, the rooms, the bus and the
// network threads, in the order they are made and stopped (the connections
// themselves: edge/http_session.cpp).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/edge/server.h"

#include "server/edge/http_answers.h"
#include "server/edge/http_forward.h"
#include "server/edge/http_session.h"
#include "server/observe/machine_load.h"
#include "server/play/live_game_json.h"

namespace outpost::server {
namespace {

// For the background searches (the dead-position watch, the puzzle miner): whether
// more than `percent` of the machine's processors went to normal-priority work lately.
// Each its own reader (they ask from their own threads).
std::function<bool()> machine_busy(int percent) {
    return [load = std::make_shared<MachineLoad>(), percent] {
        const auto busy = load->busy(std::chrono::steady_clock::now());
        return busy && *busy * 100 > percent;
    };
}

using namespace net;

// A pool that callbacks reach through an atomic pointer (they may run before it is made
// and after it is gone): declared just after the pool, it clears the pointer before the
// pool is destroyed.
struct PoolGone {
    std::atomic<WorkPool*>& pool;
    ~PoolGone() { pool = nullptr; }
};

// The network threads' context. Its pending work (the coroutines of the connections
// still open when it stopped) uses the services declared after it in run_server;
// `end_pending_work` ends that work while they still exist. Left to the context's
// destructor, it ran after them, and a session's last steps (uncounting its
// connection, leaving the registry of sockets) touched freed memory: a crash on the
// way out of every stop with such a connection open.
class NetworkContext : public asio::io_context {
public:
    using asio::io_context::io_context;
    void end_pending_work() { shutdown(); }
};

}  // namespace

int run_server(const ServerConfig& config) {
    configure_log(parse_log_level(config.log_level).value_or(LogLevel::INFO),
                  parse_log_format(config.log_format).value_or(LogFormat::TEXT));
    std::optional<ListenAddress> metrics_at;
    if (!config.metrics_listen.empty()) {
        std::string why;
        metrics_at = parse_listen_address(config.metrics_listen, why);
        if (!metrics_at) {
            log_event(LogLevel::ERROR, "outpost serve: --metrics-listen " + why);
            return 2;
        }
    }
    // The TLS files and the proxies first: a mistake in them is refused before the
    // database is opened or made.
    auto transport = load_transport(config);
    if (!transport) {
        log_event(LogLevel::ERROR, "outpost serve: " + transport.error().message);
        return 1;
    }
    NetworkContext ioc(config.io_threads);
    // The ports too: a port in use is refused before the database is made.
    auto listening = open_listeners(ioc, config);
    if (!listening) {
        log_event(LogLevel::ERROR, "outpost serve: " + listening.error().message);
        return 1;
    }
    auto storage = config.stores.games ? config.stores.games() : Storage::open(config.db, config.sync_full);
    if (!storage) {
        log_event(LogLevel::ERROR, "outpost serve: " + storage.error().message);
        return 1;
    }
    // P21: the accounts and sessions, in the same database file as the games.
    auto accounts = config.stores.accounts ? config.stores.accounts() : AccountStore::open(config.db, config.password_cost, config.sync_full);
    if (!accounts) {
        log_event(LogLevel::ERROR, "outpost serve: " + accounts.error().message);
        return 1;
    }
    const StaticFiles files = StaticFiles::load(config.web_dir);

    // SPEC D9: the admin page's audit log, reports and arbiters' decisions.
    auto admin_store = config.stores.admin ? config.stores.admin() : AdminStore::open(config.db, config.sync_full);
    if (!admin_store) {
        std::cerr << "outpost serve: " << admin_store.error().message << "\n";
        return 1;
    }
    // Issue 26: several nodes on one Redis. Opened before the hub (its proxies of other
    // nodes' connections outlive the hub's last deliveries); an unreachable Redis is a
    // line and an exit, before anything listens.
    std::unique_ptr<ClusterBus> cluster;
    if (config.open_bus) {
        auto opened = config.open_bus();
        if (!opened) {
            log_event(LogLevel::ERROR, "outpost serve: " + opened.error().message);
            return 1;
        }
        cluster = std::move(*opened);
    }
    // Issue 26: the per-address limits counted by all nodes; it outlives every room that asks it.
    std::unique_ptr<SharedLimits> shared_limits = config.open_limits && config.limits.enabled ? config.open_limits() : nullptr;
    std::unique_ptr<Hub> hub;
    HubEnv env;
    env.shared_limits = shared_limits.get();
    // Issue 26: what waits for Redis (a rematch's place among the open games) runs on
    // the request pool, made below; refused before it is and after it is gone.
    std::atomic<WorkPool*> blocking_pool{nullptr};
    env.run_blocking = [&blocking_pool](std::function<void()> job) {
        WorkPool* pool = blocking_pool.load();
        return pool && pool->try_post(std::move(job));
    };
    if (cluster) {
        env.take_game = [c = cluster.get()](const std::string& id, std::int64_t fence) { return c->take_game(id, fence); };
        env.node_of = [c = cluster.get()](const std::string& id) { return c->node_of(id); };
        env.game_ended = [c = cluster.get()](const std::string& id) { c->game_ended(id); };
        env.game_forgotten = [c = cluster.get()](const std::string& id) { c->game_forgotten(id); };
    }
    env.arbiter_reason = [store = admin_store->get()](const std::string& id) {
        auto r = store->arbiter_reason(id);
        return r ? *r : std::string();
    };
    env.monotonic_ms = monotonic_now;
    env.wall_ms = wall_now;
    env.node = config.node;
    env.commit_window = std::chrono::milliseconds(config.commit_window_ms);
    env.random_token = secure_token;  // getrandom(2): mt19937 outputs revealed its state
    env.invite_wait_ms = Millis(config.invite_wait_minutes) * 60'000;
    env.max_finished_bytes = size_t(config.finished_cache_mib) << 20;
    // --no-client-limits lifts every per-address limit, the cap on open games too.
    env.max_open_games_per_client = config.max_open_games > 0 && config.limits.enabled
                                        ? config.max_open_games
                                        : std::numeric_limits<int>::max();
    if (!config.limits.enabled) env.max_open_correspondence_per_client = std::numeric_limits<int>::max();
    env.levels_json = [] { return RobotPool::levels_json(); };
    env.level_elo = [](int level) { return RobotPool::level_elo(level); };
    // One timer per game (edge/game_timers.h), on the network threads.
    auto timers = std::make_shared<GameTimers>(ioc, [&hub](const std::string& id) { hub->on_timer(id); });
    env.call_back_in = [timers](const std::string& id, Millis delay) { timers->arm(id, delay); };
    RobotPool robots(
        config.robot_threads,
        [&ioc, &hub](const std::string& id, std::uint64_t request_id, Move m) {
            asio::post(ioc, [&hub, id, request_id, m] { hub->on_robot_move(id, request_id, m); });
        },
        monotonic_now);
    robots.set_human_time(config.robot_human_time, std::random_device{}());
    env.ask_robot = [&robots](RobotRequest r) { robots.ask(std::move(r)); };
    env.cancel_robot = [&robots](const std::string& id) { robots.cancel(id); };
    // R7 beyond the quick test after each move: the deeper search on a thread of its own.
    DeadPositionWatch dead_watch(
        [&ioc, &hub](const std::string& id, int ply, Key key) {
            asio::post(ioc, [&hub, id, ply, key] { hub->on_dead_position(id, ply, key); });
        },
        {}, config.dead_position_cpu, machine_busy(config.dead_position_busy));
    env.check_dead_position = [&dead_watch](DeadPositionRequest q) { dead_watch.ask(std::move(q)); };
    env.cancel_dead_position = [&dead_watch](const std::string& id) { dead_watch.cancel(id); };
    // The lobby (P22): fed by the hub with the games being played, asking it for games.
    LobbyEnv lobby_env;
    lobby_env.monotonic_ms = monotonic_now;
    lobby_env.create_game = [&hub](const std::string& body, const std::string& client, const Account* owner,
                                   const Account* other) {
        return hub->create_game(body, client, owner, other);
    };
    // P23: a member's rating as stored (the lobby asks under its own lock: the account
    // and game stores have locks of their own, the hub's is not taken).
    lobby_env.rating = [account_store = accounts->get(), game_store = storage->get()](
                           const std::string& name, std::string_view rating_class) -> std::optional<LobbyRating> {
        auto account = account_store->find(name);
        if (!account || !*account) return std::nullopt;
        auto ratings = game_store->ratings_of((*account)->id);
        if (!ratings) return std::nullopt;
        for (const StoredRating& r : *ratings)
            if (r.rating_class == rating_class) return LobbyRating{int(std::lround(r.rating)), is_provisional(r)};
        return std::nullopt;
    };
    if (!config.limits.enabled) {
        lobby_env.max_seeks_per_client = std::numeric_limits<int>::max() / 2;
        lobby_env.max_anonymous_seeks = lobby_env.max_seeks;
    }
    Lobby lobby(lobby_env);
    std::atomic<EventService*> events_hook{nullptr};  // issue 13: results of event games
    // P18: simuls, in the same database; their boards' results come from the hub.
    auto simul_store = config.stores.simuls ? config.stores.simuls() : SimulStore::open(config.db, config.sync_full);
    if (!simul_store) {
        log_event(LogLevel::ERROR, "outpost serve: " + simul_store.error().message);
        return 1;
    }
    SimulEnv simul_env;
    simul_env.wall_ms = wall_now;
    simul_env.random_token = secure_token;
    simul_env.allowed_origins = config.allowed_origins;
    simul_env.create_game = [&hub](const NewGameRequest& spec, const Account& host, std::int64_t opponent) {
        return hub->create_game(spec, "", &host, opponent);
    };
    simul_env.game_result = [&hub](const std::string& id) -> std::optional<std::string> {
        auto state = hub->state_json(id);
        if (!state) return std::nullopt;
        auto j = nlohmann::json::parse(*state, nullptr, false);
        const auto* game = j.is_object() && j.contains("game") ? &j["game"] : &j;
        if (!game->is_object() || game->value("status", "") == "ongoing" || !game->contains("result")) return std::nullopt;
        return game->value("result", "*");
    };
    SimulService simuls(simul_env, simul_store->get());
    // Issue 25: domains do not wait on each other. The hub reports its games (under its
    // own lock) by message: queued here and delivered in order on a thread of the
    // other domains', so a game's end never waits for the events' or simuls' lock.
    // Declared after them below (`live_feed`): destroyed first, delivering what waits.
    std::atomic<WorkPool*> live_feed{nullptr};
    const auto to_domains = [&lobby, &simuls, &events_hook](const LiveGame& g) {
        lobby.on_live_game(g);
        simuls.on_live_game(g);
        if (auto* ev = events_hook.load(); ev && g.over) ev->on_game_over(g);
    };
    // Several nodes (issue 26): they run on the domains node; another node publishes its
    // games' reports to it, in order (delivered there to the same calls, below).
    env.on_live_game = [&to_domains, &live_feed, c = cluster.get()](const LiveGame& g) {
        WorkPool* feed = live_feed.load();
        auto report = [&to_domains, c, g] {
            if (c && !c->runs_domains()) return c->report_to_domains(live_game_json(g));
            to_domains(g);
        };
        if (feed) feed->post(std::move(report));
        else report();  // at start-up, before the feed runs
    };
    hub = std::make_unique<Hub>(env, storage->get());
    struct StopCluster {  // the bus's threads end before the hub they call
        ClusterBus* bus;
        ~StopCluster() {
            if (bus) bus->stop();
        }
    } stop_cluster{cluster.get()};
    if (cluster)
        cluster->attach_games([h = hub.get()](const std::string& id) { return h->drop_game(id); },
                              [h = hub.get()] { return h->live_game_ids(); });
    if (cluster) {  // games follow their players (docs/scaling.md)
        cluster->attach_hand_over([h = hub.get()](const std::string& id, std::function<void()> durable) {
            return h->hand_over_game(id, std::move(durable));
        });
        cluster->attach_take_over([h = hub.get()](const std::string& id) { h->take_over(id); });
    }
    auto event_store = config.stores.events ? config.stores.events() : EventStore::open(config.db, config.sync_full);
    if (!event_store) {
        log_event(LogLevel::ERROR, "outpost serve: " + event_store.error().message);
        return 1;
    }
    auto events = EventService::open(event_store->get(), *hub, wall_now, config.allowed_origins);
    if (!events) {
        log_event(LogLevel::ERROR, "outpost serve: " + events.error().message);
        return 1;
    }
    events_hook = events->get();
    // Issue 25: rounds are paired on a thread of their own at the process's priority
    // (made here, so not at the request pool's nice +5: an unprivileged thread cannot
    // raise its priority back); one at a time, a few waiting.
    WorkPool pairing(1, 8);
    (*events)->run_pairing_on([&pairing](std::function<void()> job) { return pairing.try_post(std::move(job)); });
    WorkPool feed(1, 0);
    live_feed = &feed;
    PoolGone feed_off{live_feed};  // the hub reports directly again once the feed is gone

    // Several nodes: a game comes back on the node that needs it first (a player's
    // connection, a follower's node), not all on the first node to start.
    auto resumed = cluster ? Result<int>(0) : hub->resume_from_storage();
    if (!resumed) {
        log_event(LogLevel::ERROR, "outpost serve: " + resumed.error().message);
        return 1;
    }

    // Several nodes: done by the node that gains the domains lease (below).
    if (auto loaded = cluster ? Result<int>(0) : simuls.load(); !loaded) {
        log_event(LogLevel::ERROR, "outpost serve: " + loaded.error().message);
        return 1;
    }
    // Issue 13: boards of a round whose games a stop kept from being made (or linked)
    // get them; results of event games that ended while the server was down, or in
    // the hub just before a stop, reach their boards.
    if (!cluster) {
        (void)(*events)->recover_games();
        (void)(*events)->recover_results();
    }

    AnalysisService::Options analysis_options;
    analysis_options.pool.workers = config.analysis_workers;
    analysis_options.pool.max_queue = std::size_t(std::max(config.analysis_queue, 1));
    analysis_options.pool.max_nodes = std::max<std::uint64_t>(config.analysis_nodes, 1);
    analysis_options.settings.nodes = config.analysis_nodes;
    analysis_options.client_limits = config.limits.enabled;
    AnalysisService analysis(analysis_options, *hub, storage->get(), monotonic_now);

    AccountSockets sockets;  // issue 25: a session that ends closes its WebSockets
    // ... also when another process ended it (`outpost user disable|logout`).
    SessionSweep sweep(sockets, *accounts->get(), wall_now, std::chrono::seconds(3));
    AccountService::Options account_options;
    account_options.end_sessions = [&sockets](const SessionsEnded& e) { return sockets.end(e); };
    account_options.client_limits = config.limits.enabled;
    account_options.shared = shared_limits.get();
    account_options.allowed_origins = config.allowed_origins;
    AccountService account_service(account_options, *accounts->get(), *hub, storage->get(), wall_now, monotonic_now);
    AdminEnv admin_env;
    admin_env.wall_ms = wall_now;
    admin_env.monotonic_ms = monotonic_now;
    admin_env.allowed_origins = config.allowed_origins;
    admin_env.client_limits = config.limits.enabled;
    admin_env.end_sessions = account_options.end_sessions;
    admin_env.connections = [&sockets] {
        std::vector<AdminConnection> out;
        for (const AccountSockets::Entry& e : sockets.list()) out.push_back(AdminConnection{e.account_name, e.kind});
        return out;
    };
    AdminService admin(admin_env, *admin_store->get(), *accounts->get(), *hub, events->get(), &simuls);
    // Issue 29: puzzles, in the same database; a new server loads the starter set.
    auto puzzle_store = config.stores.puzzles ? config.stores.puzzles() : PuzzleStore::open(config.db, config.sync_full);
    if (!puzzle_store) {
        log_event(LogLevel::ERROR, "outpost serve: " + puzzle_store.error().message);
        return 1;
    }
    if (auto starter = load_starter_puzzles(config.starter_puzzles, *puzzle_store->get()); !starter) {
        log_event(LogLevel::ERROR, "outpost serve: the starter puzzles: " + starter.error().message);
        return 1;
    } else if (starter->read > 0) {
        log_event(LogLevel::INFO, "starter puzzles loaded",
                  {{"file", config.starter_puzzles}, {"added", starter->added}, {"duplicates", starter->duplicates}});
    }
    PuzzleEnv puzzle_env;
    puzzle_env.wall_ms = wall_now;
    puzzle_env.monotonic_ms = monotonic_now;
    puzzle_env.allowed_origins = config.allowed_origins;
    puzzle_env.client_limits = config.limits.enabled;
    PuzzleService puzzles(puzzle_env, *puzzle_store->get(), *hub, storage->get());
    if (shared_limits) {  // issue 26: counted by every node (docs/scaling.md, "Limits across nodes")
        puzzles.share_limits(shared_limits.get());
        admin.share_limits(shared_limits.get());
    }
    // Issue 29: puzzles cut from the finished games, in the background.
    PuzzleMinerOptions miner_options;
    miner_options.cpu_percent = config.puzzle_cpu;
    miner_options.busy = machine_busy(config.dead_position_busy);
    if (cluster) miner_options.active = [c = cluster.get()] { return c->runs_domains(); };
    PuzzleMiner miner(miner_options, *puzzle_store->get(), *hub, [&puzzles](int) { puzzles.puzzles_added(); });

    // The bus: the WebSocket sessions reach the games, the lobby and the simuls through it.
    InProcessBus in_process;
    Bus& bus = cluster ? static_cast<Bus&>(*cluster) : in_process;
    LobbyOnBus lobby_on_bus(lobby);
    SimulsOnBus simuls_on_bus(simuls);
    bus.serve(Topic::GAME, hub.get());
    bus.serve(Topic::LOBBY, &lobby_on_bus);
    bus.serve(Topic::SIMUL, &simuls_on_bus);
    Edge edge(config.limits, config.allowed_origins, std::move(transport->proxies));
    edge.host_names = config.host_names;
    edge.node = config.node;
    edge.shared = shared_limits.get();
    edge.connections.share(shared_limits.get());
    edge.max_connections = config.limits.max_connections > 0 ? config.limits.max_connections : default_max_connections();
    tcp::acceptor& acceptor = listening->main;
    const unsigned short port = acceptor.local_endpoint().port();
    const unsigned short redirect_port = listening->redirect ? listening->redirect->local_endpoint().port() : 0;
    // Issue 25: the API's routes on a bounded pool (two threads a core, nice +5 so that
    // the network threads come first), the lobby's and simuls' messages on one thread.
    WorkPool requests(WorkPool::for_cores(2, 2, 16), 256, 5);
    blocking_pool = &requests;
    PoolGone blocking_off{blocking_pool};  // before the pool goes: nothing more is posted to it
    WorkPool domains(1, 4096);
    // The bus's threads call the domains (below) and the events: stopped before them.
    StopCluster stop_cluster_first{cluster.get()};
    if (cluster) {
        // Issue 26: the games' reports of the other nodes, read as hostile.
        cluster->receive_reports([&live_feed, &to_domains](const std::string& text) {
            static std::atomic<std::uint64_t> refused{0};
            auto g = read_live_game(text);
            if (!g) {
                if (refused.fetch_add(1) % 1000 == 0)
                    log_event(LogLevel::WARN, "bus: a game's report from another node was refused",
                              {{"error", g.error().message}, {"refused", std::int64_t(refused.load())}});
                return;
            }
            if (WorkPool* queue = live_feed.load()) queue->post([&to_domains, r = *g] { to_domains(r); });
        });
        // Their writes are fenced by the domains lease's token (stores/domains_fence.h).
        const FenceToken token = [c = cluster.get()] { return c->domains_token(); };
        (*event_store)->fence_with(token);
        (*simul_store)->fence_with(token);
        cluster->fence_domains([es = event_store->get()](std::int64_t t) { return es->claim_fence(t); });
        // This node runs the lobby, events and simuls once it holds the domains lease:
        // they are read from the database then (another node ran them until now).
        cluster->run_domains([&domains, &lobby, &simuls, ev = events->get()](bool runs) {
            if (!runs) return;  // the bus took its connections out of the lobby; the pulse stops
            domains.post([&lobby, &simuls, ev] {
                lobby.forget_games();  // listed when it last ran them: they may have ended
                if (auto r = ev->reload(); !r) log_event(LogLevel::ERROR, "domains: " + r.error().message);
                if (auto r = simuls.load(); !r) log_event(LogLevel::ERROR, "domains: the simuls: " + r.error().message);
                (void)ev->recover_games();
                (void)ev->recover_results();
            });
        });
    }
    const Shared shared{hub.get(), &bus, &files, &analysis, &edge, accounts->get(), &account_service, &lobby, events->get(), &simuls, &sockets, &admin, transport->tls.get(), &puzzles, &requests, &domains};
    // Issue 26: the requests other nodes forward here (http_forward.h), on the request
    // pool; none once the pool and the services are about to go (`unanswer`).
    struct Unanswer {
        ClusterBus* bus;
        ~Unanswer() {
            if (bus) bus->answer_http(nullptr);
        }
    } unanswer{cluster.get()};
    if (cluster)
        cluster->answer_http([shared, &requests](HttpRequest q, ClusterBus::HttpReply reply) {
            if (!requests.try_post([shared, q = std::move(q), reply] { reply(answer_forwarded(shared, q)); }))
                reply(pool_busy());
        });
    // Issue 26: the results of event games run on other nodes reach the domains node as
    // reports over the bus, which Redis delivers at most once; every 5 s the domains
    // node also reads the ends of its events' waiting games from the database (never
    // taking a game over), so that a report lost with Redis leaves no board without its
    // result. On the feed's thread, where the reports are handled; one sweep at a time.
    asio::steady_timer results_sweep(ioc);
    auto sweeping = std::make_shared<std::atomic<bool>>(false);
    std::function<void()> arm_sweep = [&results_sweep, &arm_sweep, &feed, &events, sweeping, c = cluster.get()] {
        results_sweep.expires_after(5s);
        results_sweep.async_wait([&arm_sweep, &feed, &events, sweeping, c](const beast::error_code& ec) {
            if (ec) return;
            if (c->runs_domains() && !sweeping->exchange(true))
                feed.post([&events, sweeping] {
                    (void)(*events)->recover_results();
                    *sweeping = false;
                });
            arm_sweep();
        });
    };
    if (cluster) arm_sweep();
    asio::co_spawn(ioc, listen_http(acceptor, shared), asio::detached);
    if (listening->redirect)
        asio::co_spawn(ioc,
                       https_redirect_listener(std::move(*listening->redirect), port,
                                               config.limits.enabled ? &edge.connections : nullptr,
                                               config.limits.connections_per_ip, edge.node),
                       asio::detached);
    unsigned short metrics_port = 0;
    if (metrics_at) {
        // Off the public port (issue 27): an address of its own, only when asked for.
        const std::vector<Sampled> sampled = serve_gauges(*hub, robots, analysis, config.db);
        std::string why;
        auto bound = start_metrics_listener(ioc, *metrics_at, [sampled] { return render_metrics(metrics(), sampled); }, why);
        if (!bound) {
            log_event(LogLevel::ERROR, "outpost serve: " + why);
            ioc.end_pending_work();
            return 1;
        }
        metrics_port = *bound;
    }
    // The lobby's and simuls' pulse: quick pairing as ranges widen, the changes sent
    // out, the simuls' writes; on the domains thread, never here (edge/domain_pulse.h).
    auto pulse = std::make_shared<DomainPulse>(ioc, domains, 500ms, [&lobby, &simuls, c = cluster.get()] {
        if (c && !c->runs_domains()) return;  // another node runs them
        lobby.tick();
        simuls.tick();
    });
    pulse->start();
    asio::signal_set signals(ioc, SIGINT, SIGTERM);
    stop_on_signals(ioc, signals, acceptor, sockets, std::chrono::milliseconds(2500));
    // Issue 26: on SIGTERM the games go to the other nodes at once (no wait for leases to expire).
    asio::signal_set handover(ioc, SIGINT, SIGTERM);
    if (cluster) handover.async_wait([c = cluster.get()](const beast::error_code& e, int) {
        if (!e) c->hand_over();
    });
    asio::signal_set hangup(ioc, SIGHUP);
    reload_on_hangup(hangup, transport->tls.get());
    // Said once everything is ready, signals included (tests wait for this line).
    const std::string shown_host = config.host == "0.0.0.0" ? "localhost" : config.host;
    if (transport->tls) std::cout << "TLS certificate: " << transport->tls->describe() << std::endl;
    if (redirect_port)
        std::cout << "Plain HTTP on port " << redirect_port
                  << ": every request is redirected to https" << std::endl;
    std::cout << "Outpost is serving on " << (transport->tls ? "https://" : "http://") << shown_host << ":" << port
              << "/ (node " << config.node << (cluster ? ", bus " + config.bus : std::string()) << ", database "
              << (config.stores.shown.empty() ? config.db : config.stores.shown) << ", " << *resumed << " live games resumed, " << files.size()
              << " web files)" << std::endl;
    log_event(LogLevel::INFO, "serving",
              {{"host", config.host}, {"port", int(port)}, {"db", config.stores.shown.empty() ? config.db : config.stores.shown}, {"tls", bool(transport->tls)},
               {"games_resumed", std::int64_t(*resumed)}});
    if (metrics_at)
        std::cout << "Metrics on http://"
                  << (metrics_at->host.find(':') != std::string::npos ? "[" + metrics_at->host + "]" : metrics_at->host)
                  << ":" << metrics_port << "/metrics" << std::endl;

    std::vector<std::thread> threads;
    for (int i = 1; i < config.io_threads; ++i) threads.emplace_back([&ioc] { ioc.run(); });
    ioc.run();
    for (auto& t : threads) t.join();
    ioc.end_pending_work();  // while everything its coroutines use still exists
    return 0;
}

}  // namespace outpost::server
