// Outpost — the puzzles' routes (issue 29 items 3 and 4; docs/protocol.md, "Puzzles"):
// a right line solves and changes the ratings by Glicko-2, a wrong move fails and shows
// the solution, any mate is right on the last step, a guest is not rated, hints, the
// themes and the history; bad ids, bodies and moves answered with JSON errors; learn
// from your mistakes on one's own finished game. And `outpost puzzles import`: a bad row
// refused with file, line and reason, duplicates stored once.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "club/glicko2.h"
#include "server/accounts/ratings.h"
#include "server/play/hub.h"
#include "server/stores/game_store.h"
#include "server/training/puzzle_import.h"
#include "server/training/puzzle_rules.h"
#include "server/training/puzzle_service.h"
#include "training/puzzle_csv.h"

using namespace outpost;
using namespace outpost::server;
using nlohmann::json;

namespace {

// Black's c7-c6, then White mates on the back rank with either rook (the solution: Ra8#).
constexpr const char* MateInOne = "mate1,6k1/2p2ppp/8/8/8/8/5PPP/RR4K1 b - - 0 1,c7c6 a1a8,1500,80,90,10,mateIn1 backRankMate,/#/game/g1?ply=9,";
// Black's c5-c4, then Rb7 (the king is held on the 8th rank), Kg8, Ra8#.
constexpr const char* MateInTwo = "mate2,7k/8/8/2p5/8/8/8/RR4K1 b - - 0 1,c5c4 b1b7 h8g8 a1a8,1800,80,90,10,mateIn2 endgame,/#/game/g2?ply=30,";

struct PuzzleRoutes : ::testing::Test {
    Millis now = 1'000'000;
    std::string db_path;
    std::unique_ptr<Storage> storage;
    std::unique_ptr<PuzzleStore> store;
    std::unique_ptr<Hub> hub;
    std::unique_ptr<PuzzleService> service;
    Account anna{7, "Anna", false, false, 0};

    std::int64_t wall() const { return 1'700'000'000'000 + now; }
    HubEnv hub_env() {
        HubEnv e;
        e.monotonic_ms = [this] { return now; };
        e.wall_ms = [this] { return wall(); };
        e.call_back_in = [](const std::string&, Millis) {};
        e.ask_robot = [](RobotRequest) {};
        e.random_token = [](int len) { return std::string(std::size_t(len), 'x'); };
        e.inline_writes = true;
        return e;
    }
    void SetUp() override {
        db_path = (std::filesystem::temp_directory_path() /
                   ("outpost-puzzles-test-" + std::to_string(::getpid()) + "-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db"))
                      .string();
        remove_files();
        storage = std::move(Storage::open(db_path).value());
        store = std::move(PuzzleStore::open(db_path).value());
        hub = std::make_unique<Hub>(hub_env(), storage.get());
        PuzzleEnv env;
        env.wall_ms = [this] { return wall(); };
        env.monotonic_ms = [this] { return now; };
        env.seed = 1;
        env.mistake_nodes = 5000;
        service = std::make_unique<PuzzleService>(env, *store, *hub, storage.get());
        std::istringstream csv(std::string(training::puzzle_csv_header()) + "\n" + MateInOne + "\n" + MateInTwo + "\n");
        ASSERT_EQ(import_puzzles(csv, "test.csv", *store).value().added, 2);
    }
    void TearDown() override {
        service.reset();
        hub.reset();
        store.reset();
        storage.reset();
        remove_files();
    }
    void remove_files() {
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_path + suffix);
    }
    HttpResponse call(const std::string& method, const std::string& target, const std::string& body = "",
                      const Account* who = nullptr) {
        HttpRequest req{method, target, body, "10.0.0.1"};
        req.content_type = "application/json";
        if (who) req.account = *who;
        return service->handle(req);
    }
    json attempt(const std::string& id, std::vector<std::string> moves, const Account* who = nullptr) {
        HttpResponse r = call("POST", "/api/v1/puzzles/" + id + "/attempt", json{{"moves", moves}}.dump(), who);
        json j = json::parse(r.body);
        j["http"] = r.status;
        return j;
    }
};

TEST_F(PuzzleRoutes, Issue29APuzzleShowsThePositionAndTheOpponentsMoveNotTheSolution) {
    HttpResponse r = call("GET", "/api/v1/puzzles/mate2");
    ASSERT_EQ(r.status, 200) << r.body;
    json p = json::parse(r.body)["puzzle"];
    EXPECT_EQ(p["fen"], "7k/8/8/2p5/8/8/8/RR4K1 b - - 0 1");
    EXPECT_EQ(p["opponent_move"], "c5c4");
    EXPECT_EQ(p["color"], "white");
    EXPECT_EQ(p["steps"], 2);
    EXPECT_EQ(p["themes"], json({"mateIn2", "endgame"}));
    EXPECT_EQ(p["rating"], 1800);
    EXPECT_EQ(r.body.find("b1b7"), std::string::npos);  // the solution stays on the server
    EXPECT_EQ(json::parse(r.body)["rating"], nullptr);  // a guest has none
}

TEST_F(PuzzleRoutes, Issue29ARightLineIsAnsweredMoveByMoveAndSolvesItAsAGuestUnrated) {
    json first = attempt("mate2", {"b1b7"});
    EXPECT_EQ(first["http"], 200);
    EXPECT_EQ(first["status"], "continue");
    EXPECT_EQ(first["reply"], "h8g8");
    json done = attempt("mate2", {"b1b7", "a1a8"});
    EXPECT_EQ(done["status"], "solved");
    EXPECT_EQ(done["rated"], false);
    EXPECT_EQ(done["rating"], nullptr);
    EXPECT_EQ(done["solution"], json({"b1b7", "h8g8", "a1a8"}));
    EXPECT_EQ(store->puzzle("mate2").value()->plays, 10);  // as imported: nothing of a guest's is stored
}

TEST_F(PuzzleRoutes, Issue29AWrongMoveFailsAndShowsTheSolution) {
    json j = attempt("mate2", {"a1a7"});
    EXPECT_EQ(j["status"], "failed");
    EXPECT_EQ(j["wrong_step"], 0);
    EXPECT_EQ(j["solution"], json({"b1b7", "h8g8", "a1a8"}));
    // Right first, wrong second.
    json k = attempt("mate2", {"b1b7", "a1a2"});
    EXPECT_EQ(k["status"], "failed");
    EXPECT_EQ(k["wrong_step"], 1);
}

TEST_F(PuzzleRoutes, Issue29OnTheLastStepAnyMateIsRight) {
    EXPECT_EQ(attempt("mate1", {"a1a8"})["status"], "solved");
    EXPECT_EQ(attempt("mate1", {"b1b8"})["status"], "solved");  // the other rook mates too
    EXPECT_EQ(attempt("mate1", {"b1b7"})["status"], "failed");
}

TEST_F(PuzzleRoutes, Issue29ASolvedFirstAttemptRatesPlayerAndPuzzleByGlicko2) {
    json j = attempt("mate1", {"a1a8"}, &anna);
    ASSERT_EQ(j["status"], "solved") << j.dump();
    EXPECT_EQ(j["rated"], true);
    // By hand (Glickman's steps, tau 0.75): a new player 1500 / 500 / 0.09 beats a puzzle
    // 1500 / 80 / 0.09. mu = mu_j = 0, phi = 500/173.7178 = 2.8782, phi_j = 0.4605;
    // g(phi_j) = 1/sqrt(1 + 3 phi_j^2 / pi^2) = 0.9689, E = 0.5, v = 1/(g^2 E (1-E)) = 4.2611,
    // delta = v g (1 - E) = 2.0643; the volatility stays 0.08999; phi* = 2.8782 (capped at
    // 500 / 173.7178), phi' = 1/sqrt(1/phi*^2 + 1/v) = 1.6773, mu' = phi'^2 g (1 - E) = 1.3630:
    // rating 1500 + 173.7178 * 1.3630 = 1736.8, RD 291.4.
    EXPECT_EQ(j["rating"]["before"], 1500);
    EXPECT_EQ(j["rating"]["rating"], 1737);
    EXPECT_EQ(j["rating"]["diff"], 237);
    EXPECT_EQ(j["rating"]["rd"], 291);
    auto r = store->rating(anna.id).value();
    ASSERT_TRUE(r);
    EXPECT_NEAR(r->glicko.rating, 1736.85, 0.05);
    EXPECT_NEAR(r->glicko.deviation, 291.38, 0.05);
    EXPECT_EQ(r->attempts, 1);
    // The puzzle lost to the player: 1500 -> 1489.96 (its RD 80 -> 80.88).
    auto p = store->puzzle("mate1").value();
    EXPECT_NEAR(p->glicko.rating, 1489.96, 0.05);
    EXPECT_NEAR(p->glicko.deviation, 80.88, 0.05);
    EXPECT_EQ(p->plays, 11);  // 10 as imported, and this one
    // The same numbers as the club library's (club/glicko2.h) with the server's config.
    const club::Glicko2Game game{{1500, 80, 0.09}, 1.0};
    const club::Glicko2Rating lib = club::glicko2_update({1500, 500, 0.09}, {&game, 1}, rating_config());
    EXPECT_DOUBLE_EQ(r->glicko.rating, lib.rating);
    // A second attempt at it is not rated.
    json again = attempt("mate1", {"a1a8"}, &anna);
    EXPECT_EQ(again["status"], "solved");
    EXPECT_EQ(again["rated"], false);
    EXPECT_EQ(again["rating"]["diff"], 0);
    EXPECT_EQ(store->rating(anna.id).value()->attempts, 1);
    // The history, newest first, and the next puzzle is not one attempted.
    HttpResponse h = call("GET", "/api/v1/puzzles/history", "", &anna);
    ASSERT_EQ(h.status, 200) << h.body;
    json hist = json::parse(h.body);
    ASSERT_EQ(hist["history"].size(), 2u);
    EXPECT_EQ(hist["history"][1]["puzzle"], "mate1");
    EXPECT_EQ(hist["history"][1]["rated"], true);
    EXPECT_EQ(hist["history"][1]["rating_after"], 1737);
    EXPECT_EQ(hist["rating"]["rating"], 1737);
    HttpResponse n = call("GET", "/api/v1/puzzles/next", "", &anna);
    ASSERT_EQ(n.status, 200) << n.body;
    EXPECT_EQ(json::parse(n.body)["puzzle"]["id"], "mate2");
}

TEST_F(PuzzleRoutes, Issue29AFailedFirstAttemptLowersTheRating) {
    json j = attempt("mate1", {"b1b7"}, &anna);
    EXPECT_EQ(j["status"], "failed");
    EXPECT_EQ(j["rated"], true);
    EXPECT_EQ(j["rating"]["rating"], 1263);  // by hand as above, with the score 0: 1500 - 236.8
    EXPECT_EQ(j["rating"]["diff"], -237);
}

TEST_F(PuzzleRoutes, Issue29HintsGiveThePieceThenTheSquareAndCountAsAFailureForTheRating) {
    HttpResponse g = call("POST", "/api/v1/puzzles/mate2/hint", R"({"moves":[]})");
    ASSERT_EQ(g.status, 200) << g.body;
    EXPECT_EQ(json::parse(g.body)["from"], "b1");
    EXPECT_EQ(json::parse(g.body)["to"], "b7");
    HttpResponse second = call("POST", "/api/v1/puzzles/mate2/hint", R"({"moves":["b1b7"]})");
    EXPECT_EQ(json::parse(second.body)["from"], "a1");
    HttpResponse rated = call("POST", "/api/v1/puzzles/mate2/hint", R"({"moves":[]})", &anna);
    json r = json::parse(rated.body);
    EXPECT_EQ(r["rated"], true);
    EXPECT_LT(r["rating"]["diff"].get<int>(), 0);
    EXPECT_EQ(attempt("mate2", {"b1b7", "a1a8"}, &anna)["rated"], false);  // solving after the hint: unrated
    // No hint after a wrong move.
    EXPECT_EQ(call("POST", "/api/v1/puzzles/mate2/hint", R"({"moves":["a1a7"]})").status, 409);
}

TEST_F(PuzzleRoutes, Issue29GivingUpFailsWithTheSolution) {
    HttpResponse r = call("POST", "/api/v1/puzzles/mate2/attempt", R"({"moves":[],"give_up":true})", &anna);
    json j = json::parse(r.body);
    EXPECT_EQ(j["status"], "failed");
    EXPECT_EQ(j["rated"], true);
}

TEST_F(PuzzleRoutes, Issue29TheNextPuzzleByThemeAndTheThemesWithCounts) {
    HttpResponse n = call("GET", "/api/v1/puzzles/next?theme=endgame");
    ASSERT_EQ(n.status, 200);
    EXPECT_EQ(json::parse(n.body)["puzzle"]["id"], "mate2");
    EXPECT_EQ(call("GET", "/api/v1/puzzles/next?theme=fork").status, 404);
    EXPECT_EQ(json::parse(call("GET", "/api/v1/puzzles/next?skip=mate1,mate2").body)["code"], "not_found");
    HttpResponse t = call("GET", "/api/v1/puzzles/themes");
    json themes = json::parse(t.body);
    EXPECT_EQ(themes["total"], 2);
    EXPECT_EQ(themes["themes"][0], json({{"theme", "backRankMate"}, {"count", 1}}));
    ASSERT_EQ(themes["themes"].size(), 4u);
}

TEST_F(PuzzleRoutes, Issue29BadIdsBodiesAndMovesAreJsonErrors) {
    auto code = [](const HttpResponse& r) { return json::parse(r.body).value("code", ""); };
    EXPECT_EQ(code(call("GET", "/api/v1/puzzles/nope")), "not_found");
    EXPECT_EQ(code(call("GET", "/api/v1/puzzles/bad%20id")), "not_found");
    EXPECT_EQ(code(call("GET", "/api/v1/puzzles/" + std::string(40, 'a'))), "not_found");
    EXPECT_EQ(code(call("POST", "/api/v1/puzzles/mate1/attempt", "not json")), "bad_request");
    EXPECT_EQ(code(call("POST", "/api/v1/puzzles/mate1/attempt", R"({"moves":"a1a8"})")), "bad_request");
    EXPECT_EQ(code(call("POST", "/api/v1/puzzles/mate1/attempt", R"({"moves":[1]})")), "bad_request");
    EXPECT_EQ(code(call("POST", "/api/v1/puzzles/mate1/attempt", R"({"moves":[]})")), "bad_request");
    EXPECT_EQ(code(call("POST", "/api/v1/puzzles/mate1/attempt", R"({"moves":["a1a8","h8g8"]})")), "bad_request");
    HttpResponse illegal = call("POST", "/api/v1/puzzles/mate1/attempt", R"({"moves":["a1h8"]})");
    EXPECT_EQ(illegal.status, 400);
    EXPECT_EQ(code(illegal), "illegal_move");
    EXPECT_EQ(code(call("POST", "/api/v1/puzzles/mate1/attempt", R"({"moves":["zz"]})")), "bad_request");
    EXPECT_EQ(code(call("POST", "/api/v1/puzzles/mate1/attempt", R"({"moves":["a1a8x"]})")), "bad_request");
    EXPECT_EQ(code(call("POST", "/api/v1/puzzles/mate1/attempt", "{\"moves\":[\"a1\u00ff8\"]}")), "bad_request");
    EXPECT_EQ(code(call("POST", "/api/v1/puzzles/mate1/attempt", R"({"moves":[],"give_up":"yes"})")), "bad_request");
    EXPECT_EQ(code(call("GET", "/api/v1/puzzles/mate1/attempt")), "bad_request");
    EXPECT_EQ(code(call("POST", "/api/v1/puzzles/mate1/nothing", "{}")), "not_found");
    EXPECT_EQ(code(call("GET", "/api/v1/puzzles/next?theme=%3Cscript%3E")), "bad_request");
    EXPECT_EQ(code(call("GET", "/api/v1/puzzles/history")), "not_signed_in");
    EXPECT_EQ(code(call("GET", "/api/v1/puzzles/history?limit=x", "", &anna)), "bad_request");
    HttpRequest cross{"POST", "/api/v1/puzzles/mate1/attempt", R"({"moves":["a1a8"]})", "10.0.0.1"};
    cross.content_type = "application/json";
    cross.origin = "https://evil.example";
    cross.host = "chess.example.org";
    EXPECT_EQ(code(service->handle(cross)), "forbidden_origin");
    HttpRequest form{"POST", "/api/v1/puzzles/mate1/attempt", R"({"moves":["a1a8"]})", "10.0.0.1"};
    form.content_type = "text/plain";
    EXPECT_EQ(service->handle(form).status, 415);
}

TEST_F(PuzzleRoutes, Issue29AFloodOfAttemptsFromOneAddressIsRateLimited) {
    int limited = 0;
    for (int i = 0; i < 100; ++i)
        if (call("POST", "/api/v1/puzzles/mate1/attempt", R"({"moves":["a1a8"]})").status == 429) ++limited;
    EXPECT_GT(limited, 0);
}

TEST_F(PuzzleRoutes, Issue29LearnFromYourMistakesJudgesATriedMoveInOnesOwnGame) {
    // A finished game of Anna's (white): fool's mate, 2. g4?? allows Qh4#.
    StoredGame g;
    g.id = "foolsmate";
    g.white_kind = g.black_kind = "human";
    g.white_name = "Anna";
    g.black_name = "Boris";
    g.white_account = anna.id;
    g.black_account = 8;
    g.time_control = "-";
    g.variant = "standard";
    g.initial_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    g.status = "checkmate";
    g.result = "0-1";
    for (const char* m : {"f2f3", "e7e5", "g2g4", "d8h4"}) g.moves.push_back(StoredMove{int(g.moves.size()) + 1, m});
    GameWrite w;
    w.kind = GameWrite::INSERT_GAME;
    w.game = g;
    ASSERT_TRUE(storage->write(w));
    auto code = [](const HttpResponse& r) { return json::parse(r.body).value("code", ""); };
    const std::string path = "/api/v1/games/foolsmate/mistakes";
    EXPECT_EQ(code(call("POST", path, R"({"ply":3,"uci":"e2e4"})")), "not_signed_in");
    Account boris{8, "Boris", false, false, 0};
    EXPECT_EQ(code(call("POST", path, R"({"ply":3,"uci":"e2e4"})", &boris)), "not_your_seat");  // ply 3 is White's
    EXPECT_EQ(code(call("POST", path, R"({"ply":9,"uci":"e2e4"})", &anna)), "bad_request");
    EXPECT_EQ(code(call("POST", path, R"({"ply":3,"uci":"e2e5"})", &anna)), "illegal_move");
    EXPECT_EQ(code(call("POST", "/api/v1/games/nosuch/mistakes", R"({"ply":3,"uci":"e2e4"})", &anna)), "not_found");
    // The blunder again is not accepted; a move that keeps the game is.
    HttpResponse bad = call("POST", path, R"({"ply":3,"uci":"g2g4"})", &anna);
    ASSERT_EQ(bad.status, 200) << bad.body;
    json b = json::parse(bad.body);
    EXPECT_EQ(b["accepted"], false);
    EXPECT_EQ(b["eval"]["mate"], -1);
    EXPECT_GE(b["line"].size(), 1u);
    now += 10'000;  // the per-account bucket refills
    HttpResponse good = call("POST", path, R"({"ply":3,"uci":"e2e4"})", &anna);
    json gj = json::parse(good.body);
    EXPECT_EQ(gj["accepted"], true) << good.body;
    EXPECT_EQ(gj["san"], "e4");
}

TEST(PuzzleImport, Issue29ABadRowIsRefusedWithFileLineAndReason) {
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("outpost-puzzle-import-" + std::to_string(::getpid()) + ".db"))
                                 .string();
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
    auto store = std::move(PuzzleStore::open(path).value());
    std::istringstream bad(std::string(training::puzzle_csv_header()) + "\n" + MateInOne + "\n" +
                           "x1,8/8/8/8/8/8/8/8 w - - 0 1,e2e4 e7e5,1500,80,90,10,fork,,\n" + MateInTwo + "\n");
    auto r = import_puzzles(bad, "club.csv", *store);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("club.csv: line 3"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("FEN"), std::string::npos) << r.error().message;
    EXPECT_EQ(store->count().value(), 0);  // the batch with the bad row is not stored
    // The same position twice (another id, another move number) is stored once.
    std::string dup = MateInOne;
    dup.replace(0, 5, "mate9");
    dup.replace(dup.find(" 0 1,"), 5, " 3 7,");
    std::istringstream twice(std::string(MateInOne) + "\n" + dup + "\n\n" + MateInTwo + "\r\n");
    auto c = import_puzzles(twice, "twice.csv", *store).value();
    EXPECT_EQ(c.read, 3);
    EXPECT_EQ(c.added, 2);
    EXPECT_EQ(c.duplicates, 1);
    EXPECT_EQ(store->count().value(), 2);
    store.reset();
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
}

}  // namespace

namespace {

TEST(PuzzleImport, Issue29ANewServerLoadsTheStarterSetOnlyIntoAnEmptyStore) {
    const auto dir = std::filesystem::temp_directory_path() / ("outpost-starter-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string db = (dir / "s.db").string();
    const std::string csv = (dir / "puzzles.csv").string();
    std::ofstream(csv) << training::puzzle_csv_header() << "\n" << MateInOne << "\n";
    auto store = std::move(PuzzleStore::open(db).value());
    EXPECT_EQ(load_starter_puzzles((dir / "missing.csv").string(), *store).value().read, 0);  // not installed
    EXPECT_EQ(load_starter_puzzles("", *store).value().read, 0);
    auto first = load_starter_puzzles(csv, *store).value();
    EXPECT_EQ(first.read, 1);
    EXPECT_EQ(first.added, 1);
    std::ofstream(csv, std::ios::app) << MateInTwo << "\n";
    EXPECT_EQ(load_starter_puzzles(csv, *store).value().read, 0);  // the store has puzzles: not read again
    EXPECT_EQ(store->count().value(), 1);
    store.reset();
    std::filesystem::remove_all(dir);
}

}  // namespace
