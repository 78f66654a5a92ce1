// Outpost — an HTTP request forwarded between nodes and its answer, written and read
// (http_envelope.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/bus/redis/http_envelope.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>

#include <nlohmann/json.hpp>

#include "server/bus/redis/redis_lease.h"

namespace outpost::server::redis {

namespace {

using nlohmann::json;

constexpr const char* RequestKind = "http";
constexpr const char* AnswerKind = "http_answer";
constexpr std::array<std::string_view, 7> Methods = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"};

// Headers an answer never carries from one node to another: the connection's own
// (written by the node that answers the client), and a cookie (the forwarded routes
// set none; a node's session is made by the node the client talks to).
bool connection_header(std::string_view name) {
    static constexpr std::array<std::string_view, 9> Own = {
        "content-length", "transfer-encoding", "connection",   "keep-alive",         "set-cookie",
        "upgrade",        "content-type",      "x-outpost-node", "x-outpost-served-by"};
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return std::find(Own.begin(), Own.end(), lower) != Own.end();
}

// Printable ASCII and tabs only: no CR or LF to split a header, no NUL.
bool header_text(std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](unsigned char c) { return c == '\t' || (c >= 0x20 && c != 0x7f); });
}
// RFC 9110 token characters: a header's name.
bool header_token(std::string_view s) {
    static constexpr std::string_view Extra = "!#$%&'*+-.^_`|~";
    return !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) {
        return std::isalnum(c) || Extra.find(char(c)) != std::string_view::npos;
    });
}
// A request's target: a path and query, visible ASCII only (as on the wire).
bool target_text(std::string_view s) {
    return !s.empty() && s.front() == '/' && std::all_of(s.begin(), s.end(), [](unsigned char c) { return c > 0x20 && c < 0x7f; });
}

Result<std::string> http_text_field(const json& j, const char* name, std::size_t max, bool required) {
    auto it = j.find(name);
    if (it == j.end()) {
        if (required) return make_error(std::string("no \"") + name + "\"");
        return std::string();
    }
    if (!it->is_string()) return make_error(std::string("\"") + name + "\" is not a string");
    const auto& s = it->get_ref<const std::string&>();
    if (s.size() > max) return make_error(std::string("\"") + name + "\" is longer than " + std::to_string(max) + " bytes");
    return s;
}

Result<std::string> http_header_field(const json& j, const char* name, bool required = false) {
    auto s = http_text_field(j, name, MaxForwardedHeader, required);
    if (s && !header_text(*s)) return make_error(std::string("\"") + name + "\" has a control character");
    return s;
}

Result<std::int64_t> http_int_field(const json& j, const char* name, std::int64_t lo, std::int64_t hi) {
    auto it = j.find(name);
    if (it == j.end()) return make_error(std::string("no \"") + name + "\"");
    if (!it->is_number_integer()) return make_error(std::string("\"") + name + "\" is not an integer");
    if (it->is_number_unsigned() && it->get<std::uint64_t>() > std::uint64_t(hi))
        return make_error(std::string("\"") + name + "\" is out of range");
    const std::int64_t v = it->get<std::int64_t>();
    if (v < lo || v > hi) return make_error(std::string("\"") + name + "\" is out of range");
    return v;
}

Result<bool> http_bool_field(const json& j, const char* name) {
    auto it = j.find(name);
    if (it == j.end()) return false;
    if (!it->is_boolean()) return make_error(std::string("\"") + name + "\" is not true or false");
    return it->get<bool>();
}

Error http_bad(const std::string& what) { return Error{"a forwarded HTTP message: " + what}; }

Result<HttpEnvelope> decode_request(const json& j, HttpEnvelope e) {
    auto method = http_text_field(j, "method", 8, true);
    if (!method) return http_bad(method.error().message);
    if (std::find(Methods.begin(), Methods.end(), *method) == Methods.end()) return http_bad("a method that is not one");
    e.method = std::move(*method);
    auto target = http_text_field(j, "target", MaxForwardedTarget, true);
    if (!target) return http_bad(target.error().message);
    if (!target_text(*target)) return http_bad("a target that is not a path");
    e.target = std::move(*target);
    auto body = http_text_field(j, "body", MaxForwardedBody, false);
    if (!body) return http_bad(body.error().message);
    e.body = std::move(*body);
    auto client = http_header_field(j, "client", true);
    if (!client) return http_bad(client.error().message);
    if (client->empty() || client->size() > 64) return http_bad("a client address that is not one");
    e.client = std::move(*client);
    auto origin = http_header_field(j, "origin");
    auto host = http_header_field(j, "host");
    auto type = http_header_field(j, "type");
    if (!origin) return http_bad(origin.error().message);
    if (!host) return http_bad(host.error().message);
    if (!type) return http_bad(type.error().message);
    e.origin = std::move(*origin);
    e.host = std::move(*host);
    e.content_type = std::move(*type);
    auto secure = http_bool_field(j, "secure");
    if (!secure) return http_bad(secure.error().message);
    e.secure = *secure;
    if (auto a = j.find("account"); a != j.end()) {
        if (!a->is_object()) return http_bad("\"account\" is not an object");
        auto id = http_int_field(*a, "id", 1, std::numeric_limits<std::int64_t>::max());
        auto name = http_text_field(*a, "name", 128, true);
        auto admin = http_bool_field(*a, "admin");
        if (!id || !name || name->empty() || !admin) return http_bad("an account with a bad field");
        Account account;
        account.id = *id;
        account.name = std::move(*name);
        account.admin = *admin;
        e.account = std::move(account);
    }
    return e;
}

Result<HttpEnvelope> decode_answer(const json& j, HttpEnvelope e) {
    auto status = http_int_field(j, "status", 100, 599);
    if (!status) return http_bad(status.error().message);
    e.status = int(*status);
    auto type = http_header_field(j, "type", true);
    if (!type) return http_bad(type.error().message);
    e.content_type = std::move(*type);
    auto body = http_text_field(j, "body", MaxAnswerBody, false);
    if (!body) return http_bad(body.error().message);
    e.body = std::move(*body);
    if (auto h = j.find("headers"); h != j.end()) {
        if (!h->is_array()) return http_bad("\"headers\" is not a list");
        if (h->size() > MaxForwardedHeaders) return http_bad("more than " + std::to_string(MaxForwardedHeaders) + " headers");
        for (const json& pair : *h) {
            if (!pair.is_array() || pair.size() != 2 || !pair[0].is_string() || !pair[1].is_string())
                return http_bad("a header that is not [name, value]");
            const auto& name = pair[0].get_ref<const std::string&>();
            const auto& value = pair[1].get_ref<const std::string&>();
            if (name.size() > 64 || !header_token(name)) return http_bad("a header name that is not one");
            if (connection_header(name)) return http_bad("a header of the connection (\"" + name + "\")");
            if (value.size() > MaxForwardedHeader || !header_text(value)) return http_bad("a header value with a control character or too long");
            e.headers.emplace_back(name, value);
        }
    }
    return e;
}

}  // namespace

HttpEnvelope http_request_envelope(std::uint64_t id, const std::string& node, const HttpRequest& r) {
    HttpEnvelope e;
    e.kind = HttpEnvelope::Kind::REQUEST;
    e.id = id;
    e.node = node;
    e.method = r.method;
    e.target = r.target;
    e.body = r.body;
    e.client = r.client;
    e.origin = r.origin;
    e.host = r.host;
    e.content_type = r.content_type;
    e.secure = r.secure;
    if (r.account) {
        Account a;
        a.id = r.account->id;
        a.name = r.account->name;
        a.admin = r.account->admin;
        e.account = std::move(a);
    }
    return e;
}

HttpRequest forwarded_request(const HttpEnvelope& e) {
    HttpRequest r(e.method, e.target, e.body, e.client);
    r.origin = e.origin;
    r.host = e.host;
    r.content_type = e.content_type;
    r.secure = e.secure;
    r.account = e.account;  // as the asking node identified it; never from a cookie here
    return r;
}

HttpEnvelope http_answer_envelope(std::uint64_t id, const std::string& node, const HttpResponse& r) {
    HttpEnvelope e;
    e.kind = HttpEnvelope::Kind::ANSWER;
    e.id = id;
    e.node = node;
    e.status = r.status;
    e.content_type = r.content_type;
    e.body = r.body;
    for (const auto& [name, value] : r.headers)
        if (!connection_header(name) && e.headers.size() < MaxForwardedHeaders) e.headers.emplace_back(name, value);
    return e;
}

HttpResponse forwarded_answer(const HttpEnvelope& e) {
    HttpResponse r{e.status, e.content_type, e.body, e.headers};
    r.headers.emplace_back(ServedByHeader, e.node);
    return r;
}

std::string encode_http(const HttpEnvelope& e) {
    nlohmann::ordered_json j;
    j["t"] = e.kind == HttpEnvelope::Kind::REQUEST ? RequestKind : AnswerKind;
    j["id"] = e.id;
    j["node"] = e.node;
    if (e.kind == HttpEnvelope::Kind::REQUEST) {
        j["method"] = e.method;
        j["target"] = e.target;
        if (!e.body.empty()) j["body"] = e.body;
        j["client"] = e.client;
        if (!e.origin.empty()) j["origin"] = e.origin;
        if (!e.host.empty()) j["host"] = e.host;
        if (!e.content_type.empty()) j["type"] = e.content_type;
        if (e.secure) j["secure"] = true;
        if (e.account) j["account"] = {{"id", e.account->id}, {"name", e.account->name}, {"admin", e.account->admin}};
    } else {
        j["status"] = e.status;
        j["type"] = e.content_type;
        if (!e.body.empty()) j["body"] = e.body;
        if (!e.headers.empty()) {
            auto& h = j["headers"] = nlohmann::ordered_json::array();
            for (const auto& [name, value] : e.headers) h.push_back(nlohmann::ordered_json::array({name, value}));
        }
    }
    return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

bool is_http_payload(std::string_view payload) { return payload.find("\"t\":\"http") != std::string_view::npos; }

Result<HttpEnvelope> decode_http(std::string_view payload) {
    if (payload.size() > MaxAnswerBody + 64 * 1024) return http_bad(std::to_string(payload.size()) + " bytes (too long)");
    json j = json::parse(payload, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return http_bad("not a JSON object");
    auto kind = http_text_field(j, "t", 16, true);
    if (!kind) return http_bad(kind.error().message);
    HttpEnvelope e;
    if (*kind == RequestKind) e.kind = HttpEnvelope::Kind::REQUEST;
    else if (*kind == AnswerKind) e.kind = HttpEnvelope::Kind::ANSWER;
    else return http_bad("of unknown kind \"" + kind->substr(0, 16) + "\"");
    auto id = http_int_field(j, "id", 1, std::numeric_limits<std::int64_t>::max());
    if (!id) return http_bad(id.error().message);
    e.id = std::uint64_t(*id);
    auto node = http_text_field(j, "node", 64, true);
    if (!node) return http_bad(node.error().message);
    if (!LeaseTable::valid_node_name(*node)) return http_bad("from a node whose name is not one");
    e.node = std::move(*node);
    return e.kind == HttpEnvelope::Kind::REQUEST ? decode_request(j, std::move(e)) : decode_answer(j, std::move(e));
}

}  // namespace outpost::server::redis
