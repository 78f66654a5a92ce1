// Outpost — the anonymous player's name (SPEC P21): one rule for every place a name
// comes in (new game, lobby, the `name` message), errors that say what is wrong, and
// the invitee naming their seat for the opponent to see.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "../support/counted_token.h"
#include "server/play/hub.h"
#include "server/common/protocol.h"
#include "server/common/names.h"
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
    EXPECT_EQ(problem(std::string(41, 'x')), "name is longer than 40 characters (41)");
    EXPECT_EQ(problem(std::string(40, 'x')), "");
    EXPECT_EQ(problem("Bob\nRobot"), "name contains an invisible or control character (U+000A) at character 4");
    EXPECT_EQ(problem("a\x7f"), "name contains an invisible or control character (U+007F) at character 2");
    EXPECT_EQ(problem("evil\xe2\x80\xae" "txt"), "name contains an invisible or control character (U+202E) at character 5");  // RLO
    EXPECT_EQ(problem("a\xc2\x85"), "name contains an invisible or control character (U+0085) at character 2");             // NEL
    EXPECT_EQ(problem("bad\xff"), "name is not valid UTF-8 (byte 4)");
    EXPECT_EQ(problem("\xc0\xaf"), "name is not valid UTF-8 (byte 1)");  // overlong '/'
    EXPECT_EQ(problem("\xed\xa0\x80"), "name is not valid UTF-8 (byte 1)");  // a surrogate
    EXPECT_EQ(problem("ab\xe2\x82"), "name is not valid UTF-8 (byte 3)");  // cut short
    // The new-game fields follow the same rule, each error naming its field.
    auto bad = read_new_game(R"({"opponent":"invite","opponent_name":"x\ty"})");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().message, "opponent_name contains an invisible or control character (U+0009) at character 2");
    EXPECT_EQ(read_new_game(R"({"name":"  Kim "})").value().name, "Kim");
    EXPECT_EQ(read_new_game(R"({"name":""})").value().name, "Anonymous");
    auto msg = read_client_message(R"({"t":"name","name":"\u0007"})");
    ASSERT_FALSE(msg.ok());
    EXPECT_EQ(msg.error().code, "bad_name");
    EXPECT_EQ(write_client_message(read_client_message(R"({"t":"name","name":"Kim"})").value()), R"({"v":1,"t":"name","name":"Kim"})");
}

// Issue 25 item 10: one rule for every name, its length in characters, and no
// bidirectional or invisible characters (event and simul names took them).
TEST(NamesIssue25, OneRuleForEveryNameCountedInCharacters) {
    EXPECT_EQ(problem(std::string(40, 'x')), "");
    // 40 characters of two bytes each: 80 bytes, a name still.
    std::string cyrillic;
    for (int i = 0; i < 40; ++i) cyrillic += "Ж";
    EXPECT_EQ(problem(cyrillic), "");
    EXPECT_EQ(problem(cyrillic + "Ж"), "name is longer than 40 characters (41)");
    EXPECT_EQ(problem("José Raúl Capablanca"), "");
    EXPECT_EQ(problem("O'Brien-Smith Jr."), "");
    EXPECT_EQ(problem("O\xe2\x80\x99" "Brien"), "");    // the typographic apostrophe
    EXPECT_EQ(problem("देवनागरी"), "");              // letters with marks
    EXPECT_EQ(problem("สมชาย"), "");
    EXPECT_EQ(problem("Spring Open: Blitz #3 (U1800)"), "");
    // U+2066-2069 (isolates), U+200B, U+FEFF, U+2028, U+2029, U+200E.
    for (const char* bad : {"a\xe2\x81\xa6" "b", "a\xe2\x81\xa9" "b", "a\xe2\x80\x8b" "b", "a\xef\xbb\xbf" "b",
                            "a\xe2\x80\xa8" "b", "a\xe2\x80\xa9" "b", "a\xe2\x80\x8e" "b", "a\xc2\xa0" "b",
                            "a\xe3\x80\x80" "b", "a\xe3\x85\xa4" "b"})
        EXPECT_NE(problem(bad).find("invisible or control character"), std::string::npos) << bad << ": " << problem(bad);
    EXPECT_EQ(problem("a\xe2\x81\xa6" "b"), "name contains an invisible or control character (U+2066) at character 2");
    EXPECT_EQ(problem("x<script>"), "name may hold only letters, marks, digits, spaces and '-.,_()&:#!?+/; character 2 (U+003C) is not one");
    EXPECT_EQ(problem("win \xf0\x9f\x98\x80"), "name may hold only letters, marks, digits, spaces and '-.,_()&:#!?+/; character 5 (U+1F600) is not one");
    EXPECT_EQ(problem("a\xee\x80\x80"), "name may hold only letters, marks, digits, spaces and '-.,_()&:#!?+/; character 2 (U+E000) is not one");
    // Events and simuls read their names by the same rule, with their own lengths.
    EXPECT_TRUE(read_name(std::string(100, 'e'), "name", 100).ok());
    EXPECT_EQ(read_name(std::string(101, 'e'), "name", 100).error().message, "name is longer than 100 characters (101)");
}

// Issue 25: the rule refused whole Unicode blocks, so an unassigned code point (which
// any later Unicode may make anything, an invisible format character included) passed.
// Now the general category comes from Unicode's tables (ICU): letters, marks and
// decimal digits of every script, a few punctuation marks; unassigned (Cn), private
// use (Co), format (Cf) and symbol characters are refused.
TEST(NamesIssue25, UnicodeCategoriesFromTheTables) {
    // The names of the six languages of the UI, and the scripts' own digits and marks.
    for (const char* good : {"สมชาย ใจดี", "王小明", "山田 太郎", "ジョン・スミス", "すずき", "कुमार पाटील",
                             "Väinö Myllyrinne", "Åsa Öberg", "๑๒๓", "९ मराठी", "迈克尔·乔丹", "l·l", "Ōtani",
                             "Zoë", "Nguyễn Thị", "Ελένη", "عائشة", "שרה", "한국어"})
        EXPECT_EQ(problem(good), "") << good;
    EXPECT_EQ(problem("a\xcd\xb8"),  // U+0378: unassigned (the old rule let it through)
              "name may hold only letters, marks, digits, spaces and '-.,_()&:#!?+/; character 2 (U+0378) is not one");
    EXPECT_NE(problem("a\xf0\xaf\xbf\xbd"), "") << "U+2FFFD is unassigned";
    EXPECT_EQ(problem("\xf3\xb0\x80\x80"),  // U+F0000: private use
              "name may hold only letters, marks, digits, spaces and '-.,_()&:#!?+/; character 1 (U+F0000) is not one");
    EXPECT_NE(problem("a\xef\xa3\xbf"), "") << "U+F8FF is private use";
    // Symbols and other punctuation: the section sign, the postal mark, fullwidth "!",
    // the Roman numeral one.
    for (const char* bad : {"a\xc2\xa7", "a\xe3\x80\x92", "a\xef\xbc\x81", "a\xe2\x85\xa0"})
        EXPECT_NE(problem(bad), "") << bad;
    // Format characters outside the old blocks (the Mongolian vowel separator was in
    // one; U+110BD, the Kaithi number sign, and U+13430, an Egyptian hieroglyph format
    // control, were not); a tag and a variation selector (a mark, but default-ignorable).
    for (const char* bad : {"a\xe1\xa0\x8e", "a\xf0\x91\x82\xbd", "a\xf0\x93\x90\xb0", "a\xf3\xa0\x80\x81", "a\xf3\xa0\x84\x80"})
        EXPECT_NE(problem(bad).find("invisible or control character"), std::string::npos) << problem(bad);
    EXPECT_TRUE(name_code_point_allowed(0x00E9));
    EXPECT_FALSE(name_code_point_allowed(0x0378));
    EXPECT_FALSE(name_code_point_allowed(0x110000));
}

TEST(NamesP21, TheInviteeNamesTheirSeatAndTheOpponentSeesIt) {
    HubEnv e;
    Millis now = 1000;
    int tokens = 0;
    e.monotonic_ms = [&] { return now; };
    e.wall_ms = [&] { return 1'700'000'000'000 + now; };
    e.random_token = [&](int len) {
        return outpost::test::counted_token('t', ++tokens, len);
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
