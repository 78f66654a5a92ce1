// Outpost — a simul closed from the admin page (SPEC D9): one that has not started is
// cancelled, as its host could; one under way ends with its games (an arbiter's
// decision ends a game, hub_arbiter.cpp).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/events/simul.h"

namespace outpost::server {

Answer<std::pair<std::string, std::string>> SimulService::close(const std::string& id) {
    std::lock_guard lock(mutex_);
    Simul* s = find(id);
    if (!s) return ProtocolError{"not_found", "no such simul", 404};
    const std::string before = s->status;
    if (s->status != "open")
        return ProtocolError{"not_allowed",
                             "only a simul that has not started is closed (its status is " + s->status +
                                 "); end its games with an arbiter's decision instead",
                             409};
    s->status = "cancelled";
    s->finished_ms = env_.wall_ms();
    changed(*s);
    return std::pair<std::string, std::string>{before, s->status};
}

}  // namespace outpost::server
