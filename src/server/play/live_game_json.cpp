// Outpost — a game's report as JSON (live_game_json.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/play/live_game_json.h"

#include <nlohmann/json.hpp>

namespace outpost::server {

namespace {

using nlohmann::json;

// The longest each text may be (an id, a player's name, a time control, a FEN...).
struct TextField {
    const char* name;
    std::string LiveGame::*field;
    std::size_t max;
};
constexpr TextField TextFields[] = {
    {"id", &LiveGame::id, 64},          {"white", &LiveGame::white, 128},   {"black", &LiveGame::black, 128},
    {"tc", &LiveGame::time_control, 32}, {"variant", &LiveGame::variant, 16}, {"result", &LiveGame::result, 7},
    {"fen", &LiveGame::fen, 100},        {"last", &LiveGame::last_move, 5},
};

}  // namespace

std::string live_game_json(const LiveGame& g) {
    json j;
    for (const TextField& f : TextFields) j[f.name] = g.*(f.field);
    j["rated"] = g.rated;
    j["ply"] = g.ply;
    j["over"] = g.over;
    j["listed"] = g.listed;
    j["status"] = status_id(g.outcome.reason);
    if (g.outcome.winner) j["winner"] = *g.outcome.winner == WHITE ? "white" : "black";
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

Result<LiveGame> read_live_game(std::string_view text) {
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return make_error("a game's report that is not a JSON object");
    LiveGame g;
    for (const TextField& f : TextFields) {
        auto it = j.find(f.name);
        if (it == j.end() || !it->is_string())
            return make_error(std::string("a game's report: \"") + f.name + "\" is not a string");
        const auto& s = it->get_ref<const std::string&>();
        if (s.size() > f.max)
            return make_error(std::string("a game's report: \"") + f.name + "\" is longer than " + std::to_string(f.max) + " bytes");
        g.*(f.field) = s;
    }
    if (g.id.empty()) return make_error("a game's report: an empty \"id\"");
    for (const char* name : {"rated", "over", "listed"}) {
        auto it = j.find(name);
        if (it == j.end() || !it->is_boolean())
            return make_error(std::string("a game's report: \"") + name + "\" is not true or false");
    }
    g.rated = j["rated"].get<bool>();
    g.over = j["over"].get<bool>();
    g.listed = j["listed"].get<bool>();
    auto ply = j.find("ply");
    if (ply == j.end() || !ply->is_number_integer() || ply->get<std::int64_t>() < 0 || ply->get<std::int64_t>() > 100'000)
        return make_error("a game's report: \"ply\" is not an integer from 0 to 100000");
    g.ply = int(ply->get<std::int64_t>());
    auto status = j.find("status");
    if (status == j.end() || !status->is_string()) return make_error("a game's report: \"status\" is not a string");
    auto reason = status_from_id(status->get_ref<const std::string&>());
    if (!reason) return make_error("a game's report: an unknown \"status\"");
    g.outcome.reason = *reason;
    if (auto w = j.find("winner"); w != j.end()) {
        if (*w == "white") g.outcome.winner = WHITE;
        else if (*w == "black") g.outcome.winner = BLACK;
        else return make_error("a game's report: \"winner\" is neither \"white\" nor \"black\"");
    }
    return g;
}

}  // namespace outpost::server
