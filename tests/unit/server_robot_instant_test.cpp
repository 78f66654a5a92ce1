// Outpost — "the robot moves at once" (issue 28, item 3): the new-game field
// `robot_instant` is read and reaches every robot request of the game.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <filesystem>

#include "server/common/protocol.h"
#include "server/play/hub.h"

using namespace outpost;
using namespace outpost::server;

TEST(RobotInstant, TheFieldIsReadAndChecked) {
    EXPECT_FALSE(read_new_game(R"({"opponent":"robot"})").value().robot_instant);
    EXPECT_TRUE(read_new_game(R"({"opponent":"robot","robot_instant":true})").value().robot_instant);
    EXPECT_FALSE(read_new_game(R"({"robot_instant":"yes"})").ok());
}

TEST(RobotInstant, ReachesTheRobotRequest) {
    const std::string db = (std::filesystem::temp_directory_path() /
                            ("outpost-robot-instant-" + std::to_string(::getpid()) + ".db")).string();
    std::filesystem::remove(db);
    auto storage = std::move(Storage::open(db).value());
    std::vector<RobotRequest> asked;
    HubEnv e;
    Millis now = 1'000'000;
    int tokens = 0;
    e.monotonic_ms = [&] { return now; };
    e.wall_ms = [&] { return 1'700'000'000'000 + now; };
    e.call_back_in = [](const std::string&, Millis) {};
    e.ask_robot = [&](RobotRequest r) { asked.push_back(std::move(r)); };
    e.random_token = [&](int len) {
        std::string s = std::to_string(++tokens);
        s.insert(s.begin(), 't');
        while (int(s.size()) < len) s += "x";
        return s;
    };
    e.inline_writes = true;
    {
        Hub hub(e, storage.get());
        ASSERT_TRUE(hub.create_game(R"({"opponent":"robot","color":"black","level":1,"time_control":"5+3",)"
                                    R"("robot_instant":true})"));
        ASSERT_TRUE(hub.create_game(R"({"opponent":"robot","color":"black","level":1,"time_control":"5+3"})"));
        ASSERT_EQ(asked.size(), 2u);
        EXPECT_TRUE(asked[0].instant);
        EXPECT_FALSE(asked[1].instant);
    }
    storage.reset();
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db + suffix);
}
