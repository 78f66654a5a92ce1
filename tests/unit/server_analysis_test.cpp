// Outpost — analysis of finished games over HTTP (issue 10, SPEC E4; docs/protocol.md,
// "Analysis"): the routes, the bounds, and the store.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <thread>

#include "server/analysis/analysis_service.h"
#include "server/play/hub.h"
#include "server/edge/router.h"
#include "server/stores/game_store.h"

#include "../support/fake_hub_env.h"

using namespace outpost;
using namespace outpost::server;
using nlohmann::json;

namespace {

struct Sink : Subscriber {
    void deliver(std::shared_ptr<const std::string>) override {}
};

struct AnalysisApi : ::testing::Test {
    Millis now = 1'000'000;
    int token_counter = 0;
    std::string db_path;
    std::unique_ptr<Storage> storage;
    std::unique_ptr<Hub> hub;
    std::unique_ptr<AnalysisService> service;
    StaticFiles files = StaticFiles::load("/nonexistent");

    HubEnv env() {
        HubEnv e = test::fake_hub_env(now, token_counter, 'a');
        return e;
    }

    static AnalysisService::Options fast() {
        AnalysisService::Options o;
        o.settings.nodes = 3000;
        o.settings.hash_mb = 8;
        o.pool.nice = 0;
        return o;
    }

    void open(AnalysisService::Options o = fast()) {
        service.reset();
        hub.reset();
        storage.reset();
        storage = std::move(Storage::open(db_path).value());
        hub = std::make_unique<Hub>(env(), storage.get());
        service = std::make_unique<AnalysisService>(o, *hub, storage.get(), [this] { return now; });
    }

    void SetUp() override {
        db_path = (std::filesystem::temp_directory_path() /
                   ("outpost-analysis-api-" + std::to_string(::getpid()) + "-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db"))
                      .string();
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_path + suffix);
        open();
    }
    void TearDown() override {
        service.reset();
        hub.reset();
        storage.reset();
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_path + suffix);
    }

    // A same-device game with these moves (UCI).
    std::string game(const std::vector<std::string>& moves) {
        auto created = hub->create_game(json{{"v", 1}, {"opponent", "hotseat"}}.dump());
        CreatedGame& g = *created;
        auto sink = std::make_shared<Sink>();
        (void)hub->connect(g.id, *g.white_token, sink);
        for (const auto& m : moves)
            hub->handle_message(g.id, Seat::BOTH, json{{"v", 1}, {"t", "move"}, {"uci", m}}.dump(), *sink);
        hub->disconnect(g.id, sink.get());
        return g.id;
    }
    // Fool's mate: 3. g4?? allows mate in one.
    std::string fools_mate() { return game({"f2f3", "e7e5", "g2g4", "d8h4"}); }

    HttpResponse call(const std::string& method, const std::string& id, const std::string& body = "",
                      const std::string& client = "10.0.0.1") {
        return route({method, "/api/v1/games/" + id + "/analysis", body, client}, *hub, files, service.get());
    }

    json wait_done(const std::string& id) {
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
        for (;;) {
            HttpResponse r = call("GET", id);
            json j = json::parse(r.body);
            if (j.value("status", "") == "done" || j.value("status", "") == "failed" ||
                std::chrono::steady_clock::now() > until)
                return j;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }
};

}  // namespace

TEST_F(AnalysisApi, E4FinishedGameIsAnalysedWithMarksEvalsAndBestMoves) {
    const std::string id = fools_mate();
    HttpResponse r = call("POST", id, R"({"v":1})");
    ASSERT_EQ(r.status, 202) << r.body;
    json j = json::parse(r.body);
    EXPECT_EQ(j["t"], "analysis");
    EXPECT_EQ(j["game"], id);
    EXPECT_TRUE(j["status"] == "queued" || j["status"] == "running");
    EXPECT_EQ(j["total"], 5);

    json done = wait_done(id);
    ASSERT_EQ(done["status"], "done") << done.dump();
    const json& a = done["analysis"];
    ASSERT_EQ(a["moves"].size(), 4u);
    ASSERT_EQ(a["evals"].size(), 5u);
    EXPECT_EQ(a["moves"][2]["san"], "g4");
    EXPECT_EQ(a["moves"][2]["uci"], "g2g4");
    EXPECT_EQ(a["moves"][2]["color"], "white");
    EXPECT_EQ(a["moves"][2]["mark"], "blunder");
    EXPECT_EQ(a["moves"][2]["eval"]["mate"], -1);  // White's view: Black mates in one
    EXPECT_TRUE(a["moves"][2].contains("best_san"));
    EXPECT_NE(a["moves"][2]["best_uci"], "g2g4");
    EXPECT_EQ(a["moves"][3]["san"], "Qh4#");
    EXPECT_EQ(a["moves"][3]["mark"], nullptr);
    EXPECT_EQ(a["moves"][3]["best_uci"], "d8h4");  // the engine finds the mate
    EXPECT_EQ(a["evals"][4]["mate"], 0);
    EXPECT_EQ(a["evals"][4]["winner"], "black");
    EXPECT_EQ(a["marks"]["white"]["blunder"], 1);
    EXPECT_EQ(a["marks"]["black"]["blunder"], 0);
    EXPECT_EQ(a["marks"]["black"]["mistake"], 0);
    EXPECT_TRUE(a["accuracy"]["white"].is_number());
    EXPECT_LT(a["accuracy"]["white"].get<double>(), a["accuracy"]["black"].get<double>());
    EXPECT_EQ(a["settings"], "nodes 3000");
    EXPECT_TRUE(a.contains("opening"));
}

TEST_F(AnalysisApi, E4RepeatedRequestIsServedFromStorageAfterRestart) {
    const std::string id = fools_mate();
    ASSERT_EQ(call("POST", id).status, 202);
    json first = wait_done(id);
    ASSERT_EQ(first["status"], "done");
    // A second POST: the same analysis at once, 200.
    HttpResponse again = call("POST", id, "", "10.9.9.9");
    EXPECT_EQ(again.status, 200);
    EXPECT_EQ(json::parse(again.body)["analysis"], first["analysis"]);

    // A restart: a new storage connection, hub and service (an empty pool). The
    // analysis comes from the database; the pool never sees the game.
    open();
    HttpResponse r = call("GET", id);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body)["analysis"], first["analysis"]);
    HttpResponse p = call("POST", id);
    EXPECT_EQ(p.status, 200);
    EXPECT_EQ(json::parse(p.body)["analysis"], first["analysis"]);
    auto stored = storage->load_analysis(id);
    ASSERT_TRUE(stored && stored->has_value());
    EXPECT_EQ((*stored)->settings, "nodes 3000");
}

TEST_F(AnalysisApi, E4UnknownGameIsNotFound) {
    HttpResponse r = call("POST", "nosuchgame");
    EXPECT_EQ(r.status, 404);
    EXPECT_EQ(json::parse(r.body)["code"], "not_found");
    EXPECT_EQ(call("GET", "nosuchgame").status, 404);
}

TEST_F(AnalysisApi, E4UnfinishedGameIsNotAllowed) {
    const std::string id = game({"e2e4", "e7e5"});
    HttpResponse r = call("POST", id);
    EXPECT_EQ(r.status, 409);
    EXPECT_EQ(json::parse(r.body)["code"], "not_allowed");
    // Nothing was queued: GET still finds no analysis.
    EXPECT_EQ(call("GET", id).status, 404);
}

TEST_F(AnalysisApi, E4GameWithoutMovesIsNotAllowed) {
    auto created = hub->create_game(json{{"v", 1}, {"opponent", "hotseat"}}.dump());
    CreatedGame& g = *created;
    auto sink = std::make_shared<Sink>();
    (void)hub->connect(g.id, *g.white_token, sink);
    hub->handle_message(g.id, Seat::BOTH, R"({"v":1,"t":"abort"})", *sink);
    HttpResponse r = call("POST", g.id);
    EXPECT_EQ(r.status, 409) << r.body;
    EXPECT_EQ(json::parse(r.body)["code"], "not_allowed");
}

TEST_F(AnalysisApi, E4BadInputIsAnsweredWithErrors) {
    const std::string id = fools_mate();
    EXPECT_EQ(call("POST", id, "not json").status, 400);
    EXPECT_EQ(call("POST", id, "[1,2]").status, 400);
    EXPECT_EQ(call("POST", id, R"({"v":2})").status, 400);
    EXPECT_EQ(json::parse(call("POST", id, R"({"v":2})").body)["code"], "bad_request");
    EXPECT_EQ(call("PUT", id).status, 405);
    EXPECT_EQ(call("DELETE", id).status, 405);
    EXPECT_EQ(call("GET", "ab$cd").status, 404);
    EXPECT_EQ(call("POST", "../../x").status, 404);
    EXPECT_EQ(call("POST", std::string(65, 'a')).status, 404);
    // None of that queued anything.
    EXPECT_EQ(call("GET", id).status, 404);
    // Without a service the path does not exist.
    EXPECT_EQ(route({"POST", "/api/v1/games/" + id + "/analysis", "", "x"}, *hub, files).status, 404);
}

TEST_F(AnalysisApi, E4OneClientHasAtMostSoManyAnalysesUnderWay) {
    auto o = fast();
    o.settings.nodes = 2'000'000;  // slow enough to be still running when the next request comes
    o.pool.max_nodes = 2'000'000;
    o.per_client_at_once = 1;
    open(o);
    const std::string a = fools_mate(), b = fools_mate();
    EXPECT_EQ(call("POST", a, "", "10.0.0.1").status, 202);
    // Asking again for the same game costs nothing and is not refused.
    EXPECT_EQ(call("POST", a, "", "10.0.0.1").status, 202);
    HttpResponse r = call("POST", b, "", "10.0.0.1");
    EXPECT_EQ(r.status, 429);
    EXPECT_EQ(json::parse(r.body)["code"], "rate_limited");
    // Another client may.
    EXPECT_EQ(call("POST", b, "", "10.0.0.2").status, 202);
}

// Issue 25 item 7: nine addresses filled the queue for 26 minutes. The limits hold per
// account (from any address) and per IPv6 /64, and requests without an account hold
// at most half of the queue.
TEST_F(AnalysisApi, Issue25AnalysesAreLimitedPerAccountPerSlash64AndAnonymousShare) {
    auto o = fast();
    o.settings.nodes = 2'000'000;  // slow enough to be still running when the next request comes
    o.pool.max_nodes = 2'000'000;
    o.pool.max_queue = 8;
    o.per_client_at_once = 1;
    open(o);
    Account anna{5, "anna"};
    auto as = [&](const std::string& id, const std::string& client, const Account* who) {
        HttpRequest r{"POST", "/api/v1/games/" + id + "/analysis", "", client};
        if (who) r.account = *who;
        return route(r, *hub, files, service.get());
    };
    EXPECT_EQ(as(fools_mate(), "10.0.0.1", &anna).status, 202);
    HttpResponse again = as(fools_mate(), "10.0.0.2", &anna);  // another address, the same account
    EXPECT_EQ(again.status, 429);
    EXPECT_EQ(json::parse(again.body)["code"], "rate_limited");
    EXPECT_EQ(as(fools_mate(), "2001:db8:0:1::1", nullptr).status, 202);
    EXPECT_EQ(as(fools_mate(), "2001:db8:0:1::2", nullptr).status, 429);  // the same /64
    // Anonymous requests: at most half of the queue (4), however many addresses.
    int anonymous = 1;
    for (int i = 0; i < 6; ++i) anonymous += as(fools_mate(), "10.2.0." + std::to_string(i), nullptr).status == 202;
    EXPECT_EQ(anonymous, 4);
    Account boris{6, "boris"};
    EXPECT_EQ(as(fools_mate(), "10.3.0.1", &boris).status, 202) << "an account still finds room";
}

TEST_F(AnalysisApi, E4TheQueueIsBoundedForEveryone) {
    auto o = fast();
    o.settings.nodes = 2'000'000;
    o.pool.max_nodes = 2'000'000;
    o.pool.max_queue = 1;
    open(o);
    int accepted = 0, refused = 0;
    for (int i = 0; i < 5; ++i) {
        const std::string id = fools_mate();
        HttpResponse r = call("POST", id, "", "10.1.0." + std::to_string(i));  // five clients
        (r.status == 202 ? accepted : refused)++;
        if (r.status != 202) {
            EXPECT_EQ(json::parse(r.body)["code"], "rate_limited");
        }
    }
    EXPECT_LE(accepted, 2);  // one running, one waiting
    EXPECT_GE(refused, 3);
}

TEST_F(AnalysisApi, E4AClientMayStartOnlySoManyAnalysesAnHour) {
    auto o = fast();
    o.per_client_burst = 2;
    o.per_client_per_second = 0.0001;
    open(o);
    for (int i = 0; i < 2; ++i) {
        const std::string id = fools_mate();
        ASSERT_EQ(call("POST", id, "", "10.0.0.7").status, 202);
        ASSERT_EQ(wait_done(id)["status"], "done");
    }
    const std::string third = fools_mate();
    EXPECT_EQ(call("POST", third, "", "10.0.0.7").status, 429);
    EXPECT_EQ(call("POST", third, "", "10.0.0.8").status, 202);
    // Without client limits (--no-client-limits) the bucket does not apply.
    o.client_limits = false;
    open(o);
    EXPECT_NE(call("POST", fools_mate(), "", "10.0.0.7").status, 429);
}

TEST(AnalysisStorage, E4AnOlderDatabaseGainsTheAnalysesTable) {
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("outpost-analysis-migrate-" + std::to_string(::getpid()) + ".db"))
                                 .string();
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
    {
        auto s = Storage::open(path).value();
    }
    // Make it a database of the version before: no analyses table (and, as every
    // database made before schema versions, user_version 0).
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "DROP TABLE analyses; PRAGMA user_version=0;", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    {
        auto s = Storage::open(path).value();
        auto none = s->load_analysis("g1");
        ASSERT_TRUE(none);
        EXPECT_FALSE(none->has_value());
        ASSERT_TRUE(s->store_analysis({"g1", "nodes 1", R"({"x":1})", 5}));
        ASSERT_TRUE(s->store_analysis({"g1", "nodes 2", R"({"x":2})", 6}));  // replaces
    }
    {
        auto s = Storage::open(path).value();
        auto a = s->load_analysis("g1");
        ASSERT_TRUE(a && a->has_value());
        EXPECT_EQ((*a)->json, R"({"x":2})");
        EXPECT_EQ((*a)->settings, "nodes 2");
    }
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
}
