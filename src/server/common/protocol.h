// Outpost — protocol v1 (docs/protocol.md): every message one typed struct, with its
// reader and its writer here and nowhere else (lila-ws ClientIn/ClientOut). The hub
// dispatches on these types; it never looks at JSON.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "chess/clock.h"
#include "chess/result.h"
#include "chess/types.h"

namespace outpost::server {

enum class Seat : std::uint8_t { WHITE_SEAT, BLACK_SEAT, BOTH, SPECTATOR };
const char* seat_name(Seat s);
std::optional<Color> seat_color(Seat s);

// A protocol error: a stable code (docs/protocol.md) and words for people.
struct ProtocolError {
    std::string code;
    std::string message;
    int http_status = 400;
};
template <class T>
using Answer = Result<T, ProtocolError>;  // chess/result.h: one way to fail

ProtocolError bad_request(std::string message);
ProtocolError not_allowed(std::string message);
ProtocolError not_found_game(std::string_view id);
std::string error_json(const ProtocolError& e);

// Limits of the protocol (docs/protocol.md, "Limits").
constexpr size_t MaxMessageBytes = 4096;
constexpr size_t MaxBodyBytes = 64 * 1024;
// The Elo a robot may be asked for (P3): the engine's range (engine/skill.h ELO_MIN,
// ELO_MAX), written here because the protocol's reader knows no engine; play/robot.cpp
// asserts at compile time that the two agree.
constexpr int RobotEloMin = 400, RobotEloMax = 2850;

// --- Client to server (WebSocket) ---------------------------------------------------

enum class Action : std::uint8_t { OFFER, ACCEPT, DECLINE, REQUEST };
enum class ClaimKind : std::uint8_t { THREEFOLD_REPETITION, FIFTY_MOVES, ABANDONMENT_WIN, ABANDONMENT_DRAW };

namespace in {
struct Move {
    std::optional<std::string> uci, san;
    std::optional<int> ply;     // the ply the client saw (drops stale premoves)
    std::optional<int> lag_ms;  // the client's measured lag (C5)
};
struct Resign {};
struct Draw {
    Action action = Action::OFFER;  // offer | accept | decline
};
struct Claim {
    ClaimKind claim = ClaimKind::THREEFOLD_REPETITION;
    Move with;  // optional intended move (uci or san) for R9/R10
};
struct Takeback {
    Action action = Action::REQUEST;  // request | accept | decline
};
struct Abort {};
struct GiveTime {
    int seconds = 0;
};
struct Rematch {
    Action action = Action::OFFER;  // offer | accept
};
struct Ping {};
struct Sync {};
struct Presence {  // P22: the client's tab is hidden (away) or visible again
    bool away = false;
};
// R18/P19: seal a move (adjourning the game), propose or accept a resumption time.
struct Seal {
    std::string move;  // as written on the envelope: not checked until resumption
};
struct Resume {
    std::int64_t at_ms = 0;  // a proposal (ms since 1970); 0 with accept
    bool accept = false;
};
struct Name {  // P21: an anonymous player names their seat (read_player_name's rules)
    std::string name;
};
}  // namespace in

using ClientMessage = std::variant<in::Move, in::Resign, in::Draw, in::Claim, in::Takeback, in::Abort, in::GiveTime,
                                   in::Rematch, in::Ping, in::Sync, in::Presence, in::Seal, in::Resume, in::Name>;

// P21: a name an anonymous player gives themselves (the new-game fields `name` and
// `opponent_name`, the lobby's `name`, the `name` message): the rule of every name
// (common/names.h, issue 25), at most MaxPlayerNameChars characters. The error names
// `field` and says what is wrong.
inline constexpr std::size_t MaxPlayerNameChars = 40;
Answer<std::string> read_player_name(std::string_view text, std::string_view field);

Answer<ClientMessage> read_client_message(std::string_view text);
std::string write_client_message(const ClientMessage& m);

// --- HTTP requests -------------------------------------------------------------------

struct NewGameRequest {
    std::string opponent = "robot";      // robot | hotseat | invite
    std::optional<Color> creator_color;  // nullopt: by lot
    int level = 3;                       // 1-10, or 0 with elo set
    int elo = 0;
    std::string time_control = "-";
    bool chess960 = false;
    std::optional<int> chess960_number;
    std::string fen, pgn;
    bool casual = true;
    std::string name = "Anonymous";
    std::string opponent_name;
    bool adjournment = false;  // R18/P19: the players may seal a move and adjourn
    bool robot_instant = false;  // the robot moves as soon as its search ends (no human time)
    Millis creator_extra_ms = 0;  // in-process only, never read from a body: a simul host's extra time (simul.h)
    std::string first_move;       // in-process only: the R14 rule of an event's or simul's board (stores/game_store.h)
    // In-process only: the id chosen and stored ahead by the service that asks (an event's
    // or a simul's board, issue 13), so that asking again after a stop finds the game
    // made before instead of making a second (Hub::create_game).
    std::string game_id;
};
Answer<NewGameRequest> read_new_game(std::string_view body);
// POST /api/v1/games/lookup: the seat tokens (non-empty, at most 200).
Answer<std::vector<std::string>> read_lookup(std::string_view body);

// --- Server to client ----------------------------------------------------------------

struct CreatedGame {
    std::string id;
    std::optional<std::string> white_token, black_token;
    Seat you = Seat::WHITE_SEAT;
    std::string json() const;
};

struct GameSummary {
    std::string id, white, black, status, result, you, token, time_control, variant;
    std::int64_t updated_ms = 0, created_ms = 0;
    int moves = 0;  // plies played
    std::string turn;           // C3: whose move it is ("" when over)
    std::int64_t deadline = 0;  // C3: wall-clock time the running flag falls (0: none)
    bool adjourned = false;     // R18: waiting for its resumption
};
std::string write_summaries(const std::vector<GameSummary>& games);
std::string write_pong(Millis server_time);

}  // namespace outpost::server
