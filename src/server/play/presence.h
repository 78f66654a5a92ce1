// Outpost — presence (SPEC P22): whether each seat of a game is online, away (its
// tab hidden, as its client says) or gone (no connection), and when the abandonment
// claim of docs/protocol.md ("Abandoned games") becomes possible. Derived from the
// room's connections on demand; nothing here is stored.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>

#include "server/play/room.h"

namespace outpost::server {

enum class PresenceState : std::uint8_t { ONLINE, AWAY, GONE };
const char* presence_name(PresenceState s);

struct SeatPresence {
    PresenceState state = PresenceState::ONLINE;
    Millis gone_ms = 0;  // GONE: how long since the seat's last connection closed
};

// A robot's seat is always online; a human's is online while one of its connections
// is not away, away while every connection it has says so, gone without one.
SeatPresence seat_presence(const Room& r, Color c, Millis now);

// The milliseconds until the player present may claim the game as abandoned (0: now);
// none when no claim is coming (the game is over or not an invite game, the side to
// move is connected or has not yet made its first move).
std::optional<Millis> abandonment_claim_in(const Room& r, Millis now, Millis abandonment_ms);

}  // namespace outpost::server
