// Outpost — the messages between nodes, written and read (bus_envelope.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/bus/redis/bus_envelope.h"

#include <iterator>
#include <limits>

#include <nlohmann/json.hpp>

#include "server/bus/bus.h"
#include "server/bus/redis/redis_lease.h"

namespace outpost::server::redis {

namespace {

using nlohmann::json;

constexpr const char* KindNames[] = {"join", "msg", "leave", "out", "moved", "report"};

bool needs_sender(Envelope::Kind k) {
    return k == Envelope::Kind::JOIN || k == Envelope::Kind::MESSAGE || k == Envelope::Kind::LEAVE ||
           k == Envelope::Kind::REPORT;
}
bool needs_address(Envelope::Kind k) { return k != Envelope::Kind::OUT && k != Envelope::Kind::REPORT; }
bool needs_conn(Envelope::Kind k) { return k != Envelope::Kind::REPORT; }

// An address a connection may follow through another node: a game's, an event's or a
// simul's with an id, or the lobby.
bool forwardable(const Address& a) { return a.topic == Topic::LOBBY ? a.id.empty() : !a.id.empty(); }

Result<std::string> text_field(const json& j, const char* name, std::size_t max, bool required) {
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

Result<std::int64_t> int_field(const json& j, const char* name, std::int64_t lo, std::int64_t hi) {
    auto it = j.find(name);
    if (it == j.end()) return std::int64_t(0);
    if (!it->is_number_integer()) return make_error(std::string("\"") + name + "\" is not an integer");
    // Unsigned numbers above int64 are refused by the range check below as read here.
    if (it->is_number_unsigned() && it->get<std::uint64_t>() > std::uint64_t(hi))
        return make_error(std::string("\"") + name + "\" is out of range");
    const std::int64_t v = it->get<std::int64_t>();
    if (v < lo || v > hi) return make_error(std::string("\"") + name + "\" is out of range");
    return v;
}

// A list of connection numbers (each >= 1), at most `max`; none when absent.
Result<std::vector<std::uint64_t>> connections_field(const json& j, const char* name, std::size_t max) {
    std::vector<std::uint64_t> out;
    auto it = j.find(name);
    if (it == j.end()) return out;
    if (!it->is_array()) return make_error(std::string("\"") + name + "\" is not a list");
    if (it->size() > max)
        return make_error(std::string("\"") + name + "\" holds more than " + std::to_string(max) + " connections");
    out.reserve(it->size());
    for (const json& c : *it) {
        if (!c.is_number_unsigned() || c.get<std::uint64_t>() == 0 ||
            c.get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max()))
            return make_error(std::string("\"") + name + "\" holds something that is not a connection number");
        out.push_back(c.get<std::uint64_t>());
    }
    return out;
}

}  // namespace

std::string encode(const Envelope& e) {
    json j;
    j["t"] = KindNames[int(e.kind)];
    if (needs_conn(e.kind)) j["conn"] = e.conn;
    if (needs_sender(e.kind)) j["node"] = e.node;
    if (needs_address(e.kind)) j["at"] = e.address;
    if (e.kind == Envelope::Kind::JOIN) {
        if (!e.token.empty()) j["token"] = e.token;
        if (e.account) {
            j["account"] = e.account;
            j["name"] = e.account_name;
        }
        if (!e.client.empty()) j["client"] = e.client;
    }
    if (e.kind == Envelope::Kind::MESSAGE || e.kind == Envelope::Kind::OUT || e.kind == Envelope::Kind::REPORT)
        j["text"] = e.text;
    if (e.kind == Envelope::Kind::MESSAGE && e.lag_ms) j["lag"] = e.lag_ms;
    if (e.kind == Envelope::Kind::OUT && !e.also.empty()) j["also"] = e.also;
    if (e.kind == Envelope::Kind::MOVED) {
        if (!e.text.empty()) j["text"] = e.text;
        if (!e.to.empty()) j["to"] = e.to;
    }
    // Invalid UTF-8 in a client's text is replaced rather than thrown on.
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

Result<Envelope> decode(std::string_view payload) {
    if (payload.size() > MaxEnvelopeBytes) return make_error("a bus message of " + std::to_string(payload.size()) + " bytes (too long)");
    json j = json::parse(payload, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return make_error("a bus message that is not a JSON object");
    Envelope e;
    auto kind = text_field(j, "t", 16, true);
    if (!kind) return make_error("a bus message: " + kind.error().message);
    int k = -1;
    for (int i = 0; i < int(std::size(KindNames)); ++i)
        if (*kind == KindNames[i]) k = i;
    if (k < 0) return make_error("a bus message of unknown kind \"" + kind->substr(0, 16) + "\"");
    e.kind = Envelope::Kind(k);
    if (needs_conn(e.kind)) {
        auto conn = int_field(j, "conn", 1, std::numeric_limits<std::int64_t>::max());
        if (!conn || *conn == 0) return make_error("a bus message without a connection number (\"conn\" >= 1)");
        e.conn = std::uint64_t(*conn);
    }
    if (needs_sender(e.kind)) {
        auto node = text_field(j, "node", 64, true);
        if (!node) return make_error("a bus message: " + node.error().message);
        if (!LeaseTable::valid_node_name(*node)) return make_error("a bus message from a node whose name is not one");
        e.node = std::move(*node);
    }
    if (needs_address(e.kind)) {
        auto at = text_field(j, "at", 80, true);
        if (!at) return make_error("a bus message: " + at.error().message);
        auto address = Address::parse(*at);
        if (!address || !forwardable(*address))
            return make_error("a bus message for an address that is not one (a game's, an event's, a simul's or the lobby)");
        e.address = std::move(*at);
    }
    const bool message = e.kind == Envelope::Kind::MESSAGE;
    if (e.kind == Envelope::Kind::JOIN) {
        auto token = text_field(j, "token", 128, false);
        auto account = int_field(j, "account", 0, std::numeric_limits<std::int64_t>::max());
        auto name = text_field(j, "name", 128, false);
        auto client = text_field(j, "client", 128, false);
        if (!token || !account || !name || !client) return make_error("a bus message: a join with a bad field");
        e.token = std::move(*token);
        e.account = *account;
        e.account_name = std::move(*name);
        e.client = std::move(*client);
    }
    if (message || e.kind == Envelope::Kind::OUT) {
        auto text = text_field(j, "text", message ? MaxForwardedMessage : MaxEnvelopeBytes, true);
        if (!text) return make_error("a bus message: " + text.error().message);
        e.text = std::move(*text);
    }
    if (e.kind == Envelope::Kind::OUT) {
        auto also = connections_field(j, "also", MaxAlsoConnections);
        if (!also) return make_error("a bus message: " + also.error().message);
        e.also = std::move(*also);
    }
    if (e.kind == Envelope::Kind::REPORT) {  // its fields are read where it is delivered
        auto text = text_field(j, "text", MaxReportBytes, true);
        if (!text) return make_error("a bus message: " + text.error().message);
        if (!json::accept(*text)) return make_error("a bus message: a report that is not JSON");
        e.text = std::move(*text);
    }
    if (e.kind == Envelope::Kind::MOVED) {  // a client's message at most, and a node's name
        auto text = text_field(j, "text", MaxForwardedMessage, false);
        if (!text) return make_error("a bus message: " + text.error().message);
        auto to = text_field(j, "to", 64, false);
        if (!to) return make_error("a bus message: " + to.error().message);
        if (!to->empty() && !LeaseTable::valid_node_name(*to)) return make_error("a bus message moving a game to a node whose name is not one");
        e.text = std::move(*text);
        e.to = std::move(*to);
    }
    if (message) {
        auto lag = int_field(j, "lag", 0, 60'000);
        if (!lag) return make_error("a bus message: " + lag.error().message);
        e.lag_ms = *lag;
    }
    return e;
}

}  // namespace outpost::server::redis
