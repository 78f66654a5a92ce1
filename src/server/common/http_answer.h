// Outpost — the JSON answers of the server's HTTP routes, in one place: the account,
// event and simul services build their answers from these (the router has its own
// json_response/error_response for the game routes).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "chess/result.h"
#include "server/common/protocol.h"
#include "server/common/http.h"

namespace outpost::server {

// JSON text of a value; invalid UTF-8 in strings (a name typed by a client) is
// replaced, never thrown on.
inline std::string dump_json(const nlohmann::json& j) {
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}
inline HttpResponse json_answer(int status, std::string body) {
    return HttpResponse{status, "application/json", std::move(body), {}};
}
inline HttpResponse json_value_answer(int status, const nlohmann::json& j) { return json_answer(status, dump_json(j)); }
inline HttpResponse error_answer(const ProtocolError& e) { return json_answer(e.http_status, error_json(e)); }
inline ProtocolError not_signed_in() { return {"not_signed_in", "sign in first", 401}; }

// A request body: a JSON object; an empty body is an empty object.
inline Answer<nlohmann::json> read_json_object(std::string_view body) {
    if (body.empty()) return nlohmann::json::object();
    auto j = nlohmann::json::parse(body, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return ProtocolError{"bad_request", "the body must be a JSON object", 400};
    return j;
}

}  // namespace outpost::server
