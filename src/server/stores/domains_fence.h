// Outpost — the domains' fencing token in storage (issue 26, docs/scaling.md): with
// several nodes, the lobby, events and simuls run on the holder of the `domains` lease,
// whose grant carries a fencing token. Each write of the events' and simuls' stores
// raises the stored token (`fences` table, row "domains") to its own in the same
// transaction, and is refused when a higher one has written: a node paused past its
// lease, woken after another took the domains, cannot write over that one's work.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "chess/result.h"

namespace outpost::server {

// Read at each write: 0 when there is one node (no fencing); the token of the domains
// lease this node holds; a negative number when it does not hold it now (refused).
using FenceToken = std::function<std::int64_t()>;

inline constexpr const char* DomainsFenceName = "domains";

inline std::string domains_fence_refused(std::int64_t token) {
    if (token < 0) return "this node does not run the events and simuls now (another node holds the domains lease)";
    return "another node runs the events and simuls now (fencing token " + std::to_string(token) +
           " is below the one stored)";
}

// Inside a write's transaction, for either backend: refused unless `token` (if any) is
// the highest written. `raise(t)` raises the stored token to t when it is not above it
// and answers the rows it changed (0: a higher one is stored).
template <class Raise>
Result<bool> check_domains_fence(const FenceToken& token, Raise&& raise) {
    const std::int64_t t = token ? token() : 0;
    if (t == 0) return true;
    if (t < 0) return make_error(domains_fence_refused(t));
    auto changed = raise(t);
    if (!changed) return changed.error();
    if (*changed == 0) return make_error(domains_fence_refused(t));
    return true;
}

}  // namespace outpost::server
