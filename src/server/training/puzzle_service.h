// Outpost — the puzzles' routes (issue 29 items 3 and 4; docs/protocol.md, "Puzzles"):
// the next puzzle near the player's rating (by theme), a puzzle, an attempt checked
// move by move against the solution, hints, the themes with their counts, the
// account's history; and "learn from your mistakes": a better move tried in a position
// of one's own analysed game, judged by a short search of the server's engine.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The server holds no state of a solve: every attempt carries the solver's moves so far
// and is checked from the start. A right move that is not the last is answered with the
// opponent's reply and changes nothing; the last right move, a wrong one, giving up or
// asking for a hint ends the account's attempt: it is stored, and the account's first
// attempt at a puzzle changes its puzzle rating and the puzzle's (puzzle_rules.h).
// Guests solve the same way; nothing of theirs is stored or rated.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "server/common/guards.h"
#include "server/common/http.h"
#include "server/play/hub.h"
#include "server/stores/puzzle_store.h"

namespace outpost::server {

class MistakeCoach;

struct PuzzleEnv {
    std::function<std::int64_t()> wall_ms;
    std::function<Millis()> monotonic_ms;
    std::vector<std::string> allowed_origins;  // as --allow-origin
    bool client_limits = true;                 // false: no per-address limits (--no-client-limits)
    std::uint64_t mistake_nodes = 100'000;     // the engine's budget for a tried move (learn from mistakes)
    std::uint32_t seed = 0;                    // the next puzzle's random spread (0: from the device)
};

class PuzzleService {
public:
    // `storage`: the games (whose own game a position of learn-from-mistakes is); none: that route is not_found.
    PuzzleService(PuzzleEnv env, PuzzleStore& store, Hub& hub, Storage* storage);
    ~PuzzleService();
    PuzzleService(const PuzzleService&) = delete;
    PuzzleService& operator=(const PuzzleService&) = delete;

    // /api/v1/puzzles…, and /api/v1/games/ID/mistakes.
    static bool handles(const HttpRequest& req);
    HttpResponse handle(const HttpRequest& req);
    // After puzzles were added (the starter set, the background job): the themes' counts are read afresh.
    void puzzles_added();
    // Issue 26: its per-address limits counted by every node too (RateLimiter::share).
    // Before the first request.
    void share_limits(SharedLimits* shared);

private:
    HttpResponse next(const HttpRequest& req, const std::map<std::string, std::string>& query);
    HttpResponse one(const HttpRequest& req, const std::string& id);
    HttpResponse attempt(const HttpRequest& req, const std::string& id);
    HttpResponse give_hint(const HttpRequest& req, const std::string& id);
    HttpResponse themes();
    HttpResponse history(const HttpRequest& req, const std::map<std::string, std::string>& query);
    bool limited(RateLimiter& limiter, const HttpRequest& req);

    PuzzleEnv env_;
    PuzzleStore& store_;
    std::unique_ptr<MistakeCoach> coach_;
    RateLimiter reads_{10, 60};     // next, a puzzle, themes, history: per address
    RateLimiter attempts_{5, 40};   // attempts and hints: per address
    std::mutex mutex_;
    std::mt19937 random_;
    std::string themes_json_;       // cached; "" when to be read again
    Millis themes_read_ = 0;
};

}  // namespace outpost::server
