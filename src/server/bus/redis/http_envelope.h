// Outpost — an HTTP request forwarded between nodes and its answer (issue 26,
// docs/scaling.md "HTTP of the domains node"): the messages "http" and "http_answer" on
// the nodes' Redis channels, written and read.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Read as hostile, as every message between nodes (bus_envelope.h): a field that is
// missing, of the wrong type or longer than the server's own HTTP limits, a method that
// is not one, a target that is not a path, a header that could split an answer, is an
// error that says what; nothing is trusted because it came over Redis except what the
// cluster's trust rule says (docs/scaling.md "Trust"): the account a node names.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "chess/result.h"
#include "server/bus/cluster_bus.h"
#include "server/common/http.h"

namespace outpost::server::redis {

// The bounds of what is read: those of the server's own HTTP (MaxForwardedBody in
// cluster_bus.h, the edge's body limit; the 16 KiB of a request's headers).
inline constexpr std::size_t MaxForwardedTarget = 8 * 1024;
inline constexpr std::size_t MaxForwardedHeader = 1024;  // origin, host, content type, a header's value
inline constexpr std::size_t MaxForwardedHeaders = 16;   // headers of an answer
inline constexpr std::size_t MaxAnswerBody = 4u << 20;   // MaxEnvelopeBytes (bus_envelope.h)

struct HttpEnvelope {
    enum class Kind : std::uint8_t {
        REQUEST,  // node B -> the node that answers: "http"
        ANSWER,   // back: "http_answer"
    };
    Kind kind = Kind::REQUEST;
    std::uint64_t id = 0;  // the call, numbered by the node that asked
    std::string node;      // the sender: where a request's answer goes; who answered
    // REQUEST: what the asking node read (its edge's checks passed: Host, body size,
    // content type, rate limits) and who it identified from the session cookie. The
    // cookie itself is not sent: the answering node never identifies again.
    std::string method, target, body, client, origin, host, content_type;
    bool secure = false;
    std::optional<Account> account;  // id, name, admin
    // ANSWER.
    int status = 200;
    std::vector<std::pair<std::string, std::string>> headers;
};

// A request's envelope, and the request the answering node routes (no cookie, no
// session token: the account as the asking node identified it).
HttpEnvelope http_request_envelope(std::uint64_t id, const std::string& node, const HttpRequest& r);
HttpRequest forwarded_request(const HttpEnvelope& e);
// An answer's envelope: the headers that belong to the connection that carries it
// (Content-Length, Connection, Set-Cookie, X-Outpost-Node...) are left out.
HttpEnvelope http_answer_envelope(std::uint64_t id, const std::string& node, const HttpResponse& r);
HttpResponse forwarded_answer(const HttpEnvelope& e);  // with ServedByHeader: the answering node

std::string encode_http(const HttpEnvelope& e);
Result<HttpEnvelope> decode_http(std::string_view payload);
// Whether a payload on a node's channel is one of these (else a game's, bus_envelope.h).
// The kind is written first, and a quote inside any string is escaped, so only the
// structure itself can match.
bool is_http_payload(std::string_view payload);

}  // namespace outpost::server::redis
