// Outpost tests — a hub subscriber that keeps every message it is sent, with the views
// the server tests read them through (the hub, correspondence, events, names, ratings).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "server/play/room.h"

namespace outpost::test {

struct Collector : server::Subscriber {
    std::vector<std::string> messages;
    void deliver(std::shared_ptr<const std::string> m) override { messages.push_back(*m); }

    nlohmann::json last() const { return nlohmann::json::parse(messages.back()); }
    // The last message of type `t` ({"t": …}), or null.
    nlohmann::json last_of(const std::string& t) const {
        for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
            auto j = nlohmann::json::parse(*it);
            if (j["t"] == t) return j;
        }
        return nullptr;
    }
    // The state as a client keeps it: the last `state`, with every `move` after it
    // applied (a `move` must follow its ply exactly).
    nlohmann::json last_state() const {
        nlohmann::json state;
        for (const auto& text : messages) {
            auto j = nlohmann::json::parse(text);
            if (j["t"] == "state") state = j["game"];
            if (j["t"] == "presence" && !state.is_null()) state["presence"] = j["game"]["presence"];  // P22
            if (j["t"] != "move") continue;
            const auto& d = j["game"];
            EXPECT_FALSE(state.is_null()) << "a move before any state";
            EXPECT_EQ(d["ply"], state["ply"].get<int>() + 1) << "a move message out of turn";
            for (const auto& [k, v] : d.items())
                if (k != "uci" && k != "san") state[k] = v;
            state["moves"].push_back(d["uci"]);
            state["san"].push_back(d["san"]);
        }
        return state;
    }
    std::string all() const {
        std::string s;
        for (const auto& m : messages) s += m + "\n";
        return s;
    }
};

}  // namespace outpost::test
