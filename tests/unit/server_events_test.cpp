// Outpost — tournaments run by the server (SPEC P20; issue 13; docs/events.md,
// "Events on the server"): the event service with the hub on a fake clock, its
// routes, and the attacks on them (other players, bad input, other sites).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>
#include <sqlite3.h>

#include "club/dutch.h"
#include "club/round_robin.h"
#include "club/tiebreak.h"
#include "club/trf.h"
#include "server/accounts/accounts.h"
#include "server/events/events.h"
#include "server/play/hub.h"
#include "server/stores/game_store.h"
#include "../support/fake_hub_env.h"
#include "../support/collector.h"
#include "sqlite_crash_copy.h"

using namespace outpost;
using namespace outpost::server;
using nlohmann::json;

namespace {

using outpost::test::Collector;

struct EventsP20 : ::testing::Test {
    Millis now = 1'000'000;
    int token_counter = 0;
    std::string db_path;
    std::unique_ptr<Storage> storage;
    std::unique_ptr<AccountStore> accounts;
    std::unique_ptr<Hub> hub;
    std::unique_ptr<EventStore> event_store;
    std::unique_ptr<EventService> events;
    std::vector<Account> players;
    Account organiser;

    HubEnv env() {
        HubEnv e = test::fake_hub_env(now, token_counter);
        // A game's first timer is armed as it is made, its row already stored.
        e.call_back_in = [this](const std::string& game, Millis) {
            if (!scheduled.insert(game).second) return;
            if (crash_at && ++games_made == crash_at) snapshot();
            if (on_new_game) on_new_game(game);
        };
        e.on_live_game = [this](const LiveGame& g) {
            if (events && deliver_results && g.over) events->on_game_over(g);
        };
        return e;
    }
    void SetUp() override {
        db_path = (std::filesystem::temp_directory_path() /
                   ("outpost-events-test-" + std::to_string(::getpid()) + "-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db"))
                      .string();
        remove_files();
        storage = std::move(Storage::open(db_path).value());
        accounts = std::move(AccountStore::open(db_path, PasswordCost::cheapest()).value());
        hub = std::make_unique<Hub>(env(), storage.get());
        event_store = std::move(EventStore::open(db_path).value());
        auto opened = EventService::open(event_store.get(), *hub, [this] { return 1'700'000'000'000 + now; });
        ASSERT_TRUE(opened) << opened.error().message;
        events = std::move(*opened);
        auto made = accounts->create("Organiser", "a long enough password", false, now);
        ASSERT_TRUE(made) << made.error().message;
        organiser = *made;
        for (int i = 1; i <= 8; ++i) {
            auto p = accounts->create("Player" + std::to_string(i), "a long enough password", false, now);
            ASSERT_TRUE(p) << p.error().message;
            players.push_back(*p);
        }
    }
    void remove_files() {
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_path + suffix);
    }
    void TearDown() override {
        events.reset();
        event_store.reset();
        hub.reset();
        accounts.reset();
        storage.reset();
        remove_files();
        std::filesystem::remove(crash_copy());
    }

    HttpRequest request(const std::string& method, const std::string& target, const std::string& body,
                        const Account* who) {
        HttpRequest r{method, target, body, "10.0.0.1"};
        r.content_type = method == "POST" ? "application/json" : "";
        r.host = "club.example";
        r.origin = method == "POST" ? "http://club.example" : "";
        if (who) r.account = *who;
        return r;
    }
    HttpResponse call(const std::string& method, const std::string& target, const json& body, const Account* who) {
        return events->handle(request(method, target, body.is_null() ? "" : body.dump(), who));
    }
    static std::string code(const HttpResponse& r) {
        json j = json::parse(r.body, nullptr, false);
        return j.is_object() && j.contains("code") ? j["code"].get<std::string>() : "";
    }
    std::int64_t create(const json& body) {
        HttpResponse r = call("POST", "/api/v1/events", body, &organiser);
        EXPECT_EQ(r.status, 201) << r.body;
        return json::parse(r.body)["id"].get<std::int64_t>();
    }
    std::string path(std::int64_t id, const std::string& action = "") {
        return "/api/v1/events/" + std::to_string(id) + (action.empty() ? "" : "/" + action);
    }
    json get(std::int64_t id, const Account* who = nullptr) {
        HttpResponse r = call("GET", path(id), json(), who);
        EXPECT_EQ(r.status, 200) << r.body;
        return json::parse(r.body);
    }
    json start(std::int64_t id) {
        HttpResponse r = call("POST", path(id, "rounds"), json::object(), &organiser);
        EXPECT_EQ(r.status, 201) << r.body;
        return json::parse(r.body, nullptr, false);
    }
    void result(std::int64_t id, int round, int board, const std::string& res) {
        HttpResponse r = call("POST", path(id, "results"), {{"round", round}, {"board", board}, {"result", res}}, &organiser);
        EXPECT_EQ(r.status, 200) << r.body;
    }
    const Account& account_named(const std::string& name) {
        for (const Account& a : players)
            if (a.name == name) return a;
        ADD_FAILURE() << "no player " << name;
        return organiser;
    }
    // Plays a game of the event through the hub, as its two players' connections would.
    void play(const json& board, const std::vector<json>& moves_and_actions, const std::string& white_name,
              const std::string& black_name) {
        const std::string game = board["game"];
        const Account& w = account_named(white_name);
        const Account& b = account_named(black_name);
        // Each player finds their seat on the event page (the viewer's own only).
        const json wv = find_board(get(current_id, &w), board["board"].get<int>());
        const json bv = find_board(get(current_id, &b), board["board"].get<int>());
        ASSERT_TRUE(wv.contains("seat") && bv.contains("seat")) << wv.dump() << bv.dump();
        EXPECT_NE(wv["seat"], bv["seat"]);
        auto wc = std::make_shared<Collector>();
        auto bc = std::make_shared<Collector>();
        ASSERT_EQ(hub->connect(game, wv["seat"].get<std::string>(), wc, &w).value(), Seat::WHITE_SEAT);
        ASSERT_EQ(hub->connect(game, bv["seat"].get<std::string>(), bc, &b).value(), Seat::BLACK_SEAT);
        bool white_to_act = true;
        for (const json& m : moves_and_actions) {
            const bool by_white = m.contains("by") ? m["by"] == "white" : white_to_act;
            json msg = m;
            msg.erase("by");
            hub->handle_message(game, by_white ? Seat::WHITE_SEAT : Seat::BLACK_SEAT, msg.dump(), by_white ? *wc : *bc);
            if (m["t"] == "move") white_to_act = !white_to_act;
        }
    }
    json find_board(const json& event, int board) {
        for (const json& b : event["pairings"].back()["boards"])
            if (b["board"] == board) return b;
        return json();
    }
    std::int64_t current_id = 0;
    bool deliver_results = true;  // false: the hub's report is lost (a stop between the two writes)

    // A stop and a start of the server, in serve's order: the stores, the hub, the
    // events, the hub's games resumed, the boards' missing games, then the results the
    // events missed.
    void restart() {
        events.reset();
        event_store.reset();
        hub.reset();
        storage.reset();
        start_server();
    }
    int recovered = -1;
    int games_recovered = -1;

    // A kill -9 in the middle of making a round's games: the database as it is when
    // the `crash_at`-th game has been made (its row stored, nothing after it), copied
    // with VACUUM INTO (every commit made, nothing else), then a start on that copy.
    int crash_at = 0, games_made = 0;
    std::set<std::string> scheduled;
    std::function<void(const std::string&)> on_new_game;
    std::string crash_copy() const { return db_path + ".crash"; }
    void snapshot() { test::crash_copy_of(db_path, crash_copy()); }
    // SQL run on the database while the server is down.
    void sql(const std::string& text) {
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(db_path.c_str(), &db), SQLITE_OK);
        char* err = nullptr;
        EXPECT_EQ(sqlite3_exec(db, text.c_str(), nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "") << " in " << text;
        sqlite3_free(err);
        sqlite3_close(db);
    }
    std::int64_t count(const std::string& query) {
        sqlite3* db = nullptr;
        EXPECT_EQ(sqlite3_open(db_path.c_str(), &db), SQLITE_OK);
        sqlite3_stmt* st = nullptr;
        EXPECT_EQ(sqlite3_prepare_v2(db, query.c_str(), -1, &st, nullptr), SQLITE_OK) << query;
        std::int64_t n = -1;
        if (sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        sqlite3_close(db);
        return n;
    }
    // Everything stops; the copy taken at the crash becomes the database; `between`
    // runs on it while the server is down; then the start (recovering or not).
    void crash_restart(const std::function<void()>& between = {}, bool recover = true) {
        ASSERT_TRUE(std::filesystem::exists(crash_copy())) << "no crash was taken";
        crash_at = 0;
        events.reset();
        event_store.reset();
        hub.reset();
        accounts.reset();
        storage.reset();
        remove_files();
        std::filesystem::rename(crash_copy(), db_path);
        if (between) between();
        accounts = std::move(AccountStore::open(db_path, PasswordCost::cheapest()).value());
        start_server(recover);
    }
    void start_server(bool recover = true) {
        scheduled.clear();  // a new process
        storage = std::move(Storage::open(db_path).value());
        hub = std::make_unique<Hub>(env(), storage.get());
        event_store = std::move(EventStore::open(db_path).value());
        events = std::move(EventService::open(event_store.get(), *hub, [this] { return 1'700'000'000'000 + now; }).value());
        deliver_results = true;
        ASSERT_TRUE(hub->resume_from_storage().ok());
        if (recover) recover_now();
    }
    void recover_now() {
        games_recovered = events->recover_games();
        recovered = events->recover_results();
    }
    // An account's rating in a class, stored as a rated game's would be (P23).
    void seed_rating(const std::string& game_id, const Account& a, const Account& b, const std::string& cls, double ra,
                     double rb) {
        GameWrite w;
        w.kind = GameWrite::INSERT_GAME;
        w.game.id = game_id;
        w.game.status = "resign";
        w.game.result = "1-0";
        w.game.time_control = "5+3";
        GameRating r;
        r.rating_class = cls;
        r.side[0].account = a.id;
        r.side[0].after = StoredRating{cls, ra, 60, 0.06, 20, 1};
        r.side[1].account = b.id;
        r.side[1].after = StoredRating{cls, rb, 60, 0.06, 20, 1};
        w.game.rating = r;
        ASSERT_TRUE(storage->write(w).ok());
    }
};

json mv(const char* uci) { return {{"t", "move"}, {"uci", uci}}; }

}  // namespace

TEST_F(EventsP20, RoundRobinOfFourPlayersIsPairedByTheBergerTable_C05) {
    const auto id = create({{"name", "Club round-robin"}, {"system", "round-robin"}, {"time_control", "15+10"},
                            {"mode", "otb"}});
    for (int i = 0; i < 4; ++i) ASSERT_EQ(call("POST", path(id, "join"), json::object(), &players[std::size_t(i)]).status, 200);
    const auto table = club::berger_schedule(4).value();
    ASSERT_EQ(table.size(), 3u);
    for (int r = 1; r <= 3; ++r) {
        json e = start(id);
        EXPECT_EQ(e["rounds"], 3);
        EXPECT_EQ(e["current_round"], r);
        const json& boards = e["pairings"][std::size_t(r - 1)]["boards"];
        ASSERT_EQ(boards.size(), table[std::size_t(r - 1)].size());
        for (std::size_t i = 0; i < boards.size(); ++i) {
            EXPECT_EQ(boards[i]["white"]["rank"], table[std::size_t(r - 1)][i].white) << "round " << r << " board " << i + 1;
            EXPECT_EQ(boards[i]["black"]["rank"], table[std::size_t(r - 1)][i].black) << "round " << r << " board " << i + 1;
            EXPECT_FALSE(boards[i].contains("game")) << "an over-the-board event makes no online games";
        }
        // The next round waits for every result.
        EXPECT_EQ(code(call("POST", path(id, "rounds"), json::object(), &organiser)), "not_allowed");
        for (std::size_t i = 0; i < boards.size(); ++i) result(id, r, int(i) + 1, i == 0 ? "1-0" : "\xC2\xBD-\xC2\xBD");
    }
    json e = get(id);
    EXPECT_EQ(e["status"], "finished");
    EXPECT_EQ(code(call("POST", path(id, "rounds"), json::object(), &organiser)), "not_allowed");
    // Points add up: three rounds of two games, each worth one point.
    double total = 0;
    for (const json& s : e["standings"]) total += s["points"].get<double>();
    EXPECT_DOUBLE_EQ(total, 6.0);
    // A round-robin takes no entries once started.
    EXPECT_EQ(code(call("POST", path(id, "join"), json::object(), &players[5])), "not_allowed");
}

TEST_F(EventsP20, DoubleRoundRobinOfFiveHasTheByeAndTheSecondCycle_C05) {
    const auto id = create({{"name", "Double"}, {"system", "double-round-robin"}, {"time_control", "-"}, {"mode", "otb"}});
    for (int i = 0; i < 5; ++i) call("POST", path(id, "join"), json::object(), &players[std::size_t(i)]);
    club::RoundRobinOptions o;
    o.double_round = true;
    const auto table = club::berger_schedule(5, o).value();
    json e = start(id);
    EXPECT_EQ(e["rounds"], int(table.size()));
    const json& boards = e["pairings"][0]["boards"];
    ASSERT_EQ(boards.size(), table[0].size());
    EXPECT_TRUE(boards.back()["black"].is_null());
    EXPECT_EQ(boards.back()["result"], "bye");
}

TEST_F(EventsP20, SwissOfSixPlayedThroughTheHubGivesStandingsAndTrf_C07) {
    current_id = create({{"name", "Autumn Swiss"}, {"system", "swiss"}, {"rounds", 3}, {"time_control", "5+3"},
                         {"rated", true}, {"tiebreaks", {"BH-C1", "BH", "SB"}}});
    const auto id = current_id;
    for (int i = 0; i < 6; ++i) ASSERT_EQ(call("POST", path(id, "join"), json::object(), &players[std::size_t(i)]).status, 200);
    std::string trf_after_round1;
    for (int r = 1; r <= 3; ++r) {
        if (r == 2) {
            // The TRF export read back pairs round 2 as the server does (C.04.3 through the TRF).
            trf_after_round1 = call("GET", path(id, "trf"), json(), nullptr).body;
        }
        json e = start(id);
        const json boards = e["pairings"][std::size_t(r - 1)]["boards"];
        ASSERT_EQ(boards.size(), 3u);
        if (r == 2) {
            auto t = club::read_trf(trf_after_round1);
            ASSERT_TRUE(t) << t.error().message << "\n" << trf_after_round1;
            auto expected = club::pair_dutch(*t).value();
            ASSERT_EQ(expected.size(), boards.size());
            for (std::size_t i = 0; i < boards.size(); ++i) {
                EXPECT_EQ(boards[i]["white"]["rank"], expected[i].white);
                EXPECT_EQ(boards[i]["black"]["rank"], expected[i].black);
            }
        }
        // Board 1: White mates (fool's mate reversed is Black's; here Black resigns);
        // board 2: a draw by agreement; board 3: White resigns.
        for (const json& b : boards) ASSERT_TRUE(b.contains("game")) << b.dump();
        const std::string w1 = boards[0]["white"]["name"], b1 = boards[0]["black"]["name"];
        const std::string w2 = boards[1]["white"]["name"], b2 = boards[1]["black"]["name"];
        const std::string w3 = boards[2]["white"]["name"], b3 = boards[2]["black"]["name"];
        play(boards[0], {mv("e2e4"), mv("e7e5"), {{"t", "resign"}, {"by", "black"}}}, w1, b1);
        play(boards[1],
             {mv("d2d4"), mv("d7d5"), {{"t", "draw"}, {"action", "offer"}, {"by", "white"}},
              {{"t", "draw"}, {"action", "accept"}, {"by", "black"}}},
             w2, b2);
        play(boards[2], {mv("f2f3"), mv("e7e5"), mv("g2g4"), mv("d8h4")}, w3, b3);  // Black mates
        json after = get(id);
        const json& done = after["pairings"][std::size_t(r - 1)]["boards"];
        EXPECT_EQ(done[0]["result"], "1-0") << done.dump();
        EXPECT_EQ(done[1]["result"], "1/2-1/2");
        EXPECT_EQ(done[2]["result"], "0-1");
    }
    json e = get(id);
    EXPECT_EQ(e["status"], "finished");
    // No rematch in three rounds (C.04.1 b), everyone paired every round.
    std::set<std::pair<int, int>> met;
    for (const json& round : e["pairings"]) {
        std::set<int> seen;
        for (const json& b : round["boards"]) {
            const int w = b["white"]["rank"], k = b["black"]["rank"];
            EXPECT_TRUE(met.insert({std::min(w, k), std::max(w, k)}).second) << "a rematch";
            seen.insert(w);
            seen.insert(k);
        }
        EXPECT_EQ(seen.size(), 6u);
    }
    // The TRF of the event, read back by the library, gives the same standings (C.07).
    HttpResponse trf = call("GET", path(id, "trf"), json(), nullptr);
    ASSERT_EQ(trf.status, 200);
    bool disposition = false;
    for (const auto& [k, v] : trf.headers) disposition |= k == "Content-Disposition" && v.find(".trf") != std::string::npos;
    EXPECT_TRUE(disposition);
    auto t = club::read_trf(trf.body);
    ASSERT_TRUE(t) << t.error().message << "\n" << trf.body;
    EXPECT_EQ(t->total_rounds, 3);
    EXPECT_EQ(t->rounds_paired(), 3);
    club::TiebreakOptions options;
    options.total_rounds = 3;
    auto expected = club::standings(*t, 3, {club::Tiebreak::BUCHHOLZ_CUT1, club::Tiebreak::BUCHHOLZ,
                                            club::Tiebreak::SONNEBORN_BERGER}, options);
    json served = json::parse(call("GET", path(id, "standings"), json(), nullptr).body);
    ASSERT_EQ(served["standings"].size(), expected.size());
    double total = 0;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(served["standings"][i]["rank"], expected[i].start_rank);
        EXPECT_EQ(served["standings"][i]["place"], expected[i].place);
        EXPECT_DOUBLE_EQ(served["standings"][i]["points"].get<double>(), expected[i].points);
        EXPECT_EQ(served["standings"][i]["tiebreaks"].get<std::vector<double>>(), expected[i].tiebreaks);
        total += expected[i].points;
        const club::Player* p = t->find(expected[i].start_rank);
        EXPECT_DOUBLE_EQ(p->points, expected[i].points);  // the points column agrees with the results
    }
    EXPECT_DOUBLE_EQ(total, 9.0);  // three games a round, a point each
    // The PGN of the event holds its nine games, named after the event.
    HttpResponse pgn = call("GET", path(id, "pgn"), json(), nullptr);
    ASSERT_EQ(pgn.status, 200);
    std::size_t count = 0;
    for (std::size_t at = 0; (at = pgn.body.find("[Event \"Autumn Swiss\"]", at)) != std::string::npos; ++at) ++count;
    EXPECT_EQ(count, 9u) << pgn.body.substr(0, 400);
    EXPECT_NE(pgn.body.find("[Round \"3.1\"]"), std::string::npos);
}

TEST_F(EventsP20, WithdrawalsHalfPointByesAndLateEntries_C04_2_C07_16) {
    const auto id = create({{"name", "Byes"}, {"system", "swiss"}, {"rounds", 3}, {"time_control", "-"}, {"mode", "otb"}});
    for (int i = 0; i < 5; ++i) call("POST", path(id, "join"), json::object(), &players[std::size_t(i)]);
    json e = start(id);
    ASSERT_EQ(e["pairings"][0]["boards"].size(), 3u);  // two games and the pairing-allocated bye
    EXPECT_EQ(e["pairings"][0]["boards"][2]["result"], "bye");
    for (int b = 1; b <= 2; ++b) result(id, 1, b, "1-0");
    // Player 1 asks for a half-point bye in round 2; Player 2 withdraws; Player 6 enters late.
    EXPECT_EQ(call("POST", path(id, "bye"), {{"round", 2}}, &players[0]).status, 200);
    EXPECT_EQ(code(call("POST", path(id, "bye"), {{"round", 1}}, &players[0])), "bad_request") << "round 1 is under way";
    EXPECT_EQ(call("POST", path(id, "withdraw"), json::object(), &players[1]).status, 200);
    EXPECT_EQ(call("POST", path(id, "join"), json::object(), &players[5]).status, 200);
    e = start(id);
    std::set<std::string> paired;
    for (const json& b : e["pairings"][1]["boards"]) {
        paired.insert(b["white"]["name"].get<std::string>());
        if (!b["black"].is_null()) paired.insert(b["black"]["name"].get<std::string>());
    }
    EXPECT_EQ(paired, (std::set<std::string>{"Player3", "Player4", "Player5", "Player6"}));
    EXPECT_EQ(e["pairings"][1]["half_point_byes"], json::array({1}));
    for (const json& b : e["pairings"][1]["boards"]) result(id, 2, b["board"], "0-1");
    auto t = club::read_trf(call("GET", path(id, "trf"), json(), nullptr).body).value();
    const club::Player* p1 = nullptr;
    const club::Player* p2 = nullptr;
    const club::Player* p6 = nullptr;
    for (const club::Player& p : t.players) {
        if (p.name == "Player1") p1 = &p;
        if (p.name == "Player2") p2 = &p;
        if (p.name == "Player6") p6 = &p;
    }
    ASSERT_TRUE(p1 && p2 && p6);
    EXPECT_EQ(p1->round(2).result, club::ResultCode::HALF_BYE);
    EXPECT_EQ(p2->round(2).result, club::ResultCode::ZERO_BYE);
    EXPECT_EQ(p6->round(1).result, club::ResultCode::ZERO_BYE);
    EXPECT_DOUBLE_EQ(t.score(*p1, 2), p1->round(1).result == club::ResultCode::WIN ||
                                              p1->round(1).result == club::ResultCode::PAIRING_BYE
                                          ? 1.5
                                          : 0.5);
}

TEST_F(EventsP20, OnlyTheOrganiserStartsRoundsAndEntersResults_P20) {
    const auto id = create({{"name", "Mine"}, {"system", "swiss"}, {"rounds", 2}, {"time_control", "-"}, {"mode", "otb"}});
    for (int i = 0; i < 4; ++i) call("POST", path(id, "join"), json::object(), &players[std::size_t(i)]);
    HttpResponse r = call("POST", path(id, "rounds"), json::object(), &players[0]);
    EXPECT_EQ(r.status, 403);
    EXPECT_EQ(code(r), "not_organiser");
    EXPECT_EQ(get(id)["current_round"], 0);
    start(id);
    r = call("POST", path(id, "results"), {{"round", 1}, {"board", 1}, {"result", "1-0"}}, &players[0]);
    EXPECT_EQ(code(r), "not_organiser");
    EXPECT_EQ(get(id)["pairings"][0]["boards"][0]["result"], "");
    // Anonymous visitors read, but change nothing.
    EXPECT_EQ(code(call("POST", path(id, "join"), json::object(), nullptr)), "not_signed_in");
    EXPECT_EQ(call("GET", path(id), json(), nullptr).status, 200);
    // Another site's page cannot act with a player's cookie.
    HttpRequest cross = request("POST", path(id, "rounds"), "{}", &organiser);
    cross.origin = "http://evil.example";
    EXPECT_EQ(code(events->handle(cross)), "forbidden_origin");
    EXPECT_EQ(get(id)["current_round"], 1);
    // The organiser corrects a result.
    result(id, 1, 1, "1-0");
    result(id, 1, 1, "-+");
    EXPECT_EQ(get(id)["pairings"][0]["boards"][0]["result"], "-+");
}

TEST_F(EventsP20, BadInputIsAnErrorNamingTheField_P20) {
    struct Case {
        json body;
        const char* field;
    };
    const json ok = {{"name", "X"}, {"system", "swiss"}, {"rounds", 5}, {"time_control", "5+3"}};
    auto with = [&](const char* k, json v) {
        json b = ok;
        if (v.is_null()) b.erase(k);
        else b[k] = v;
        return b;
    };
    for (const Case& c : {Case{with("name", ""), "name"}, Case{with("name", 7), "name"},
                          Case{with("name", std::string(101, 'x')), "name"}, Case{with("name", "a\nb"), "name"},
                          // Issue 25 item 10: bidi and invisible characters, as in every name.
                          Case{with("name", "evil\u202etxt"), "name"}, Case{with("name", "a\u2066b\u2069"), "name"},
                          Case{with("name", "zero\u200bwidth"), "name"}, Case{with("name", "\ufeffbom"), "name"},
                          Case{with("name", "line\u2028sep"), "name"}, Case{with("time_control", "241"), "time_control"},
                          Case{with("system", "knockout"), "system"}, Case{with("rounds", 0), "rounds"},
                          Case{with("rounds", 31), "rounds"}, Case{with("rounds", "5"), "rounds"},
                          Case{with("rounds", nullptr), "rounds"}, Case{with("time_control", "fast"), "time_control"},
                          Case{with("rated", "yes"), "rated"}, Case{with("mode", "mail"), "mode"},
                          Case{with("tiebreaks", json::array({"XYZ"})), "tiebreaks"},
                          Case{with("tiebreaks", json::array({"BH", "BH"})), "tiebreaks"},
                          Case{with("tiebreaks", "BH"), "tiebreaks"}}) {
        HttpResponse r = call("POST", "/api/v1/events", c.body, &organiser);
        EXPECT_EQ(r.status, 400) << c.body.dump();
        EXPECT_NE(r.body.find(std::string("'") + c.field + "'"), std::string::npos) << r.body;
    }
    for (const char* body : {"", "[]", "{", "null", "\"x\""}) {
        HttpResponse r = events->handle(request("POST", "/api/v1/events", body, &organiser));
        EXPECT_EQ(r.status, 400) << body;
    }
    HttpRequest form = request("POST", "/api/v1/events", ok.dump(), &organiser);
    form.content_type = "application/x-www-form-urlencoded";
    EXPECT_EQ(events->handle(form).status, 415);
    const auto id = create(ok);
    for (int i = 0; i < 2; ++i) call("POST", path(id, "join"), json::object(), &players[std::size_t(i)]);
    EXPECT_EQ(code(call("POST", path(id, "join"), json::object(), &players[0])), "not_allowed");
    start(id);
    for (const auto& [body, field] : std::vector<std::pair<json, const char*>>{
             {{{"round", 1}, {"board", 1}, {"result", "2-0"}}, "result"},
             {{{"round", 1}, {"board", 9}, {"result", "1-0"}}, "board"},
             {{{"round", 2}, {"board", 1}, {"result", "1-0"}}, "round"},
             {{{"round", "1"}, {"board", 1}, {"result", "1-0"}}, "round"},
             {{{"round", 1}, {"result", "1-0"}}, "board"}}) {
        HttpResponse r = call("POST", path(id, "results"), body, &organiser);
        EXPECT_EQ(r.status, 400) << body.dump();
        EXPECT_NE(r.body.find(std::string("'") + field + "'"), std::string::npos) << r.body;
    }
    EXPECT_EQ(call("GET", "/api/v1/events/999", json(), nullptr).status, 404);
    EXPECT_EQ(call("GET", "/api/v1/events/abc", json(), nullptr).status, 404);
    EXPECT_EQ(call("GET", "/api/v1/events/99999999999999999999", json(), nullptr).status, 404);
    EXPECT_EQ(call("GET", path(id, "nothing"), json(), nullptr).status, 404);
    EXPECT_EQ(call("DELETE", path(id), json(), &organiser).status, 405);
    EXPECT_EQ(call("GET", path(id, "rounds"), json(), &organiser).status, 405);
}

TEST_F(EventsP20, AnEventGameIsNotAbortedTheOrganisersResultStandsAndTheEventSurvivesARestart_P20_R14) {
    current_id = create({{"name", "Online"}, {"system", "swiss"}, {"rounds", 2}, {"time_control", "3+2"}});
    const auto id = current_id;
    for (int i = 0; i < 2; ++i) call("POST", path(id, "join"), json::object(), &players[std::size_t(i)]);
    json e = start(id);
    const json board = e["pairings"][0]["boards"][0];
    play(board, {{{"t", "abort"}, {"by", "white"}}}, board["white"]["name"], board["black"]["name"]);
    json after = get(id);
    EXPECT_EQ(after["pairings"][0]["boards"][0]["result"], "");
    EXPECT_FALSE(after["pairings"][0]["boards"][0].contains("note"));
    EXPECT_EQ(json::parse(hub->state_json(board["game"]).value())["game"]["status"], "ongoing");
    result(id, 1, 1, "+-");
    // The game's own end later does not overwrite the organiser's result.
    now += 60'000;
    hub->on_timer(board["game"]);
    EXPECT_EQ(json::parse(hub->state_json(board["game"]).value())["game"]["status"], "forfeit");
    EXPECT_EQ(get(id)["pairings"][0]["boards"][0]["result"], "+-");
    const std::string before = call("GET", path(id), json(), nullptr).body;
    events.reset();
    event_store = std::move(EventStore::open(db_path).value());
    events = std::move(EventService::open(event_store.get(), *hub, [this] { return 1'700'000'000'000 + now; }).value());
    EXPECT_EQ(call("GET", path(id), json(), nullptr).body, before);
    EXPECT_EQ(json::parse(call("GET", "/api/v1/events", json(), nullptr).body)["events"][0]["id"], id);
}

// Issue 13: a game that ended in the hub whose result never reached the event (a stop
// between the two writes) gets its result at the next start; a game still waiting for
// its first move has its whole first-move time again after the restart (R14).
TEST_F(EventsP20, ResultsOfGamesThatEndedBeforeARestartReachTheirBoards_P20_R14) {
    current_id = create({{"name", "Restart"}, {"system", "swiss"}, {"rounds", 2}, {"time_control", "3+2"}});
    const auto id = current_id;
    for (int i = 0; i < 4; ++i) call("POST", path(id, "join"), json::object(), &players[std::size_t(i)]);
    json e = start(id);
    const json b1 = e["pairings"][0]["boards"][0], b2 = e["pairings"][0]["boards"][1];
    deliver_results = false;
    play(b1, {mv("e2e4"), mv("e7e5"), {{"t", "resign"}, {"by", "black"}}}, b1["white"]["name"], b1["black"]["name"]);
    EXPECT_EQ(json::parse(hub->state_json(b1["game"]).value())["game"]["status"], "resignation");
    EXPECT_EQ(get(id)["pairings"][0]["boards"][0]["result"], "") << "the report was lost";
    now += 50'000;  // board 2 waits for White's first move
    restart();
    EXPECT_EQ(recovered, 1);
    json after = get(id);
    EXPECT_EQ(after["pairings"][0]["boards"][0]["result"], "1-0");
    EXPECT_EQ(after["pairings"][0]["boards"][1]["result"], "");
    // Board 2: the 50 s before the stop do not count; 60 s after the start do.
    now += 59'999;
    hub->on_timer(b2["game"]);
    EXPECT_EQ(get(id)["pairings"][0]["boards"][1]["result"], "");
    now += 1;
    hub->on_timer(b2["game"]);
    EXPECT_EQ(get(id)["pairings"][0]["boards"][1]["result"], "-+");
    // A second start finds nothing more to do, and the result is kept.
    restart();
    EXPECT_EQ(recovered, 0);
    EXPECT_EQ(get(id)["pairings"][0]["boards"][0]["result"], "1-0");
}

// R14 on an event's board (docs/events.md): the side to move that has not made its
// first move within the hub's first-move time loses by forfeit (White with no move:
// -+; Black with no reply: +-); the board is never aborted; the TRF has the forfeit
// codes and the standings count the point.
TEST_F(EventsP20, NoFirstMoveInTimeLosesByForfeitAndIsNeverAborted_R14) {
    current_id = create({{"name", "R14"}, {"system", "swiss"}, {"rounds", 2}, {"time_control", "3+2"}});
    const auto id = current_id;
    for (int i = 0; i < 4; ++i) call("POST", path(id, "join"), json::object(), &players[std::size_t(i)]);
    json e = start(id);
    const json b1 = e["pairings"][0]["boards"][0], b2 = e["pairings"][0]["boards"][1];
    // Neither may abort: the board stays to be played.
    EXPECT_EQ(json::parse(hub->state_json(b1["game"]).value())["game"]["can_abort"], false);
    play(b1, {{{"t", "abort"}, {"by", "white"}}}, b1["white"]["name"], b1["black"]["name"]);
    EXPECT_EQ(json::parse(hub->state_json(b1["game"]).value())["game"]["status"], "ongoing");
    now += 20'000;
    play(b2, {mv("e2e4")}, b2["white"]["name"], b2["black"]["name"]);  // Black's time starts now
    now += 40'000;  // 60 s since the start: White of board 1 has not moved
    hub->on_timer(b1["game"]);
    hub->on_timer(b2["game"]);
    json after = get(id);
    EXPECT_EQ(after["pairings"][0]["boards"][0]["result"], "-+");
    EXPECT_EQ(after["pairings"][0]["boards"][1]["result"], "") << "Black of board 2 has 20 s left";
    EXPECT_FALSE(after["pairings"][0]["boards"][0].contains("note"));
    now += 20'000;
    hub->on_timer(b2["game"]);
    after = get(id);
    EXPECT_EQ(after["pairings"][0]["boards"][1]["result"], "+-");
    json g1 = json::parse(hub->state_json(b1["game"]).value())["game"];
    EXPECT_EQ(g1["status"], "forfeit");
    EXPECT_EQ(g1["result"], "0-1");
    // The TRF: forfeits (+ and -), and the standings count a point for each winner.
    auto t = club::read_trf(call("GET", path(id, "trf"), json(), nullptr).body).value();
    const int w1 = b1["white"]["rank"], k1 = b1["black"]["rank"], w2 = b2["white"]["rank"], k2 = b2["black"]["rank"];
    EXPECT_EQ(t.find(w1)->round(1).result, club::ResultCode::FORFEIT_LOSS);
    EXPECT_EQ(t.find(k1)->round(1).result, club::ResultCode::FORFEIT_WIN);
    EXPECT_EQ(t.find(w2)->round(1).result, club::ResultCode::FORFEIT_WIN);
    EXPECT_EQ(t.find(k2)->round(1).result, club::ResultCode::FORFEIT_LOSS);
    for (const json& s : after["standings"]) {
        const int rank = s["rank"];
        EXPECT_DOUBLE_EQ(s["points"].get<double>(), rank == k1 || rank == w2 ? 1.0 : 0.0) << rank;
    }
    // As in lichess's Swiss, who lost so is withdrawn from the next round on: round 2
    // pairs the two others; a withdrawn player may join again for a later round.
    for (const json& p : after["players"]) {
        const int rank = p["rank"];
        EXPECT_EQ(p["withdrawn_from"], rank == w1 || rank == k2 ? 2 : 0) << rank;
    }
    json r2 = start(id);
    EXPECT_EQ(r2["current_round"], 2);
    ASSERT_EQ(r2["pairings"][1]["boards"].size(), 1u);
    const json& only = r2["pairings"][1]["boards"][0];
    EXPECT_EQ((std::set<int>{only["white"]["rank"].get<int>(), only["black"]["rank"].get<int>()}), (std::set<int>{k1, w2}));
    auto t2 = club::read_trf(call("GET", path(id, "trf"), json(), nullptr).body).value();
    EXPECT_EQ(t2.find(w1)->round(2).result, club::ResultCode::ZERO_BYE);
    std::string w1_name;
    for (const json& p : after["players"])
        if (p["rank"] == w1) w1_name = p["name"];
    EXPECT_EQ(call("POST", path(id, "join"), json::object(), &account_named(w1_name)).status, 200);
    EXPECT_EQ(get(id)["players"][std::size_t(w1 - 1)]["withdrawn_from"], 0);
}

// R14 in a round-robin: the forfeit stands, but the schedule is fixed: nobody is
// withdrawn for it (C.05: a withdrawal forfeits every remaining game).
TEST_F(EventsP20, NoFirstMoveInARoundRobinIsAForfeitWithoutWithdrawal_R14_C05) {
    current_id = create({{"name", "RR R14"}, {"system", "round-robin"}, {"time_control", "3+2"}});
    const auto id = current_id;
    for (int i = 0; i < 4; ++i) call("POST", path(id, "join"), json::object(), &players[std::size_t(i)]);
    json e = start(id);
    const json b1 = e["pairings"][0]["boards"][0];
    now += 60'000;
    hub->on_timer(b1["game"]);
    json after = get(id);
    EXPECT_EQ(after["pairings"][0]["boards"][0]["result"], "-+");
    for (const json& p : after["players"]) EXPECT_EQ(p["withdrawn_from"], 0);
}

// Starting ranks by rating (C.04.2): each player's rating in the event's class (5+3:
// blitz) when round 1 starts, highest first, unrated (no blitz game: 0) last, ties by
// name; the ratings in the TRF's rating column.
TEST_F(EventsP20, StartingRanksByRatingInTheEventsClassThenByName_C04_2_P23) {
    seed_rating("seed1", players[0], players[1], "blitz", 1400.4, 1800.2);
    seed_rating("seed2", players[2], organiser, "blitz", 1799.6, 1500);
    seed_rating("seed3", players[4], organiser, "rapid", 2000, 1500);  // not the event's class
    const auto id = create({{"name", "Seeded"}, {"system", "swiss"}, {"rounds", 3}, {"time_control", "5+3"}, {"mode", "otb"}});
    for (int i = 0; i < 5; ++i) call("POST", path(id, "join"), json::object(), &players[std::size_t(i)]);
    EXPECT_EQ(get(id)["players"][0]["rating"], 0) << "ratings are read when the event starts";
    json e = start(id);
    std::vector<std::pair<std::string, int>> order;
    for (const json& p : e["players"]) order.emplace_back(p["name"], p["rating"]);
    const std::vector<std::pair<std::string, int>> expected = {
        {"Player2", 1800}, {"Player3", 1800}, {"Player1", 1400}, {"Player4", 0}, {"Player5", 0}};
    EXPECT_EQ(order, expected);
    for (std::size_t i = 0; i < e["players"].size(); ++i) EXPECT_EQ(e["players"][i]["rank"], int(i) + 1);
    auto t = club::read_trf(call("GET", path(id, "trf"), json(), nullptr).body).value();
    for (const auto& [name, rating] : expected) {
        bool seen = false;
        for (const club::Player& p : t.players)
            if (p.name == name) {
                seen = true;
                EXPECT_EQ(p.rating, rating) << name;
            }
        EXPECT_TRUE(seen) << name;
    }
    // Round 1: the upper half (ranks 1-2) against the lower half (3-5, 5 has the bye).
    const json& boards = e["pairings"][0]["boards"];
    std::set<std::set<int>> pairs;
    for (const json& b : boards)
        if (!b["black"].is_null()) pairs.insert({b["white"]["rank"].get<int>(), b["black"]["rank"].get<int>()});
    EXPECT_EQ(pairs, (std::set<std::set<int>>{{1, 3}, {2, 4}}));
    // A late entry has its rating as it enters.
    for (const json& b : boards)
        if (!b["black"].is_null()) result(id, 1, b["board"], "1-0");
    seed_rating("seed4", players[5], organiser, "blitz", 1650, 1500);
    call("POST", path(id, "join"), json::object(), &players[5]);
    EXPECT_EQ(get(id)["players"][5]["rating"], 1650);
    EXPECT_EQ(get(id)["players"][5]["rank"], 6);
}

// Issue 13: a round is started in two steps, its pairing saved and then its games made
// in the hub. A kill -9 between them (here after the second of three games was made,
// before any was linked to its board) left boards with neither a game nor a result,
// and the event stuck. At the next start every such board gets its game, once: the
// games made before the stop are linked (not made again), the missing one is made with
// the colours, players and time control of the pairing; R14's first-move time (60 s)
// starts when the game is made, not counting the hour the server was down.
TEST_F(EventsP20, AStopBetweenTheRoundAndItsGamesLeavesNoBoardWithoutAGame_P20_R14) {
    current_id = create({{"name", "Kill"}, {"system", "swiss"}, {"rounds", 2}, {"time_control", "3+2"}});
    const auto id = current_id;
    for (int i = 0; i < 6; ++i) call("POST", path(id, "join"), json::object(), &players[std::size_t(i)]);
    crash_at = 2;
    const json live = start(id);  // (the process goes on; the copy is what a kill leaves)
    ASSERT_EQ(live["pairings"][0]["boards"].size(), 3u);
    EXPECT_EQ(count("SELECT COUNT(*) FROM games"), 3);
    now += 3'600'000;  // down for an hour
    crash_restart();
    EXPECT_EQ(count("SELECT COUNT(*) FROM games"), 3) << "two games made before the stop, one after";
    json e = get(id);
    ASSERT_EQ(e["current_round"], 1);
    ASSERT_EQ(e["pairings"][0]["boards"].size(), 3u);
    std::set<std::string> games;
    for (int b = 0; b < 3; ++b) {
        const json board = e["pairings"][0]["boards"][std::size_t(b)];
        const json& was = live["pairings"][0]["boards"][std::size_t(b)];
        EXPECT_EQ(board["white"], was["white"]);  // the pairing as saved
        EXPECT_EQ(board["black"], was["black"]);
        ASSERT_TRUE(board.contains("game")) << "board " << b + 1 << " is stuck: " << board.dump();
        EXPECT_EQ(board["result"], "");
        games.insert(board["game"].get<std::string>());
        const LiveGame g = hub->game_report(board["game"]).value();
        EXPECT_EQ(g.white, board["white"]["name"]);
        EXPECT_EQ(g.black, board["black"]["name"]);
        EXPECT_EQ(g.time_control, "3+2");
        EXPECT_FALSE(g.over);
    }
    EXPECT_EQ(games.size(), 3u);
    // Each player's seat is theirs, in their colour (play() checks), and a result comes back.
    const json b1 = e["pairings"][0]["boards"][0], b2 = e["pairings"][0]["boards"][1], b3 = e["pairings"][0]["boards"][2];
    play(b1, {mv("e2e4"), mv("e7e5"), {{"t", "resign"}, {"by", "black"}}}, b1["white"]["name"], b1["black"]["name"]);
    EXPECT_EQ(get(id)["pairings"][0]["boards"][0]["result"], "1-0");
    // R14: 60 s from the start, the hour down not counted.
    now += 59'999;
    hub->on_timer(b2["game"]);
    hub->on_timer(b3["game"]);
    EXPECT_EQ(get(id)["pairings"][0]["boards"][1]["result"], "");
    EXPECT_EQ(get(id)["pairings"][0]["boards"][2]["result"], "");
    now += 1;
    hub->on_timer(b2["game"]);
    hub->on_timer(b3["game"]);
    EXPECT_EQ(get(id)["pairings"][0]["boards"][1]["result"], "-+");
    EXPECT_EQ(get(id)["pairings"][0]["boards"][2]["result"], "-+");
    // Another start makes nothing more; the event goes on.
    const std::string before = call("GET", path(id), json(), nullptr).body;
    restart();
    EXPECT_EQ(call("GET", path(id), json(), nullptr).body, before);
    EXPECT_EQ(count("SELECT COUNT(*) FROM games"), 3);
    EXPECT_EQ(start(id)["current_round"], 2);
}

// Issue 13, attacked: a stop before any game was made, then another stop in the middle
// of the recovery itself (after it made the second of three games, before linking
// it). The next start links what was made and makes the rest: each board has one
// game, with the id chosen when the round was saved; a third start does nothing.
TEST_F(EventsP20, ARestartInTheMiddleOfTheRecoveryStillMakesEachGameOnce_P20) {
    current_id = create({{"name", "Twice"}, {"system", "swiss"}, {"rounds", 3}, {"time_control", "10+5"}});
    const auto id = current_id;
    for (int i = 0; i < 6; ++i) call("POST", path(id, "join"), json::object(), &players[std::size_t(i)]);
    crash_at = 1;
    start(id);
    // The stop came just before the first game's row: none is stored.
    crash_restart([this] { sql("DELETE FROM moves; DELETE FROM games;"); }, false);
    EXPECT_EQ(count("SELECT COUNT(*) FROM games"), 0);
    // (the event held in a variable: a range-for over a part of a temporary json
    // reads it after it is freed)
    const json before_recovery = get(id);
    for (const json& b : before_recovery["pairings"][0]["boards"]) EXPECT_FALSE(b.contains("game")) << b.dump();
    games_made = 0;
    crash_at = 2;
    recover_now();  // (this process finishes; the copy is the stop in its middle)
    EXPECT_EQ(games_recovered, 3);
    std::vector<std::string> ids;
    const json made = get(id);
    for (const json& b : made["pairings"][0]["boards"]) ids.push_back(b.value("game", ""));
    crash_restart();
    EXPECT_EQ(games_recovered, 2) << "board 2's game found made, board 3's made";
    EXPECT_EQ(count("SELECT COUNT(*) FROM games"), 3);
    std::vector<std::string> after;
    const json restarted = get(id);
    for (const json& b : restarted["pairings"][0]["boards"]) after.push_back(b.value("game", ""));
    EXPECT_EQ(after, ids);
    for (std::size_t i = 0; i < after.size(); ++i) {
        const json board = get(id)["pairings"][0]["boards"][i];
        const LiveGame g = hub->game_report(after[i]).value();
        EXPECT_EQ(g.white, board["white"]["name"]);
        EXPECT_EQ(g.black, board["black"]["name"]);
        EXPECT_EQ(g.time_control, "10+5");
        EXPECT_EQ(count("SELECT COUNT(*) FROM games g JOIN event_boards b ON b.game_id = g.id WHERE g.id = '" + after[i] +
                        "' AND g.white_token = b.white_token AND g.black_token = b.black_token AND g.first_move = 'forfeit'"),
                  1)
            << "the board's seats are the game's";
    }
    restart();
    EXPECT_EQ(games_recovered, 0);
    EXPECT_EQ(count("SELECT COUNT(*) FROM games"), 3);
}

// Issue 13, attacked: the recovery makes no game for an over-the-board event, a bye,
// a board the organiser decided before or during the recovery, nor for the boards of
// an event no longer there; a player who withdrew after the round started still plays
// it (the round stands); a round saved by an older version, without game ids, gets
// them.
TEST_F(EventsP20, RecoveryMakesNoGameForOverTheBoardByesDecidedOrGoneBoards_P20) {
    const auto otb = create({{"name", "Club night"}, {"system", "swiss"}, {"rounds", 2}, {"time_control", "60+30"}, {"mode", "otb"}});
    for (int i = 0; i < 5; ++i) call("POST", path(otb, "join"), json::object(), &players[std::size_t(i)]);
    start(otb);
    const auto gone = create({{"name", "Gone"}, {"system", "swiss"}, {"rounds", 2}, {"time_control", "3+2"}});
    for (int i = 0; i < 2; ++i) call("POST", path(gone, "join"), json::object(), &players[std::size_t(i)]);
    start(gone);
    current_id = create({{"name", "Online"}, {"system", "swiss"}, {"rounds", 2}, {"time_control", "3+2"}});
    const auto id = current_id;
    for (int i = 0; i < 8; ++i) call("POST", path(id, "join"), json::object(), &players[std::size_t(i)]);
    crash_at = 1;  // board 1's game made, nothing after it
    const json live = start(id);
    const std::string gone_id = std::to_string(gone), online = std::to_string(id);
    crash_restart(
        [&] {
            // The "gone" event's row is no longer there (its boards' rows are).
            sql("UPDATE event_boards SET white_token = '', black_token = '' WHERE event_id = " + gone_id +
                "; DELETE FROM games WHERE id IN (SELECT game_id FROM event_boards WHERE event_id = " + gone_id +
                "); DELETE FROM events WHERE id = " + gone_id + ";");
            // Board 3 as an older version saved it: no game id.
            sql("UPDATE event_boards SET game_id = '' WHERE event_id = " + online + " AND round = 1 AND board = 3;");
        },
        false);
    EXPECT_EQ(count("SELECT COUNT(*) FROM games"), 1);
    // Before the recovery: the organiser decides board 2; board 3's Black withdraws.
    result(id, 1, 2, "+-");
    const std::string leaver = live["pairings"][0]["boards"][2]["black"]["name"];
    EXPECT_EQ(call("POST", path(id, "withdraw"), json::object(), &account_named(leaver)).status, 200);
    // During it: as board 3's game is made, the organiser decides board 4.
    on_new_game = [&](const std::string&) {
        on_new_game = nullptr;
        result(id, 1, 4, "-+");
    };
    recover_now();
    EXPECT_EQ(games_recovered, 2) << "boards 1 and 3";
    json e = get(id);
    const json& boards = e["pairings"][0]["boards"];
    EXPECT_TRUE(boards[0].contains("game"));
    EXPECT_FALSE(boards[1].contains("game"));
    EXPECT_EQ(boards[1]["result"], "+-");
    ASSERT_TRUE(boards[2].contains("game"));
    EXPECT_EQ(hub->game_report(boards[2]["game"]).value().black, leaver);
    EXPECT_FALSE(boards[3].contains("game"));
    EXPECT_EQ(boards[3]["result"], "-+");
    for (const json& p : e["players"]) {
        if (p["name"] == leaver) {
            EXPECT_EQ(p["withdrawn_from"], 2);
        }
    }
    EXPECT_EQ(count("SELECT COUNT(*) FROM games"), 2);
    EXPECT_EQ(count("SELECT COUNT(*) FROM event_boards WHERE event_id = " + std::to_string(otb) + " AND game_id <> ''"), 0);
    EXPECT_EQ(get(otb)["pairings"][0]["boards"].size(), 3u);  // two boards and the bye, no games
    EXPECT_EQ(call("GET", path(gone), json(), nullptr).status, 404);
    restart();
    EXPECT_EQ(games_recovered, 0);
    EXPECT_EQ(count("SELECT COUNT(*) FROM games"), 2);
}

// Issue 13, attacked: a chosen game id that is another game's (another pairing, or a
// lobby game) is refused, never answered with that game's seats nor overwritten; a
// chosen id must be letters and digits; the same request twice is one game.
TEST_F(EventsP20, AChosenGameIdIsOneGameAndNeverAnothersSeats_P20) {
    auto first = hub->create_event_game("3+2", true, players[0], players[1], "Board1id");
    ASSERT_TRUE(first) << first.error().message;
    EXPECT_EQ(first->id, "Board1id");
    auto again = hub->create_event_game("3+2", true, players[0], players[1], "Board1id");
    ASSERT_TRUE(again) << again.error().message;
    EXPECT_EQ(again->white_token, first->white_token);
    EXPECT_EQ(again->black_token, first->black_token);
    EXPECT_EQ(count("SELECT COUNT(*) FROM games"), 1);
    // Other players, or the colours reversed: not this game.
    EXPECT_FALSE(hub->create_event_game("3+2", true, players[2], players[3], "Board1id"));
    EXPECT_FALSE(hub->create_event_game("3+2", true, players[1], players[0], "Board1id"));
    // A lobby game's id.
    auto lobby = hub->create_game(R"({"opponent":"invite","color":"white","time_control":"3+2"})", "10.0.0.9", &players[4]);
    ASSERT_TRUE(lobby) << lobby.error().message;
    auto taken = hub->create_event_game("3+2", true, players[4], Account{0, ""}, lobby->id);
    EXPECT_FALSE(taken);
    for (const char* bad : {"a b", "x'--", "../x"}) EXPECT_FALSE(hub->create_event_game("3+2", true, players[0], players[1], bad)) << bad;
    EXPECT_FALSE(hub->create_event_game("3+2", true, players[0], players[1], std::string(65, 'a')));
    EXPECT_EQ(count("SELECT COUNT(*) FROM games"), 2);
    EXPECT_EQ(json::parse(hub->state_json(lobby->id).value())["game"]["players"]["white"]["name"], "Player5");
}

// Issue 25, item 2: `outpost serve` pairs a round on a thread of its own (at the
// process's priority, not the request pool's nice +5): the pairing runs there while the
// request waits, and gives the round it would give inline. A pairing thread that cannot
// take the job refuses the start (503, busy) and leaves the event free to start later.
TEST_F(EventsP20, Issue25ARoundIsPairedOnThePairingThreadAndABusyOneRefusesTheStart) {
    const auto id = create({{"name", "Paired aside"}, {"system", "swiss"}, {"rounds", 3}, {"time_control", "15+10"},
                            {"mode", "otb"}});
    for (std::size_t i = 0; i < 6; ++i) ASSERT_EQ(call("POST", path(id, "join"), json::object(), &players[i]).status, 200);

    bool take = false;
    int refused = 0;
    std::vector<std::thread::id> pairing_threads;
    std::vector<std::thread> threads;
    events->run_pairing_on([&](std::function<void()> job) {
        if (!take) return ++refused, false;
        threads.emplace_back([&pairing_threads, job = std::move(job)] {
            pairing_threads.push_back(std::this_thread::get_id());
            job();
        });
        return true;
    });
    HttpResponse busy = call("POST", path(id, "rounds"), json::object(), &organiser);
    EXPECT_EQ(busy.status, 503) << busy.body;
    EXPECT_EQ(code(busy), "rate_limited");
    EXPECT_EQ(refused, 1);
    EXPECT_EQ(get(id)["current_round"], 0);

    take = true;
    json e = start(id);
    for (auto& t : threads) t.join();
    ASSERT_EQ(pairing_threads.size(), 1u) << "the round was not paired on the pairing thread";
    EXPECT_NE(pairing_threads[0], std::this_thread::get_id());
    EXPECT_EQ(e["current_round"], 1);
    ASSERT_EQ(e["pairings"].size(), 1u);
    // The Dutch system's round 1 (C.04.3): the top half against the bottom half.
    const json& boards = e["pairings"][0]["boards"];
    ASSERT_EQ(boards.size(), 3u);
    std::set<std::pair<int, int>> got;
    for (const json& b : boards) {
        const int w = b["white"]["rank"], k = b["black"]["rank"];
        got.insert({std::min(w, k), std::max(w, k)});
    }
    EXPECT_EQ(got, (std::set<std::pair<int, int>>{{1, 4}, {2, 5}, {3, 6}}));
}
