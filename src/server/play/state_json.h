// Outpost — a game's state as each seat sees it (docs/protocol.md): the `state`,
// `move` and `presence` messages of one room.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>

#include "chess/clock.h"
#include "server/common/protocol.h"

namespace outpost::server {

class Room;
// The whole state of a game as `seat` sees it (a `state` message), and the `move`
// message after one move: both written by the same code (write_live_fields), so that
// folding the moves into a state gives exactly the state.
// `node`: the node that runs the game (issue 26), in the state as "node".
std::string write_state(const Room& r, Seat seat, Millis server_time, std::string_view node = "local");
std::string write_move(const Room& r, Seat seat, Millis server_time);
// A `presence` message (P22): the presence block of STATE alone, after a seat's
// connection opened, closed or said it is away.
std::string write_presence(const Room& r, Millis server_time);

}  // namespace outpost::server
