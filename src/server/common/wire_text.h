// Outpost — texts of the protocol that more than one room reads and writes: times in ISO 8601
// (UTC) and the text of a sealed move before it is read as a move (docs/protocol.md,
// "Adjournment"). Here in common because the protocol's reader checks them and the
// play room uses them; neither knows the other.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace outpost::server {

// A sealed move as typed: 1 to 16 printable ASCII characters, no space. Whether it is
// a legal move is decided when the game resumes (R18).
bool sealed_move_text_ok(std::string_view text);

// "2026-11-24T18:30:00Z" (seconds optional, "Z" or "+00:00"); ms since 1970.
std::optional<std::int64_t> parse_iso_time(std::string_view text);
std::string format_iso_time(std::int64_t ms);

}  // namespace outpost::server
