// Outpost — ownership leases of games in Redis (redis_lease.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/bus/redis/redis_lease.h"

#include <charconv>

namespace outpost::server::redis {

namespace {

// KEYS[1] the lease, KEYS[2] the token counter; ARGV[1] the node, ARGV[2] the time in ms.
// Extends our own grant, keeps another node's, or grants a new token.
constexpr std::string_view AcquireScript = R"(
local cur = redis.call('GET', KEYS[1])
if cur then
  if string.sub(cur, 1, string.len(ARGV[1]) + 1) == ARGV[1] .. ' ' then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
  end
  return cur
end
local v = ARGV[1] .. ' ' .. redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], v, 'PX', ARGV[2])
return v
)";

// ARGV[1] the whole value (node and token): only that grant is extended or dropped.
constexpr std::string_view RenewScript = R"(
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
)";
// KEYS: the leases; ARGV[1] the time, ARGV[i+1] the value of KEYS[i].
constexpr std::string_view RenewManyScript = R"(
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[i + 1] then out[i] = redis.call('PEXPIRE', key, ARGV[1]) else out[i] = 0 end
end
return out
)";
constexpr std::string_view ReleaseScript = R"(
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
)";

// KEYS[1] the token counter; ARGV[1] the floor.
constexpr std::string_view RaiseFenceScript = R"(
local cur = tonumber(redis.call('GET', KEYS[1]) or '0')
if cur < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) return 1 end
return 0
)";

std::string value_of(const Lease& l) { return l.node + " " + std::to_string(l.token); }

}  // namespace

LeaseTable::LeaseTable(RedisClient& redis, std::string node, std::string prefix)
    : redis_(redis), node_(std::move(node)), prefix_(std::move(prefix)) {}

bool LeaseTable::valid_node_name(std::string_view name) {
    if (name.empty() || name.size() > 64) return false;
    for (char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                        c == '_' || c == '-';
        if (!ok) return false;
    }
    return true;
}

std::optional<Lease> LeaseTable::read_value(std::string_view game, std::string_view value) const {
    const auto space = value.rfind(' ');
    if (space == std::string_view::npos) return std::nullopt;
    Lease l;
    l.game = std::string(game);
    l.node = std::string(value.substr(0, space));
    const std::string_view t = value.substr(space + 1);
    const auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), l.token);
    if (ec != std::errc() || p != t.data() + t.size()) return std::nullopt;
    return l;
}

Result<Lease> LeaseTable::acquire(std::string_view game, std::chrono::milliseconds ttl) {
    auto r = redis_.command({"EVAL", std::string(AcquireScript), "2", key(game), prefix_ + "fence", node_,
                             std::to_string(ttl.count())});
    if (!r) return make_error("lease of game " + std::string(game) + ": " + r.error().message);
    auto l = read_value(game, r->str);
    if (!l) return make_error("lease of game " + std::string(game) + ": a value that is not 'node token': '" + r->str + "'");
    return *l;
}

Result<bool> LeaseTable::renew(const Lease& lease, std::chrono::milliseconds ttl) {
    auto r = redis_.command({"EVAL", std::string(RenewScript), "1", key(lease.game), value_of(lease), std::to_string(ttl.count())});
    if (!r) return make_error("renewing the lease of game " + lease.game + ": " + r.error().message);
    return r->integer == 1;
}

Result<std::vector<bool>> LeaseTable::renew_many(const std::vector<Lease>& leases, std::chrono::milliseconds ttl) {
    if (leases.empty()) return std::vector<bool>{};
    std::vector<std::string> argv = {"EVAL", std::string(RenewManyScript), std::to_string(leases.size())};
    for (const auto& l : leases) argv.push_back(key(l.game));
    argv.push_back(std::to_string(ttl.count()));
    for (const auto& l : leases) argv.push_back(value_of(l));
    auto r = redis_.command(argv);
    if (!r) return make_error("renewing " + std::to_string(leases.size()) + " leases: " + r.error().message);
    if (r->elements.size() != leases.size()) return make_error("renewing leases: an answer of the wrong length");
    std::vector<bool> out;
    for (const auto& e : r->elements) out.push_back(e.integer == 1);
    return out;
}

Result<bool> LeaseTable::release(const Lease& lease) {
    auto r = redis_.command({"EVAL", std::string(ReleaseScript), "1", key(lease.game), value_of(lease)});
    if (!r) return make_error("releasing the lease of game " + lease.game + ": " + r.error().message);
    return r->integer == 1;
}

Result<std::optional<Lease>> LeaseTable::holder(std::string_view game) {
    auto r = redis_.command({"GET", key(game)});
    if (!r) return make_error("lease of game " + std::string(game) + ": " + r.error().message);
    if (r->is_nil()) return std::optional<Lease>{};
    return read_value(game, r->str);
}

Result<std::vector<std::optional<Lease>>> LeaseTable::holders(const std::vector<std::string>& games) {
    std::vector<std::optional<Lease>> out;
    if (games.empty()) return out;
    std::vector<std::string> argv = {"MGET"};
    argv.reserve(games.size() + 1);
    for (const auto& g : games) argv.push_back(key(g));
    auto r = redis_.command(argv);
    if (!r) return make_error("leases of " + std::to_string(games.size()) + " games: " + r.error().message);
    if (r->elements.size() != games.size()) return make_error("leases of games: an answer of the wrong length");
    out.reserve(games.size());
    for (std::size_t i = 0; i < games.size(); ++i)
        out.push_back(r->elements[i].is_nil() ? std::nullopt : read_value(games[i], r->elements[i].str));
    return out;
}

Result<bool> LeaseTable::raise_fence(std::int64_t floor) {
    auto r = redis_.command({"EVAL", std::string(RaiseFenceScript), "1", prefix_ + "fence", std::to_string(floor)});
    if (!r) return make_error("raising the fencing tokens: " + r.error().message);
    return r->integer == 1;
}

}  // namespace outpost::server::redis
