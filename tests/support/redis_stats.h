// Outpost tests — what a test's Redis counted (tests/support/redis_server.h runs it).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

#include "server/bus/redis/redis_client.h"

namespace outpost::test {

// Redis's count of calls of one command ("publish", "get") since it started or since the
// last CONFIG RESETSTAT; -1 when Redis did not answer.
inline long long calls_of(server::redis::RedisClient& raw, const std::string& command) {
    auto r = raw.command({"INFO", "commandstats"});
    if (!r) return -1;
    const std::string key = "cmdstat_" + command + ":calls=";
    const auto at = r->str.find(key);
    return at == std::string::npos ? 0 : std::stoll(r->str.substr(at + key.size()));
}

}  // namespace outpost::test
