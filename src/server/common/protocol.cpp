// Outpost — protocol v1: readers and writers of every message (docs/protocol.md).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/common/protocol.h"
#include "server/common/wire_text.h"
#include "server/common/names.h"

#include "server/common/json_writer.h"


#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "chess/fen.h"
#include "chess/uci.h"
#include "server/observe/metrics.h"

namespace outpost::server {

using nlohmann::json;

const char* seat_name(Seat s) {
    switch (s) {
    case Seat::WHITE_SEAT: return "white";
    case Seat::BLACK_SEAT: return "black";
    case Seat::BOTH: return "both";
    case Seat::SPECTATOR: return "spectator";
    }
    return "spectator";
}

std::optional<Color> seat_color(Seat s) {
    if (s == Seat::WHITE_SEAT) return WHITE;
    if (s == Seat::BLACK_SEAT) return BLACK;
    return std::nullopt;
}


ProtocolError bad_request(std::string message) { return {"bad_request", std::move(message), 400}; }
ProtocolError not_allowed(std::string message) { return {"not_allowed", std::move(message), 409}; }
ProtocolError not_found_game(std::string_view id) {
    return {"not_found", "no game with id '" + std::string(id.substr(0, 64)) + "'", 404};
}

namespace {

using Writer = JsonWriter;

// --- Reading ------------------------------------------------------------------------

// Reads an optional field of a given JSON type; a present field of another type is
// an error that names it.
template <class T>
std::optional<ProtocolError> read_field(const json& j, const char* name, std::optional<T>& out) {
    auto it = j.find(name);
    if (it == j.end() || it->is_null()) return std::nullopt;
    if constexpr (std::is_same_v<T, std::string>) {
        if (!it->is_string()) return bad_request(std::string("field '") + name + "' must be a string");
        if (it->get_ref<const std::string&>().size() > MaxBodyBytes) return bad_request(std::string("field '") + name + "' is too long");
    } else if constexpr (std::is_same_v<T, bool>) {
        if (!it->is_boolean()) return bad_request(std::string("field '") + name + "' must be true or false");
    } else {
        if (!it->is_number_integer()) return bad_request(std::string("field '") + name + "' must be a whole number");
        const auto v = it->get<std::int64_t>();
        if (v < -1'000'000'000 || v > 1'000'000'000) return bad_request(std::string("field '") + name + "' is out of range");
    }
    out = it->get<T>();
    return std::nullopt;
}

Answer<json> parse_object(std::string_view text, size_t limit) {
    if (text.size() > limit)
        return bad_request("message too large (" + std::to_string(text.size()) + " bytes; the limit is " + std::to_string(limit) + ")");
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded()) return bad_request("malformed JSON");
    if (!j.is_object()) return bad_request("the message must be a JSON object");
    if (auto v = j.find("v"); v != j.end() && !(v->is_number_integer() && v->get<int>() == 1))
        return bad_request("unsupported protocol version (this server speaks v1)");
    return j;
}

struct ActionName {
    Action action;
    const char* name;
};
constexpr ActionName ActionNames[] = {
    {Action::OFFER, "offer"}, {Action::ACCEPT, "accept"}, {Action::DECLINE, "decline"}, {Action::REQUEST, "request"}};
const char* action_name(Action a) {
    for (const auto& n : ActionNames)
        if (n.action == a) return n.name;
    return "";
}

// An `action` field restricted to the given values; the error lists them.
Answer<Action> read_action(const json& j, std::initializer_list<Action> allowed) {
    std::string list;
    for (Action a : allowed) list += std::string(list.empty() ? "" : ", ") + action_name(a);
    std::optional<std::string> s;
    if (auto e = read_field(j, "action", s)) return *e;
    if (!s) return bad_request("field 'action' (" + list + ") is missing");
    for (Action a : allowed)
        if (*s == action_name(a)) return a;
    return bad_request("action must be one of: " + list);
}

struct ClaimName {
    ClaimKind kind;
    const char* name;
};
constexpr ClaimName ClaimNames[] = {{ClaimKind::THREEFOLD_REPETITION, "threefold-repetition"},
                                    {ClaimKind::FIFTY_MOVES, "fifty-moves"},
                                    {ClaimKind::ABANDONMENT_WIN, "abandonment-win"},
                                    {ClaimKind::ABANDONMENT_DRAW, "abandonment-draw"}};

Answer<in::Move> read_move_fields(const json& j) {
    in::Move m;
    for (auto err : {read_field(j, "uci", m.uci), read_field(j, "san", m.san)})
        if (err) return *err;
    for (auto err : {read_field(j, "ply", m.ply), read_field(j, "lag_ms", m.lag_ms)})
        if (err) return *err;
    return m;
}

template <class T>
Answer<ClientMessage> widen(Answer<T> a) {
    if (!a) return a.error();
    return ClientMessage{std::move(a).value()};
}

}  // namespace

std::string error_json(const ProtocolError& e) {
    metrics().errors.inc(e.code);  // every error a client is sent is made here
    Writer w;
    w.open('{').key("v").num(1).key("t").str("error").key("code").str(e.code).key("message").str(e.message).close('}');
    return w.take();
}

// --- Client messages -------------------------------------------------------------------

Answer<ClientMessage> read_client_message(std::string_view text) {
    auto parsed = parse_object(text, MaxMessageBytes);
    if (!parsed) return parsed.error();
    const json& j = *parsed;
    auto t = j.find("t");
    if (t == j.end() || !t->is_string()) return bad_request("field 't' (the message type) is missing");
    const std::string& type = t->get_ref<const std::string&>();
    if (type == "move") {
        auto m = read_move_fields(j);
        if (!m) return m.error();
        if (!m.value().uci && !m.value().san) return bad_request("field 'uci' or 'san' is missing");
        return ClientMessage{m.value()};
    }
    if (type == "claim") {
        std::optional<std::string> claim;
        if (auto e = read_field(j, "claim", claim)) return *e;
        if (!claim) return bad_request("field 'claim' is missing");
        auto with = read_move_fields(j);
        if (!with) return with.error();
        for (const auto& c : ClaimNames)
            if (*claim == c.name) return ClientMessage{in::Claim{c.kind, *with}};
        return bad_request("claim must be 'threefold-repetition', 'fifty-moves', 'abandonment-win' or 'abandonment-draw'");
    }
    if (type == "resign") return ClientMessage{in::Resign{}};
    if (type == "abort") return ClientMessage{in::Abort{}};
    if (type == "ping") return ClientMessage{in::Ping{}};
    if (type == "sync") return ClientMessage{in::Sync{}};
    if (type == "presence") {
        std::optional<std::string> state;
        if (auto e = read_field(j, "state", state)) return *e;
        if (!state || (*state != "away" && *state != "online")) return bad_request("field 'state' must be 'away' or 'online'");
        return ClientMessage{in::Presence{*state == "away"}};
    }
    if (type == "draw") {
        auto a = read_action(j, {Action::OFFER, Action::ACCEPT, Action::DECLINE});
        if (!a) return a.error();
        return ClientMessage{in::Draw{*a}};
    }
    if (type == "takeback") {
        auto a = read_action(j, {Action::REQUEST, Action::ACCEPT, Action::DECLINE});
        if (!a) return a.error();
        return ClientMessage{in::Takeback{*a}};
    }
    if (type == "rematch") {
        auto a = read_action(j, {Action::OFFER, Action::ACCEPT});
        if (!a) return a.error();
        return ClientMessage{in::Rematch{*a}};
    }
    if (type == "give_time") {
        std::optional<int> seconds;
        if (auto e = read_field(j, "seconds", seconds)) return *e;
        if (!seconds || *seconds < 1 || *seconds > 3600) return bad_request("field 'seconds' must be 1 to 3600");
        return ClientMessage{in::GiveTime{*seconds}};
    }
    if (type == "name") {
        std::optional<std::string> name;
        if (auto e = read_field(j, "name", name)) return *e;
        if (!name) return bad_request("field 'name' is missing");
        auto ok = read_player_name(*name, "name");
        if (!ok) return ok.error();
        return ClientMessage{in::Name{*ok}};
    }
    if (type == "seal") {
        std::optional<std::string> move;
        if (auto e = read_field(j, "move", move)) return *e;
        if (!move || !sealed_move_text_ok(*move))
            return bad_request("field 'move' must be the sealed move: 1 to 16 printable characters (SAN or UCI)");
        return ClientMessage{in::Seal{*move}};
    }
    if (type == "resume") {
        std::optional<std::string> at, action;
        for (auto e : {read_field(j, "at", at), read_field(j, "action", action)})
            if (e) return *e;
        if (action && *action == "accept" && !at) return ClientMessage{in::Resume{0, true}};
        if (action && *action != "propose") return bad_request("action must be 'propose' (with 'at') or 'accept'");
        if (!at) return bad_request("field 'at' (the resumption time, as 2026-11-24T18:30:00Z) is missing");
        auto ms = parse_iso_time(*at);
        if (!ms) return bad_request("field 'at' must be a UTC time such as 2026-11-24T18:30:00Z");
        return ClientMessage{in::Resume{*ms, false}};
    }
    return bad_request("unknown message type '" + type.substr(0, 32) + "'");
}

std::string write_client_message(const ClientMessage& m) {
    Writer w;
    w.open('{').key("v").num(1);
    auto move_fields = [&](const in::Move& mv) {
        if (mv.uci) w.key("uci").str(*mv.uci);
        if (mv.san) w.key("san").str(*mv.san);
        if (mv.ply) w.key("ply").num(*mv.ply);
        if (mv.lag_ms) w.key("lag_ms").num(*mv.lag_ms);
    };
    std::visit(
        [&](const auto& x) {
            using T = std::decay_t<decltype(x)>;
            if constexpr (std::is_same_v<T, in::Move>) {
                w.key("t").str("move");
                move_fields(x);
            } else if constexpr (std::is_same_v<T, in::Claim>) {
                w.key("t").str("claim");
                for (const auto& c : ClaimNames)
                    if (c.kind == x.claim) w.key("claim").str(c.name);
                move_fields(x.with);
            } else if constexpr (std::is_same_v<T, in::Draw>) {
                w.key("t").str("draw").key("action").str(action_name(x.action));
            } else if constexpr (std::is_same_v<T, in::Takeback>) {
                w.key("t").str("takeback").key("action").str(action_name(x.action));
            } else if constexpr (std::is_same_v<T, in::Rematch>) {
                w.key("t").str("rematch").key("action").str(action_name(x.action));
            } else if constexpr (std::is_same_v<T, in::GiveTime>) {
                w.key("t").str("give_time").key("seconds").num(x.seconds);
            } else if constexpr (std::is_same_v<T, in::Seal>) {
                w.key("t").str("seal").key("move").str(x.move);
            } else if constexpr (std::is_same_v<T, in::Resume>) {
                w.key("t").str("resume");
                if (x.accept) w.key("action").str("accept");
                else w.key("at").str(format_iso_time(x.at_ms));
            } else if constexpr (std::is_same_v<T, in::Resign>) {
                w.key("t").str("resign");
            } else if constexpr (std::is_same_v<T, in::Abort>) {
                w.key("t").str("abort");
            } else if constexpr (std::is_same_v<T, in::Ping>) {
                w.key("t").str("ping");
            } else if constexpr (std::is_same_v<T, in::Presence>) {
                w.key("t").str("presence").key("state").str(x.away ? "away" : "online");
            } else if constexpr (std::is_same_v<T, in::Name>) {
                w.key("t").str("name").key("name").str(x.name);
            } else {
                w.key("t").str("sync");
            }
        },
        m);
    w.close('}');
    return w.take();
}

// --- HTTP requests -----------------------------------------------------------------------

Answer<std::string> read_player_name(std::string_view text, std::string_view field) {
    return read_name(text, field, MaxPlayerNameChars);
}

Answer<NewGameRequest> read_new_game(std::string_view body) {
    constexpr int elo_min = RobotEloMin, elo_max = RobotEloMax;
    auto parsed = parse_object(body, MaxBodyBytes);
    if (!parsed) return parsed.error();
    const json& j = *parsed;
    NewGameRequest spec;
    std::optional<std::string> opponent, color, tc, variant, fen, pgn, name, opponent_name;
    std::optional<int> level, elo, number;
    std::optional<bool> casual, adjournment, robot_instant;
    std::optional<int> days_per_move;
    for (auto err : {read_field(j, "days_per_move", days_per_move)})
        if (err) return *err;
    if (auto err = read_field(j, "adjournment", adjournment)) return *err;
    for (auto err : {read_field(j, "opponent", opponent), read_field(j, "color", color), read_field(j, "time_control", tc),
                     read_field(j, "variant", variant), read_field(j, "fen", fen), read_field(j, "pgn", pgn),
                     read_field(j, "name", name), read_field(j, "opponent_name", opponent_name)})
        if (err) return *err;
    for (auto err : {read_field(j, "level", level), read_field(j, "elo", elo), read_field(j, "chess960", number)})
        if (err) return *err;
    if (auto err = read_field(j, "casual", casual)) return *err;
    if (auto err = read_field(j, "robot_instant", robot_instant)) return *err;

    if (opponent) {
        if (*opponent != "robot" && *opponent != "hotseat" && *opponent != "invite")
            return bad_request("opponent must be 'robot', 'hotseat' or 'invite'");
        spec.opponent = *opponent;
    }
    if (color && *color != "random") {
        if (*color == "white") spec.creator_color = WHITE;
        else if (*color == "black") spec.creator_color = BLACK;
        else return bad_request("color must be 'white', 'black' or 'random'");
    }
    if (level) {
        if (*level < 1 || *level > 10) return bad_request("level must be 1 to 10");
        spec.level = *level;
    }
    if (elo) {
        // The engine's one range (engine::ELO_MIN..ELO_MAX, also UCI_Elo and the UI).
        if (*elo < elo_min || *elo > elo_max)
            return bad_request("elo must be " + std::to_string(elo_min) + " to " + std::to_string(elo_max) + " (asked for " +
                               std::to_string(*elo) + ")");
        spec.elo = *elo;
        spec.level = 0;
    }
    if (tc) spec.time_control = *tc;
    // C3: days per move, 1 to 14 (the same as time_control "Nd").
    if (days_per_move) {
        if (*days_per_move < 1 || *days_per_move > 14) return bad_request("days_per_move must be 1 to 14");
        if (tc && *tc != "-") return bad_request("give either time_control or days_per_move, not both");
        spec.time_control = std::to_string(*days_per_move) + "d";
    }
    if (adjournment) spec.adjournment = *adjournment;
    if (variant) {
        if (*variant != "standard" && *variant != "chess960") return bad_request("variant must be 'standard' or 'chess960'");
        spec.chess960 = *variant == "chess960";
    }
    if (number) {
        if (*number < 0 || *number > 959) return bad_request("chess960 must be a number from 0 to 959");
        spec.chess960_number = *number;
        spec.chess960 = true;
    }
    if (fen) spec.fen = *fen;
    if (pgn) spec.pgn = *pgn;
    if (casual) spec.casual = *casual;
    if (robot_instant) spec.robot_instant = *robot_instant;
    if (name && !name->empty()) {
        auto ok = read_player_name(*name, "name");
        if (!ok) return ok.error();
        spec.name = *ok;
    }
    // The other player's name (hotseat: Black's; invite: the invited side's); a robot
    // is named by its level or Elo.
    if (opponent_name && !opponent_name->empty()) {
        auto ok = read_player_name(*opponent_name, "opponent_name");
        if (!ok) return ok.error();
        spec.opponent_name = *ok;
    }
    return spec;
}

Answer<std::vector<std::string>> read_lookup(std::string_view body) {
    auto parsed = parse_object(body, MaxBodyBytes);
    if (!parsed) return parsed.error();
    const json& j = *parsed;
    auto it = j.find("tokens");
    if (it == j.end() || !it->is_array()) return bad_request("field 'tokens' must be an array of seat tokens");
    if (it->size() > 200) return bad_request("at most 200 tokens");
    std::vector<std::string> tokens;
    for (const auto& t : *it) {
        if (!t.is_string() || t.get_ref<const std::string&>().size() > 64)
            return bad_request("each token must be a string of at most 64 characters");
        if (!t.get_ref<const std::string&>().empty()) tokens.push_back(t.get<std::string>());
    }
    return tokens;
}

// --- Server messages ---------------------------------------------------------------------

std::string CreatedGame::json() const {
    Writer w;
    w.open('{').key("v").num(1).key("game").str(id).key("seats").open('{');
    if (white_token) w.key("white").str(*white_token);
    if (black_token) w.key("black").str(*black_token);
    w.close('}').key("you").str(seat_name(you)).close('}');
    return w.take();
}

std::string write_summaries(const std::vector<GameSummary>& games) {
    Writer w(128 + 256 * games.size());
    w.open('{').key("v").num(1).key("games").open('[');
    for (const GameSummary& g : games) {
        w.open('{');
        w.key("id").str(g.id).key("white").str(g.white).key("black").str(g.black);
        w.key("status").str(g.status).key("result").str(g.result);
        w.key("updated").num(g.updated_ms).key("created").num(g.created_ms);
        w.key("you").str(g.you).key("token").str(g.token);
        w.key("moves").num(g.moves).key("plies").num(g.moves);
        w.key("time_control").str(g.time_control).key("variant").str(g.variant);
        w.key("turn").str_or_null(g.turn.empty() ? std::nullopt : std::optional<std::string_view>(g.turn));
        w.key("deadline").num(g.deadline).key("adjourned").boolean(g.adjourned);
        w.close('}');
    }
    w.close(']').close('}');
    return w.take();
}

std::string write_pong(Millis server_time) {
    Writer w;
    w.open('{').key("v").num(1).key("t").str("pong").key("server_time").num(server_time).close('}');
    return w.take();
}

}  // namespace outpost::server
