// Outpost — the HTTP router: a pure request -> response function (STYLE.md 7). It never
// touches sockets, so every route is tested without a network.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "server/accounts.h"
#include "server/hub.h"

namespace outpost::server {
class AnalysisService;
}

namespace outpost::server {

struct HttpRequest {
    HttpRequest(std::string method_, std::string target_, std::string body_, std::string client_ = {})
        : method(std::move(method_)), target(std::move(target_)), body(std::move(body_)), client(std::move(client_)) {}
    std::string method;  // "GET", "POST", …
    std::string target;  // path and query
    std::string body;
    std::string client;  // who asks (the peer's address): the key of per-client limits
    // The headers the routes need (P21): the session cookie, the CSRF checks, the scheme.
    std::string cookie;        // Cookie ("" when absent)
    std::string origin;        // Origin ("" when absent: not a browser, or a same-origin GET)
    std::string host;          // Host
    std::string content_type;  // Content-Type
    bool secure = false;       // reached over HTTPS (see identity.h): cookies get Secure
    // Set by the server before routing, from the session cookie (identity.h): the
    // signed-in account and its session token, or none (anonymous).
    std::optional<Account> account;
    std::string session_token;
};

struct HttpResponse {
    int status = 200;
    std::string content_type = "application/json";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
};

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

// Splits "/a/b?x=1&y=2" into path and decoded query parameters.
std::pair<std::string, std::map<std::string, std::string>> split_target(const std::string& target);

}  // namespace outpost::server
