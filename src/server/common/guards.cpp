// Outpost — network edge rules.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/common/guards.h"

#include <algorithm>
#include <cctype>

namespace outpost::server {

namespace {
bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() &&
           std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return std::tolower((unsigned char)x) == std::tolower((unsigned char)y); });
}
std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}
}  // namespace

bool TokenBucket::take(double per_second, double burst, Millis now) {
    if (last == 0 && tokens == 0) tokens = burst;  // a new client starts with a full bucket
    if (now > last) tokens = std::min(burst, tokens + double(now - last) * per_second / 1000.0);
    last = std::max(last, now);
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
}

bool RateLimiter::allow(const std::string& key, Millis now) {
    std::lock_guard lock(mutex_);
    // The time a bucket takes to fill again: after it, forgetting a key changes nothing.
    const Millis refill_ms = per_second_ > 0 ? Millis(burst_ / per_second_ * 1000) + 1000 : 3'600'000;
    if (now - last_sweep_ > refill_ms && buckets_.size() > 1024) {
        std::erase_if(buckets_, [&](const auto& kv) { return now - kv.second.last > refill_ms; });
        last_sweep_ = now;
    }
    return buckets_[key].take(per_second_, burst_, now);
}

bool ConnectionCounter::try_add(const std::string& ip, int cap) {
    std::lock_guard lock(mutex_);
    int& n = open_[ip];
    if (n >= cap) {
        if (n == 0) open_.erase(ip);
        return false;
    }
    ++n;
    return true;
}

void ConnectionCounter::remove(const std::string& ip) {
    std::lock_guard lock(mutex_);
    auto it = open_.find(ip);
    if (it != open_.end() && --it->second <= 0) open_.erase(it);
}

int ConnectionCounter::count(const std::string& ip) {
    std::lock_guard lock(mutex_);
    auto it = open_.find(ip);
    return it == open_.end() ? 0 : it->second;
}

bool origin_allowed(std::string_view origin, std::string_view host, const std::vector<std::string>& allowed) {
    if (origin.empty()) return true;
    for (const auto& a : allowed)
        if (a == "*" || iequals(origin, a)) return true;
    std::string_view authority;
    if (origin.size() > 7 && iequals(origin.substr(0, 7), "http://")) authority = origin.substr(7);
    else if (origin.size() > 8 && iequals(origin.substr(0, 8), "https://")) authority = origin.substr(8);
    else return false;
    return !host.empty() && iequals(authority, host);
}

bool is_json_content_type(std::string_view content_type) {
    return iequals(trim(content_type.substr(0, content_type.find(';'))), "application/json");
}

const std::vector<std::pair<std::string, std::string>>& security_headers() {
    // style-src allows inline styles: the board library places pieces with style
    // attributes. connect-src 'self' covers ws: and wss: to the same host (CSP 3).
    static const std::vector<std::pair<std::string, std::string>> headers = {
        {"Content-Security-Policy",
         "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
         "font-src 'self' data:; connect-src 'self'; media-src 'self' data: blob:; object-src 'none'; "
         "base-uri 'self'; form-action 'self'; frame-ancestors 'none'"},
        {"X-Frame-Options", "DENY"},
        {"X-Content-Type-Options", "nosniff"},
        {"Referrer-Policy", "no-referrer"},
    };
    return headers;
}

}  // namespace outpost::server
