// Outpost — network edge rules.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/common/guards.h"

#include "server/common/shared_limits.h"

#include <arpa/inet.h>
#include <sys/resource.h>

#include <algorithm>
#include <cctype>
#include <cstring>

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

std::string address_group(std::string_view address) {
    std::string text(address);
    unsigned char bytes[16];
    if (text.find(':') == std::string::npos || inet_pton(AF_INET6, text.c_str(), bytes) != 1) return text;
    static constexpr unsigned char Mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    char out[INET6_ADDRSTRLEN];
    if (std::memcmp(bytes, Mapped, 12) == 0) {
        if (!inet_ntop(AF_INET, bytes + 12, out, sizeof out)) return text;
        return out;
    }
    std::memset(bytes + 8, 0, 8);
    if (!inet_ntop(AF_INET6, bytes, out, sizeof out)) return text;
    return std::string(out) + "/64";
}

bool host_allowed(std::string_view host, const std::vector<std::string>& names) {
    if (host.empty()) return true;
    // The name without its port: "[::1]:8080" -> "::1", "example.org:8080" -> "example.org".
    std::string_view name = host;
    if (name.front() == '[') {
        const size_t close = name.find(']');
        if (close == std::string_view::npos) return false;
        name = name.substr(1, close - 1);
        unsigned char bytes[16];
        return inet_pton(AF_INET6, std::string(name).c_str(), bytes) == 1;
    }
    if (const size_t colon = name.rfind(':'); colon != std::string_view::npos) name = name.substr(0, colon);
    if (name.empty()) return false;
    unsigned char bytes[4];
    if (inet_pton(AF_INET, std::string(name).c_str(), bytes) == 1) return true;
    if (!name.empty() && name.back() == '.') name.remove_suffix(1);  // the fully qualified spelling
    if (iequals(name, "localhost")) return true;
    if (name.size() > 10 && iequals(name.substr(name.size() - 10), ".localhost")) return true;
    for (const std::string& allowed : names) {
        std::string_view a = allowed;
        if (const size_t colon = a.rfind(':'); colon != std::string_view::npos && a.find(']') == std::string_view::npos &&
                                                a.find(':') == colon)
            a = a.substr(0, colon);
        if (!a.empty() && a.back() == '.') a.remove_suffix(1);
        if (a == "*" || iequals(name, a)) return true;
    }
    return false;
}

int default_max_connections() {
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return 100'000;
    // Room for the database (and its WAL and journal), the web files read, the log,
    // the listener and a backup being taken: 64 descriptors.
    const long n = long(limit.rlim_cur) - 64;
    return int(std::clamp<long>(n, 16, 1'000'000));
}

bool MessageLimiter::allow(TokenBucket& connection, std::int64_t account, const std::string& address, Millis now) {
    if (!connection.take(limits_.ws_per_second, limits_.ws_burst, now)) return false;
    if (account && !accounts_.allow("account:" + std::to_string(account), now)) return false;
    return addresses_.allow(address_group(address), now);
}

bool TokenBucket::take(double per_second, double burst, Millis now) {
    if (last == 0 && tokens == 0) tokens = burst;  // a new client starts with a full bucket
    if (now > last) tokens = std::min(burst, tokens + double(now - last) * per_second / 1000.0);
    last = std::max(last, now);
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
}

bool RateLimiter::allow(const std::string& key, Millis now) {
    std::unique_lock lock(mutex_);
    // The time a bucket takes to fill again: after it, forgetting a key changes nothing.
    const Millis refill_ms = per_second_ > 0 ? Millis(burst_ / per_second_ * 1000) + 1000 : 3'600'000;
    if (now - last_sweep_ > refill_ms && buckets_.size() > 1024) {
        std::erase_if(buckets_, [&](const auto& kv) { return now - kv.second.last > refill_ms; });
        last_sweep_ = now;
    }
    if (!buckets_[address_group(key)].take(per_second_, burst_, now)) return false;
    if (!shared_) return true;
    lock.unlock();  // the shared count may wait for Redis
    auto shared = shared_->take(kind_, key, per_second_, burst_);
    return !shared || *shared;
}

bool ConnectionCounter::try_add(const std::string& ip, int cap, int total_cap) {
    const std::string key = address_group(ip);
    std::lock_guard lock(mutex_);
    if (total_cap > 0 && total_ >= total_cap) return false;
    int& n = open_[key];
    const int elsewhere = shared_ ? shared_->connections_elsewhere(key) : 0;
    if (n >= cap || elsewhere >= cap - n) {
        if (n == 0) open_.erase(key);
        return false;
    }
    ++n;
    ++total_;
    if (shared_) shared_->connections_here(key, n);
    return true;
}

void ConnectionCounter::remove(const std::string& ip) {
    const std::string key = address_group(ip);
    std::lock_guard lock(mutex_);
    auto it = open_.find(key);
    if (it == open_.end()) return;
    --total_;
    const int left = --it->second;
    if (left <= 0) open_.erase(it);
    if (shared_) shared_->connections_here(key, std::max(left, 0));
}

int ConnectionCounter::count(const std::string& ip) {
    const std::string key = address_group(ip);
    std::lock_guard lock(mutex_);
    auto it = open_.find(key);
    return it == open_.end() ? 0 : it->second;
}

int ConnectionCounter::total() {
    std::lock_guard lock(mutex_);
    return total_;
}

Millis AttemptGuard::wait_ms(const std::string& key, Millis now) {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(key);
    if (it == entries_.end() || now >= it->second.next) return 0;
    return it->second.next - now;
}

void AttemptGuard::failed(const std::string& key, Millis now) {
    constexpr Millis ForgetAfter = 24LL * 3'600'000;
    std::lock_guard lock(mutex_);
    if (now - last_sweep_ > 60'000 && entries_.size() > 4096) {
        std::erase_if(entries_, [&](const auto& kv) { return now - kv.second.last > ForgetAfter; });
        last_sweep_ = now;
    }
    Entry& e = entries_[key];
    if (e.last && now - e.last > ForgetAfter) e = Entry{};
    ++e.failures;
    e.last = now;
    const int over = e.failures - options_.free_failures;
    if (over <= 0) return;
    Millis delay = options_.first_delay_ms;
    for (int i = 1; i < over && delay < options_.max_delay_ms; ++i) delay *= 2;
    e.next = now + std::min(delay, options_.max_delay_ms);
}

void AttemptGuard::succeeded(const std::string& key) {
    std::lock_guard lock(mutex_);
    entries_.erase(key);
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
