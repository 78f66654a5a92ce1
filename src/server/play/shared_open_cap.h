// Outpost — the open-games cap counted by every node of a cluster (issue 26; the hub's
// own count, Hub::over_open_cap, is this node's). A game about to be made holds a place
// among its creator's unfinished games in the shared count (one per key: the address
// group, and the account when signed in) until it is made, and gives it back when it is
// not. Asked on the request pool or the domains thread, before the hub's lock.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "server/common/shared_limits.h"

namespace outpost::server {

class SharedOpenCap {
public:
    // The cap of a key (live or correspondence), and how long an entry counts at most.
    struct Cap {
        int games = 0;
        Millis max_age_ms = 0;
    };
    // Asks for a place under every key (`cap_of` each); null `limits`: holds nothing.
    SharedOpenCap(SharedLimits* limits, const std::vector<std::string>& keys, std::string token,
                  const std::function<Cap(const std::string&)>& cap_of);
    ~SharedOpenCap();  // gives the places back unless made()
    SharedOpenCap(const SharedOpenCap&) = delete;
    SharedOpenCap& operator=(const SharedOpenCap&) = delete;

    // The key whose cap is reached (then nothing is held), if any. A key whose count
    // cannot be reached (Redis away) is not refused: the node's own cap holds.
    const std::optional<std::pair<std::string, int>>& refused() const { return refused_; }
    // The game is made: the places are its.
    void made(const std::string& game_id);

private:
    void give_back();
    SharedLimits* limits_;
    std::string token_;
    std::vector<std::string> held_;
    std::optional<std::pair<std::string, int>> refused_;
};

}  // namespace outpost::server
