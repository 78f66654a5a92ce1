// Outpost — bench/serve-load: many concurrent games over WebSockets against one
// `outpost serve` on this machine. Each game is an invite game with two
// connections, one per seat; a player moves a short random think time after its
// turn begins, picking a random legal move (the server sends the whole state on
// connect and then one `move` message per move). Measured:
// moves per second, and the time from a move sent by one player to the state with
// that move reaching the opponent (median and 99th percentile).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/edge/net.h"  // first: see net.h
#include "client.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <unistd.h>
#include <string>
#include <vector>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/uci.h"

using namespace outpost::server;
using outpost::bench::cpu_seconds;
using outpost::bench::field;
using nlohmann::json;
using asio::awaitable;
using asio::use_awaitable;
using Clock = std::chrono::steady_clock;

namespace {

struct Options {
    std::string host = "127.0.0.1";
    std::string port = "8080";
    int games = 100;
    double seconds = 20;
    int think_ms = 2000;  // mean think time per move
    std::vector<int> server_pids;  // to read the server's CPU time from /proc (a cluster: every node)
    int hotseat = 0;      // games played over one connection (both seats), see main()
    bool per_second = false;  // print the worst latency of each second
    double warmup = 5;        // seconds between the last connection and the measurement
    std::string mark;         // a file that gets a line "start" when the measurement begins, "end" when it ends
};

struct Stats {
    std::vector<double> latencies_ms;
    std::vector<double> at_s;  // when each was measured, seconds into the measurement
    long moves = 0;
    long errors = 0;
    int connected = 0;
};

struct GameSlot {
    std::string id;
    std::string token[2];
    Clock::time_point sent_at[1024];
};

Options opts;
Stats stats;
Clock::time_point measure_from, measure_until;
double cpu_from[3];  // server, this process, the server without its background threads: CPU seconds when the measurement began
bool measuring = false;

awaitable<void> player(GameSlot& slot, int side, std::uint64_t seed) {
    auto ex = co_await asio::this_coro::executor;
    std::mt19937_64 rng(seed);
    tcp::resolver resolver(ex);
    websocket::stream<beast::tcp_stream> ws(ex);
    auto results = co_await resolver.async_resolve(opts.host, opts.port, use_awaitable);
    co_await beast::get_lowest_layer(ws).async_connect(results, use_awaitable);
    beast::get_lowest_layer(ws).expires_never();
    co_await ws.async_handshake(opts.host, "/api/v1/ws?game=" + slot.id + "&seat=" + slot.token[side == 2 ? 0 : side], use_awaitable);
    ++stats.connected;
    const char* me = side == 0 ? "white" : "black";  // side 2: a hotseat game, both seats
    beast::flat_buffer buffer;
    asio::steady_timer think(ex);
    int last_ply_seen = -1;
    bool chess960 = false;
    for (;;) {
        buffer.clear();
        beast::error_code ec;
        co_await ws.async_read(buffer, asio::redirect_error(use_awaitable, ec));
        if (ec) co_return;
        const auto now = Clock::now();
        // The few fields needed, read straight from the server's text (a full JSON
        // parse per message would make this process the bottleneck of the benchmark).
        const std::string_view text(static_cast<const char*>(buffer.data().data()), buffer.size());
        const std::string_view type = field(text, "t");
        if (type == "error") {
            ++stats.errors;
            continue;
        }
        // The whole state on connect, then a `move` message per move.
        if (type != "state" && type != "move") continue;
        if (type == "state") chess960 = field(text, "variant") == "chess960";
        int ply = -1;
        const std::string_view ply_text = field(text, "ply");
        std::from_chars(ply_text.data(), ply_text.data() + ply_text.size(), ply);
        if (ply < 0 || ply == last_ply_seen) continue;
        last_ply_seen = ply;
        // The opponent's move reached us: its latency.
        const bool my_turn = side == 2 || field(text, "turn") == me;
        if (ply > 0 && my_turn && ply - 1 < 1024 && measuring && now < measure_until &&
            slot.sent_at[ply - 1] >= measure_from) {
            stats.latencies_ms.push_back(std::chrono::duration<double, std::milli>(now - slot.sent_at[ply - 1]).count());
            stats.at_s.push_back(std::chrono::duration<double>(now - measure_from).count());
        }
        if (field(text, "status") != "ongoing" || !my_turn || field(text, "legal") == "{}" || ply >= 1000) continue;
        const std::string fen(field(text, "fen"));
        // Think, then move.
        std::exponential_distribution<double> wait(1.0 / std::max(1, opts.think_ms));
        think.expires_after(std::chrono::milliseconds(int(std::min(wait(rng), 4.0 * opts.think_ms))));
        co_await think.async_wait(asio::redirect_error(use_awaitable, ec));
        // The move: a random legal one, chosen with the rules core from the FEN.
        auto pos = outpost::position_from_fen(fen, chess960);
        if (!pos) continue;
        const outpost::MoveList legal = outpost::legal_moves(*pos);
        if (legal.empty()) continue;
        const std::string uci = outpost::move_to_uci(*pos, legal[int(rng() % unsigned(legal.size()))]);
        const std::string m = R"({"v":1,"t":"move","uci":")" + uci + R"(","ply":)" + std::to_string(ply) + "}";
        slot.sent_at[ply] = Clock::now();
        co_await ws.async_write(asio::buffer(m), asio::redirect_error(use_awaitable, ec));
        if (ec) co_return;
        if (measuring) ++stats.moves;
    }
}

// Creates the games share by share: Creators requests in flight at once, as many
// people would (the server stores them in batches); the players connect when all
// games exist.
constexpr size_t Creators = 32;

awaitable<void> create_games(std::vector<GameSlot>& slots, size_t first, bool& failed) {
    for (size_t i = first; i < slots.size() && !failed; i += Creators) {
        const bool hotseat = int(i) < opts.hotseat;
        auto [status, body] = co_await outpost::bench::http_request(
            opts.host, opts.port, http::verb::post, "/api/v1/games", hotseat ? R"({"v":1,"opponent":"hotseat","time_control":"15+10","casual":false})"
                                     : R"({"v":1,"opponent":"invite","color":"white","time_control":"15+10","casual":false})");
        json j = json::parse(body, nullptr, false);
        if (j.is_discarded() || !j.contains("game")) {
            std::cerr << "create failed: " << body << "\n";
            failed = true;
            co_return;
        }
        slots[i].id = j["game"];
        slots[i].token[0] = j["seats"]["white"];
        slots[i].token[1] = j["seats"]["black"];
    }
}

void start_players(asio::any_io_executor ex, std::vector<GameSlot>& slots) {
    for (size_t i = 0; i < slots.size(); ++i)
        for (int side = 0; side < 2; ++side) {
            const bool hotseat = int(i) < opts.hotseat;
            if (hotseat && side == 1) continue;
            asio::co_spawn(ex, player(slots[i], hotseat ? 2 : side, i * 2 + side + 1), [](std::exception_ptr e) {
                if (e) ++stats.errors;
            });
        }
}

awaitable<void> run(std::vector<GameSlot>& slots) {
    auto ex = co_await asio::this_coro::executor;
    static bool failed = false;
    static size_t creating = Creators;
    for (size_t k = 0; k < Creators; ++k)
        asio::co_spawn(ex, create_games(slots, k, failed), [ex, &slots](std::exception_ptr e) {
            if (e) failed = true;
            if (--creating == 0 && !failed) start_players(ex, slots);
        });
    co_return;
}

}  // namespace

int main(int argc, char** argv) {
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string k = argv[i], v = argv[i + 1];
        if (k == "--host") opts.host = v;
        else if (k == "--port") opts.port = v;
        else if (k == "--games") opts.games = std::stoi(v);
        else if (k == "--seconds") opts.seconds = std::stod(v);
        else if (k == "--think-ms") opts.think_ms = std::stoi(v);
        else if (k == "--server-pid") opts.server_pids = outpost::bench::parse_pids(v);
        else if (k == "--hotseat") opts.hotseat = std::stoi(v);
        else if (k == "--per-second") opts.per_second = v == "1";
        else if (k == "--warmup") opts.warmup = std::stod(v);
        else if (k == "--mark") opts.mark = v;
    }
    asio::io_context ioc;
    std::vector<GameSlot> slots(size_t(opts.games));
    asio::co_spawn(ioc, run(slots), [](std::exception_ptr e) {
        if (e) {
            try {
                std::rethrow_exception(e);
            } catch (const std::exception& ex) {
                std::cerr << "load: " << ex.what() << "\n";
            }
        }
    });
    // Warm up until every connection is open, then measure.
    asio::steady_timer timer(ioc);
    const auto started = Clock::now();
    std::optional<Clock::time_point> all_connected_at;
    std::function<void(beast::error_code)> tick = [&](beast::error_code) {
        // Every connection open, then a warm-up (the burst of connections and first
        // states leaves a queue behind it), then the measurement.
        if (!measuring && !all_connected_at && stats.connected == 2 * opts.games - std::min(opts.games, opts.hotseat))
            all_connected_at = Clock::now();
        if (!measuring && all_connected_at &&
            Clock::now() - *all_connected_at >= std::chrono::milliseconds(long(opts.warmup * 1000))) {
            measuring = true;
            cpu_from[0] = cpu_seconds(opts.server_pids);
            cpu_from[1] = cpu_seconds(0);
            cpu_from[2] = outpost::bench::foreground_cpu_seconds(opts.server_pids);
            measure_from = Clock::now();
            measure_until = measure_from + std::chrono::milliseconds(long(opts.seconds * 1000));
            if (!opts.mark.empty()) std::ofstream(opts.mark, std::ios::app) << "start" << std::endl;
        }
        if (!measuring && Clock::now() - started > std::chrono::seconds(300)) {
            std::fprintf(stderr, "load: only %d of the connections opened in 5 minutes\n", stats.connected);
            ioc.stop();
            return;
        }
        if (measuring && Clock::now() >= measure_until) {
            if (!opts.mark.empty()) std::ofstream(opts.mark, std::ios::app) << "end" << std::endl;
            ioc.stop();
            return;
        }
        timer.expires_after(std::chrono::milliseconds(100));
        timer.async_wait(tick);
    };
    tick({});
    ioc.run();
    const double cpu_server = cpu_seconds(opts.server_pids) - cpu_from[0];
    const double cpu_load = cpu_seconds(0) - cpu_from[1];
    const double cpu_foreground = outpost::bench::foreground_cpu_seconds(opts.server_pids) - cpu_from[2];
    auto& l = stats.latencies_ms;
    if (opts.per_second) {
        // The worst latency of each second of the measurement, to tell a steady load
        // from stalls.
        std::vector<double> worst(size_t(opts.seconds) + 2, 0.0);
        std::vector<long> count(worst.size(), 0);
        for (size_t i = 0; i < l.size(); ++i) {
            const size_t s = std::min(worst.size() - 1, size_t(stats.at_s[i]));
            worst[s] = std::max(worst[s], l[i]);
            ++count[s];
        }
        // (The monotonic clock's reading, as the server's OUTPOST_TRACE_STORAGE lines give it.)
        std::fprintf(stderr, "  measurement began at monotonic %.3f s\n",
                     std::chrono::duration<double>(measure_from.time_since_epoch()).count());
        for (size_t s = 0; s < worst.size(); ++s)
            std::fprintf(stderr, "  second %2zu: %6ld moves, worst %8.2f ms\n", s, count[s], worst[s]);
    }
    std::sort(l.begin(), l.end());
    const auto pct = [&](double p) { return l.empty() ? 0.0 : l[std::min(l.size() - 1, size_t(p * double(l.size())))]; };
    const double secs = std::chrono::duration<double>(Clock::now() - measure_from).count();
    std::printf("games %d  connections %d  moves %ld  moves/s %.0f  latency p50 %.2f ms  p99 %.2f ms  max %.2f ms  errors %ld\n",
                opts.games, stats.connected, stats.moves, measuring ? double(stats.moves) / secs : 0.0, pct(0.5), pct(0.99),
                l.empty() ? 0.0 : l.back(), stats.errors);
    if (measuring && stats.moves > 0)
        std::printf("  CPU per move: server %.0f us (%.0f%% of a core), load generator %.0f us (%.0f%% of a core)%s\n",
                    1e6 * cpu_server / double(stats.moves), 100 * cpu_server / secs, 1e6 * cpu_load / double(stats.moves),
                    100 * cpu_load / secs, opts.hotseat ? ("; " + std::to_string(std::min(opts.games, opts.hotseat)) +
                                                           " of the games are hotseat games on one connection").c_str() : "");
    if (measuring && stats.moves > 0 && !opts.server_pids.empty())
        std::printf("  server CPU per move without its background threads (nice 19, SCHED_IDLE): %.0f us (%.0f%% of a core)\n",
                    1e6 * cpu_foreground / double(stats.moves), 100 * cpu_foreground / secs);
    return measuring ? 0 : 1;
}
