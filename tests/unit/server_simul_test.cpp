// Outpost — simultaneous exhibitions (SPEC P18; docs/protocol.md "Simuls"): the
// service over a real hub on an exact fake clock, with its table in SQLite.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include "../support/counted_token.h"
#include "chess/uci.h"
#include "server/play/hub.h"
#include "server/events/simul.h"
#include "server/stores/game_store.h"
#include "sqlite_crash_copy.h"

using namespace outpost;
using namespace outpost::server;
using nlohmann::json;

namespace {

struct Collector : Subscriber {
    std::vector<json> messages;
    void deliver(std::shared_ptr<const std::string> m) override { messages.push_back(json::parse(*m)); }
};

struct SimulFixture : ::testing::Test {
    Millis now = 1'000'000;
    int token_counter = 0;
    std::vector<RobotRequest> robot_requests;
    std::unique_ptr<Storage> storage;
    std::unique_ptr<Hub> hub;
    std::unique_ptr<SimulStore> store;
    std::unique_ptr<SimulService> simuls;
    std::string db_path;
    Account host{1, "Hostess"}, anna{2, "anna"}, carl{3, "carl"};

    std::string token(int len) {
        return outpost::test::counted_token('t', ++token_counter, len);
    }
    HubEnv hub_env() {
        HubEnv e;
        e.monotonic_ms = [this] { return now; };
        e.wall_ms = [this] { return 1'700'000'000'000 + now; };
        e.call_back_in = [](const std::string&, Millis) {};
        e.ask_robot = [this](RobotRequest r) { robot_requests.push_back(std::move(r)); };
        e.random_token = [this](int len) { return token(len); };
        e.levels_json = [] { return std::string(R"({"v":1,"levels":[]})"); };
        e.on_live_game = [this](const LiveGame& g) {
            if (simuls) simuls->on_live_game(g);
        };
        e.inline_writes = true;
        return e;
    }
    SimulEnv simul_env() {
        SimulEnv e;
        e.wall_ms = [this] { return 1'700'000'000'000 + now; };
        e.random_token = [this](int len) { return token(len); };
        e.create_game = [this](const NewGameRequest& spec, const Account& h, std::int64_t opponent) {
            auto made = hub->create_game(spec, "", &h, opponent);
            if (crash_at && ++games_made == crash_at) snapshot();
            return made;
        };
        e.game_result = [this](const std::string& id) -> std::optional<std::string> {
            auto s = hub->state_json(id);
            if (!s) return std::nullopt;
            json g = json::parse(*s)["game"];
            if (g["status"] == "ongoing") return std::nullopt;
            return g["result"].get<std::string>();
        };
        e.allowed_origins = {};
        return e;
    }
    void SetUp() override {
        db_path = (std::filesystem::temp_directory_path() /
                   ("outpost-simul-test-" + std::to_string(::getpid()) + "-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db"))
                      .string();
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_path + suffix);
        storage = std::move(Storage::open(db_path).value());
        hub = std::make_unique<Hub>(hub_env(), storage.get());
        store = std::move(SimulStore::open(db_path).value());
        simuls = std::make_unique<SimulService>(simul_env(), store.get());
    }
    void TearDown() override {
        simuls.reset();
        hub.reset();
        store.reset();
        storage.reset();
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_path + suffix);
        std::filesystem::remove(crash_copy());
    }

    // A kill -9 while the games are made: the database as it is once the `crash_at`-th
    // game has been made (every commit, nothing else; VACUUM INTO), then a start on it
    // in serve's order (the stores, the hub's games resumed, the simuls).
    int crash_at = 0, games_made = 0;
    std::string crash_copy() const { return db_path + ".crash"; }
    void snapshot() { test::crash_copy_of(db_path, crash_copy()); }
    std::int64_t count_games() {
        sqlite3* db = nullptr;
        EXPECT_EQ(sqlite3_open(db_path.c_str(), &db), SQLITE_OK);
        sqlite3_stmt* st = nullptr;
        EXPECT_EQ(sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM games", -1, &st, nullptr), SQLITE_OK);
        std::int64_t n = -1;
        if (sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        sqlite3_close(db);
        return n;
    }
    void stop() {
        simuls.reset();
        hub.reset();
        store.reset();
        storage.reset();
    }
    void start_server() {
        storage = std::move(Storage::open(db_path).value());
        hub = std::make_unique<Hub>(hub_env(), storage.get());
        ASSERT_TRUE(hub->resume_from_storage().ok());
        store = std::move(SimulStore::open(db_path).value());
        simuls = std::make_unique<SimulService>(simul_env(), store.get());
        ASSERT_TRUE(simuls->load().ok());
    }
    void crash_restart() {
        ASSERT_TRUE(std::filesystem::exists(crash_copy())) << "no crash was taken";
        crash_at = 0;
        stop();
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_path + suffix);
        std::filesystem::rename(crash_copy(), db_path);
        start_server();
    }

    HttpResponse call(const std::string& method, const std::string& target, const json& body = nullptr,
                      const Account* who = nullptr) {
        HttpRequest r{method, target, body.is_null() ? "" : body.dump(), "1.2.3.4"};
        r.content_type = "application/json";
        if (who) r.account = *who;
        return simuls->handle(r);
    }
    json ok(const HttpResponse& r, int status = 200) {
        EXPECT_EQ(r.status, status) << r.body;
        return json::parse(r.body);
    }
    std::string create(const json& body) {
        return ok(call("POST", "/api/v1/simuls", body, &host), 201)["simul"]["id"].get<std::string>();
    }
    json get(const std::string& id, const Account* who = nullptr, const std::string& key = "") {
        return ok(call("GET", "/api/v1/simuls/" + id + (key.empty() ? "" : "?key=" + key), nullptr, who));
    }
    json game_state(const std::string& game) { return json::parse(hub->state_json(game).value())["game"]; }
    // Issue 25: a seat that is an account's is played by that account's connection:
    // the seat a token holds, opened anonymously or by whichever test account owns it.
    Answer<Seat> connect_as_owner(const std::string& game, const std::string& token_, const std::shared_ptr<Collector>& c) {
        for (const Account* who : std::initializer_list<const Account*>{nullptr, &host, &anna, &carl}) {
            auto seat = hub->connect(game, token_, c, who);
            if (!seat || *seat != Seat::SPECTATOR) return seat;
            hub->disconnect(game, c.get());
            c->messages.clear();
        }
        return Seat::SPECTATOR;
    }
    // A move or other message on a seat of a game.
    void play(const std::string& game, const std::string& token_, const json& msg) {
        auto c = std::make_shared<Collector>();
        auto seat = connect_as_owner(game, token_, c);
        ASSERT_TRUE(seat.ok());
        hub->handle_message(game, *seat, msg.dump(), *c);
        ASSERT_FALSE(c->messages.empty());
        EXPECT_NE(c->messages.back()["t"], "error") << c->messages.back().dump();
        hub->disconnect(game, c.get());
    }
    void move(const std::string& game, const std::string& token_, const std::string& uci) {
        play(game, token_, {{"v", 1}, {"t", "move"}, {"uci", uci}});
    }
};

}  // namespace

// A host against three players (two signed in, one anonymous), colours alternating:
// one game each with the host's seat the host's, the colours and clocks set, the
// host's extra time on the host's clock only; the results gathered into +1 -1 =1,
// across a restart of the service in the middle.
TEST_F(SimulFixture, P18HostAgainstThreePlayersColoursClocksResultsAndSummary) {
    const std::string id =
        create({{"name", "Friday simul"}, {"color", "alternate"}, {"time_control", "5+3"}, {"host_extra", 10}, {"max_boards", 3}});
    json a = ok(call("POST", "/api/v1/simuls/" + id + "/join", json::object(), &anna), 201);
    EXPECT_EQ(a["you"]["role"], "player");
    json b = ok(call("POST", "/api/v1/simuls/" + id + "/join", {{"name", "Bob"}}), 201);
    const std::string bob_key = b["you"]["key"];
    ok(call("POST", "/api/v1/simuls/" + id + "/join", json::object(), &carl), 201);
    json started = ok(call("POST", "/api/v1/simuls/" + id + "/start", json::object(), &host));
    const json& boards = started["simul"]["boards"];
    ASSERT_EQ(boards.size(), 3u);
    EXPECT_EQ(started["simul"]["status"], "started");

    const char* host_colours[] = {"white", "black", "white"};
    const char* names[] = {"anna", "Bob", "carl"};
    std::vector<std::string> games, host_tokens, player_tokens;
    for (int i = 0; i < 3; ++i) {
        const std::string game = boards[i]["game"];
        games.push_back(game);
        EXPECT_EQ(boards[i]["host_color"], host_colours[i]);
        EXPECT_EQ(boards[i]["name"], names[i]);
        host_tokens.push_back(started["you"]["seats"][game]);
        json g = game_state(game);
        const std::string hc = host_colours[i], pc = hc == "white" ? "black" : "white";
        EXPECT_EQ(g["players"][hc]["name"], "Hostess");
        EXPECT_EQ(g["players"][hc]["account"], "Hostess");  // the host's seat is the host's account
        EXPECT_EQ(g["players"][pc]["name"], names[i]);
        EXPECT_EQ(g["players"][pc]["account"].is_null(), i == 1);  // Bob is anonymous
        // 5+3 on every board; the host has 10 s per player (3) more.
        EXPECT_EQ(g["clock"]["time_control"], "5+3");
        EXPECT_EQ(g["clock"][hc + "_ms"], 300'000 + 30'000);
        EXPECT_EQ(g["clock"][pc + "_ms"], 300'000);
        EXPECT_EQ(hub->connect(game, host_tokens.back(), std::make_shared<Collector>(), &host).value(),
                  hc == "white" ? Seat::WHITE_SEAT : Seat::BLACK_SEAT);
    }
    // Each player sees its own board and seat, never the host's.
    json anna_view = get(id, &anna);
    EXPECT_EQ(anna_view["you"]["game"], games[0]);
    EXPECT_EQ(anna_view["you"]["color"], "black");
    json bob_view = get(id, nullptr, bob_key);
    EXPECT_EQ(bob_view["you"]["game"], games[1]);
    EXPECT_EQ(bob_view["you"]["color"], "white");
    player_tokens = {anna_view["you"]["seat"], bob_view["you"]["seat"], get(id, &carl)["you"]["seat"]};
    EXPECT_EQ(hub->connect(games[1], player_tokens[1], std::make_shared<Collector>()).value(), Seat::WHITE_SEAT);
    EXPECT_FALSE(bob_view["you"].contains("seats"));
    EXPECT_EQ(get(id)["you"]["role"], "none");

    // Whose move: the host's on boards 1 and 3 (white), Bob's on board 2.
    EXPECT_EQ(get(id)["simul"]["boards"][0]["turn"], "host");
    EXPECT_EQ(get(id)["simul"]["boards"][1]["turn"], "player");
    move(games[1], player_tokens[1], "e2e4");
    EXPECT_EQ(get(id)["simul"]["boards"][1]["turn"], "host");

    // The service restarts in the middle: it reads the simul back and goes on.
    simuls.reset();
    simuls = std::make_unique<SimulService>(simul_env(), store.get());
    ASSERT_EQ(simuls->load().value(), 1);
    auto watcher = std::make_shared<Collector>();
    simuls->watch(watcher, id, "", &host);
    ASSERT_EQ(watcher->messages.size(), 1u);
    EXPECT_EQ(watcher->messages[0]["t"], "simul");

    // Board 1: the host (white) wins; board 2: a draw; board 3: the host loses.
    move(games[0], host_tokens[0], "e2e4");
    move(games[0], player_tokens[0], "e7e5");
    play(games[0], player_tokens[0], {{"v", 1}, {"t", "resign"}});
    move(games[1], host_tokens[1], "e7e5");
    play(games[1], player_tokens[1], {{"v", 1}, {"t", "draw"}, {"action", "offer"}});
    play(games[1], host_tokens[1], {{"v", 1}, {"t", "draw"}, {"action", "accept"}});
    EXPECT_EQ(get(id)["simul"]["status"], "started");
    move(games[2], host_tokens[2], "d2d4");
    move(games[2], player_tokens[2], "d7d5");
    play(games[2], host_tokens[2], {{"v", 1}, {"t", "resign"}});

    json end = get(id);
    EXPECT_EQ(end["simul"]["status"], "finished");
    EXPECT_EQ(end["simul"]["boards"][0]["result"], "1-0");
    EXPECT_EQ(end["simul"]["boards"][1]["result"], "1/2-1/2");
    EXPECT_EQ(end["simul"]["boards"][2]["result"], "0-1");
    const json& sum = end["simul"]["summary"];
    EXPECT_EQ(sum["wins"], 1);
    EXPECT_EQ(sum["losses"], 1);
    EXPECT_EQ(sum["draws"], 1);
    EXPECT_EQ(sum["playing"], 0);
    EXPECT_DOUBLE_EQ(sum["score"].get<double>(), 1.5);
    EXPECT_EQ(sum["of"], 3);
    // The watcher was told of every result.
    EXPECT_EQ(watcher->messages.back()["simul"]["status"], "finished");
    EXPECT_GE(watcher->messages.size(), 4u);

    // Saved at the tick: a new service reads the finished simul with its table.
    simuls->tick();
    simuls = std::make_unique<SimulService>(simul_env(), store.get());
    ASSERT_TRUE(simuls->load().ok());
    EXPECT_EQ(get(id)["simul"]["summary"]["score"], 1.5);
    EXPECT_EQ(get(id)["simul"]["status"], "finished");
}

// Joining: the board limit, once per player, the host never; applications wait for
// the host; nobody joins after the start.
TEST_F(SimulFixture, P18JoinLimits) {
    const std::string id = create({{"name", "Small"}, {"time_control", "-"}, {"max_boards", 2}});
    ok(call("POST", "/api/v1/simuls/" + id + "/join", json::object(), &anna), 201);
    // Joining twice is one entry.
    json again = ok(call("POST", "/api/v1/simuls/" + id + "/join", json::object(), &anna));
    EXPECT_EQ(again["simul"]["players"].size(), 1u);
    json bob = ok(call("POST", "/api/v1/simuls/" + id + "/join", {{"name", "Bob"}}), 201);
    json bob_again = ok(call("POST", "/api/v1/simuls/" + id + "/join", {{"name", "Bob"}, {"key", bob["you"]["key"]}}));
    EXPECT_EQ(bob_again["you"]["player"], bob["you"]["player"]);
    auto full = call("POST", "/api/v1/simuls/" + id + "/join", json::object(), &carl);
    EXPECT_EQ(full.status, 409);
    EXPECT_NE(full.body.find("full"), std::string::npos);
    EXPECT_EQ(call("POST", "/api/v1/simuls/" + id + "/join", json::object(), &host).status, 409);
    EXPECT_EQ(call("POST", "/api/v1/simuls/" + id + "/join", {{"robot", 1}}, &host).status, 409);  // full for robots too
    // Bob withdraws; a robot takes the board.
    ok(call("POST", "/api/v1/simuls/" + id + "/withdraw", {{"key", bob["you"]["key"]}}));
    EXPECT_EQ(call("POST", "/api/v1/simuls/" + id + "/withdraw", {{"key", bob["you"]["key"]}}).status, 409);
    EXPECT_EQ(call("POST", "/api/v1/simuls/" + id + "/join", {{"robot", 2}}, &anna).status, 409);  // only the host
    ok(call("POST", "/api/v1/simuls/" + id + "/join", {{"robot", 2}}, &host), 201);
    ok(call("POST", "/api/v1/simuls/" + id + "/start", json::object(), &host));
    EXPECT_EQ(call("POST", "/api/v1/simuls/" + id + "/join", json::object(), &carl).status, 409);
    EXPECT_EQ(call("POST", "/api/v1/simuls/" + id + "/withdraw", json::object(), &anna).status, 409);
    EXPECT_EQ(get(id)["simul"]["boards"].size(), 2u);

    // Applications: a player waits for the host, who accepts up to the limit.
    const std::string id2 = create({{"name", "By invitation"}, {"time_control", "10+0"}, {"max_boards", 1}, {"join_directly", false}});
    json a = ok(call("POST", "/api/v1/simuls/" + id2 + "/join", json::object(), &anna), 201);
    EXPECT_EQ(a["you"]["accepted"], false);
    json c = ok(call("POST", "/api/v1/simuls/" + id2 + "/join", json::object(), &carl), 201);
    EXPECT_EQ(call("POST", "/api/v1/simuls/" + id2 + "/start", json::object(), &host).status, 409);  // nobody accepted
    EXPECT_EQ(call("POST", "/api/v1/simuls/" + id2 + "/accept", {{"player", a["you"]["player"]}}, &anna).status, 409);
    ok(call("POST", "/api/v1/simuls/" + id2 + "/accept", {{"player", a["you"]["player"]}}, &host));
    EXPECT_EQ(call("POST", "/api/v1/simuls/" + id2 + "/accept", {{"player", c["you"]["player"]}}, &host).status, 409);
    json s = ok(call("POST", "/api/v1/simuls/" + id2 + "/start", json::object(), &host));
    ASSERT_EQ(s["simul"]["boards"].size(), 1u);
    EXPECT_EQ(s["simul"]["boards"][0]["name"], "anna");
    // A host has at most three simuls that are not over.
    create({{"name", "Third"}, {"time_control", "-"}});
    EXPECT_EQ(call("POST", "/api/v1/simuls", {{"name", "Fourth"}, {"time_control", "-"}}, &host).status, 429);
}

// Only the host starts and cancels, and only before the start.
TEST_F(SimulFixture, P18OnlyTheHostStartsAndCancels) {
    const std::string id = create({{"name", "Mine"}, {"time_control", "3+2"}});
    EXPECT_EQ(call("POST", "/api/v1/simuls/" + id + "/start", json::object(), &host).status, 409);  // no players
    ok(call("POST", "/api/v1/simuls/" + id + "/join", json::object(), &anna), 201);
    EXPECT_EQ(call("POST", "/api/v1/simuls/" + id + "/start", json::object(), &anna).status, 409);
    EXPECT_EQ(call("POST", "/api/v1/simuls/" + id + "/start", json::object()).status, 401);
    EXPECT_EQ(call("POST", "/api/v1/simuls/" + id + "/cancel", json::object(), &anna).status, 409);
    EXPECT_EQ(get(id)["simul"]["status"], "open");
    ok(call("POST", "/api/v1/simuls/" + id + "/start", json::object(), &host));
    EXPECT_EQ(call("POST", "/api/v1/simuls/" + id + "/start", json::object(), &host).status, 409);
    EXPECT_EQ(call("POST", "/api/v1/simuls/" + id + "/cancel", json::object(), &host).status, 409);

    const std::string id2 = create({{"name", "Called off"}, {"time_control", "3+2"}});
    json c = ok(call("POST", "/api/v1/simuls/" + id2 + "/cancel", json::object(), &host));
    EXPECT_EQ(c["simul"]["status"], "cancelled");
    EXPECT_EQ(call("POST", "/api/v1/simuls/" + id2 + "/join", json::object(), &anna).status, 409);
    json list = ok(call("GET", "/api/v1/simuls"));
    ASSERT_EQ(list["simuls"].size(), 1u);  // the cancelled one is not listed
    EXPECT_EQ(list["simuls"][0]["id"], id);
}

// Issue 25: the 500 open simuls never expired. One nobody joined (robots are not
// people) is cancelled after an hour; one never started, after a day.
TEST_F(SimulFixture, Issue25OpenSimulsNobodyCameToExpire) {
    const std::string empty = create({{"name", "Nobody came"}, {"time_control", "3+2"}});
    const std::string robots = create({{"name", "Only robots"}, {"time_control", "3+2"}});
    ok(call("POST", "/api/v1/simuls/" + robots + "/join", {{"robot", 3}}, &host), 201);
    const std::string joined = create({{"name", "Anna came"}, {"time_control", "3+2"}});
    ok(call("POST", "/api/v1/simuls/" + joined + "/join", json::object(), &anna), 201);
    now += 3'600'000 - 1;
    simuls->tick();
    EXPECT_EQ(get(empty)["simul"]["status"], "open");
    now += 1;
    simuls->tick();
    EXPECT_EQ(get(empty)["simul"]["status"], "cancelled");
    EXPECT_EQ(get(robots)["simul"]["status"], "cancelled");
    EXPECT_EQ(get(joined)["simul"]["status"], "open");
    EXPECT_EQ(ok(call("GET", "/api/v1/simuls"))["simuls"].size(), 1u);
    now += 23 * 3'600'000;
    simuls->tick();
    EXPECT_EQ(get(joined)["simul"]["status"], "cancelled");
    EXPECT_EQ(call("POST", "/api/v1/simuls/" + joined + "/start", json::object(), &host).status, 409);
}

// Issue 25 item 10: a simul's name follows the one rule for names, in characters.
TEST_F(SimulFixture, Issue25SimulNamesFollowTheOneRule) {
    std::string sixty;
    for (int i = 0; i < 60; ++i) sixty += "é";  // 120 bytes
    EXPECT_EQ(call("POST", "/api/v1/simuls", {{"name", sixty}, {"time_control", "3+2"}}, &host).status, 201);
    for (const char* bad : {"evil\u202etxt", "a\u2066b", "zero\u200bwidth", "bom\ufeff", "line\u2028sep"}) {
        auto r = call("POST", "/api/v1/simuls", json::parse(std::string(R"({"name":")") + bad + R"(","time_control":"3+2"})"), &host);
        EXPECT_EQ(r.status, 400) << bad;
        EXPECT_EQ(json::parse(r.body)["code"], "bad_name") << r.body;
    }
    auto long_one = call("POST", "/api/v1/simuls", {{"name", sixty + "é"}, {"time_control", "3+2"}}, &host);
    EXPECT_NE(long_one.body.find("longer than 60 characters (61)"), std::string::npos) << long_one.body;
}

// Bad input gets a JSON error naming the field; nothing is made.
TEST_F(SimulFixture, P18BadInputNamesTheField) {
    auto error_of = [&](const json& body, const Account* who = nullptr) {
        auto r = call("POST", "/api/v1/simuls", body, who ? who : &host);
        EXPECT_GE(r.status, 400);
        json j = json::parse(r.body, nullptr, false);
        EXPECT_TRUE(j.is_object()) << r.body;
        return j.value("message", "");
    };
    const json good = {{"name", "S"}, {"time_control", "5+3"}};
    auto with = [&](const char* k, const json& v) {
        json b = good;
        b[k] = v;
        return b;
    };
    EXPECT_NE(error_of(with("name", "")).find("'name'"), std::string::npos);
    EXPECT_NE(error_of(with("name", 7)).find("'name'"), std::string::npos);
    EXPECT_NE(error_of(with("name", std::string(61, 'x'))).find("'name'"), std::string::npos);
    EXPECT_NE(error_of(with("name", "a\nb")).find("'name'"), std::string::npos);
    EXPECT_NE(error_of(with("color", "green")).find("'color'"), std::string::npos);
    EXPECT_NE(error_of(with("time_control", "abc")).find("'time_control'"), std::string::npos);
    EXPECT_NE(error_of(with("time_control", "3d")).find("'time_control'"), std::string::npos);
    EXPECT_NE(error_of({{"name", "S"}}).find("'time_control'"), std::string::npos);
    EXPECT_NE(error_of(with("host_extra", 61)).find("'host_extra'"), std::string::npos);
    EXPECT_NE(error_of(with("host_extra", -1)).find("'host_extra'"), std::string::npos);
    EXPECT_NE(error_of({{"name", "S"}, {"time_control", "-"}, {"host_extra", 5}}).find("'host_extra'"), std::string::npos);
    EXPECT_NE(error_of(with("max_boards", 0)).find("'max_boards'"), std::string::npos);
    EXPECT_NE(error_of(with("max_boards", 51)).find("'max_boards'"), std::string::npos);
    EXPECT_NE(error_of(with("max_boards", 2.5)).find("'max_boards'"), std::string::npos);
    EXPECT_NE(error_of(with("join_directly", "yes")).find("'join_directly'"), std::string::npos);
    EXPECT_EQ(json::parse(call("POST", "/api/v1/simuls", good).body)["code"], "not_signed_in");  // no anonymous hosts
    HttpRequest not_json{"POST", "/api/v1/simuls", "[1,2", "1.2.3.4"};
    not_json.account = host;
    EXPECT_EQ(simuls->handle(not_json).status, 400);
    HttpRequest cross{"POST", "/api/v1/simuls", good.dump(), "1.2.3.4"};
    cross.account = host;
    cross.origin = "https://evil.example";
    cross.host = "outpost.example";
    EXPECT_EQ(simuls->handle(cross).status, 403);
    EXPECT_EQ(ok(call("GET", "/api/v1/simuls"))["simuls"].size(), 0u);

    const std::string id = create(good);
    EXPECT_NE(json::parse(call("POST", "/api/v1/simuls/" + id + "/join", json::object()).body)["message"].get<std::string>().find("'name'"),
              std::string::npos);
    EXPECT_NE(json::parse(call("POST", "/api/v1/simuls/" + id + "/join", {{"robot", 11}}, &host).body)["message"].get<std::string>().find("'robot'"),
              std::string::npos);
    EXPECT_NE(json::parse(call("POST", "/api/v1/simuls/" + id + "/accept", {{"player", "p99"}}, &host).body)["message"].get<std::string>().find("'player'"),
              std::string::npos);
    EXPECT_EQ(call("GET", "/api/v1/simuls/nope").status, 404);
    EXPECT_EQ(call("GET", "/api/v1/simuls/../x").status, 404);
    EXPECT_EQ(call("POST", "/api/v1/simuls/" + id + "/explode", json::object(), &host).status, 404);
    EXPECT_EQ(call("DELETE", "/api/v1/simuls/" + id).status, 405);
    // The socket: an unknown simul is an error; it only answers pings.
    auto w = std::make_shared<Collector>();
    simuls->watch(w, "nope", "", nullptr);
    EXPECT_EQ(w->messages.back()["code"], "not_found");
    simuls->watch(w, id, "", nullptr);
    simuls->handle_message(*w, R"({"t":"ping"})");
    EXPECT_EQ(w->messages.back()["t"], "pong");
    simuls->handle_message(*w, "{]");
    EXPECT_EQ(w->messages.back()["t"], "error");
    simuls->unwatch(w.get());
}

// Robots fill the boards (the hub's robot seats, answered here by a scripted robot):
// a whole simul is played to the end, the host black on every board.
TEST_F(SimulFixture, P18RobotsFillBoardsAndTheSimulIsPlayedToTheEnd) {
    const std::string id = create({{"name", "Against the machines"}, {"color", "black"}, {"time_control", "-"}, {"max_boards", 3}});
    for (int level : {1, 2, 3}) ok(call("POST", "/api/v1/simuls/" + id + "/join", {{"robot", level}}, &host), 201);
    json s = ok(call("POST", "/api/v1/simuls/" + id + "/start", json::object(), &host));
    ASSERT_EQ(s["simul"]["boards"].size(), 3u);
    std::map<std::string, std::string> host_token;
    std::map<std::string, int> board_of;
    for (int i = 0; i < 3; ++i) {
        const std::string g = s["simul"]["boards"][i]["game"];
        host_token[g] = s["you"]["seats"][g];
        board_of[g] = i;
        EXPECT_EQ(game_state(g)["players"]["white"]["kind"], "robot");
        EXPECT_EQ(game_state(g)["players"]["black"]["account"], "Hostess");
    }
    // Boards 1 and 3: the robot walks into the fool's mate (the host wins); board 2:
    // the host walks into the scholar's mate (the host loses).
    const std::vector<std::vector<std::string>> robot_moves = {
        {"f2f3", "g2g4"}, {"e2e4", "f1c4", "d1h5", "h5f7"}, {"f2f4", "g2g4"}};
    const std::vector<std::vector<std::string>> host_moves = {
        {"e7e5", "d8h4"}, {"e7e5", "b8c6", "g8f6"}, {"e7e5", "d8h4"}};
    std::map<std::string, size_t> robot_done, host_done;
    int rounds = 0;
    while (!robot_requests.empty() && rounds++ < 100) {
        // The robot answers every request; then the host jumps to the boards where it
        // is to move (the simul says so) and plays.
        auto requests = std::move(robot_requests);
        robot_requests.clear();
        for (const RobotRequest& r : requests) {
            const int b = board_of.at(r.game_id);
            const std::string m = robot_moves[b].at(robot_done[r.game_id]++);
            Position p = r.start;
            for (Move x : r.moves) p = p.after(x);
            hub->on_robot_move(r.game_id, r.request_id, move_from_uci(p, m).value());
        }
        json v = get(id, &host);
        for (const json& board : v["simul"]["boards"]) {
            if (board["turn"] != "host") continue;
            const std::string g = board["game"];
            const int b = board_of.at(g);
            move(g, host_token[g], host_moves[b].at(host_done[g]++));
        }
    }
    json end = get(id);
    EXPECT_EQ(end["simul"]["status"], "finished");
    EXPECT_EQ(end["simul"]["boards"][0]["result"], "0-1");
    EXPECT_EQ(end["simul"]["boards"][1]["result"], "1-0");
    EXPECT_EQ(end["simul"]["boards"][2]["result"], "0-1");
    EXPECT_EQ(end["simul"]["summary"]["wins"], 2);
    EXPECT_EQ(end["simul"]["summary"]["losses"], 1);
    EXPECT_EQ(end["simul"]["summary"]["draws"], 0);
    EXPECT_DOUBLE_EQ(end["simul"]["summary"]["score"].get<double>(), 2.0);
}

// Issue 13: a board whose game ended while the simul service was not told (stopped,
// or a stop between the hub's write and the simul's) gets its result when the server
// starts again and the simul is read back.
TEST_F(SimulFixture, P18ResultsOfGamesThatEndedBeforeARestartReachTheBoards) {
    const std::string id = create({{"name", "Restart"}, {"color", "white"}, {"time_control", "5+3"}, {"max_boards", 2}});
    ok(call("POST", "/api/v1/simuls/" + id + "/join", json::object(), &anna), 201);
    ok(call("POST", "/api/v1/simuls/" + id + "/join", json::object(), &carl), 201);
    json started = ok(call("POST", "/api/v1/simuls/" + id + "/start", json::object(), &host));
    const std::string g1 = started["simul"]["boards"][0]["game"], g2 = started["simul"]["boards"][1]["game"];
    const std::string h1 = started["you"]["seats"][g1];
    const std::string a1 = get(id, &anna)["you"]["seat"];
    simuls.reset();  // the hub's reports of board 1 go nowhere
    move(g1, h1, "e2e4");
    move(g1, a1, "e7e5");
    play(g1, a1, {{"v", 1}, {"t", "resign"}});
    // The server stops and starts: the stores, the hub's games, then the simuls.
    hub.reset();
    store.reset();
    storage.reset();
    storage = std::move(Storage::open(db_path).value());
    hub = std::make_unique<Hub>(hub_env(), storage.get());
    ASSERT_TRUE(hub->resume_from_storage().ok());
    store = std::move(SimulStore::open(db_path).value());
    simuls = std::make_unique<SimulService>(simul_env(), store.get());
    ASSERT_EQ(simuls->load().value(), 1);
    json s = get(id)["simul"];
    EXPECT_EQ(s["boards"][0]["result"], "1-0");
    EXPECT_EQ(s["boards"][0]["status"], "over");
    EXPECT_EQ(s["boards"][1]["status"], "playing");
    EXPECT_EQ(s["summary"]["wins"], 1);
    EXPECT_EQ(s["status"], "started");
    (void)g2;
}

// R14 on a simul's boards: the player who does not make a first move within the hub's
// first-move time loses by forfeit; the host, who walks from board to board, has the
// hub's unstarted time (an hour) for each first move and then loses the same way; no
// board is aborted.
TEST_F(SimulFixture, P18R14NoFirstMoveLosesByForfeitTheHostHasTheLongerLimit) {
    const std::string id = create({{"name", "R14"}, {"color", "alternate"}, {"time_control", "5+3"}, {"max_boards", 2}});
    ok(call("POST", "/api/v1/simuls/" + id + "/join", json::object(), &anna), 201);
    ok(call("POST", "/api/v1/simuls/" + id + "/join", json::object(), &carl), 201);
    json started = ok(call("POST", "/api/v1/simuls/" + id + "/start", json::object(), &host));
    const std::string g1 = started["simul"]["boards"][0]["game"], g2 = started["simul"]["boards"][1]["game"];
    const std::string h1 = started["you"]["seats"][g1];
    // Board 1: the host is White; board 2: carl is White. Nobody may abort.
    {
        auto c = std::make_shared<Collector>();
        auto seat = hub->connect(g1, h1, c, &host);
        ASSERT_TRUE(seat.ok());
        hub->handle_message(g1, *seat, R"({"v":1,"t":"abort"})", *c);
        EXPECT_EQ(c->messages.back()["t"], "error");
        hub->disconnect(g1, c.get());
    }
    now += 59'999;
    hub->on_timer(g1);
    hub->on_timer(g2);
    EXPECT_EQ(get(id)["simul"]["boards"][1]["status"], "playing");
    now += 1;
    hub->on_timer(g1);
    hub->on_timer(g2);
    json s = get(id)["simul"];
    EXPECT_EQ(s["boards"][1]["result"], "0-1") << "carl did not move: the host (Black) wins by forfeit";
    EXPECT_EQ(game_state(g2)["status"], "forfeit");
    EXPECT_EQ(s["boards"][0]["status"], "playing") << "the host has longer";
    now += 3'600'000 - 60'000 - 1;
    hub->on_timer(g1);
    EXPECT_EQ(get(id)["simul"]["boards"][0]["status"], "playing");
    now += 1;
    hub->on_timer(g1);
    s = get(id)["simul"];
    EXPECT_EQ(s["boards"][0]["result"], "0-1") << "the host did not move on board 1: anna wins by forfeit";
    EXPECT_EQ(s["summary"]["wins"], 1);
    EXPECT_EQ(s["summary"]["losses"], 1);
    EXPECT_EQ(s["status"], "finished");
}

// Issue 13: a simul's start makes one game per board. A kill -9 in the middle (after
// the second of four games) left the simul open with no boards and two games nobody
// could find; a second start made them again. Now the boards are saved, each with its
// game's id, before any game is made, and the next start of the server makes the
// missing games and links those made: every player has one board and one game, with
// the colours, clocks and seats of the start; R14's first-move time runs from then.
TEST_F(SimulFixture, P18R14AStopWhileTheGamesAreMadeLeavesEveryBoardOneGame) {
    const std::string id =
        create({{"name", "Kill"}, {"color", "alternate"}, {"time_control", "5+3"}, {"host_extra", 10}, {"max_boards", 4}});
    ok(call("POST", "/api/v1/simuls/" + id + "/join", json::object(), &anna), 201);
    const std::string bob_key = ok(call("POST", "/api/v1/simuls/" + id + "/join", {{"name", "Bob"}}), 201)["you"]["key"];
    ok(call("POST", "/api/v1/simuls/" + id + "/join", json::object(), &carl), 201);
    ok(call("POST", "/api/v1/simuls/" + id + "/join", {{"robot", 2}}, &host), 201);
    crash_at = 2;
    const json live = ok(call("POST", "/api/v1/simuls/" + id + "/start", json::object(), &host));
    ASSERT_EQ(live["simul"]["boards"].size(), 4u);
    now += 3'600'000;  // down for an hour
    crash_restart();
    EXPECT_EQ(count_games(), 4) << "two games made before the stop, two after";
    json s = get(id, &host);
    EXPECT_EQ(s["simul"]["status"], "started");
    ASSERT_EQ(s["simul"]["boards"].size(), 4u);
    const char* host_colours[] = {"white", "black", "white", "black"};
    const char* names[] = {"anna", "Bob", "carl", "Robot level 2"};
    std::vector<std::string> games;
    for (std::size_t i = 0; i < 4; ++i) {
        const json& b = s["simul"]["boards"][i];
        EXPECT_EQ(b["status"], "playing") << b.dump();
        EXPECT_EQ(b["name"], names[i]);
        EXPECT_EQ(b["host_color"], host_colours[i]);
        const std::string game = b["game"];
        games.push_back(game);
        json g = game_state(game);
        const std::string hc = host_colours[i], pc = hc == "white" ? "black" : "white";
        EXPECT_EQ(g["players"][hc]["account"], "Hostess");
        EXPECT_EQ(g["players"][pc]["name"], i == 3 ? "Outpost level 2" : names[i]);  // (the robot's own name in its game)
        EXPECT_EQ(g["clock"][hc + "_ms"], 300'000 + 40'000);
        EXPECT_EQ(g["clock"][pc + "_ms"], 300'000);
        ASSERT_TRUE(s["you"]["seats"].contains(game));
        EXPECT_EQ(hub->connect(game, s["you"]["seats"][game].get<std::string>(), std::make_shared<Collector>(), &host).value(),
                  hc == "white" ? Seat::WHITE_SEAT : Seat::BLACK_SEAT);
    }
    EXPECT_EQ(std::set<std::string>(games.begin(), games.end()).size(), 4u);
    const json bob = get(id, nullptr, bob_key)["you"];
    EXPECT_EQ(bob["game"], games[1]);
    EXPECT_EQ(hub->connect(games[1], bob["seat"].get<std::string>(), std::make_shared<Collector>()).value(), Seat::WHITE_SEAT);
    // R14: Bob (White on board 2) has 60 s from the restart, not from the start.
    now += 59'999;
    hub->on_timer(games[1]);
    EXPECT_EQ(get(id)["simul"]["boards"][1]["status"], "playing");
    now += 1;
    hub->on_timer(games[1]);
    EXPECT_EQ(get(id)["simul"]["boards"][1]["result"], "0-1");
    // Another start makes nothing more.
    simuls->tick();
    stop();
    start_server();
    EXPECT_EQ(count_games(), 4);
    json again = get(id)["simul"];
    for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(again["boards"][i]["game"], games[i]);
    EXPECT_EQ(again["boards"][1]["result"], "0-1");
}

// Issue 13, attacked: a second stop in the middle of finishing the start (after the
// first game the recovery makes) still ends with one game per board.
TEST_F(SimulFixture, P18AStopWhileAStopIsMendedStillGivesOneGamePerBoard) {
    const std::string id = create({{"name", "Twice"}, {"color", "white"}, {"time_control", "5+3"}, {"max_boards", 3}});
    ok(call("POST", "/api/v1/simuls/" + id + "/join", json::object(), &anna), 201);
    ok(call("POST", "/api/v1/simuls/" + id + "/join", json::object(), &carl), 201);
    ok(call("POST", "/api/v1/simuls/" + id + "/join", {{"robot", 1}}, &host), 201);
    crash_at = 1;
    ok(call("POST", "/api/v1/simuls/" + id + "/start", json::object(), &host));
    // The first restart stops again once it has made the next game.
    stop();
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_path + suffix);
    std::filesystem::rename(crash_copy(), db_path);
    games_made = 0;
    crash_at = 1;
    start_server();
    EXPECT_EQ(count_games(), 3);
    crash_restart();
    EXPECT_EQ(count_games(), 3) << "games 1 and 2 made before the stops, 3 after";
    json s = get(id, &host)["simul"];
    EXPECT_EQ(s["status"], "started");
    ASSERT_EQ(s["boards"].size(), 3u);
    std::set<std::string> games;
    for (const json& b : s["boards"]) {
        EXPECT_EQ(b["status"], "playing") << b.dump();
        games.insert(b["game"].get<std::string>());
    }
    EXPECT_EQ(games.size(), 3u);
    EXPECT_EQ(get(id, &anna)["you"]["game"], s["boards"][0]["game"]);
    // A start again is refused: the simul has started.
    EXPECT_EQ(call("POST", "/api/v1/simuls/" + id + "/start", json::object(), &host).status, 409);
}
