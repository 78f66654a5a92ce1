// Outpost — the HTTP router: a pure request -> response function (STYLE.md 7). It never
// touches sockets, so every route is tested without a network.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "server/common/http.h"
#include "server/edge/static_files.h"
#include "server/play/hub.h"

namespace outpost::server {
class AnalysisService;
}

namespace outpost::server {

// `analysis`: the service behind /api/v1/games/ID/analysis (none: that path is not_found).
HttpResponse route(const HttpRequest& req, Hub& hub, const StaticFiles& files, AnalysisService* analysis = nullptr);

}  // namespace outpost::server
