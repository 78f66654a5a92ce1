// Outpost — analysis of finished games over HTTP (issue 10, SPEC E4; docs/protocol.md,
// "Analysis"): who may ask, how much, the queue, and the store.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A client asks with POST /api/v1/games/ID/analysis and polls GET on the same path.
// The service reads the game from the hub (it must be over), runs it on its
// AnalysisPool with the server's fixed budget (a client chooses nothing that costs),
// turns the result into the protocol's JSON and stores that in the database, from
// where every later request is answered without computing anything.
//
// Bounds, so that no client makes the server analyse thousands of games: the pool's
// queue (max_queue games waiting, server-wide), per client address at most
// `per_client_at_once` games queued or running, and a token bucket of analyses per
// address (common/guards.h's RateLimiter); a game's size is bounded by AnalysisPool::MaxPlies.
// Reading a stored analysis costs no analysis budget.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/analysis.h"
#include "server/analysis/analysis_pool.h"
#include "server/common/guards.h"
#include "server/play/hub.h"
#include "server/stores/game_store.h"

namespace outpost::server {

class AnalysisService {
public:
    struct Options {
        AnalysisPool::Options pool{};
        engine::AnalysisSettings settings{};  // per position; the same for every request
        bool client_limits = true;             // false: no per-address limits (--no-client-limits)
        int per_client_at_once = 2;            // analyses one address may have queued or running
        double per_client_per_second = 1.0 / 60, per_client_burst = 20;  // analyses started per address
        std::size_t max_finished_in_memory = 64;  // results kept in memory (also in storage)
    };

    AnalysisService(Options options, Hub& hub, Storage* storage, std::function<Millis()> monotonic_ms);
    ~AnalysisService();
    AnalysisService(const AnalysisService&) = delete;
    AnalysisService& operator=(const AnalysisService&) = delete;

    // POST: starts (or finds) the analysis of a finished game. 200 with the analysis
    // when there is one, 202 with the progress otherwise.
    // `client`: the address; `account`: the signed-in account (0: none). Issue 25: the
    // limits hold per address (an IPv6 /64) and per account, and anonymous requests
    // have at most half of the queue.
    std::pair<int, Answer<std::string>> request(const std::string& game_id, std::string_view body,
                                                const std::string& client, std::int64_t account = 0);
    // GET: the analysis or its progress; not_found when nobody asked for one.
    Answer<std::string> status(const std::string& game_id);
    // Games waiting for a worker (outpost_analysis_queue).
    std::size_t queue_length() const { return pool_.queue_length(); }

    // Turns an analysis into the protocol's "analysis" object (docs/protocol.md).
    static std::string analysis_json(const engine::GameAnalysis& a, const Position& start,
                                     const std::vector<Move>& moves, const engine::AnalysisSettings& settings);

private:
    struct Pending {
        std::vector<std::string> clients;  // the keys of at_once_ it counts under
        Position start;
        std::vector<Move> moves;
    };
    void on_report(const std::string& game_id, const AnalysisPool::Status& st);
    std::optional<std::string> finished_locked(const std::string& game_id);
    void remember_locked(const std::string& game_id, std::string json);

    Options options_;
    Hub& hub_;
    Storage* storage_;
    std::function<Millis()> now_;
    RateLimiter started_;
    std::mutex mutex_;
    std::unordered_map<std::string, Pending> pending_;       // queued or running, by game
    std::unordered_map<std::string, int> at_once_;           // queued or running, by client
    std::unordered_map<std::string, std::string> finished_;  // game -> the analysis' JSON
    std::list<std::string> finished_order_;
    // Last: its workers call on_report, so it goes first.
    AnalysisPool pool_;
};

}  // namespace outpost::server
