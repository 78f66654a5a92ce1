// Outpost — an event closed from the admin page (SPEC D9): no round starts and nobody
// enters any more; the games being played go on and their results still count.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/events/events.h"
#include "server/events/events_detail.h"

namespace outpost::server {

Answer<std::pair<std::string, std::string>> EventService::close(std::int64_t id) {
    using events_detail::refused;
    using events_detail::status_of;
    std::lock_guard lock(mutex_);
    auto found = find(id);
    if (!found) return found.error();
    Event next = **found;
    const std::string before = status_of(next);
    if (next.closed_ms) return refused("the event is closed already");
    if (next.finished()) return refused("the event is over");
    if (starting_.count(id)) return refused("a round is being started; try again in a moment");
    next.closed_ms = std::max<std::int64_t>(1, wall_ms_());
    if (auto saved = save(next); !saved) return saved.error();
    **found = next;
    return std::pair<std::string, std::string>{before, status_of(next)};
}

}  // namespace outpost::server
