// Outpost — the messages between nodes on their Redis channels (issue 26,
// docs/scaling.md "The bus between nodes"): a connection's join, message and leave
// forwarded to the node that runs its game (or, for the lobby, events and simuls, to the
// domains node), that node's answers back, and the games' reports to the domains node.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// One JSON object a message. Whatever comes from Redis is read as hostile: a message
// that does not read (not JSON, a missing or oversized field, a node name or address
// that is not one) is an error that says what, never a crash; the node logs it and
// goes on.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "chess/result.h"

namespace outpost::server::redis {

struct Envelope {
    enum class Kind : std::uint8_t {
        JOIN,     // node -> owner: a connection follows a game (its credentials)
        MESSAGE,  // node -> owner: what the connection wrote
        LEAVE,    // node -> owner: the connection is gone
        OUT,      // owner -> node: a text for one connection (state, move, error...)
        MOVED,    // owner -> node: this node does not run the game (any more): find who does;
                  // with the connection's message that arrived too late ("text"), to be
                  // sent where the game runs next, and the node it moves to if known ("to")
        REPORT,   // node -> the domains node: a game's report for the lobby, events, simuls
    };
    Kind kind = Kind::OUT;
    std::string node;         // the sender (JOIN, MESSAGE, LEAVE): where answers go
    std::uint64_t conn = 0;   // the connection, numbered by its own node (none for REPORT)
    // "game:ID", "lobby", "event:ID" or "simul:ID" (JOIN, MESSAGE, LEAVE, MOVED): a game's
    // goes to the node that holds its lease, the others to the domains node.
    std::string address;
    std::string token;        // JOIN: the seat's token
    std::int64_t account = 0; // JOIN: the signed-in account (0: anonymous)
    std::string account_name;
    std::string client;       // JOIN: the client's key for per-client limits
    std::string text;         // MESSAGE, OUT, REPORT (a JSON object, play/live_game_json.h);
                              // MOVED: the message not played here ("": none)
    std::string to;           // MOVED: the node the game is handed to ("": to be found)
    std::int64_t lag_ms = 0;  // MESSAGE: the lag measured on the connection (C5)
    // OUT: more connections of the same node that get the same text. What a game sends
    // all its followers (a move, a clock, presence) goes to each node in one message,
    // however many of its connections follow the game there.
    std::vector<std::uint64_t> also;
};

// Bounds of what is read.
inline constexpr std::size_t MaxEnvelopeBytes = 4u << 20;  // a full state of a long game fits
inline constexpr std::size_t MaxForwardedMessage = 4096;   // a client's message (as on a WebSocket)
inline constexpr std::size_t MaxReportBytes = 16384;       // a game's report (names, FEN, result)
inline constexpr std::size_t MaxAlsoConnections = 4096;    // OUT: connections besides "conn"

std::string encode(const Envelope& e);
Result<Envelope> decode(std::string_view payload);

}  // namespace outpost::server::redis
