// Outpost — the anonymous player's name (SPEC P21): one rule for every place a name
// comes in (new game, lobby, the `name` message), errors that say what is wrong, and
// the invitee naming their seat for the opponent to see.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "server/play/hub.h"
#include "server/common/protocol.h"
#include "../support/collector.h"

using namespace outpost;
using namespace outpost::server;
using nlohmann::json;

namespace {

using outpost::test::Collector;

std::string problem(std::string_view name) {
    auto r = read_player_name(name, "name");
    return r ? "" : r.error().message;
}

}  // namespace

TEST(NamesP21, TheRuleForAName) {
    EXPECT_EQ(read_player_name("  Ada Lovelace ", "name").value(), "Ada Lovelace");
    EXPECT_EQ(read_player_name("Анна Каренина", "name").value(), "Анна Каренина");
    EXPECT_EQ(read_player_name("山田", "name").value(), "山田");
    EXPECT_EQ(problem("   "), "name is empty");
    EXPECT_EQ(problem(std::string(41, 'x')), "name is longer than 40 bytes (41)");
    EXPECT_EQ(problem(std::string(40, 'x')), "");
    EXPECT_EQ(problem("Bob\nRobot"), "name contains a control character (U+000A) at byte 4");
    EXPECT_EQ(problem("a\x7f"), "name contains a control character (U+007F) at byte 2");
    EXPECT_EQ(problem("evil\xe2\x80\xae" "txt"), "name contains a control character (U+202E) at byte 5");  // RLO
    EXPECT_EQ(problem("a\xc2\x85"), "name contains a control character (U+0085) at byte 2");             // NEL
    EXPECT_EQ(problem("bad\xff"), "name is not valid UTF-8 (byte 4)");
    EXPECT_EQ(problem("\xc0\xaf"), "name is not valid UTF-8 (byte 1)");  // overlong '/'
    EXPECT_EQ(problem("\xed\xa0\x80"), "name is not valid UTF-8 (byte 1)");  // a surrogate
    EXPECT_EQ(problem("ab\xe2\x82"), "name is not valid UTF-8 (byte 3)");  // cut short
    // The new-game fields follow the same rule, each error naming its field.
    auto bad = read_new_game(R"({"opponent":"invite","opponent_name":"x\ty"})");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message, "opponent_name contains a control character (U+0009) at byte 2");
    EXPECT_EQ(read_new_game(R"({"name":"  Kim "})").value().name, "Kim");
    EXPECT_EQ(read_new_game(R"({"name":""})").value().name, "Anonymous");
    auto msg = read_client_message(R"({"t":"name","name":"\u0007"})");
    ASSERT_FALSE(msg.ok());
    EXPECT_EQ(msg.error().code, "bad_name");
    EXPECT_EQ(write_client_message(read_client_message(R"({"t":"name","name":"Kim"})").value()), R"({"v":1,"t":"name","name":"Kim"})");
}

TEST(NamesP21, TheInviteeNamesTheirSeatAndTheOpponentSeesIt) {
    HubEnv e;
    Millis now = 1000;
    int tokens = 0;
    e.monotonic_ms = [&] { return now; };
    e.wall_ms = [&] { return 1'700'000'000'000 + now; };
    e.random_token = [&](int len) {
        std::string s = "t" + std::to_string(++tokens);
        while (int(s.size()) < len) s += "x";
        return s;
    };
    e.inline_writes = true;
    Hub hub(e, nullptr);
    auto g = hub.create_game(R"({"opponent":"invite","color":"white","name":"Ada","time_control":"5+3"})").value();
    auto white = std::make_shared<Collector>(), black = std::make_shared<Collector>();
    ASSERT_TRUE(hub.connect(g.id, *g.white_token, white).ok());
    ASSERT_TRUE(hub.connect(g.id, *g.black_token, black).ok());
    EXPECT_EQ(white->last_of("state")["game"]["players"]["black"]["name"], "Anonymous");
    hub.handle_message(g.id, Seat::BLACK_SEAT, R"({"t":"name","name":" Grace "})", *black);
    EXPECT_EQ(white->last_of("state")["game"]["players"]["black"]["name"], "Grace");
    EXPECT_EQ(white->last_of("state")["game"]["players"]["white"]["name"], "Ada");
    hub.handle_message(g.id, Seat::BLACK_SEAT, R"({"t":"name","name":"a\u0000b"})", *black);
    EXPECT_EQ(black->last_of("error")["code"], "bad_name");
    // A spectator names nobody.
    auto watcher = std::make_shared<Collector>();
    ASSERT_TRUE(hub.connect(g.id, "", watcher).ok());
    hub.handle_message(g.id, Seat::SPECTATOR, R"({"t":"name","name":"Mallory"})", *watcher);
    EXPECT_EQ(watcher->last_of("error")["code"], "not_your_seat");
    EXPECT_EQ(json::parse(hub.state_json(g.id).value())["game"]["players"]["black"]["name"], "Grace");
    // A signed-in player plays under the account's name.
    Account kim{7, "kim"};
    auto h = hub.create_game(R"({"opponent":"invite","color":"white"})", "c", &kim).value();
    auto kw = std::make_shared<Collector>();
    ASSERT_TRUE(hub.connect(h.id, *h.white_token, kw, &kim).ok());
    hub.handle_message(h.id, Seat::WHITE_SEAT, R"({"t":"name","name":"Someone"})", *kw);
    EXPECT_EQ(kw->last_of("error")["code"], "not_allowed");
    EXPECT_EQ(json::parse(hub.state_json(h.id).value())["game"]["players"]["white"]["name"], "kim");
}
