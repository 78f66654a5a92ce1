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

class SharedLimits;  // common/shared_limits.h

// The limits of one client (one IP address) and one connection. The defaults are far
// above what a person playing, watching or opening pages does (a page load is ~20
// requests, a game a few messages a second at most); they stop floods and scripts.
struct EdgeLimits {
    bool enabled = true;                 // false: no per-address limits (benchmarks)
    int connections_per_ip = 128;        // open TCP connections (HTTP and WebSocket)
    int max_connections = 0;             // open connections in all (issue 25); 0: default_max_connections()
    double http_per_second = 50, http_burst = 400;    // every HTTP request
    double post_per_second = 1, post_burst = 60;      // POST (game creation, lookups)
    // WebSocket messages (issue 25: a second person behind the same address, a school's
    // NAT, is not refused for the first one's excess): each connection has its own
    // bucket, a signed-in account one for all its connections, and the address group
    // only a much looser ceiling against floods from many connections.
    double ws_per_second = 20, ws_burst = 200;                    // per connection
    double ws_account_per_second = 40, ws_account_burst = 400;    // all connections of one account
    double ws_address_per_second = 200, ws_address_burst = 2000;  // all connections of one address group
    int ws_rejected_before_close = 50;   // rate_limited answers in a row, then the connection is closed
    size_t send_queue_bytes = 1 << 20;   // unsent bytes a connection may hold; a slower reader is closed
};

// The key a client is limited under (issue 25): an IPv4 address is itself (an
// IPv4-mapped IPv6 address too: "::ffff:1.2.3.4" is "1.2.3.4"); an IPv6 address is
// its /64 ("2001:db8:1:2::/64"), the block one subscriber owns; any other text is
// itself.
std::string address_group(std::string_view address);

// The Host header of a request, checked against the names the server is reached by
// (issue 25, DNS rebinding: a page of another site whose name the attacker points
// at this server sends its own name). Allowed: no Host (not a browser), an IP
// literal (a rebinding page always has a name), "localhost" (and names under
// .localhost), and the names of `--host-name` (a port after any of them is ignored;
// case-insensitive).
bool host_allowed(std::string_view host, const std::vector<std::string>& names);

// The server-wide connection cap when none is given: most of the process's file
// limit (RLIMIT_NOFILE), leaving room for the database, the web files and logs.
int default_max_connections();

// A token bucket: `burst` tokens, refilled at `per_second`.
struct TokenBucket {
    double tokens = 0;
    Millis last = 0;
    bool take(double per_second, double burst, Millis now);
};

// Buckets by client key (its IP address, grouped by address_group); thread-safe. Keys idle long enough for a
// full bucket are forgotten, so the table stays as small as the set of active clients.
class RateLimiter {
public:
    RateLimiter(double per_second, double burst) : per_second_(per_second), burst_(burst) {}
    bool allow(const std::string& key, Millis now);
    // Issue 26: a key this node's bucket allows is also counted by every node, under
    // `kind` (SharedLimits::take, the same rate); refused when the shared count says so,
    // and this node's alone when it cannot be reached. Only for limiters asked on the
    // request pool: the shared count may wait for Redis. Set before use.
    void share(SharedLimits* shared, std::string kind) {
        shared_ = shared;
        kind_ = std::move(kind);
    }

private:
    double per_second_, burst_;
    SharedLimits* shared_ = nullptr;
    std::string kind_;
    std::mutex mutex_;
    std::unordered_map<std::string, TokenBucket> buckets_;
    Millis last_sweep_ = 0;
};

// The WebSocket message limits of EdgeLimits (issue 25). A message is allowed when
// its connection's bucket (held by the connection), its account's (signed in: 0 is
// none) and its address group's all have a token; they are asked in that order and
// the first that refuses ends the asking, so a connection over its own rate costs its
// account and its address nothing. Thread-safe.
class MessageLimiter {
public:
    explicit MessageLimiter(const EdgeLimits& l)
        : limits_(l), accounts_(l.ws_account_per_second, l.ws_account_burst),
          addresses_(l.ws_address_per_second, l.ws_address_burst) {}
    bool allow(TokenBucket& connection, std::int64_t account, const std::string& address, Millis now);

private:
    EdgeLimits limits_;
    RateLimiter accounts_, addresses_;
};

// Open connections by IP address (grouped by address_group), and in all; thread-safe.
class ConnectionCounter {
public:
    // Adds a connection unless its address has `cap` already, or the server has
    // `total_cap` (0: no server-wide cap).
    bool try_add(const std::string& ip, int cap, int total_cap = 0);
    void remove(const std::string& ip);
    int count(const std::string& ip);
    int total();
    // Issue 26: the cap counts an address's connections on the other nodes too (as the
    // cluster last said: never a wait), and this node's counts are told to it.
    void share(SharedLimits* shared) { shared_ = shared; }

private:
    SharedLimits* shared_ = nullptr;
    std::mutex mutex_;
    std::unordered_map<std::string, int> open_;
    int total_ = 0;
};

// Password attempts per account (issue 25, item 7): limits that hold against many
// addresses. An account's first `free_failures` wrong passwords cost nothing; after
// them, each further attempt must wait a delay that doubles with every failure
// (`first_delay_ms`, then twice that, … at most `max_delay_ms`), whatever address it
// comes from. A right password after the delay works, and ends the count: the owner
// is slowed, never locked out. Thread-safe; keys idle for a day are forgotten.
class AttemptGuard {
public:
    struct Options {
        int free_failures = 5;
        Millis first_delay_ms = 2'000;
        Millis max_delay_ms = 300'000;
    };
    AttemptGuard() : AttemptGuard(Options{}) {}
    explicit AttemptGuard(Options o) : options_(o) {}
    // 0 when an attempt may go on now; otherwise the milliseconds still to wait.
    Millis wait_ms(const std::string& key, Millis now);
    void failed(const std::string& key, Millis now);
    void succeeded(const std::string& key);

private:
    struct Entry {
        int failures = 0;
        Millis next = 0;  // no attempt before this
        Millis last = 0;
    };
    Options options_;
    std::mutex mutex_;
    std::unordered_map<std::string, Entry> entries_;
    Millis last_sweep_ = 0;
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
