// Outpost — learn from your mistakes (issue 29 item 4): in a position of one's own
// finished game, the player tries a better move than the one played; the server's engine
// searches the position and the tried move (a short, fixed budget) and accepts the move
// when it would not have been marked — its drop in winning chances from the engine's
// best is below the inaccuracy threshold (engine/judgement.h, docs/analysis.md) — and
// answers with the engine's line.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// POST /api/v1/games/ID/mistakes {"v":1,"ply":N,"uci":"e2e4"}: ply N is the move of the
// game to improve on (1 = the first move), a move of the signed-in account's own side.
// One engine for the whole server, one search at a time: a request that finds it busy
// is answered rate_limited at once (no queue to fill); per address and per account a
// token bucket bounds the searches.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "server/common/guards.h"
#include "server/common/http.h"
#include "server/play/hub.h"
#include "server/stores/game_store.h"

namespace outpost::engine {
class Engine;
}

namespace outpost::server {

class MistakeCoach {
public:
    MistakeCoach(Hub& hub, Storage& storage, std::uint64_t nodes, bool client_limits,
                 std::function<Millis()> monotonic_ms);
    ~MistakeCoach();
    HttpResponse try_move(const HttpRequest& req, const std::string& game_id);
    // Issue 26: its limits counted by every node too (RateLimiter::share).
    void share_limits(SharedLimits* shared) {
        per_address_.share(shared, "mistakes");
        per_account_.share(shared, "mistakes");
    }

private:
    Hub& hub_;
    Storage& storage_;
    std::uint64_t nodes_;
    bool client_limits_;
    std::function<Millis()> now_;
    RateLimiter per_address_{1.0 / 3, 20};
    RateLimiter per_account_{1.0 / 3, 20};
    std::mutex engine_mutex_;
    std::unique_ptr<engine::Engine> engine_;  // made at the first request
};

}  // namespace outpost::server
