// Outpost — the per-address limits of a cluster in Redis (redis_limits.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/bus/redis/redis_limits.h"

#include <sodium.h>

#include <algorithm>
#include <cmath>

#include "server/observe/log.h"

namespace outpost::server::redis {

namespace {

// Every script reads the time from Redis, in milliseconds.
#define OUTPOST_REDIS_NOW \
    "local t = redis.call('TIME')\n" \
    "local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)\n"

// GCRA: KEYS[1] the bucket; ARGV[1] milliseconds a token, ARGV[2] the burst. The value is
// the time at which the bucket would be full again had every token been taken; a token
// is there when that time, one more token later, is at most burst tokens ahead of now.
constexpr std::string_view TakeScript = OUTPOST_REDIS_NOW R"(
local interval = tonumber(ARGV[1])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
if tat < now then tat = now end
local after = tat + interval
if after - now > interval * tonumber(ARGV[2]) then return 0 end
redis.call('SET', KEYS[1], string.format('%d', after), 'PX', string.format('%d', after - now))
return 1
)";

// KEYS[1] an account's wrong passwords: the milliseconds still to wait.
constexpr std::string_view AttemptWaitScript = OUTPOST_REDIS_NOW R"(
local after = tonumber(redis.call('HGET', KEYS[1], 'n') or '0') or 0
if after > now then return after - now end
return 0
)";

// KEYS[1] as above; ARGV: free failures, first delay, longest delay, forgotten after (ms).
// As AttemptGuard::failed (guards.cpp): the delay doubles with every failure past the free ones.
constexpr std::string_view AttemptFailedScript = OUTPOST_REDIS_NOW R"(
local f = redis.call('HINCRBY', KEYS[1], 'f', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
local over = f - tonumber(ARGV[1])
if over <= 0 then return 0 end
local delay, longest = tonumber(ARGV[2]), tonumber(ARGV[3])
local i = 1
while i < over and delay < longest do delay = delay * 2; i = i + 1 end
if delay > longest then delay = longest end
redis.call('HSET', KEYS[1], 'n', string.format('%d', now + delay))
return delay
)";

// KEYS[1] a client's open games; ARGV: the reserving token, the cap, the longest an entry counts.
constexpr std::string_view ReserveScript = OUTPOST_REDIS_NOW R"(
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', string.format('%d', now - tonumber(ARGV[3])))
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 1 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], string.format('%d', now), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
)";

// KEYS[1] as above; ARGV: the token, the game that takes its place ('': none).
constexpr std::string_view SettleScript = R"(
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[1], ARGV[1])
if ARGV[2] ~= '' and s then redis.call('ZADD', KEYS[1], s, ARGV[2]) return 1 end
return 0
)";

// KEYS: open-game sets; ARGV[i]: the game that ended, out of KEYS[i].
constexpr std::string_view EndedScript = R"(
for i, key in ipairs(KEYS) do redis.call('ZREM', key, ARGV[i]) end
return #KEYS
)";

// KEYS: connection counts of address groups; ARGV[1] this node, ARGV[2] how long its
// count holds unless renewed, ARGV[i + 2] its count for KEYS[i]. Writes this node's
// counts, drops the other nodes' expired ones (and any field that is not a node's
// "count expiry"), and answers the others' sum for each key.
constexpr std::string_view ConnectionsScript = OUTPOST_REDIS_NOW R"(
local ttl = tonumber(ARGV[2])
local out = {}
for i, key in ipairs(KEYS) do
  local mine = tonumber(ARGV[i + 2]) or 0
  if mine > 0 then
    redis.call('HSET', key, ARGV[1], string.format('%d %d', mine, now + ttl))
  else
    redis.call('HDEL', key, ARGV[1])
  end
  local others = 0
  local all = redis.call('HGETALL', key)
  for j = 1, #all, 2 do
    if all[j] ~= ARGV[1] then
      local c, e = string.match(all[j + 1], '^(%d+) (%d+)$')
      -- a node writes at most its ttl ahead and far fewer than a million: anything else is not a node's
      if c and tonumber(e) > now and tonumber(e) <= now + 10 * ttl and tonumber(c) < 1000000 then
        others = others + tonumber(c)
      else
        redis.call('HDEL', key, all[j])
      end
    end
  end
  if redis.call('EXISTS', key) == 1 then redis.call('PEXPIRE', key, ttl) end
  out[i] = others
end
return out
)";

#undef OUTPOST_REDIS_NOW

constexpr std::size_t MaxKeysACall = 500;

// A key part as it goes into Redis: printable, at most 100 bytes, else a hash of it.
std::string safe_part(std::string_view key) {
    const bool plain = !key.empty() && key.size() <= 100 && std::all_of(key.begin(), key.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u > 0x20 && u != 0x7f;
    });
    if (plain) return std::string(key);
    unsigned char digest[16];
    crypto_generichash(digest, sizeof digest, reinterpret_cast<const unsigned char*>(key.data()), key.size(), nullptr, 0);
    static constexpr char Hex[] = "0123456789abcdef";
    std::string out = "h:";
    for (unsigned char b : digest) {
        out += Hex[b >> 4];
        out += Hex[b & 15];
    }
    return out;
}

Result<long long> integer_of(const Result<Reply>& r) {
    if (!r) return r.error();
    if (r->kind != Reply::Kind::INTEGER) return make_error("shared limits: Redis answered a script with a non-integer");
    return r->integer;
}

}  // namespace

RedisLimits::RedisLimits(Options options)
    : options_(std::move(options)), checks_(options_.where, options_.timeout), background_(options_.where, options_.timeout) {
    thread_ = std::thread([this] { loop(); });
}

RedisLimits::~RedisLimits() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

std::string RedisLimits::key_of(std::string_view kind, std::string_view key) const {
    return options_.prefix + "limit:" + std::string(kind) + ":" + safe_part(key);
}

Result<Reply> RedisLimits::run(RedisClient& client, std::vector<std::string> argv) {
    SigpipeGuard no_sigpipe;
    auto r = client.command(argv);
    // Redis away (or answering errors): said once, and once when it answers again.
    const bool ok = r.ok();
    if (reachable_.exchange(ok) != ok) {
        std::lock_guard lock(log_mutex_);
        if (ok)
            log_event(LogLevel::INFO, "shared limits: Redis answers again; the per-address limits are counted by all nodes");
        else
            log_event(LogLevel::WARN,
                      "shared limits: Redis cannot be reached; each node counts its own per-address limits until it is back",
                      {{"redis", options_.where.text()}, {"error", r.error().message}});
    }
    return r;
}

Result<bool> RedisLimits::take(std::string_view kind, std::string_view key, double per_second, double burst) {
    if (!(per_second > 0) || !(burst >= 1) || !std::isfinite(per_second) || !std::isfinite(burst))
        return make_error("shared limits: a bucket needs a rate above 0 and a burst of at least 1");
    const long long interval = std::max<long long>(1, std::llround(1000.0 / per_second));
    const long long tokens = std::max<long long>(1, std::llround(std::min(burst, 1e9)));
    auto r = integer_of(run(checks_, {"EVAL", std::string(TakeScript), "1", key_of(kind, address_group(key)),
                                      std::to_string(interval), std::to_string(tokens)}));
    if (!r) return r.error();
    return *r == 1;
}

Result<Millis> RedisLimits::attempt_wait(std::string_view key) {
    auto r = integer_of(run(checks_, {"EVAL", std::string(AttemptWaitScript), "1", key_of("attempt", key)}));
    if (!r) return r.error();
    return Millis(std::max(0LL, *r));
}

Result<bool> RedisLimits::attempt_failed(std::string_view key, const AttemptGuard::Options& o) {
    constexpr Millis ForgetAfter = 24LL * 3'600'000;  // as AttemptGuard
    auto r = integer_of(run(checks_, {"EVAL", std::string(AttemptFailedScript), "1", key_of("attempt", key),
                                      std::to_string(o.free_failures), std::to_string(std::max<Millis>(1, o.first_delay_ms)),
                                      std::to_string(std::max<Millis>(1, o.max_delay_ms)), std::to_string(ForgetAfter)}));
    if (!r) return r.error();
    return true;
}

Result<bool> RedisLimits::attempt_succeeded(std::string_view key) {
    auto r = run(checks_, {"DEL", key_of("attempt", key)});
    if (!r) return r.error();
    return true;
}

Result<bool> RedisLimits::reserve_open_game(std::string_view key, std::string_view token, int cap, Millis max_age_ms) {
    auto r = integer_of(run(checks_, {"EVAL", std::string(ReserveScript), "1", key_of("open", key), std::string(token),
                                      std::to_string(cap), std::to_string(std::max<Millis>(1, max_age_ms))}));
    if (!r) return r.error();
    return *r == 1;
}

Result<bool> RedisLimits::settle_open_game(std::string_view key, std::string_view token, std::string_view game_id) {
    auto r = integer_of(
        run(checks_, {"EVAL", std::string(SettleScript), "1", key_of("open", key), std::string(token), std::string(game_id)}));
    if (!r) return r.error();
    return *r == 1;
}

void RedisLimits::open_game_ended(std::string_view key, std::string_view game_id) {
    {
        std::lock_guard lock(mutex_);
        if (ended_.size() >= options_.max_queue) return;  // pruned by age in the end (docs/scaling.md)
        ended_.emplace_back(key_of("open", key), std::string(game_id));
    }
    wake_.notify_all();
}

int RedisLimits::connections_elsewhere(const std::string& group) {
    std::lock_guard lock(mutex_);
    auto it = elsewhere_.find(group);
    return it == elsewhere_.end() ? 0 : it->second;
}

void RedisLimits::connections_here(const std::string& group, int count) {
    bool first = false, wake = false;
    {
        std::lock_guard lock(mutex_);
        int& n = here_[group];
        first = n == 0 && count > 0;
        n = count;
        if (first) fresh_.insert(group);
        wake = first || !changed_;
        changed_ = true;
    }
    // A group new on this node is sent (and the others' count of it read) at once, any
    // other change within sync_soon.
    if (wake) wake_.notify_all();
}

Result<bool> RedisLimits::sync_connections() {
    std::vector<std::pair<std::string, int>> counts;
    {
        std::lock_guard lock(mutex_);
        fresh_.clear();
        changed_ = false;
        counts.reserve(here_.size());
        for (const auto& [group, n] : here_) counts.emplace_back(group, n);
    }
    std::unordered_map<std::string, int> heard;
    for (std::size_t at = 0; at < counts.size(); at += MaxKeysACall) {
        const std::size_t end = std::min(counts.size(), at + MaxKeysACall);
        std::vector<std::string> argv = {"EVAL", std::string(ConnectionsScript), std::to_string(end - at)};
        for (std::size_t i = at; i < end; ++i) argv.push_back(key_of("conn", counts[i].first));
        argv.push_back(options_.node);
        argv.push_back(std::to_string(options_.count_ttl.count()));
        for (std::size_t i = at; i < end; ++i) argv.push_back(std::to_string(counts[i].second));
        auto r = run(background_, std::move(argv));
        if (!r || r->kind != Reply::Kind::ARRAY || r->elements.size() != end - at) {
            std::lock_guard lock(mutex_);
            elsewhere_.clear();  // Redis away: this node's own count is the limit
            if (!r) return r.error();
            return make_error("shared limits: Redis answered the connection counts with something else");
        }
        for (std::size_t i = at; i < end; ++i) {
            const Reply& e = r->elements[i - at];
            const long long n = e.kind == Reply::Kind::INTEGER ? e.integer : 0;
            if (n > 0) heard[counts[i].first] = int(std::min<long long>(n, 1 << 30));
        }
    }
    std::lock_guard lock(mutex_);
    elsewhere_ = std::move(heard);
    // Groups sent as 0 are done with (unless one came back meanwhile).
    for (const auto& [group, n] : counts)
        if (n == 0)
            if (auto it = here_.find(group); it != here_.end() && it->second == 0) here_.erase(it);
    return true;
}

bool RedisLimits::flush(std::chrono::milliseconds wait) {
    std::unique_lock lock(mutex_);
    return wake_.wait_for(lock, wait, [this] { return ended_.empty() && !sending_; });
}

void RedisLimits::loop() {
    using Clock = std::chrono::steady_clock;
    auto next_sync = Clock::now(), last_sync = Clock::time_point{};
    Clock::time_point retry_ends{};  // game ends that failed to go wait until then
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        const auto now = Clock::now();
        const bool send_ended = !ended_.empty() && now >= retry_ends;
        const bool sync = !fresh_.empty() || now >= next_sync || (changed_ && now >= last_sync + options_.sync_soon);
        if (!send_ended && !sync) {
            auto deadline = next_sync;
            if (changed_) deadline = std::min(deadline, last_sync + options_.sync_soon);
            if (!ended_.empty()) deadline = std::min(deadline, retry_ends);
            wake_.wait_until(lock, deadline);
            continue;
        }
        if (send_ended) {
            std::vector<std::pair<std::string, std::string>> batch;
            while (!ended_.empty() && batch.size() < MaxKeysACall) {
                batch.push_back(std::move(ended_.front()));
                ended_.pop_front();
            }
            sending_ = true;
            lock.unlock();
            std::vector<std::string> argv = {"EVAL", std::string(EndedScript), std::to_string(batch.size())};
            for (const auto& e : batch) argv.push_back(e.first);
            for (const auto& e : batch) argv.push_back(e.second);
            const bool sent = run(background_, std::move(argv)).ok();
            lock.lock();
            sending_ = false;
            if (!sent) {  // Redis away: again later (lost only if the node stops first: then pruned by age)
                for (auto it = batch.rbegin(); it != batch.rend() && ended_.size() < options_.max_queue; ++it)
                    ended_.push_front(std::move(*it));
                retry_ends = Clock::now() + options_.sync_every;
            }
            wake_.notify_all();
        }
        if (sync) {
            lock.unlock();
            (void)sync_connections();
            lock.lock();
            last_sync = Clock::now();
            next_sync = last_sync + options_.sync_every;
        }
    }
}

}  // namespace outpost::server::redis
