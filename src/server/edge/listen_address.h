// Outpost — an address and port to listen on, as an operator writes it
// (`--metrics-listen 127.0.0.1:9464`).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace outpost::server {

struct ListenAddress {
    std::string host;
    unsigned short port = 0;
};

// "127.0.0.1:9464", "[::1]:9464", "localhost:9464" (the loopback address); nothing, with
// `why` saying what is wrong, for anything else.
std::optional<ListenAddress> parse_listen_address(std::string_view text, std::string& why);

}  // namespace outpost::server
