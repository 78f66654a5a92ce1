// Outpost — a game's report (LiveGame, hub.h) as JSON, for the domains node of several
// nodes (issue 26, ClusterBus::report_to_domains): the node that runs a game writes
// it, the node that runs the lobby, events and simuls reads it. What is read comes from
// Redis and is read as hostile: every field's type, length and range is checked, and a
// report that does not read is an error that says which field.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>

#include "chess/result.h"
#include "server/play/hub.h"

namespace outpost::server {

std::string live_game_json(const LiveGame& g);
Result<LiveGame> read_live_game(std::string_view json);

}  // namespace outpost::server
