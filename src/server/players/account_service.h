// Outpost — accounts over HTTP (SPEC P21; docs/protocol.md, "Accounts"): sign up,
// sign in, sign out (here or everywhere), change password, who am I, keep an anonymous
// game, and the players' profiles.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A password hash costs 64 MiB and ~0.1 s of a core (accounts.h). The routes that
// compute one (sign up, sign in, change password) never run on the network thread:
// the server hands them to this service's own small pool of threads (`workers`, at
// most that many hashes at once) through a bounded queue; a full queue is answered at
// once with `rate_limited` (HTTP 503). Sign-in, sign-up and password-change attempts
// are also limited per client address (a token bucket; an IPv6 client is its /64),
// so that one address cannot guess passwords quickly nor keep the pool busy for
// everyone; and wrong passwords per account, from whatever address (AttemptGuard:
// after a few, a delay that doubles), so that many addresses cannot either. A
// browser signed in as the account signs in again without that delay. The cheap routes (who am I, sign out,
// claim, profiles) run where they are called.
//
// CSRF: every POST here needs `Content-Type: application/json` (the edge's rule for
// all POSTs) and, when the browser sends an Origin, the server's own origin (the
// WebSocket rule of common/guards.h); with the SameSite=Lax cookie, another site's page can
// neither send these requests with the visitor's cookie nor read the answers.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "server/accounts/accounts.h"
#include "server/accounts/session_end.h"
#include "server/common/guards.h"
#include "server/common/shared_limits.h"
#include "server/play/hub.h"
#include "server/common/http.h"
#include "server/stores/game_store.h"

namespace outpost::server {

class AccountService {
public:
    struct Options {
        int workers = 2;                  // password hashes computed at once
        std::size_t max_queue = 16;       // hashing requests waiting; more: rate_limited (503)
        bool client_limits = true;        // false: no per-address limit (--no-client-limits)
        double attempts_per_second = 0.2, attempts_burst = 10;  // sign-in, sign-up and password-change attempts per address
        AttemptGuard::Options account_attempts{};  // wrong passwords per account (issue 25), from any address
        std::vector<std::string> allowed_origins;  // as --allow-origin (common/guards.h origin_allowed)
        // Issue 26: the same limits counted by every node of a cluster (null: this node's
        // alone): the attempts per address (sign-up, sign-in, password change) and the
        // wrong passwords per account. Asked on the hashing pool's threads.
        SharedLimits* shared = nullptr;
        // Issue 25: closes the connections of sessions that end (signing out, a
        // password change); unset: none to close.
        EndSessions end_sessions;
    };

    AccountService(Options options, AccountStore& store, Hub& hub, Storage* storage,
                   std::function<std::int64_t()> wall_ms, std::function<Millis()> monotonic_ms);
    ~AccountService();  // waits for the requests being hashed; drops the queued ones unanswered
    AccountService(const AccountService&) = delete;
    AccountService& operator=(const AccountService&) = delete;

    // Whether this service answers the request's path.
    static bool handles(const HttpRequest& req);
    // Whether the request computes a password hash (then: submit, not handle).
    static bool hashes(const HttpRequest& req);

    // Admits a hashing request: refused at once (the answer to send) when the address
    // has tried too often or the queue is full; otherwise `done` is called later on a
    // worker thread with the answer.
    std::optional<HttpResponse> submit(HttpRequest req, std::function<void(HttpResponse)> done);

    // Answers any request of handles() on the calling thread (what a worker runs; the
    // server calls it directly only for the routes that do not hash).
    HttpResponse handle(const HttpRequest& req);

    // For tests: requests waiting, and hashes running.
    std::size_t queued() const;
    int running() const;

private:
    struct Job {
        HttpRequest req;
        std::function<void(HttpResponse)> done;
    };
    void work();
    HttpResponse sign_up(const HttpRequest& req);
    HttpResponse sign_in(const HttpRequest& req);
    HttpResponse sign_out(const HttpRequest& req, bool everywhere);
    HttpResponse change_password(const HttpRequest& req);
    HttpResponse who_am_i(const HttpRequest& req);
    HttpResponse claim(const HttpRequest& req, const std::string& game_id);
    // A profile's account and its games (newest first, at most MaxGamesScanned), or the
    // answer that says why not (no such player, the database).
    struct PlayerGames {
        Account account;
        std::vector<StoredSummary> games;
    };
    Result<PlayerGames, HttpResponse> player_games(const std::string& name);
    HttpResponse profile(const std::string& name);
    HttpResponse games(const std::string& name, const std::map<std::string, std::string>& query);
    HttpResponse ratings(const std::string& name);  // P23: GET /api/v1/players/NAME/ratings
    std::optional<HttpResponse> refuse_cross_site(const HttpRequest& req) const;
    HttpResponse signed_in(const Account& a, const std::string& token, bool secure, int status);

    Options options_;
    AccountStore& store_;
    Hub& hub_;
    Storage* storage_;
    std::function<std::int64_t()> wall_ms_;
    std::function<Millis()> monotonic_ms_;
    RateLimiter attempts_;
    // Issue 25: wrong passwords per account (sign-in: "name:KEY"; change: "id:N").
    AttemptGuard account_attempts_;
    std::optional<HttpResponse> refuse_account_attempt(const HttpRequest& req, const std::string& path);
    // Issue 26: the shared counts' refusal of a hashing request (on a worker: it may wait
    // for Redis), and a wrong or right password told to both counts.
    std::optional<HttpResponse> refuse_shared(const HttpRequest& req);
    void attempt_failed(const std::string& key);
    void attempt_succeeded(const std::string& key);

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Job> queue_;
    int running_ = 0;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace outpost::server
