// Outpost — what the files of the events service share (events.h): its limits, its
// error answers, and the words it stores and shows for its enums. Included only by
// events*.cpp.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <string_view>

#include "chess/clock.h"
#include "server/accounts/ratings.h"
#include "server/events/events.h"

namespace outpost::server::events_detail {

using nlohmann::json;

inline constexpr const char* EventsPrefix = "/api/v1/events";
inline constexpr std::size_t MaxName = 100;
inline constexpr int MaxSwissRounds = 30;
inline constexpr std::size_t MaxSwissPlayers = 500;
inline constexpr std::size_t MaxRoundRobinPlayers = 20;  // C.05 Annex 1: the tables go to 20
inline constexpr std::size_t MaxTiebreaks = 6;
inline constexpr int MaxOpenEventsPerOrganiser = 20;
inline constexpr std::size_t MaxListed = 200;

inline ProtocolError bad_field(const std::string& field, const std::string& what) {
    return {"bad_request", "field '" + field + "' " + what, 400};
}
inline ProtocolError not_found() { return {"not_found", "no such event", 404}; }
inline ProtocolError refused(std::string why) { return {"not_allowed", std::move(why), 409}; }
inline ProtocolError organiser_only() { return {"not_organiser", "only the organiser of the event may do this", 403}; }

inline const char* system_name(EventSystem s) {
    switch (s) {
        case EventSystem::SWISS: return "swiss";
        case EventSystem::ROUND_ROBIN: return "round-robin";
        case EventSystem::DOUBLE_ROUND_ROBIN: return "double-round-robin";
    }
    return "swiss";
}
inline std::optional<EventSystem> system_from(std::string_view s) {
    if (s == "swiss") return EventSystem::SWISS;
    if (s == "round-robin") return EventSystem::ROUND_ROBIN;
    if (s == "double-round-robin") return EventSystem::DOUBLE_ROUND_ROBIN;
    return std::nullopt;
}

// An integer field in [lo, hi].
inline Answer<int> int_field(const json& j, const char* name, int lo, int hi, std::optional<int> fallback = std::nullopt) {
    auto it = j.find(name);
    if (it == j.end()) {
        if (fallback) return *fallback;
        return bad_field(name, "is missing");
    }
    if (!it->is_number_integer()) return bad_field(name, "must be an integer");
    const auto v = it->get<std::int64_t>();
    if (v < lo || v > hi) return bad_field(name, "must be " + std::to_string(lo) + " to " + std::to_string(hi));
    return int(v);
}

inline std::string status_of(const Event& e) {
    if (e.closed_ms) return "closed";
    if (e.current_round == 0) return "registration";
    return e.finished() ? "finished" : "running";
}

// The result of a finished game of an event; "" when it ended without one (aborted).
inline std::string result_of(const Outcome& o) {
    if (o.reason == Status::ABORTED || o.reason == Status::ONGOING) return "";
    if (!o.winner) return "1/2-1/2";
    if (o.reason == Status::FORFEIT) return *o.winner == WHITE ? "+-" : "-+";
    return *o.winner == WHITE ? "1-0" : "0-1";
}

// The rating class of an event's games (P23: the class of its time control; an event
// has no Chess960 games), "" for an untimed event, whose players are unrated.
inline std::string event_rating_class(const std::string& time_control) {
    auto tc = parse_time_control(time_control);
    if (!tc) return "";
    return rating_class_of(*tc, false).value_or("");
}

// The id of an event board's game, chosen before the hub makes it (as the hub's own:
// 8 letters and digits; game ids are public, the seat tokens are the secrets).
inline std::string event_game_id() {
    static constexpr char Alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    static std::mutex m;
    static std::random_device device;
    std::lock_guard lock(m);
    std::uniform_int_distribution<int> pick(0, 61);
    std::string id;
    for (int i = 0; i < 8; ++i) id += Alphabet[pick(device)];
    return id;
}

}  // namespace outpost::server::events_detail
