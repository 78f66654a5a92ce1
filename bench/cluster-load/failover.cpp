// Outpost — bench/cluster-load's failover player: games played through the front while
// bench/cluster-load/run kills nodes with kill -9 (issue 26, item 7). Each game is a
// hotseat game on one WebSocket (one connection plays both seats), a random legal move
// a short random think after each acknowledgement. A move is *acknowledged* when its
// `move` message comes back (the server sends it only once the move is durable). A
// connection that ends is opened again through the front every 100 ms until a node
// takes it; its first `state` must hold every move acknowledged before (else they are
// counted lost). A game that ends is replaced by a new one.
//
// The run writes the realtime of each kill (seconds, one a line) to --kills-file; at the
// end this program reports, for each kill, the time until every game running then had a
// move acknowledged again (the takeover; it includes the think time before that move,
// at most 4 × --think-ms), their median and maximum, and checks every game it played
// against GET /api/v1/games/ID: acknowledged moves missing there are lost.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/edge/net.h"  // first: see net.h

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "../serve-load/client.h"
#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/uci.h"

using namespace outpost::server;
using nlohmann::json;
using asio::awaitable;
using asio::use_awaitable;

namespace {

struct Options {
    std::string host = "127.0.0.1";
    std::string port = "8080";
    int games = 100;
    double seconds = 0;  // 0: until SIGINT or SIGTERM (the run sends it after its last kill)
    int think_ms = 100;
    std::string kills_file;
};
Options opts;

double now_s() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

struct Game {
    std::string id, seat;
    std::vector<std::string> acknowledged;  // the moves acknowledged, in order
    std::vector<double> acked_at;           // when each was (realtime, s)
    double started = 0, ended = 0;          // realtime; ended 0 while it runs
    long lost = 0;                          // acknowledged moves a later state did not have
};

struct Totals {
    long moves = 0, connections_lost = 0, attempts_failed = 0, errors = 0, refused = 0;
};
Totals totals;
std::vector<std::shared_ptr<Game>> played;
bool stopping = false;

// The first moves of `now` must be `acknowledged`: the number of those missing.
long missing(const std::vector<std::string>& acknowledged, const json& moves) {
    size_t same = 0;
    while (same < acknowledged.size() && same < moves.size() && moves[same].is_string() &&
           moves[same].get<std::string>() == acknowledged[same])
        ++same;
    return long(acknowledged.size() - same);
}

awaitable<std::shared_ptr<Game>> new_game() {
    for (;;) {
        try {
            auto [status, body] = co_await outpost::bench::http_request(
                opts.host, opts.port, http::verb::post, "/api/v1/games",
                R"({"v":1,"opponent":"hotseat","time_control":"15+10","casual":true})");
            const json j = json::parse(body, nullptr, false);
            if (status == 201 && j.contains("game") && j.contains("seats")) {
                auto g = std::make_shared<Game>();
                g->id = j["game"];
                g->seat = j["seats"]["white"];
                g->started = now_s();
                played.push_back(g);
                co_return g;
            }
            ++totals.refused;
        } catch (const std::exception&) {
            ++totals.refused;
        }
        asio::steady_timer wait(co_await asio::this_coro::executor, std::chrono::milliseconds(100));
        co_await wait.async_wait(use_awaitable);
        if (stopping) co_return nullptr;
    }
}

// Plays one game on one connection until it ends, the connection ends or the run stops:
// true when the game is over.
awaitable<bool> play(Game& g, std::mt19937_64& rng, bool& connected) {
    auto ex = co_await asio::this_coro::executor;
    tcp::resolver resolver(ex);
    websocket::stream<beast::tcp_stream> ws(ex);
    auto results = co_await resolver.async_resolve(opts.host, opts.port, use_awaitable);
    beast::get_lowest_layer(ws).expires_after(std::chrono::seconds(5));
    co_await beast::get_lowest_layer(ws).async_connect(results, use_awaitable);
    co_await ws.async_handshake(opts.host, "/api/v1/ws?game=" + g.id + "&seat=" + g.seat, use_awaitable);
    beast::get_lowest_layer(ws).expires_never();
    connected = true;
    beast::flat_buffer buffer;
    asio::steady_timer think(ex);
    std::string sent;  // the move waiting for its acknowledgement
    for (;;) {
        buffer.clear();
        beast::error_code ec;
        co_await ws.async_read(buffer, asio::redirect_error(use_awaitable, ec));
        if (ec) co_return false;
        if (stopping) co_return false;
        const std::string text = beast::buffers_to_string(buffer.data());
        const json msg = json::parse(text, nullptr, false);
        if (msg.is_discarded()) continue;
        const std::string type = msg.value("t", "");
        if (type == "error") {
            ++totals.errors;
            sent.clear();
            continue;
        }
        if ((type != "state" && type != "move") || !msg.contains("game")) continue;
        const json& game = msg["game"];
        if (type == "state") {
            // After a (re)connection: the game as stored must hold every acknowledged move.
            if (!game.contains("moves")) continue;
            g.lost += missing(g.acknowledged, game["moves"]);
            // Moves the server has beyond those (sent, applied, the answer lost with
            // the node) count as acknowledged from now.
            const double t = now_s();
            g.acknowledged.clear();
            for (const auto& m : game["moves"]) g.acknowledged.push_back(m.get<std::string>());
            g.acked_at.resize(g.acknowledged.size(), t);
            sent.clear();
        } else {
            const int ply = game.value("ply", -1);
            const std::string uci = game.value("uci", "");
            if (ply != int(g.acknowledged.size()) + 1) {  // missed one: ask for the whole state
                co_await ws.async_write(asio::buffer(std::string(R"({"v":1,"t":"sync"})")),
                                        asio::redirect_error(use_awaitable, ec));
                if (ec) co_return false;
                continue;
            }
            g.acknowledged.push_back(uci);
            g.acked_at.push_back(now_s());
            ++totals.moves;
            sent.clear();
        }
        if (game.value("status", "") != "ongoing" || g.acknowledged.size() >= 600) {
            g.ended = now_s();
            co_return true;
        }
        if (!sent.empty() || !game.contains("fen")) continue;
        std::exponential_distribution<double> wait(1.0 / std::max(1, opts.think_ms));
        think.expires_after(std::chrono::milliseconds(int(std::min(wait(rng), 4.0 * opts.think_ms))));
        co_await think.async_wait(asio::redirect_error(use_awaitable, ec));
        auto pos = outpost::position_from_fen(game["fen"].get<std::string>(), false);
        if (!pos) continue;
        const outpost::MoveList legal = outpost::legal_moves(*pos);
        if (legal.empty()) continue;
        sent = outpost::move_to_uci(*pos, legal[int(rng() % unsigned(legal.size()))]);
        const std::string m = R"({"v":1,"t":"move","uci":")" + sent + R"(","ply":)" +
                              std::to_string(g.acknowledged.size()) + "}";
        co_await ws.async_write(asio::buffer(m), asio::redirect_error(use_awaitable, ec));
        if (ec) co_return false;
    }
}

// One slot: a game after another, each played over connections opened again as often
// as they end.
awaitable<void> slot(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto ex = co_await asio::this_coro::executor;
    while (!stopping) {
        auto g = co_await new_game();
        if (!g) co_return;
        while (!stopping) {
            bool over = false, connected = false;
            try {
                over = co_await play(*g, rng, connected);
            } catch (const std::exception&) {
            }
            if (over) break;
            if (stopping) co_return;
            ++(connected ? totals.connections_lost : totals.attempts_failed);
            asio::steady_timer wait(ex, std::chrono::milliseconds(100));
            co_await wait.async_wait(use_awaitable);
        }
    }
}

// Every game played, read back: acknowledged moves missing from the stored game.
awaitable<void> check_all(long& lost, long& checked, long& unreadable) {
    for (const auto& g : played) {
        checked += long(g->acknowledged.size());
        lost += g->lost;
        for (int attempt = 0; attempt < 50; ++attempt) {
            try {
                auto [status, body] =
                    co_await outpost::bench::http_request(opts.host, opts.port, http::verb::get, "/api/v1/games/" + g->id);
                const json j = json::parse(body, nullptr, false);
                if (status == 200 && j.contains("game") && j["game"].contains("moves")) {
                    lost += missing(g->acknowledged, j["game"]["moves"]);
                    break;
                }
            } catch (const std::exception&) {
            }
            if (attempt == 49) ++unreadable;
            asio::steady_timer wait(co_await asio::this_coro::executor, std::chrono::milliseconds(200));
            co_await wait.async_wait(use_awaitable);
        }
    }
}

// For each kill: the time until every game running then had a move acknowledged after it.
std::vector<double> takeovers(const std::vector<double>& kills, double end) {
    std::vector<double> result;
    for (double k : kills) {
        double worst = 0;
        for (const auto& g : played) {
            if (g->started > k || (g->ended && g->ended <= k)) continue;
            const auto after = std::upper_bound(g->acked_at.begin(), g->acked_at.end(), k);
            worst = std::max(worst, (after == g->acked_at.end() ? end : *after) - k);
        }
        result.push_back(worst);
    }
    return result;
}

}  // namespace

int main(int argc, char** argv) {
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string k = argv[i], v = argv[i + 1];
        if (k == "--host") opts.host = v;
        else if (k == "--port") opts.port = v;
        else if (k == "--games") opts.games = std::stoi(v);
        else if (k == "--seconds") opts.seconds = std::stod(v);
        else if (k == "--think-ms") opts.think_ms = std::stoi(v);
        else if (k == "--kills-file") opts.kills_file = v;
        else {
            std::cerr << "failover: unknown option " << k << "\n";
            return 2;
        }
    }
    asio::io_context ioc;
    for (int i = 0; i < opts.games; ++i) asio::co_spawn(ioc, slot(std::uint64_t(i) + 1), asio::detached);
    asio::steady_timer stop(ioc, std::chrono::milliseconds(long(opts.seconds * 1000)));
    asio::signal_set signals(ioc, SIGINT, SIGTERM);
    auto finish = [&](beast::error_code ec, auto...) {
        if (ec == asio::error::operation_aborted) return;
        stopping = true;
        ioc.stop();
    };
    if (opts.seconds > 0) stop.async_wait(finish);
    signals.async_wait(finish);
    ioc.run();
    const double end = now_s();
    // The check, on a fresh context (the players' connections are dropped with the old one).
    long lost = 0, checked = 0, unreadable = 0;
    {
        asio::io_context check;
        asio::co_spawn(check, check_all(lost, checked, unreadable), asio::detached);
        check.run();
    }
    std::vector<double> kills;
    if (!opts.kills_file.empty()) {
        std::ifstream in(opts.kills_file);
        for (double t; in >> t;) kills.push_back(t);
    }
    std::vector<double> times = takeovers(kills, end);
    std::vector<double> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    std::printf("games %zu  move acknowledgements %ld  connections lost %ld  failed attempts to reconnect %ld  errors %ld  "
                "games refused %ld\n",
                played.size(), totals.moves, totals.connections_lost, totals.attempts_failed, totals.errors, totals.refused);
    std::printf("  kills %zu  takeover p50 %.2f s  max %.2f s (each: until every game had a move acknowledged again)\n",
                kills.size(), sorted.empty() ? 0.0 : sorted[sorted.size() / 2], sorted.empty() ? 0.0 : sorted.back());
    std::printf("  acknowledged moves lost: %ld of %ld (checked against GET /api/v1/games/ID; %ld games unreadable)\n", lost,
                checked, unreadable);
    if (!times.empty()) {
        std::printf("  takeover of each kill, s:");
        for (double t : times) std::printf(" %.2f", t);
        std::printf("\n");
    }
    return lost == 0 && unreadable == 0 ? 0 : 1;
}
