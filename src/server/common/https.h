// Outpost — the rules of serving over HTTPS (issue 27, "TLS and proxies") that need no
// socket: the HSTS header of every answer on TLS, and where the plain-HTTP listener of
// --http-redirect-port sends a browser.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace outpost::server {

// On every answer over TLS: browsers then use https:// for this host for a year, even
// when a link or a typed address says http://.
inline constexpr char StrictTransportSecurity[] = "max-age=31536000";

// The https:// address of a plain-HTTP request: the host of its Host header (its port
// dropped) with `https_port` (left out when 443), and the same path and query. None
// when the Host header is missing or not a host name or IP address (no redirect to
// somewhere a client made up beyond its own host), or the target is not a path.
std::optional<std::string> https_location(std::string_view host_header, std::string_view target,
                                          unsigned short https_port);

}  // namespace outpost::server
