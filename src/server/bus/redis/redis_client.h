// Outpost — one connection to Redis (issue 26, SPEC D2): where it is (`redis://HOST:PORT`
// or a Unix socket), commands with binary-safe arguments, replies as plain values, and
// a reconnection with a growing pause when the server went away.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Through hiredis (Debian's libhiredis-dev), the client the field uses from C and C++.
// A RedisClient is one synchronous connection guarded by a mutex: a command is a round
// trip, and a caller that needs many (a lease's renewals, a node's publications) keeps
// its own client. A lost connection is never an exception: the command answers an
// error naming what failed, and the next command reconnects, at most once per pause
// (50 ms, doubling to 2 s) so that a Redis that is down costs a caller one failed
// connect per pause and no more.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chess/result.h"

struct redisContext;

namespace outpost::server::redis {

// Where Redis listens. `redis://HOST[:PORT][/DB]` (port 6379 by default) or
// `unix:///PATH` (also `redis+unix:///PATH`). An error says which part is wrong.
struct Endpoint {
    std::string host;  // empty for a Unix socket
    int port = 6379;
    std::string socket_path;
    int db = 0;

    static Result<Endpoint> parse(std::string_view url);
    std::string text() const;  // for messages: redis://host:port or unix:///path
};

// A reply, read out of hiredis's own structure.
struct Reply {
    enum class Kind : std::uint8_t { NIL, INTEGER, STRING, ARRAY, STATUS };
    Kind kind = Kind::NIL;
    long long integer = 0;
    std::string str;             // STRING and STATUS
    std::vector<Reply> elements;  // ARRAY

    bool is_nil() const { return kind == Kind::NIL; }
};

class RedisClient {
public:
    explicit RedisClient(Endpoint where, std::chrono::milliseconds timeout = std::chrono::milliseconds(2000));
    ~RedisClient();
    RedisClient(const RedisClient&) = delete;
    RedisClient& operator=(const RedisClient&) = delete;

    // Connects now (a node's start: an unreachable Redis is said at once, with where).
    Result<bool> connect();
    // One command, e.g. {"SET", key, value, "NX", "PX", "5000"}. A Redis error reply
    // ("ERR ...", "WRONGTYPE ...") and a lost connection are errors; the second also
    // drops the connection so that the next command reconnects.
    Result<Reply> command(const std::vector<std::string>& argv);
    // Several commands written at once and their replies read in order (one round trip
    // and one wake-up of Redis for all): each one's reply or error. A lost connection
    // fails the one it was lost on and every one after it.
    std::vector<Result<Reply>> pipeline(const std::vector<std::vector<std::string_view>>& commands);
    bool connected() const;
    const Endpoint& endpoint() const { return where_; }

private:
    Result<bool> connect_locked();
    void drop_locked();

    Endpoint where_;
    std::chrono::milliseconds timeout_;
    mutable std::mutex mu_;
    redisContext* ctx_ = nullptr;
    std::chrono::steady_clock::time_point next_try_{};
    std::chrono::milliseconds pause_{50};
};

// While it lives, a write to a Redis that went away does not kill the process: hiredis
// writes to its socket with write(2), which raises SIGPIPE on a closed peer. The signal
// is blocked in this thread and, if the write raised it, taken back before the mask is
// restored (the process's own handling of SIGPIPE is left as it was).
class SigpipeGuard {
public:
    SigpipeGuard();
    ~SigpipeGuard();
    SigpipeGuard(const SigpipeGuard&) = delete;
    SigpipeGuard& operator=(const SigpipeGuard&) = delete;

private:
    bool was_pending_ = false;
    bool was_blocked_ = false;
};

// Opens a connection to `where` with `timeout` (connect and every read and write), and
// SELECTs its database. Shared by RedisClient and the subscriber, which keeps its own.
Result<redisContext*> open_context(const Endpoint& where, std::chrono::milliseconds timeout);
// hiredis's reply as a Reply, or the error it carries.
Result<Reply> take_reply(void* redis_reply);

}  // namespace outpost::server::redis
