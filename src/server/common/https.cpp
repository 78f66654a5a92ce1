// Outpost — the rules of serving over HTTPS (https.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/common/https.h"

#include <algorithm>
#include <cctype>

namespace outpost::server {

namespace {

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.'; }
bool is_v6_char(char c) { return std::isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.'; }
bool all_digits(std::string_view s) {
    return !s.empty() && s.size() <= 5 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The host of a Host header ("club.example:8080" -> "club.example", "[::1]:80" ->
// "[::1]"); none when it is not one.
std::optional<std::string_view> host_of(std::string_view header) {
    if (header.empty() || header.size() > 255) return std::nullopt;
    std::string_view host = header;
    if (header.front() == '[') {
        const size_t close = header.find(']');
        if (close == std::string_view::npos || close < 3) return std::nullopt;
        host = header.substr(0, close + 1);
        if (!std::all_of(host.begin() + 1, host.end() - 1, is_v6_char)) return std::nullopt;
        const std::string_view rest = header.substr(close + 1);
        if (!rest.empty() && (rest.front() != ':' || !all_digits(rest.substr(1)))) return std::nullopt;
        return host;
    }
    if (const size_t colon = header.find(':'); colon != std::string_view::npos) {
        host = header.substr(0, colon);
        if (!all_digits(header.substr(colon + 1))) return std::nullopt;
    }
    if (host.empty() || host.front() == '.' || host.front() == '-' || !std::all_of(host.begin(), host.end(), is_name_char))
        return std::nullopt;
    return host;
}

}  // namespace

std::optional<std::string> https_location(std::string_view host_header, std::string_view target,
                                          unsigned short https_port) {
    const auto host = host_of(host_header);
    if (!host || target.empty() || target.front() != '/') return std::nullopt;
    std::string location = "https://" + std::string(*host);
    if (https_port != 443) location += ":" + std::to_string(https_port);
    return location + std::string(target);
}

}  // namespace outpost::server
