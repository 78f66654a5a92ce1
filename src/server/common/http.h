// Outpost — an HTTP request and its answer as every room's routes see them: no socket,
// no Beast (the network edge, edge/server.cpp, fills them in and writes them out).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "server/stores/account_store.h"

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
    std::string accept_encoding;  // Accept-Encoding: a compressed file is sent when it names gzip
    std::string if_none_match;    // If-None-Match: the ETag the browser holds (304 when unchanged)
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

// Splits "/a/b?x=1&y=2" into path and decoded query parameters.
std::pair<std::string, std::map<std::string, std::string>> split_target(const std::string& target);

}  // namespace outpost::server
