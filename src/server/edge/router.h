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
#include "server/play/hub.h"

namespace outpost::server {
class AnalysisService;
}

namespace outpost::server {

// The web UI's files (web/dist), read into memory at start.
class StaticFiles {
public:
    // Loads every file below dir; a missing dir leaves a page that says how to build it.
    static StaticFiles load(const std::string& dir);
    const std::pair<std::string, std::string>* find(const std::string& path) const;  // {body, content type}
    size_t size() const { return files_.size(); }

private:
    std::map<std::string, std::pair<std::string, std::string>> files_;
};

// `analysis`: the service behind /api/v1/games/ID/analysis (none: that path is not_found).
HttpResponse route(const HttpRequest& req, Hub& hub, const StaticFiles& files, AnalysisService* analysis = nullptr);

}  // namespace outpost::server
