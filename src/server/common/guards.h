// Outpost — the rules of the network edge that need no socket (docs/protocol.md,
// "Limits" and "Security"): per-client token buckets, the WebSocket Origin policy,
// the security headers of every HTTP answer, the JSON-only rule for POST bodies.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "chess/clock.h"  // Millis

namespace outpost::server {

// The limits of one client (one IP address) and one connection. The defaults are far
// above what a person playing, watching or opening pages does (a page load is ~20
// requests, a game a few messages a second at most); they stop floods and scripts.
struct EdgeLimits {
    bool enabled = true;                 // false: no per-address limits (benchmarks)
    int connections_per_ip = 128;        // open TCP connections (HTTP and WebSocket)
    double http_per_second = 50, http_burst = 400;    // every HTTP request
    double post_per_second = 1, post_burst = 60;      // POST (game creation, lookups)
    double ws_per_second = 20, ws_burst = 200;        // WebSocket messages, all of an address's connections
    int ws_rejected_before_close = 50;   // rate_limited answers in a row, then the connection is closed
    size_t send_queue_bytes = 1 << 20;   // unsent bytes a connection may hold; a slower reader is closed
};

// A token bucket: `burst` tokens, refilled at `per_second`.
struct TokenBucket {
    double tokens = 0;
    Millis last = 0;
    bool take(double per_second, double burst, Millis now);
};

// Buckets by client key (its IP address); thread-safe. Keys idle long enough for a
// full bucket are forgotten, so the table stays as small as the set of active clients.
class RateLimiter {
public:
    RateLimiter(double per_second, double burst) : per_second_(per_second), burst_(burst) {}
    bool allow(const std::string& key, Millis now);

private:
    double per_second_, burst_;
    std::mutex mutex_;
    std::unordered_map<std::string, TokenBucket> buckets_;
    Millis last_sweep_ = 0;
};

// Open connections by IP address; thread-safe.
class ConnectionCounter {
public:
    bool try_add(const std::string& ip, int cap);
    void remove(const std::string& ip);
    int count(const std::string& ip);

private:
    std::mutex mutex_;
    std::unordered_map<std::string, int> open_;
};

// A WebSocket upgrade is accepted without an Origin header (not a browser: a browser
// always sends one), from the origin of the page's own host (scheme http or https and
// exactly the Host header), or from an origin in `allowed` ("*" allows every origin).
// Anything else, "null" included, is another site's page: refused (cross-site
// WebSocket hijacking would otherwise let any page act with a visitor's seat links).
bool origin_allowed(std::string_view origin, std::string_view host, const std::vector<std::string>& allowed);

// A POST body must say it is JSON: text/plain (a CORS "simple request") would let any
// web page create games in a visitor's browser without a preflight.
bool is_json_content_type(std::string_view content_type);

// Headers on every HTTP answer: a Content-Security-Policy that allows only the
// server's own scripts, styles, fonts, images and WebSocket, and no framing
// (clickjacking), with the older X-Frame-Options for old browsers.
const std::vector<std::pair<std::string, std::string>>& security_headers();

}  // namespace outpost::server
