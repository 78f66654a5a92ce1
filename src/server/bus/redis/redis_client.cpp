// Outpost — one connection to Redis (redis_client.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/bus/redis/redis_client.h"

#include <hiredis/hiredis.h>

#include <pthread.h>
#include <signal.h>

#include <cerrno>
#include <charconv>
#include <ctime>

namespace outpost::server::redis {

namespace {

bool parse_int(std::string_view s, int& out, int lo, int hi) {
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return !s.empty() && ec == std::errc() && p == s.data() + s.size() && out >= lo && out <= hi;
}

timeval to_timeval(std::chrono::milliseconds ms) {
    timeval tv{};
    tv.tv_sec = static_cast<long>(ms.count() / 1000);
    tv.tv_usec = static_cast<long>((ms.count() % 1000) * 1000);
    return tv;
}

}  // namespace

Result<Endpoint> Endpoint::parse(std::string_view url) {
    Endpoint e;
    for (std::string_view scheme : {"unix://", "redis+unix://"}) {
        if (url.substr(0, scheme.size()) == scheme) {
            e.socket_path = std::string(url.substr(scheme.size()));
            if (e.socket_path.empty() || e.socket_path[0] != '/')
                return make_error("'" + std::string(url) + "': a Unix socket needs an absolute path (unix:///run/redis.sock)");
            return e;
        }
    }
    constexpr std::string_view scheme = "redis://";
    if (url.substr(0, scheme.size()) != scheme)
        return make_error("'" + std::string(url) + "': a Redis address starts with redis:// or unix://");
    std::string_view rest = url.substr(scheme.size());
    if (const auto slash = rest.find('/'); slash != std::string_view::npos) {
        const std::string_view db = rest.substr(slash + 1);
        if (!db.empty() && !parse_int(db, e.db, 0, 1023))
            return make_error("'" + std::string(url) + "': the database number '" + std::string(db) + "' is not 0..1023");
        rest = rest.substr(0, slash);
    }
    if (rest.find('@') != std::string_view::npos)
        return make_error("'" + std::string(url) + "': a user or password in the address is not supported");
    std::string_view host = rest;
    if (!rest.empty() && rest[0] == '[') {  // [::1]:6379
        const auto close = rest.find(']');
        if (close == std::string_view::npos) return make_error("'" + std::string(url) + "': an IPv6 address without ']'");
        host = rest.substr(1, close - 1);
        rest = rest.substr(close + 1);
        if (!rest.empty() && rest[0] != ':') return make_error("'" + std::string(url) + "': text after the IPv6 address");
        if (!rest.empty() && !parse_int(rest.substr(1), e.port, 1, 65535))
            return make_error("'" + std::string(url) + "': the port is not 1..65535");
    } else if (const auto colon = rest.rfind(':'); colon != std::string_view::npos) {
        host = rest.substr(0, colon);
        if (!parse_int(rest.substr(colon + 1), e.port, 1, 65535))
            return make_error("'" + std::string(url) + "': the port is not 1..65535");
    }
    if (host.empty()) return make_error("'" + std::string(url) + "': no host");
    e.host = std::string(host);
    return e;
}

std::string Endpoint::text() const {
    if (!socket_path.empty()) return "unix://" + socket_path;
    return "redis://" + (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

Result<redisContext*> open_context(const Endpoint& where, std::chrono::milliseconds timeout) {
    const timeval tv = to_timeval(timeout);
    redisContext* c = where.socket_path.empty() ? redisConnectWithTimeout(where.host.c_str(), where.port, tv)
                                                : redisConnectUnixWithTimeout(where.socket_path.c_str(), tv);
    if (c == nullptr) return make_error("Redis at " + where.text() + ": out of memory");
    if (c->err != 0) {
        std::string why = c->errstr;
        redisFree(c);
        return make_error("Redis at " + where.text() + ": " + why);
    }
    if (redisSetTimeout(c, tv) != REDIS_OK) {
        redisFree(c);
        return make_error("Redis at " + where.text() + ": cannot set the timeout");
    }
    if (where.db != 0) {
        const std::string db = std::to_string(where.db);
        auto* r = static_cast<redisReply*>(redisCommand(c, "SELECT %s", db.c_str()));
        auto ok = take_reply(r);
        if (!ok || c->err != 0) {
            redisFree(c);
            return make_error("Redis at " + where.text() + ": SELECT " + db + ": " + (ok ? "lost" : ok.error().message));
        }
    }
    return c;
}

namespace {

// Copies a reply (and its elements, which it owns) without freeing anything; errors
// inside an array (a transaction's) are kept as STATUS text starting with "ERR".
Reply copy_reply(const redisReply* r) {
    Reply out;
    switch (r->type) {
        case REDIS_REPLY_INTEGER: out.kind = Reply::Kind::INTEGER; out.integer = r->integer; break;
        case REDIS_REPLY_STRING: out.kind = Reply::Kind::STRING; out.str.assign(r->str, r->len); break;
        case REDIS_REPLY_STATUS:
        case REDIS_REPLY_ERROR: out.kind = Reply::Kind::STATUS; out.str.assign(r->str, r->len); break;
        case REDIS_REPLY_ARRAY:
            out.kind = Reply::Kind::ARRAY;
            for (std::size_t i = 0; i < r->elements; ++i) out.elements.push_back(copy_reply(r->element[i]));
            break;
        default: out.kind = Reply::Kind::NIL; break;
    }
    return out;
}

}  // namespace

Result<Reply> take_reply(void* raw) {
    auto* r = static_cast<redisReply*>(raw);
    if (r == nullptr) return make_error("no reply (connection lost)");
    std::optional<std::string> error;
    if (r->type == REDIS_REPLY_ERROR) error = std::string(r->str, r->len);
    Reply out = error ? Reply{} : copy_reply(r);
    freeReplyObject(r);
    if (error) return make_error(*error);
    return out;
}

SigpipeGuard::SigpipeGuard() {
    sigset_t pipe, old, pending;
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    sigpending(&pending);
    was_pending_ = sigismember(&pending, SIGPIPE) == 1;
    pthread_sigmask(SIG_BLOCK, &pipe, &old);
    was_blocked_ = sigismember(&old, SIGPIPE) == 1;
}

SigpipeGuard::~SigpipeGuard() {
    sigset_t pipe, pending;
    sigemptyset(&pipe);
    sigaddset(&pipe, SIGPIPE);
    sigpending(&pending);
    if (!was_pending_ && sigismember(&pending, SIGPIPE) == 1) {
        const timespec zero{0, 0};
        while (sigtimedwait(&pipe, nullptr, &zero) == -1 && errno == EINTR) {
        }
    }
    if (!was_blocked_) pthread_sigmask(SIG_UNBLOCK, &pipe, nullptr);
}

RedisClient::RedisClient(Endpoint where, std::chrono::milliseconds timeout) : where_(std::move(where)), timeout_(timeout) {}

RedisClient::~RedisClient() {
    std::lock_guard lock(mu_);
    drop_locked();
}

void RedisClient::drop_locked() {
    if (ctx_ != nullptr) redisFree(ctx_);
    ctx_ = nullptr;
}

bool RedisClient::connected() const {
    std::lock_guard lock(mu_);
    return ctx_ != nullptr;
}

Result<bool> RedisClient::connect() {
    std::lock_guard lock(mu_);
    next_try_ = {};
    return connect_locked();
}

Result<bool> RedisClient::connect_locked() {
    if (ctx_ != nullptr) return true;
    const auto now = std::chrono::steady_clock::now();
    if (now < next_try_) return make_error("Redis at " + where_.text() + ": down, next try in " +
                                           std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(next_try_ - now).count()) + " ms");
    auto c = open_context(where_, timeout_);
    if (!c) {
        next_try_ = now + pause_;
        pause_ = std::min(pause_ * 2, std::chrono::milliseconds(2000));
        return make_error(c.error().message);
    }
    ctx_ = *c;
    pause_ = std::chrono::milliseconds(50);
    return true;
}

Result<Reply> RedisClient::command(const std::vector<std::string>& argv) {
    std::vector<const char*> args;
    std::vector<std::size_t> lens;
    args.reserve(argv.size());
    lens.reserve(argv.size());
    for (const auto& a : argv) {
        args.push_back(a.data());
        lens.push_back(a.size());
    }
    std::lock_guard lock(mu_);
    const SigpipeGuard no_sigpipe;
    if (auto ok = connect_locked(); !ok) return make_error(ok.error().message);
    void* raw = redisCommandArgv(ctx_, static_cast<int>(args.size()), args.data(), lens.data());
    if (raw == nullptr || ctx_->err != 0) {
        std::string why = ctx_->err != 0 ? std::string(ctx_->errstr) : "no reply";
        if (raw != nullptr) freeReplyObject(raw);
        drop_locked();
        return make_error("Redis at " + where_.text() + ": " + why);
    }
    return take_reply(raw);
}

std::vector<Result<Reply>> RedisClient::pipeline(const std::vector<std::vector<std::string_view>>& commands) {
    std::vector<Result<Reply>> out;
    out.reserve(commands.size());
    std::lock_guard lock(mu_);
    const SigpipeGuard no_sigpipe;
    const auto fail_rest = [&](const std::string& why) {
        while (out.size() < commands.size()) out.emplace_back(make_error("Redis at " + where_.text() + ": " + why));
    };
    if (auto ok = connect_locked(); !ok) {
        fail_rest(ok.error().message);
        return out;
    }
    std::vector<const char*> args;
    std::vector<std::size_t> lens;
    for (const auto& argv : commands) {
        args.clear();
        lens.clear();
        for (const auto& a : argv) {
            args.push_back(a.data());
            lens.push_back(a.size());
        }
        if (redisAppendCommandArgv(ctx_, static_cast<int>(args.size()), args.data(), lens.data()) != REDIS_OK) {
            const std::string why = ctx_->err != 0 ? std::string(ctx_->errstr) : "out of memory";
            drop_locked();
            fail_rest(why);
            return out;
        }
    }
    for (std::size_t i = 0; i < commands.size(); ++i) {
        void* raw = nullptr;
        if (redisGetReply(ctx_, &raw) != REDIS_OK || raw == nullptr) {
            const std::string why = ctx_->err != 0 ? std::string(ctx_->errstr) : "no reply";
            if (raw != nullptr) freeReplyObject(raw);
            drop_locked();
            fail_rest(why);
            return out;
        }
        auto r = take_reply(raw);
        out.push_back(r ? Result<Reply>(std::move(*r)) : Result<Reply>(make_error(r.error().message)));
    }
    return out;
}

}  // namespace outpost::server::redis
