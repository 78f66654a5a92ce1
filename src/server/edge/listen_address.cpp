// Outpost — listen addresses.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/edge/listen_address.h"

#include <arpa/inet.h>

#include <charconv>

namespace outpost::server {

std::optional<ListenAddress> parse_listen_address(std::string_view text, std::string& why) {
    ListenAddress a;
    std::string_view host, port;
    if (!text.empty() && text.front() == '[') {
        const size_t close = text.find(']');
        if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':') {
            why = "'" + std::string(text) + "': write an IPv6 address as [ADDRESS]:PORT";
            return std::nullopt;
        }
        host = text.substr(1, close - 1);
        port = text.substr(close + 2);
    } else {
        const size_t colon = text.rfind(':');
        if (colon == std::string_view::npos || text.find(':') != colon) {
            why = "'" + std::string(text) + "': write ADDRESS:PORT (127.0.0.1:9464, [::1]:9464)";
            return std::nullopt;
        }
        host = text.substr(0, colon);
        port = text.substr(colon + 1);
    }
    unsigned value = 0;
    const auto [end, err] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (port.empty() || err != std::errc() || end != port.data() + port.size() || value > 65535) {
        why = "'" + std::string(text) + "': the port must be a number from 0 to 65535";
        return std::nullopt;
    }
    a.host = host == "localhost" ? "127.0.0.1" : std::string(host);
    unsigned char bytes[sizeof(in6_addr)];
    if (inet_pton(AF_INET, a.host.c_str(), bytes) != 1 && inet_pton(AF_INET6, a.host.c_str(), bytes) != 1) {
        why = "'" + std::string(text) + "': '" + std::string(host) + "' is not an IP address";
        return std::nullopt;
    }
    a.port = static_cast<unsigned short>(value);
    return a;
}

}  // namespace outpost::server
