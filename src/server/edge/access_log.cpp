// Outpost — the access log's lines.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/edge/access_log.h"

#include <atomic>
#include <cstdio>
#include <random>

#include "server/observe/log.h"
#include "server/observe/metrics.h"

namespace outpost::server {

std::string next_request_id() {
    static const unsigned run = std::random_device{}();
    static std::atomic<unsigned long long> counter{0};
    char buf[40];
    std::snprintf(buf, sizeof buf, "%08x-%llu", run, counter.fetch_add(1, std::memory_order_relaxed) + 1);
    return buf;
}

void log_access(std::string_view msg, const std::string& request_id, std::string_view client, std::string_view method,
                std::string_view target, int status, std::chrono::steady_clock::time_point started) {
    const LogLevel level = status >= 500 ? LogLevel::ERROR : status >= 400 ? LogLevel::WARN : LogLevel::INFO;
    if (!log_enabled(level)) return;
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    log_event(level, msg,
              {{"request_id", request_id},
               {"client", client},
               {"method", method.substr(0, 16)},
               {"path", redact_target(target.substr(0, 2048))},
               {"status", status},
               {"ms", double(std::int64_t(ms * 1000)) / 1000}});
}

WsSessionLog::WsSessionLog(std::string id, std::string ip, std::string path, std::chrono::steady_clock::time_point at)
    : request_id(std::move(id)), client(std::move(ip)), target(std::move(path)), started(at) {
    metrics().websockets.add(1);
}

WsSessionLog::~WsSessionLog() {
    metrics().websockets.add(-1);
    log_access("websocket", request_id, client, "GET", target, status, started);
}

}  // namespace outpost::server
