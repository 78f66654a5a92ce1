// Outpost tests — a HubEnv on a fake clock (server/play/hub.h): the monotonic time is
// the fixture's `now`, the wall time WallBase + now, seat tokens are "t1xxx…" of the
// length asked (predictable, distinct), timers and the robot go nowhere, writes inline.
// A fixture sets what its test needs on top (a robot inbox, the lobby's report...).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>

#include "server/play/hub.h"

namespace outpost::test {

inline constexpr std::int64_t WallBase = 1'700'000'000'000;

// `now` and `tokens` are the fixture's: they must outlive the hub made with the result.
inline server::HubEnv fake_hub_env(const outpost::Millis& now, int& tokens, char token_prefix = 't') {
    server::HubEnv e;
    e.monotonic_ms = [&now] { return now; };
    e.wall_ms = [&now] { return WallBase + now; };
    e.call_back_in = [](const std::string&, outpost::Millis) {};
    e.ask_robot = [](server::RobotRequest) {};
    e.random_token = [&tokens, token_prefix](int len) {
        std::string s = token_prefix + std::to_string(++tokens);
        if (int(s.size()) < len) s.resize(size_t(len), 'x');
        return s;
    };
    e.levels_json = [] { return std::string(R"({"v":1,"levels":[]})"); };
    e.inline_writes = true;
    return e;
}

}  // namespace outpost::test
