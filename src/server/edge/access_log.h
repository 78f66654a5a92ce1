// Outpost — the access log of the public port (issue 27 item 4): one line per HTTP
// request and one per WebSocket session, with the fields ts, level, msg, request_id,
// client, method, path, status and ms (observe/log.h writes them). The path's secret
// query parameters are redacted (a seat's token, a simul's key); no header, cookie or
// body is ever logged.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace outpost::server {

// A new request id: unique in this run of the server, unrelated to anything a client
// sent (so that it cannot be forged into the log): 8 hex digits drawn at start, then a
// counter.
std::string next_request_id();

// One line for one request or session, started at `started`. The level is info, warn
// for a 4xx status, error for a 5xx.
void log_access(std::string_view msg, const std::string& request_id, std::string_view client, std::string_view method,
                std::string_view target, int status, std::chrono::steady_clock::time_point started);

// The line of a WebSocket session, written when it ends (its status: 101 once the
// upgrade was accepted, else 400); while it is open, it counts in outpost_websockets.
struct WsSessionLog {
    std::string request_id, client, target;
    std::chrono::steady_clock::time_point started;
    int status = 400;
    WsSessionLog(std::string id, std::string ip, std::string path, std::chrono::steady_clock::time_point at);
    ~WsSessionLog();
    WsSessionLog(const WsSessionLog&) = delete;
    WsSessionLog& operator=(const WsSessionLog&) = delete;
};

}  // namespace outpost::server
