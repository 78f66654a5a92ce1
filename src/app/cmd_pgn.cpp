// Outpost — `outpost pgn ...` (filled in with the notation layer).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/commands.h"

namespace outpost::app {
void add_pgn_command(CLI::App&, std::function<int()>&) {}
}  // namespace outpost::app
