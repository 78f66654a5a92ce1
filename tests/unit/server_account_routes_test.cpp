// Outpost — accounts over HTTP (SPEC P21; docs/protocol.md, "Accounts"): the routes,
// their cookies, and the attacks on them (guessing, fixation, cross-site requests,
// floods, bad bodies).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <filesystem>
#include <future>
#include <nlohmann/json.hpp>
#include <thread>

#include "server/players/account_service.h"
#include "server/accounts/accounts.h"
#include "server/play/hub.h"
#include "server/accounts/identity.h"
#include "server/stores/game_store.h"
#include "../support/fake_hub_env.h"
#include "../support/serve_process.h"

using namespace outpost;
using namespace outpost::server;
using nlohmann::json;

namespace {

struct AccountRoutesP21 : ::testing::Test {
    Millis now = 1'000'000;
    int token_counter = 0;
    std::string db_path;
    std::unique_ptr<Storage> storage;
    std::unique_ptr<AccountStore> accounts;
    std::unique_ptr<Hub> hub;
    std::unique_ptr<AccountService> service;

    HubEnv env() {
        HubEnv e = test::fake_hub_env(now, token_counter);
        return e;
    }
    void SetUp() override {
        db_path = (std::filesystem::temp_directory_path() /
                   ("outpost-routes-test-" + std::to_string(::getpid()) + "-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db"))
                      .string();
        remove_files();
        storage = std::move(Storage::open(db_path).value());
        accounts = std::move(AccountStore::open(db_path, PasswordCost::cheapest()).value());
        hub = std::make_unique<Hub>(env(), storage.get());
        AccountService::Options o;
        o.client_limits = false;
        make_service(o);
    }
    void make_service(AccountService::Options o) {
        service.reset();
        service = std::make_unique<AccountService>(o, *accounts, *hub, storage.get(),
                                                   [this] { return 1'700'000'000'000 + now; }, [this] { return now; });
    }
    void remove_files() {
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_path + suffix);
    }
    void TearDown() override {
        service.reset();
        hub.reset();
        accounts.reset();
        storage.reset();
        remove_files();
    }

    // A request as the server makes it: the session cookie resolved (identity.h).
    HttpRequest request(const std::string& method, const std::string& target, const std::string& body = "",
                        const std::string& cookie = "") {
        HttpRequest r{method, target, body, "10.0.0.1"};
        r.content_type = method == "POST" ? "application/json" : "";
        r.host = "club.example";
        r.origin = method == "POST" ? "http://club.example" : "";
        r.cookie = cookie;
        Identity who = identify(accounts.get(), cookie, 1'700'000'000'000 + now);
        r.account = who.account;
        r.session_token = who.token;
        return r;
    }
    HttpResponse call(const std::string& method, const std::string& target, const json& body = json(),
                      const std::string& cookie = "") {
        return service->handle(request(method, target, body.is_null() ? "" : body.dump(), cookie));
    }
    static std::string header(const HttpResponse& r, const std::string& name) {
        for (const auto& [k, v] : r.headers)
            if (k == name) return v;
        return "";
    }
    // "outpost_session=TOKEN" from a Set-Cookie header.
    static std::string cookie_of(const HttpResponse& r) {
        const std::string set = header(r, "Set-Cookie");
        return set.substr(0, set.find(';'));
    }
    static std::string code(const HttpResponse& r) {
        json j = json::parse(r.body, nullptr, false);
        return j.is_object() && j.contains("code") ? j["code"].get<std::string>() : "";
    }
    std::string sign_up(const std::string& name, const std::string& password = "a long enough password") {
        HttpResponse r = call("POST", "/api/v1/account/signup", {{"v", 1}, {"name", name}, {"password", password}});
        EXPECT_EQ(r.status, 201) << r.body;
        return cookie_of(r);
    }
};

}  // namespace

TEST_F(AccountRoutesP21, SignUpSignsInWithAnHttpOnlySameSiteCookie) {
    HttpResponse r = call("POST", "/api/v1/account/signup", {{"v", 1}, {"name", "Anna"}, {"password", "a long enough password"}});
    ASSERT_EQ(r.status, 201) << r.body;
    EXPECT_EQ(json::parse(r.body)["account"]["name"], "Anna");
    const std::string set = header(r, "Set-Cookie");
    EXPECT_EQ(set.rfind("outpost_session=", 0), 0u) << set;
    EXPECT_NE(set.find("; HttpOnly"), std::string::npos) << set;
    EXPECT_NE(set.find("; SameSite=Lax"), std::string::npos) << set;
    EXPECT_NE(set.find("; Path=/"), std::string::npos) << set;
    EXPECT_EQ(set.find("Secure"), std::string::npos) << "plain HTTP: " << set;
    // Who am I, with that cookie; and without.
    HttpResponse me = call("GET", "/api/v1/account", json(), cookie_of(r));
    EXPECT_EQ(json::parse(me.body)["account"]["name"], "Anna");
    EXPECT_TRUE(json::parse(call("GET", "/api/v1/account").body)["account"].is_null());
}

TEST_F(AccountRoutesP21, OverHttpsTheCookieIsSecure) {
    HttpRequest req = request("POST", "/api/v1/account/signup", R"({"v":1,"name":"Anna","password":"a long enough password"})");
    req.secure = true;
    HttpResponse r = service->handle(req);
    ASSERT_EQ(r.status, 201);
    EXPECT_NE(header(r, "Set-Cookie").find("; Secure"), std::string::npos);
}

TEST_F(AccountRoutesP21, WrongPasswordAndUnknownUserAnswerAlike) {
    sign_up("Anna");
    HttpResponse wrong = call("POST", "/api/v1/account/signin", {{"v", 1}, {"name", "Anna"}, {"password", "not her password"}});
    HttpResponse unknown = call("POST", "/api/v1/account/signin", {{"v", 1}, {"name", "Nobody"}, {"password", "not her password"}});
    EXPECT_EQ(wrong.status, 401);
    EXPECT_EQ(unknown.status, wrong.status);
    EXPECT_EQ(unknown.body, wrong.body);
    EXPECT_EQ(code(wrong), "wrong_credentials");
    EXPECT_EQ(header(wrong, "Set-Cookie"), "");
    HttpResponse right = call("POST", "/api/v1/account/signin", {{"v", 1}, {"name", "anna"}, {"password", "a long enough password"}});
    EXPECT_EQ(right.status, 200) << right.body;
}

TEST_F(AccountRoutesP21, EverySignInMakesANewTokenAndEndsThePlantedOne) {
    sign_up("Anna");
    // An attacker signs in as himself and plants his session cookie in the victim's
    // browser; the victim then signs in: she must not land in his session, nor he in hers.
    const std::string planted = sign_up("Mallory");
    HttpResponse r = call("POST", "/api/v1/account/signin", {{"v", 1}, {"name", "Anna"}, {"password", "a long enough password"}},
                          planted);
    ASSERT_EQ(r.status, 200);
    const std::string fresh = cookie_of(r);
    EXPECT_NE(fresh, planted);
    EXPECT_EQ(json::parse(call("GET", "/api/v1/account", json(), fresh).body)["account"]["name"], "Anna");
    EXPECT_TRUE(json::parse(call("GET", "/api/v1/account", json(), planted).body)["account"].is_null());
    // Two sign-ins never give the same token.
    HttpResponse again = call("POST", "/api/v1/account/signin", {{"v", 1}, {"name", "Anna"}, {"password", "a long enough password"}});
    EXPECT_NE(cookie_of(again), fresh);
}

TEST_F(AccountRoutesP21, ADisabledAccountsSessionIsRefused) {
    const std::string cookie = sign_up("Anna");
    ASSERT_TRUE(accounts->set_disabled("Anna", true).value());
    EXPECT_TRUE(json::parse(call("GET", "/api/v1/account", json(), cookie).body)["account"].is_null());
    HttpResponse claim = call("POST", "/api/v1/games/abc/claim", {{"v", 1}, {"seat", "x"}}, cookie);
    EXPECT_EQ(code(claim), "not_signed_in");
    HttpResponse r = call("POST", "/api/v1/account/signin", {{"v", 1}, {"name", "Anna"}, {"password", "a long enough password"}});
    EXPECT_EQ(r.status, 403);
    EXPECT_EQ(code(r), "account_disabled");
    // The wrong password still says only "wrong": disabled is told only to the owner.
    EXPECT_EQ(code(call("POST", "/api/v1/account/signin", {{"v", 1}, {"name", "Anna"}, {"password", "wrong wrong"}})),
              "wrong_credentials");
}

TEST_F(AccountRoutesP21, SignUpErrorsSayWhatIsWrong) {
    sign_up("Anna");
    EXPECT_EQ(code(call("POST", "/api/v1/account/signup", {{"v", 1}, {"name", "ANNA"}, {"password", "a long enough password"}})),
              "name_taken");
    EXPECT_EQ(code(call("POST", "/api/v1/account/signup", {{"v", 1}, {"name", "a"}, {"password", "a long enough password"}})),
              "bad_username");
    EXPECT_EQ(code(call("POST", "/api/v1/account/signup", {{"v", 1}, {"name", "Boris"}, {"password", "short"}})),
              "bad_password");
    EXPECT_EQ(code(call("POST", "/api/v1/account/signup", {{"v", 1}, {"name", "Boris"}, {"password", "boris"}})),
              "bad_password");
}

TEST_F(AccountRoutesP21, BadBodiesAreBadRequests) {
    for (const std::string& body : std::vector<std::string>{"", "{", "[]", "null", R"({"name":1,"password":"x"})", R"({"name":"Anna"})",
                                   R"({"name":"Anna","password":["a"]})", std::string("{\"name\":\"") + std::string(5000, 'a') + "\",\"password\":\"x\"}"}) {
        for (const char* path : {"/api/v1/account/signup", "/api/v1/account/signin"}) {
            HttpResponse r = service->handle(request("POST", path, body));
            EXPECT_EQ(r.status, 400) << path << " " << body.substr(0, 40);
            EXPECT_EQ(code(r), "bad_request") << body.substr(0, 40);
        }
    }
    EXPECT_EQ(call("GET", "/api/v1/account/signin").status, 405);
    EXPECT_EQ(call("POST", "/api/v1/account/nothing", json::object()).status, 404);
}

TEST_F(AccountRoutesP21, AnotherSitesPageCannotUseTheRoutes) {
    HttpRequest r = request("POST", "/api/v1/account/signup", R"({"v":1,"name":"Anna","password":"a long enough password"})");
    r.origin = "https://evil.example";
    HttpResponse refused = service->handle(r);
    EXPECT_EQ(refused.status, 403);
    EXPECT_EQ(code(refused), "forbidden_origin");
    EXPECT_TRUE(service->submit(r, [](HttpResponse) { ADD_FAILURE() << "queued"; }).has_value());
    r.origin = "null";
    EXPECT_EQ(service->handle(r).status, 403);
    r.origin = "http://club.example";
    r.content_type = "text/plain";
    EXPECT_EQ(service->handle(r).status, 415);
    EXPECT_FALSE(accounts->find("Anna").value().has_value());
}

TEST_F(AccountRoutesP21, SignOutHereAndEverywhereAndChangePassword) {
    const std::string a = sign_up("Anna");
    HttpResponse second = call("POST", "/api/v1/account/signin", {{"v", 1}, {"name", "Anna"}, {"password", "a long enough password"}});
    const std::string b = cookie_of(second);
    HttpResponse third = call("POST", "/api/v1/account/signin", {{"v", 1}, {"name", "Anna"}, {"password", "a long enough password"}});
    const std::string c = cookie_of(third);
    // Sign out here: only this session.
    HttpResponse out = call("POST", "/api/v1/account/signout", json::object(), a);
    EXPECT_EQ(out.status, 200);
    EXPECT_NE(header(out, "Set-Cookie").find("Max-Age=0"), std::string::npos);
    EXPECT_TRUE(json::parse(call("GET", "/api/v1/account", json(), a).body)["account"].is_null());
    EXPECT_FALSE(json::parse(call("GET", "/api/v1/account", json(), b).body)["account"].is_null());
    // Change password from b: c ends, b stays.
    EXPECT_EQ(code(call("POST", "/api/v1/account/password", {{"v", 1}, {"old", "wrong one!"}, {"new", "another long one"}}, b)),
              "wrong_credentials");
    EXPECT_EQ(code(call("POST", "/api/v1/account/password", {{"v", 1}, {"old", "a long enough password"}, {"new", "short"}}, b)),
              "bad_password");
    HttpResponse changed = call("POST", "/api/v1/account/password", {{"v", 1}, {"old", "a long enough password"}, {"new", "another long one"}}, b);
    EXPECT_EQ(changed.status, 200) << changed.body;
    EXPECT_TRUE(json::parse(call("GET", "/api/v1/account", json(), c).body)["account"].is_null());
    EXPECT_FALSE(json::parse(call("GET", "/api/v1/account", json(), b).body)["account"].is_null());
    EXPECT_EQ(call("POST", "/api/v1/account/signin", {{"v", 1}, {"name", "Anna"}, {"password", "another long one"}}).status, 200);
    // Everywhere: every session, b too.
    EXPECT_EQ(code(call("POST", "/api/v1/account/signout-all", json::object())), "not_signed_in");
    HttpResponse all = call("POST", "/api/v1/account/signout-all", json::object(), b);
    EXPECT_EQ(all.status, 200);
    EXPECT_GE(json::parse(all.body)["ended"].get<int>(), 2);
    EXPECT_TRUE(json::parse(call("GET", "/api/v1/account", json(), b).body)["account"].is_null());
    EXPECT_EQ(code(call("POST", "/api/v1/account/password", {{"v", 1}, {"old", "x"}, {"new", "y"}})), "not_signed_in");
}

TEST_F(AccountRoutesP21, SignInAttemptsOfOneAddressAreLimited) {
    AccountService::Options o;
    o.attempts_burst = 5;
    o.attempts_per_second = 0.2;
    make_service(o);
    int admitted = 0, limited = 0;
    std::atomic<int> answered{0};
    for (int i = 0; i < 12; ++i) {
        auto refused = service->submit(
            request("POST", "/api/v1/account/signin", R"({"v":1,"name":"Anna","password":"guess number x"})"),
            [&answered](HttpResponse) { ++answered; });
        if (!refused) ++admitted;
        else if (refused->status == 429 && code(*refused) == "rate_limited") ++limited;
    }
    EXPECT_EQ(admitted, 5);
    EXPECT_EQ(limited, 7);
    // Another address is not held back by this one.
    HttpRequest other = request("POST", "/api/v1/account/signin", R"({"v":1,"name":"Anna","password":"guess"})");
    other.client = "10.0.0.2";
    EXPECT_FALSE(service->submit(other, [&answered](HttpResponse) { ++answered; }).has_value());
    for (int i = 0; i < 500 && answered < 6; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_EQ(answered, 6);
    // Time refills the bucket: one more attempt after 5 s.
    now += 5'000;
    EXPECT_FALSE(service->submit(request("POST", "/api/v1/account/signin", R"({"v":1,"name":"Anna","password":"x"})"),
                                 [&answered](HttpResponse) { ++answered; }).has_value());
    for (int i = 0; i < 500 && answered < 7; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
}

// Issue 25 item 7: ten tries per address meant four addresses got forty; the
// change-password route had no limit at all. Now wrong passwords count per account,
// from any address, with a delay that grows; the owner is never locked out.
TEST_F(AccountRoutesP21, Issue25WrongPasswordsAreLimitedPerAccountFromEveryAddress) {
    AccountService::Options o;
    o.client_limits = true;
    o.attempts_burst = 100;
    o.account_attempts = AttemptGuard::Options{3, 10'000, 60'000};
    make_service(o);
    std::string owner = sign_up("Anna");
    int next_address = 0;
    // Submits as the server does and waits for the answer (refused at once, or hashed).
    auto attempt = [&](HttpRequest req) {
        std::promise<HttpResponse> answer;
        auto refused = service->submit(req, [&answer](HttpResponse r) { answer.set_value(std::move(r)); });
        return refused ? *refused : answer.get_future().get();
    };
    auto sign_in = [&](const std::string& password, const std::string& cookie = "") {
        HttpRequest r = request("POST", "/api/v1/account/signin", json{{"v", 1}, {"name", "Anna"}, {"password", password}}.dump(), cookie);
        r.client = "10.0.1." + std::to_string(++next_address);  // a new address every time
        return attempt(r);
    };
    for (int i = 0; i < 3; ++i) EXPECT_EQ(code(sign_in("guess " + std::to_string(i))), "wrong_credentials");
    EXPECT_EQ(code(sign_in("guess 3")), "wrong_credentials");  // the fourth: a delay of 10 s from now
    HttpResponse slowed = sign_in("a long enough password");
    EXPECT_EQ(slowed.status, 429);
    EXPECT_EQ(code(slowed), "rate_limited");
    EXPECT_EQ(header(slowed, "Retry-After"), "10");
    EXPECT_NE(json::parse(slowed.body)["message"].get<std::string>().find("this account"), std::string::npos);
    // The owner's browser, signed in, is not slowed; another account is not either.
    HttpResponse again = sign_in("a long enough password", owner);
    EXPECT_EQ(again.status, 200);
    owner = cookie_of(again);  // a sign-in ends the session it came with
    EXPECT_EQ(code(attempt(request("POST", "/api/v1/account/signin", R"({"v":1,"name":"Boris","password":"whatever it is"})"))),
              "wrong_credentials");
    // After the delay the right password works, and the count starts again.
    now += 10'000;
    EXPECT_EQ(sign_in("a long enough password").status, 200);
    EXPECT_EQ(code(sign_in("guess 4")), "wrong_credentials");
    EXPECT_EQ(code(sign_in("guess 5")), "wrong_credentials");

    // Changing the password is guessing it too: the same per-account delay.
    auto change = [&](const std::string& old) {
        return attempt(request("POST", "/api/v1/account/password",
                               json{{"v", 1}, {"old", old}, {"new", "another long password"}}.dump(), owner));
    };
    for (int i = 0; i < 4; ++i) EXPECT_EQ(code(change("wrong " + std::to_string(i))), "wrong_credentials") << i;
    EXPECT_EQ(code(change("a long enough password")), "rate_limited");
    now += 10'000;
    EXPECT_EQ(change("a long enough password").status, 200);
}

// Issue 25 item 7: the change-password route had no per-address limit either.
TEST_F(AccountRoutesP21, Issue25ChangePasswordIsUnderTheAddressLimit) {
    AccountService::Options o;
    o.client_limits = true;
    o.attempts_burst = 3;
    o.attempts_per_second = 0.01;
    make_service(o);
    const std::string owner = accounts->start_session(accounts->create("Anna", "a long enough password", false, 1).value().id,
                                                      1'700'000'000'000 + now)
                                  .value();
    int limited = 0;
    for (int i = 0; i < 6; ++i) {
        auto refused = service->submit(request("POST", "/api/v1/account/password",
                                               json{{"v", 1}, {"old", "x"}, {"new", "another long password"}}.dump(),
                                               "outpost_session=" + owner),
                                       [](HttpResponse) {});
        limited += refused && refused->status == 429;
    }
    EXPECT_EQ(limited, 3);
}

TEST_F(AccountRoutesP21, AFullHashingQueueIsRefusedAtOnceAndAtMostTwoHashesRun) {
    // Real-cost hashes (64 MiB, ~0.1 s each): two workers, two may wait.
    service.reset();
    accounts.reset();
    accounts = std::move(AccountStore::open(db_path, PasswordCost::interactive()).value());
    AccountService::Options o;
    o.client_limits = false;
    o.workers = 2;
    o.max_queue = 2;
    make_service(o);
    std::atomic<int> answered{0};
    int admitted = 0, busy = 0, max_running = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 10; ++i) {
        auto refused = service->submit(request("POST", "/api/v1/account/signin", R"({"v":1,"name":"Nobody","password":"guess guess"})"),
                                       [&answered](HttpResponse) { ++answered; });
        if (!refused) ++admitted;
        else if (refused->status == 503 && code(*refused) == "rate_limited") ++busy;
        max_running = std::max(max_running, service->running());
    }
    const auto submitting = std::chrono::steady_clock::now() - start;
    EXPECT_LT(std::chrono::duration_cast<std::chrono::milliseconds>(submitting).count(), 50) << "submit never waits for a hash";
    EXPECT_GE(admitted, 2);
    EXPECT_LE(admitted, 4);
    EXPECT_EQ(admitted + busy, 10);
    for (int i = 0; i < 1000 && answered < admitted; ++i) {
        max_running = std::max(max_running, service->running());
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    EXPECT_EQ(answered, admitted);
    EXPECT_LE(max_running, 2);
}

TEST_F(AccountRoutesP21, AnAnonymousGameIsClaimedThroughTheRoute) {
    const std::string cookie = sign_up("Anna");
    auto g = hub->create_game(R"({"v":1,"opponent":"robot","level":1,"color":"white","name":"Guest"})", "c").value();
    EXPECT_EQ(code(call("POST", "/api/v1/games/" + g.id + "/claim", {{"v", 1}, {"seat", *g.white_token}})), "not_signed_in");
    EXPECT_EQ(code(call("POST", "/api/v1/games/" + g.id + "/claim", {{"v", 1}}, cookie)), "bad_request");
    EXPECT_EQ(code(call("POST", "/api/v1/games/" + g.id + "/claim", {{"v", 1}, {"seat", "wrong"}}, cookie)), "not_your_seat");
    HttpResponse r = call("POST", "/api/v1/games/" + g.id + "/claim", {{"v", 1}, {"seat", *g.white_token}}, cookie);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(json::parse(r.body)["you"], "white");
    hub->flush();
    EXPECT_EQ(storage->load_game(g.id).value()->white_name, "Anna");
    // The profile lists it.
    json games = json::parse(call("GET", "/api/v1/players/anna/games").body);
    ASSERT_EQ(games["games"].size(), 1u);
    EXPECT_EQ(games["games"][0]["id"], g.id);
    EXPECT_EQ(games["games"][0]["outcome"], "none");
}

TEST_F(AccountRoutesP21, TheProfileCountsResultsPerTimeControlClassAndFilters) {
    sign_up("Anna");
    const Account a = *accounts->find("Anna").value();
    // Four games: blitz win as white, blitz loss as black, rapid draw as white, one in progress.
    auto play = [&](const char* tc, const char* color, const char* finish) {
        auto g = hub->create_game(std::string(R"({"v":1,"opponent":"invite","time_control":")") + tc + R"(","color":")" + color + "\"}",
                                  "c", &a).value();
        struct In : Subscriber {
            void deliver(std::shared_ptr<const std::string>) override {}
        };
        auto w = std::make_shared<In>();
        auto b = std::make_shared<In>();
        (void)hub->connect(g.id, *g.white_token, w);
        (void)hub->connect(g.id, *g.black_token, b);
        if (std::string(finish) == "white-resigns") hub->handle_message(g.id, Seat::WHITE_SEAT, R"({"v":1,"t":"resign"})", *w);
        if (std::string(finish) == "black-resigns") hub->handle_message(g.id, Seat::BLACK_SEAT, R"({"v":1,"t":"resign"})", *b);
        if (std::string(finish) == "draw") {
            hub->handle_message(g.id, Seat::WHITE_SEAT, R"({"v":1,"t":"move","uci":"e2e4"})", *w);
            hub->handle_message(g.id, Seat::BLACK_SEAT, R"({"v":1,"t":"move","uci":"e7e5"})", *b);
            hub->handle_message(g.id, Seat::WHITE_SEAT, R"({"v":1,"t":"draw","action":"offer"})", *w);
            hub->handle_message(g.id, Seat::BLACK_SEAT, R"({"v":1,"t":"draw","action":"accept"})", *b);
        }
        return g.id;
    };
    const std::string win = play("3+2", "white", "black-resigns");
    const std::string loss = play("5+0", "black", "black-resigns");
    const std::string draw = play("15+10", "white", "draw");
    const std::string live = play("3+2", "white", "");
    hub->flush();
    json p = json::parse(call("GET", "/api/v1/players/Anna").body);
    EXPECT_EQ(p["player"]["name"], "Anna");
    // P23: casual games leave every rating at the start (1500, RD 500, provisional).
    EXPECT_EQ(p["ratings"]["blitz"], json({{"rating", 1500}, {"rd", 500}, {"provisional", true}, {"games", 0}, {"last", nullptr}}));
    EXPECT_EQ(p["ratings"].size(), 6u);
    EXPECT_EQ(p["results"]["blitz"], json({{"games", 2}, {"wins", 1}, {"draws", 0}, {"losses", 1}}));
    EXPECT_EQ(p["results"]["rapid"], json({{"games", 1}, {"wins", 0}, {"draws", 1}, {"losses", 0}}));
    EXPECT_EQ(p["finished"], 3);
    EXPECT_EQ(p["games"], 4);
    auto ids = [&](const std::string& query) {
        json j = json::parse(call("GET", "/api/v1/players/Anna/games" + query).body);
        std::set<std::string> out;
        for (const auto& g : j["games"]) out.insert(g["id"].get<std::string>());
        return out;
    };
    EXPECT_EQ(ids(""), (std::set<std::string>{win, loss, draw, live}));
    EXPECT_EQ(ids("?result=win"), (std::set<std::string>{win}));
    EXPECT_EQ(ids("?result=loss"), (std::set<std::string>{loss}));
    EXPECT_EQ(ids("?class=blitz"), (std::set<std::string>{win, loss, live}));
    EXPECT_EQ(ids("?color=black"), (std::set<std::string>{loss}));
    EXPECT_EQ(ids("?class=blitz&color=white&result=win"), (std::set<std::string>{win}));
    EXPECT_EQ(ids("?limit=1").size(), 1u);
    EXPECT_EQ(call("GET", "/api/v1/players/Anna/games?result=maybe").status, 400);
    EXPECT_EQ(call("GET", "/api/v1/players/Anna/games?limit=x").status, 400);
    EXPECT_EQ(call("GET", "/api/v1/players/Anna/games?class=hyper").status, 400);
    EXPECT_EQ(call("GET", "/api/v1/players/Nobody").status, 404);
    EXPECT_EQ(call("GET", "/api/v1/players/../etc").status, 404);
}

// P23: GET /api/v1/players/NAME/ratings: every class, the rated ones with their games,
// and the history points for the chart; the profile carries the same ratings.
TEST_F(AccountRoutesP21, P23TheRatingsRouteGivesEveryClassAndTheHistory) {
    sign_up("Anna");
    sign_up("Boris");
    const Account a = *accounts->find("Anna").value(), b = *accounts->find("Boris").value();
    struct In : Subscriber {
        void deliver(std::shared_ptr<const std::string>) override {}
    };
    std::vector<std::string> ids;
    for (int i = 0; i < 2; ++i) {
        auto g = hub->create_game(R"({"v":1,"opponent":"invite","time_control":"3+2","color":"white","casual":false})", "c", &a).value();
        auto w = std::make_shared<In>(), k = std::make_shared<In>();
        ASSERT_TRUE(hub->connect(g.id, *g.white_token, w, &a).ok());
        ASSERT_TRUE(hub->connect(g.id, *g.black_token, k, &b).ok());
        hub->handle_message(g.id, Seat::WHITE_SEAT, R"({"t":"move","uci":"e2e4"})", *w);
        hub->handle_message(g.id, Seat::BLACK_SEAT, R"({"t":"move","uci":"e7e5"})", *k);
        hub->handle_message(g.id, Seat::WHITE_SEAT, R"({"t":"move","uci":"g1f3"})", *w);  // two moves each (issue 25)
        hub->handle_message(g.id, Seat::BLACK_SEAT, R"({"t":"move","uci":"b8c6"})", *k);
        hub->handle_message(g.id, Seat::BLACK_SEAT, R"({"t":"resign"})", *k);
        ids.push_back(g.id);
        now += 60'000;
    }
    hub->flush();
    HttpResponse r = call("GET", "/api/v1/players/anna/ratings");
    ASSERT_EQ(r.status, 200) << r.body;
    json j = json::parse(r.body);
    EXPECT_EQ(j["player"], "Anna");
    ASSERT_EQ(j["ratings"].size(), 6u);
    for (const char* c : {"bullet", "blitz", "rapid", "classical", "correspondence", "chess960"}) EXPECT_TRUE(j["ratings"].contains(c)) << c;
    const json& blitz = j["ratings"]["blitz"];
    EXPECT_EQ(blitz["games"], 2);
    EXPECT_GT(blitz["rating"].get<int>(), 1500);
    EXPECT_LT(blitz["rd"].get<int>(), 500);
    EXPECT_EQ(blitz["provisional"], true);  // two games leave the RD far above 110
    EXPECT_EQ(j["ratings"]["rapid"]["games"], 0);
    ASSERT_EQ(j["history"].size(), 2u);
    EXPECT_EQ(j["history"][0]["game"], ids[0]);  // oldest first
    EXPECT_EQ(j["history"][1]["game"], ids[1]);
    EXPECT_EQ(j["history"][1]["class"], "blitz");
    EXPECT_EQ(j["history"][1]["rating"], blitz["rating"]);
    EXPECT_GT(j["history"][0]["diff"].get<int>(), 0);
    EXPECT_LT(j["history"][0]["at"].get<std::int64_t>(), j["history"][1]["at"].get<std::int64_t>());
    json boris = json::parse(call("GET", "/api/v1/players/Boris/ratings").body);
    EXPECT_LT(boris["ratings"]["blitz"]["rating"].get<int>(), 1500);
    EXPECT_EQ(json::parse(call("GET", "/api/v1/players/Anna").body)["ratings"], j["ratings"]);
    EXPECT_EQ(call("GET", "/api/v1/players/Nobody/ratings").status, 404);
    EXPECT_EQ(call("GET", "/api/v1/players/a%00/ratings").status, 404);
    EXPECT_EQ(call("POST", "/api/v1/players/Anna/ratings", json::object()).status, 405);
}

// Against a real server: a flood of sign-in attempts (real 64 MiB hashes) while a
// game is played. If hashing ran on the network thread, each move would wait behind
// the hashes (at least ~1 s for the ten attempts the address may make).
TEST(AccountServerP21, AFloodOfSignInsNeverHoldsBackTheMovesOfAGame) {
    using namespace outpost::test;
    Server server({});
    ASSERT_GT(server.port, 0);
    auto [game, token] = hotseat_game(server.port);
    ASSERT_FALSE(game.empty());
    auto [ws, status] = ws_open(server.port, "/api/v1/ws?game=" + game + "&seat=" + token, "");
    ASSERT_EQ(status, 101);
    ASSERT_EQ(ws_read_data(ws).first, 1);  // the first state
    // 30 attempts, each on its own connection, sent at once.
    std::vector<int> flood;
    const std::string body = R"({"v":1,"name":"Nobody","password":"guess guess guess"})";
    for (int i = 0; i < 30; ++i) {
        int fd = connect_to(server.port);
        ASSERT_GE(fd, 0);
        send_all(fd, "POST /api/v1/account/signin HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: " +
                         std::to_string(body.size()) + "\r\n\r\n" + body);
        flood.push_back(fd);
    }
    const auto flood_start = std::chrono::steady_clock::now();
    long worst_ms = 0;
    const char* moves[] = {"g1f3", "g8f6", "f3g1", "f6g8", "b1c3", "b8c6", "c3b1", "c6b8"};
    for (const char* m : moves) {
        const auto sent = std::chrono::steady_clock::now();
        ASSERT_TRUE(ws_send(ws, std::string(R"({"v":1,"t":"move","uci":")") + m + "\"}"));
        auto [op, text] = ws_read_data(ws, 5000);
        ASSERT_EQ(op, 1);
        EXPECT_NE(text.find("\"t\":\"move\""), std::string::npos) << text;
        worst_ms = std::max<long>(worst_ms, std::chrono::duration_cast<std::chrono::milliseconds>(
                                                std::chrono::steady_clock::now() - sent).count());
    }
    int limited = 0, wrong = 0;
    for (int fd : flood) {
        std::string data;
        for (int i = 0; i < 100 && data.find("\r\n\r\n") == std::string::npos; ++i) {
            std::string more = read_some(fd, 4096, 10'000);
            if (more.empty()) break;
            data += more;
        }
        if (data.find(" 429 ") != std::string::npos || data.find(" 503 ") != std::string::npos) ++limited;
        if (data.find("wrong_credentials") != std::string::npos) ++wrong;
        close(fd);
    }
    const long flood_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - flood_start).count();
    close(ws);
    EXPECT_EQ(limited + wrong, 30);
    EXPECT_GE(limited, 20) << "at most 10 attempts per address pass";
    EXPECT_GE(wrong, 5);
    // Inline hashing would hold a move for most of the flood's time; a loaded machine
    // slows both alike, so the bound is relative (and never under 300 ms).
    EXPECT_LT(worst_ms, std::max<long>(300, flood_ms / 3))
        << "a move waited behind password hashes (flood answered in " << flood_ms << " ms)";
}
