// Outpost — Redis publish/subscribe (redis_channels.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/bus/redis/redis_channels.h"

#include <hiredis/hiredis.h>
#include <poll.h>

#include <cerrno>

namespace outpost::server::redis {

Result<long long> publish(RedisClient& redis, const std::string& channel, const std::string& payload) {
    auto r = redis.command({"PUBLISH", channel, payload});
    if (!r) return make_error(r.error().message);
    return r->integer;
}

std::vector<Result<long long>> publish_all(RedisClient& redis,
                                           const std::vector<std::pair<std::string_view, std::string_view>>& messages) {
    std::vector<std::vector<std::string_view>> commands;
    commands.reserve(messages.size());
    for (const auto& [channel, payload] : messages) commands.push_back({"PUBLISH", channel, payload});
    std::vector<Result<long long>> out;
    out.reserve(messages.size());
    for (auto& r : redis.pipeline(commands)) {
        if (r) out.emplace_back(r->integer);
        else out.emplace_back(make_error(r.error().message));
    }
    return out;
}

RedisSubscriber::RedisSubscriber(Endpoint where, OnMessage on_message, OnLink on_link)
    : where_(std::move(where)), on_message_(std::move(on_message)), on_link_(std::move(on_link)) {
    thread_ = std::thread([this] { run(); });
}

RedisSubscriber::~RedisSubscriber() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
}

void RedisSubscriber::subscribe(const std::string& channel) {
    std::lock_guard lock(mu_);
    if (wanted_.insert(channel).second) todo_.emplace_back(true, channel);
}

void RedisSubscriber::unsubscribe(const std::string& channel) {
    std::lock_guard lock(mu_);
    if (wanted_.erase(channel) > 0) todo_.emplace_back(false, channel);
}

bool RedisSubscriber::wait_subscribed(std::chrono::milliseconds timeout) {
    const auto until = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        {
            std::lock_guard lock(mu_);
            if (linked_ && confirmed_ == wanted_) return true;
        }
        if (std::chrono::steady_clock::now() >= until) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
}

// Sends what is to be sent, reads what came; false when the connection is lost.
bool RedisSubscriber::pump(redisContext* c) {
    const SigpipeGuard no_sigpipe;
    {
        std::lock_guard lock(mu_);
        for (const auto& [sub, channel] : todo_) {
            const char* argv[2] = {sub ? "SUBSCRIBE" : "UNSUBSCRIBE", channel.c_str()};
            const std::size_t lens[2] = {sub ? 9u : 11u, channel.size()};
            if (redisAppendCommandArgv(c, 2, argv, lens) != REDIS_OK) return false;
        }
        todo_.clear();
    }
    int done = 0;
    while (!done)
        if (redisBufferWrite(c, &done) != REDIS_OK) return false;
    pollfd p{c->fd, POLLIN, 0};
    const int n = ::poll(&p, 1, 20);
    if (n < 0) return errno == EINTR;
    if (n > 0 && redisBufferRead(c) != REDIS_OK) return false;
    for (;;) {
        void* raw = nullptr;
        if (redisGetReplyFromReader(c, &raw) != REDIS_OK) return false;
        if (raw == nullptr) return true;
        auto r = take_reply(raw);
        if (!r || r->kind != Reply::Kind::ARRAY || r->elements.size() < 3) continue;
        const std::string& kind = r->elements[0].str;
        const std::string& channel = r->elements[1].str;
        if (kind == "message") {
            on_message_(channel, r->elements[2].str);
        } else if (kind == "subscribe") {
            std::lock_guard lock(mu_);
            if (wanted_.count(channel)) confirmed_.insert(channel);
        } else if (kind == "unsubscribe") {
            std::lock_guard lock(mu_);
            confirmed_.erase(channel);
        }
    }
}

void RedisSubscriber::run() {
    auto pause = std::chrono::milliseconds(50);
    while (!stop_) {
        auto c = open_context(where_, std::chrono::milliseconds(1000));
        if (!c) {
            const auto until = std::chrono::steady_clock::now() + pause;
            while (!stop_ && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(5));
            pause = std::min(pause * 2, std::chrono::milliseconds(2000));
            continue;
        }
        pause = std::chrono::milliseconds(50);
        {
            std::lock_guard lock(mu_);
            todo_.clear();
            confirmed_.clear();
            for (const auto& ch : wanted_) todo_.emplace_back(true, ch);
        }
        linked_ = true;
        if (on_link_) on_link_(true);
        while (!stop_ && pump(*c)) {
        }
        redisFree(*c);
        linked_ = false;
        if (!stop_ && on_link_) on_link_(false);
    }
}

}  // namespace outpost::server::redis
