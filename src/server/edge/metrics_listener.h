// Outpost — GET /metrics on a listen address of its own (`--metrics-listen
// 127.0.0.1:9464`), never on the public port: the Prometheus text format of
// observe/metrics.h, for a scraper on the same machine or a private network.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "server/edge/listen_address.h"
#include "server/edge/net.h"

namespace outpost::server {

// Listens on `at` and answers GET /metrics with render() (other paths: 404). Returns
// the port it listens on (for port 0), or nothing with `why` filled.
std::optional<unsigned short> start_metrics_listener(asio::io_context& ioc, const ListenAddress& at,
                                                     std::function<std::string()> render, std::string& why);

}  // namespace outpost::server
