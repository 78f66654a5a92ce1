// Outpost — the admin page's routes (SPEC D9, issue 27 item 7; docs/protocol.md,
// "Administration"): every route refused to players, guests and other sites; accounts
// disabled, enabled and signed out with their connections closed; an arbiter's decision
// in the state and the PGN; events and simuls closed; reports; the audit log.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "server/accounts/identity.h"
#include "server/admin/admin_service.h"
#include "server/events/events.h"
#include "server/events/simul.h"
#include "server/play/hub.h"
#include "server/stores/game_store.h"

#include "../support/fake_hub_env.h"

using namespace outpost;
using namespace outpost::server;
using nlohmann::json;

namespace {

constexpr const char* Password = "a long enough password";

struct AdminRoutesD9 : ::testing::Test {
    Millis now = 1'000'000;
    int tokens = 0;
    std::string db_path;
    std::unique_ptr<Storage> storage;
    std::unique_ptr<AccountStore> accounts;
    std::unique_ptr<AdminStore> admin_store;
    std::unique_ptr<EventStore> event_store;
    std::unique_ptr<SimulStore> simul_store;
    std::unique_ptr<Hub> hub;
    std::unique_ptr<EventService> events;
    std::unique_ptr<SimulService> simuls;
    std::unique_ptr<AdminService> admin;
    std::vector<SessionsEnded> ended;  // what the service asked the network layer to close
    Account root, anna, boris;
    std::string root_cookie, anna_cookie, boris_cookie;

    std::int64_t wall() const { return 1'700'000'000'000 + now; }
    HubEnv hub_env() {
        HubEnv e = test::fake_hub_env(now, tokens);
        e.arbiter_reason = [this](const std::string& id) { return admin_store->arbiter_reason(id).value(); };
        return e;
    }
    void SetUp() override {
        db_path = (std::filesystem::temp_directory_path() /
                   ("outpost-admin-test-" + std::to_string(::getpid()) + "-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db"))
                      .string();
        remove_files();
        storage = std::move(Storage::open(db_path).value());
        accounts = std::move(AccountStore::open(db_path, PasswordCost::cheapest()).value());
        admin_store = std::move(AdminStore::open(db_path).value());
        event_store = std::move(EventStore::open(db_path).value());
        simul_store = std::move(SimulStore::open(db_path).value());
        hub = std::make_unique<Hub>(hub_env(), storage.get());
        events = std::move(EventService::open(event_store.get(), *hub, [this] { return wall(); }).value());
        SimulEnv se;
        se.wall_ms = [this] { return wall(); };
        se.random_token = [this](int len) { return hub_env().random_token(len); };
        se.create_game = [this](const NewGameRequest& spec, const Account& h, std::int64_t opponent) {
            return hub->create_game(spec, "", &h, opponent);
        };
        se.game_result = [](const std::string&) { return std::optional<std::string>(); };
        simuls = std::make_unique<SimulService>(se, simul_store.get());
        make_admin_service();
        root = accounts->create("Root", Password, true, wall()).value();
        anna = accounts->create("Anna", Password, false, wall()).value();
        boris = accounts->create("Boris", Password, false, wall()).value();
        root_cookie = "outpost_session=" + accounts->start_session(root.id, wall()).value();
        anna_cookie = "outpost_session=" + accounts->start_session(anna.id, wall()).value();
        boris_cookie = "outpost_session=" + accounts->start_session(boris.id, wall()).value();
    }
    void make_admin_service(int reports_per_hour = 10) {
        AdminEnv e;
        e.wall_ms = [this] { return wall(); };
        e.monotonic_ms = [this] { return now; };
        e.end_sessions = [this](const SessionsEnded& s) {
            ended.push_back(s);
            return 1;
        };
        e.connections = [] { return std::vector<AdminConnection>{{"Anna", "lobby"}, {"", "game"}, {"Anna", "game"}}; };
        e.reports_per_hour = reports_per_hour;
        admin = std::make_unique<AdminService>(e, *admin_store, *accounts, *hub, events.get(), simuls.get());
    }
    void remove_files() {
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_path + suffix);
    }
    void TearDown() override {
        admin.reset();
        simuls.reset();
        events.reset();
        hub.reset();
        simul_store.reset();
        event_store.reset();
        admin_store.reset();
        accounts.reset();
        storage.reset();
        remove_files();
    }
    HttpResponse call(const std::string& method, const std::string& target, const std::string& cookie,
                      const json& body = json(), const std::string& origin = "") {
        HttpRequest r{method, target, body.is_null() ? "" : body.dump(), "10.0.0.1"};
        r.content_type = method == "POST" ? "application/json" : "";
        r.host = "club.example";
        r.origin = origin.empty() ? (method == "POST" ? "http://club.example" : "") : origin;
        r.cookie = cookie;
        Identity who = identify(accounts.get(), cookie, wall());
        r.account = who.account;
        r.session_token = who.token;
        EXPECT_TRUE(AdminService::handles(r)) << target;
        return admin->handle(r);
    }
    static std::string code(const HttpResponse& r) {
        json j = json::parse(r.body, nullptr, false);
        return j.is_object() && j.contains("code") ? j["code"].get<std::string>() : "";
    }
    json ok(const HttpResponse& r, int status = 200) {
        EXPECT_EQ(r.status, status) << r.body;
        return json::parse(r.body, nullptr, false);
    }
    std::string hotseat_game() {
        auto made = hub->create_game(R"({"v":1,"opponent":"hotseat","color":"white","time_control":"5+3"})", "c");
        EXPECT_TRUE(made.ok());
        return made->id;
    }
    json state(const std::string& id) { return json::parse(hub->state_json(id).value())["game"]; }
};

}  // namespace

TEST_F(AdminRoutesD9, EveryAdminRouteRefusesGuestsPlayersAndOtherSites) {
    const std::string game = hotseat_game();
    struct Route {
        const char* method;
        std::string target;
        json body;
    };
    const std::vector<Route> routes = {
        {"GET", "/api/v1/admin/overview", json()},
        {"GET", "/api/v1/admin/accounts?q=a", json()},
        {"GET", "/api/v1/admin/reports", json()},
        {"GET", "/api/v1/admin/audit", json()},
        {"POST", "/api/v1/admin/accounts/Boris/disable", json::object()},
        {"POST", "/api/v1/admin/accounts/Boris/enable", json::object()},
        {"POST", "/api/v1/admin/accounts/Boris/signout", json::object()},
        {"POST", "/api/v1/admin/games/" + game + "/end", {{"result", "1-0"}, {"reason", "fair play"}}},
        {"POST", "/api/v1/admin/events/1/close", json::object()},
        {"POST", "/api/v1/admin/simuls/abc/close", json::object()},
        {"POST", "/api/v1/admin/reports/1", {{"state", "resolved"}}},
        {"GET", "/api/v1/admin/nothing", json()},
    };
    for (const Route& r : routes) {
        SCOPED_TRACE(std::string(r.method) + " " + r.target);
        HttpResponse guest = call(r.method, r.target, "", r.body);
        EXPECT_EQ(guest.status, 401);
        EXPECT_EQ(code(guest), "not_signed_in");
        HttpResponse player = call(r.method, r.target, anna_cookie, r.body);
        EXPECT_EQ(player.status, 403);
        EXPECT_EQ(code(player), "not_admin");
        HttpResponse cross = call(r.method, r.target, root_cookie, r.body, "https://evil.example");
        EXPECT_EQ(cross.status, 403);
        EXPECT_EQ(code(cross), "forbidden_origin");
        // A forged session cookie is a guest.
        const std::string forged = std::string("outpost_session=").append(43, 'A');
        EXPECT_EQ(call(r.method, r.target, forged, r.body).status, 401);
    }
    // Nothing changed, and nothing was logged.
    EXPECT_FALSE(accounts->find("Boris").value()->disabled);
    EXPECT_EQ(state(game)["status"], "ongoing");
    EXPECT_TRUE(admin_store->audit_log(10).value().empty());
    EXPECT_TRUE(ended.empty());
    // An admin whose flag is gone (or who is disabled) is refused at once.
    HttpResponse fine = call("GET", "/api/v1/admin/overview", root_cookie);
    EXPECT_EQ(fine.status, 200) << fine.body;
    ASSERT_TRUE(accounts->set_disabled("Root", true).ok());
    EXPECT_NE(call("GET", "/api/v1/admin/overview", root_cookie).status, 200);
}

TEST_F(AdminRoutesD9, DisableEnableAndSignOutEndSessionsAndAreAudited) {
    json r = ok(call("POST", "/api/v1/admin/accounts/boris/disable", root_cookie, json::object()));
    EXPECT_TRUE(r["account"]["disabled"]);
    ASSERT_EQ(ended.size(), 1u);
    EXPECT_EQ(ended[0].account_id, boris.id);
    EXPECT_EQ(ended[0].reason, "account disabled");
    // The session cookie stops working at once, and the account cannot sign in.
    EXPECT_FALSE(identify(accounts.get(), boris_cookie, wall()).account.has_value());
    EXPECT_EQ(accounts->authenticate("Boris", Password).error().message, "account disabled");
    ok(call("POST", "/api/v1/admin/accounts/Boris/enable", root_cookie, json::object()));
    EXPECT_TRUE(accounts->authenticate("Boris", Password).ok());
    // Signing out everywhere.
    ok(call("POST", "/api/v1/admin/accounts/Anna/signout", root_cookie, json::object()));
    EXPECT_FALSE(identify(accounts.get(), anna_cookie, wall()).account.has_value());
    ASSERT_EQ(ended.size(), 2u);
    EXPECT_EQ(ended[1].account_id, anna.id);
    // An admin does not lock themselves out.
    EXPECT_EQ(code(call("POST", "/api/v1/admin/accounts/Root/disable", root_cookie, json::object())), "not_allowed");
    EXPECT_EQ(call("POST", "/api/v1/admin/accounts/Nobody/disable", root_cookie, json::object()).status, 404);
    EXPECT_EQ(call("POST", "/api/v1/admin/accounts/a%00b/disable", root_cookie, json::object()).status, 404);
    // Who, what, when, before and after; newest first.
    json log = ok(call("GET", "/api/v1/admin/audit", root_cookie))["entries"];
    ASSERT_EQ(log.size(), 3u);
    EXPECT_EQ(log[2]["admin"], "Root");
    EXPECT_EQ(log[2]["action"], "disable");
    EXPECT_EQ(log[2]["target"], "account:Boris");
    EXPECT_EQ(log[2]["at"], wall());
    EXPECT_EQ(json::parse(log[2]["before"].get<std::string>())["disabled"], false);
    EXPECT_EQ(json::parse(log[2]["after"].get<std::string>())["disabled"], true);
    EXPECT_EQ(log[1]["action"], "enable");
    EXPECT_EQ(log[0]["action"], "signout");
    EXPECT_EQ(log[0]["target"], "account:Anna");
}

TEST_F(AdminRoutesD9, FindAccountsAndTheOverview) {
    json found = ok(call("GET", "/api/v1/admin/accounts?q=AN", root_cookie));
    ASSERT_EQ(found["accounts"].size(), 1u);
    EXPECT_EQ(found["accounts"][0]["name"], "Anna");
    EXPECT_EQ(found["accounts"][0]["connections"], 2);
    EXPECT_EQ(ok(call("GET", "/api/v1/admin/accounts", root_cookie))["accounts"].size(), 3u);
    EXPECT_EQ(call("GET", "/api/v1/admin/accounts?q=" + std::string(50, 'a'), root_cookie).status, 400);
    const std::string game = hotseat_game();
    json o = ok(call("GET", "/api/v1/admin/overview", root_cookie));
    ASSERT_EQ(o["games"].size(), 1u);
    EXPECT_EQ(o["games"][0]["id"], game);
    EXPECT_EQ(o["connections"]["total"], 3);
    EXPECT_EQ(o["connections"]["anonymous"], 1);
    EXPECT_EQ(o["connections"]["by_kind"]["game"], 2);
    EXPECT_EQ(o["open_reports"], 0);
}

TEST_F(AdminRoutesD9, AnArbitersDecisionEndsTheGameWithItsReasonInTheStateAndThePgn) {
    const std::string game = hotseat_game();
    const json body{{"result", "0-1"}, {"reason", "White used an engine {confirmed}"}};
    EXPECT_EQ(call("POST", "/api/v1/admin/games/" + game + "/end", root_cookie, {{"result", "2-0"}, {"reason", "x"}}).status, 400);
    EXPECT_EQ(call("POST", "/api/v1/admin/games/" + game + "/end", root_cookie, {{"result", "1-0"}, {"reason", "  "}}).status, 400);
    EXPECT_EQ(call("POST", "/api/v1/admin/games/" + game + "/end", root_cookie,
                   {{"result", "1-0"}, {"reason", "bidi \u202e text"}}).status, 400);
    EXPECT_EQ(call("POST", "/api/v1/admin/games/" + game + "/end", root_cookie,
                   {{"result", "1-0"}, {"reason", std::string(301, 'x')}}).status, 400);
    EXPECT_EQ(call("POST", "/api/v1/admin/games/nosuchgame/end", root_cookie, body).status, 404);
    ok(call("POST", "/api/v1/admin/games/" + game + "/end", root_cookie, body));
    json g = state(game);
    EXPECT_EQ(g["status"], "arbiter-decision");
    EXPECT_EQ(g["result"], "0-1");
    EXPECT_EQ(g["arbiter_reason"], "White used an engine (confirmed)");
    EXPECT_EQ(g["end"], "Black wins by the arbiter's decision");
    std::string pgn = hub->pgn(game).value();
    for (char& ch : pgn)
        if (ch == '\n') ch = ' ';  // the movetext's lines are at most 79 characters
    EXPECT_NE(pgn.find("[Termination \"adjudication\"]"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("{Arbiter's decision: White used an engine (confirmed)}"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("[Result \"0-1\"]"), std::string::npos);
    // Once over, not again.
    EXPECT_EQ(code(call("POST", "/api/v1/admin/games/" + game + "/end", root_cookie, body)), "game_over");
    // Read back from storage by a new hub: the same decision and reason.
    hub = std::make_unique<Hub>(hub_env(), storage.get());
    make_admin_service();
    json again = state(game);
    EXPECT_EQ(again["status"], "arbiter-decision");
    EXPECT_EQ(again["result"], "0-1");
    EXPECT_EQ(again["arbiter_reason"], "White used an engine (confirmed)");
    json log = ok(call("GET", "/api/v1/admin/audit", root_cookie))["entries"];
    ASSERT_EQ(log.size(), 1u);
    EXPECT_EQ(log[0]["action"], "end_game");
    EXPECT_EQ(log[0]["target"], "game:" + game);
    EXPECT_EQ(json::parse(log[0]["before"].get<std::string>())["status"], "ongoing");
    EXPECT_EQ(json::parse(log[0]["after"].get<std::string>())["result"], "0-1");
}

TEST_F(AdminRoutesD9, AnEventAndASimulAreClosed) {
    auto made = events->create(anna, R"({"name":"Club Swiss","system":"swiss","rounds":3,"time_control":"15+10"})");
    ASSERT_TRUE(made.ok()) << made.error().message;
    const std::int64_t id = json::parse(*made)["id"].get<std::int64_t>();
    json closed = ok(call("POST", "/api/v1/admin/events/" + std::to_string(id) + "/close", root_cookie, json::object()));
    EXPECT_EQ(closed["status"], "closed");
    EXPECT_EQ(json::parse(events->event_json(id, nullptr).value())["status"], "closed");
    EXPECT_FALSE(events->join(id, boris).ok());
    EXPECT_EQ(code(call("POST", "/api/v1/admin/events/" + std::to_string(id) + "/close", root_cookie, json::object())),
              "not_allowed");
    EXPECT_EQ(call("POST", "/api/v1/admin/events/999/close", root_cookie, json::object()).status, 404);
    EXPECT_EQ(call("POST", "/api/v1/admin/events/x1/close", root_cookie, json::object()).status, 404);
    // The closed event stays closed for the next server.
    events = std::move(EventService::open(event_store.get(), *hub, [this] { return wall(); }).value());
    make_admin_service();
    EXPECT_EQ(json::parse(events->event_json(id, nullptr).value())["status"], "closed");

    HttpRequest create{"POST", "/api/v1/simuls", R"({"name":"Boris's simul","time_control":"-"})", "10.0.0.2"};
    create.content_type = "application/json";
    create.account = boris;
    HttpResponse s = simuls->handle(create);
    ASSERT_EQ(s.status, 201) << s.body;
    const std::string simul = json::parse(s.body)["simul"]["id"];
    EXPECT_EQ(ok(call("POST", "/api/v1/admin/simuls/" + simul + "/close", root_cookie, json::object()))["status"],
              "cancelled");
    EXPECT_EQ(call("POST", "/api/v1/admin/simuls/" + simul + "/close", root_cookie, json::object()).status, 409);
    EXPECT_EQ(call("POST", "/api/v1/admin/simuls/nosuch/close", root_cookie, json::object()).status, 404);
    json log = ok(call("GET", "/api/v1/admin/audit", root_cookie))["entries"];
    ASSERT_EQ(log.size(), 2u);
    EXPECT_EQ(log[0]["action"], "close_simul");
    EXPECT_EQ(log[1]["action"], "close_event");
    EXPECT_EQ(json::parse(log[1]["before"].get<std::string>())["status"], "registration");
}

TEST_F(AdminRoutesD9, PlayersReportGamesAndProfilesWithinALimitAndAdminsResolveThem) {
    const std::string game = hotseat_game();
    auto report = [&](const std::string& cookie, const json& body, const std::string& origin = "") {
        return call("POST", "/api/v1/reports", cookie, body, origin);
    };
    const json on_game{{"kind", "game"}, {"target", game}, {"reason", "White plays like an engine"}};
    EXPECT_EQ(report("", on_game).status, 401);
    EXPECT_EQ(report(anna_cookie, on_game, "https://evil.example").status, 403);
    EXPECT_EQ(call("GET", "/api/v1/reports", anna_cookie).status, 405);
    const json r1 = ok(report(anna_cookie, on_game), 201);
    const json r2 = ok(report(anna_cookie, {{"kind", "player"}, {"target", "boris"}, {"reason", "rude in chat"}}), 201);
    EXPECT_LT(r1["report"].get<std::int64_t>(), r2["report"].get<std::int64_t>());
    // Bad input: each refused with what is wrong.
    EXPECT_EQ(report(anna_cookie, {{"kind", "player"}, {"target", "Anna"}, {"reason", "me"}}).status, 409);
    EXPECT_EQ(report(anna_cookie, {{"kind", "player"}, {"target", "Nobody"}, {"reason", "x"}}).status, 404);
    EXPECT_EQ(report(anna_cookie, {{"kind", "game"}, {"target", "no such"}, {"reason", "x"}}).status, 404);
    EXPECT_EQ(report(anna_cookie, {{"kind", "game"}, {"target", "nosuchgame"}, {"reason", "x"}}).status, 404);
    EXPECT_EQ(report(anna_cookie, {{"kind", "chat"}, {"target", game}, {"reason", "x"}}).status, 400);
    EXPECT_EQ(report(anna_cookie, {{"kind", "game"}, {"target", game}, {"reason", ""}}).status, 400);
    EXPECT_EQ(report(anna_cookie, {{"kind", "game"}, {"target", game}, {"reason", std::string(501, 'x')}}).status, 400);
    EXPECT_EQ(report(anna_cookie, {{"kind", "game"}, {"target", game}, {"reason", std::string("a\0b", 3)}}).status, 400);
    EXPECT_EQ(report(anna_cookie, {{"kind", "game"}, {"target", 5}, {"reason", "x"}}).status, 400);
    EXPECT_EQ(call("POST", "/api/v1/reports", anna_cookie, "not an object").status, 400);
    // The limit per account: reports_per_hour, then 429 until an hour has passed.
    make_admin_service(3);
    EXPECT_EQ(report(boris_cookie, on_game).status, 201);
    EXPECT_EQ(report(boris_cookie, on_game).status, 201);
    EXPECT_EQ(report(boris_cookie, on_game).status, 201);
    EXPECT_EQ(code(report(boris_cookie, on_game)), "rate_limited");
    now += 3'600'001;
    EXPECT_EQ(report(boris_cookie, on_game).status, 201);
    // The admin sees them, newest first, and resolves one.
    json open = ok(call("GET", "/api/v1/admin/reports", root_cookie))["reports"];
    ASSERT_EQ(open.size(), 6u);
    EXPECT_EQ(open[5]["reporter"], "Anna");
    EXPECT_EQ(open[5]["kind"], "game");
    EXPECT_EQ(open[5]["target"], game);
    EXPECT_EQ(open[5]["reason"], "White plays like an engine");
    EXPECT_EQ(open[4]["target"], "Boris");
    EXPECT_EQ(open[4]["state"], "open");
    const std::string id = std::to_string(r1["report"].get<std::int64_t>());
    json resolved = ok(call("POST", "/api/v1/admin/reports/" + id, root_cookie, {{"state", "resolved"}}));
    EXPECT_EQ(resolved["report"]["state"], "resolved");
    EXPECT_EQ(resolved["report"]["resolved_by"], "Root");
    EXPECT_EQ(ok(call("GET", "/api/v1/admin/reports", root_cookie))["reports"].size(), 5u);
    EXPECT_EQ(ok(call("GET", "/api/v1/admin/reports?state=resolved", root_cookie))["reports"].size(), 1u);
    EXPECT_EQ(ok(call("GET", "/api/v1/admin/reports?state=all", root_cookie))["reports"].size(), 6u);
    EXPECT_EQ(call("GET", "/api/v1/admin/reports?state=x", root_cookie).status, 400);
    EXPECT_EQ(call("POST", "/api/v1/admin/reports/" + id, root_cookie, {{"state", "gone"}}).status, 400);
    EXPECT_EQ(call("POST", "/api/v1/admin/reports/999", root_cookie, {{"state", "open"}}).status, 404);
    EXPECT_EQ(ok(call("GET", "/api/v1/admin/overview", root_cookie))["open_reports"], 5);
    json log = ok(call("GET", "/api/v1/admin/audit", root_cookie))["entries"];
    ASSERT_EQ(log.size(), 1u);
    EXPECT_EQ(log[0]["action"], "resolve_report");
    EXPECT_EQ(log[0]["target"], "report:" + id);
}
