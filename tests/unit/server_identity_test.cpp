// Outpost — the identity seam (SPEC P21): the session cookie resolved to an account,
// the account of each seat recorded in the game, stored, and named in the state.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "server/accounts/accounts.h"
#include "server/play/hub.h"
#include "server/accounts/identity.h"
#include "server/edge/router.h"
#include "server/stores/game_store.h"

#include "../support/fake_hub_env.h"

using namespace outpost;
using namespace outpost::server;
using nlohmann::json;

namespace {

struct Inbox : Subscriber {
    std::vector<std::string> messages;
    void deliver(std::shared_ptr<const std::string> m) override { messages.push_back(*m); }
    json last_state() const {
        for (auto it = messages.rbegin(); it != messages.rend(); ++it) {
            json j = json::parse(*it);
            if (j["t"] == "state") return j["game"];
        }
        return {};
    }
};

struct IdentityP21 : ::testing::Test {
    Millis now = 1'000'000;
    int token_counter = 0;
    std::string db_path;
    std::unique_ptr<Storage> storage;
    std::unique_ptr<AccountStore> accounts;
    std::unique_ptr<Hub> hub;
    Account alice, bob;

    HubEnv env() {
        HubEnv e = test::fake_hub_env(now, token_counter);
        return e;
    }
    void SetUp() override {
        db_path = (std::filesystem::temp_directory_path() /
                   ("outpost-identity-test-" + std::to_string(::getpid()) + "-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db"))
                      .string();
        remove_files();
        open();
        alice = accounts->create("alice", "correct horse battery", false, 1).value();
        bob = accounts->create("Bob", "another long password", false, 1).value();
    }
    void open() {
        storage = std::move(Storage::open(db_path).value());
        accounts = std::move(AccountStore::open(db_path, PasswordCost::cheapest()).value());
        hub = std::make_unique<Hub>(env(), storage.get());
    }
    void close() {
        hub.reset();
        accounts.reset();
        storage.reset();
    }
    void remove_files() {
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_path + suffix);
    }
    void TearDown() override {
        close();
        remove_files();
    }
    CreatedGame create(const json& body, const Account* who) {
        auto r = hub->create_game(body.dump(), "client", who);
        if (!r) ADD_FAILURE() << r.error().code << ": " << r.error().message;
        return r.value();
    }
};

}  // namespace

TEST_F(IdentityP21, TheSessionCookieNamesTheAccountAndNothingElseDoes) {
    const std::string token = accounts->start_session(alice.id, 5).value();
    const std::string cookie = "theme=dark; " + std::string(SessionCookieName) + "=" + token + "; x=1";
    Identity who = identify(accounts.get(), cookie, 10);
    ASSERT_TRUE(who.account);
    EXPECT_EQ(who.account->name, "alice");
    EXPECT_EQ(who.token, token);
    // No cookie, another token, a forged one of the right form, no store: anonymous.
    EXPECT_FALSE(identify(accounts.get(), "", 10).account);
    std::string forged = token;
    forged[0] = forged[0] == 'a' ? 'b' : 'a';
    EXPECT_FALSE(identify(accounts.get(), std::string(SessionCookieName) + "=" + forged, 10).account);
    EXPECT_FALSE(identify(accounts.get(), std::string(SessionCookieName) + "=short", 10).account);
    EXPECT_FALSE(identify(nullptr, cookie, 10).account);
    // An expired session and a disabled account's session are refused.
    EXPECT_FALSE(identify(accounts.get(), cookie, 10 + SessionLifetimeMs).account);
    const std::string token2 = accounts->start_session(bob.id, 5).value();
    ASSERT_TRUE(identify(accounts.get(), std::string(SessionCookieName) + "=" + token2, 10).account);
    ASSERT_TRUE(accounts->set_disabled("bob", true).value());
    EXPECT_FALSE(identify(accounts.get(), std::string(SessionCookieName) + "=" + token2, 10).account);
}

// Issue 27 item 6: the forwarding headers are weighed in client_address.h (and only
// from trusted proxies); what reaches here is the connection's word.
TEST_F(IdentityP21, HttpsIsKnownFromTheConnectionOrThePageOrigin) {
    EXPECT_FALSE(request_is_secure(false, ""));
    EXPECT_FALSE(request_is_secure(false, "http://club.example"));
    EXPECT_FALSE(request_is_secure(false, "null"));
    EXPECT_TRUE(request_is_secure(true, ""));
    EXPECT_TRUE(request_is_secure(true, "http://club.example"));
    EXPECT_TRUE(request_is_secure(false, "HTTPS://club.example"));
}

TEST_F(IdentityP21, ASignedInCreatorsSeatRecordsTheAccountAndItsName) {
    auto g = create({{"v", 1}, {"opponent", "robot"}, {"level", 1}, {"color", "black"}, {"name", "Pretender"}}, &alice);
    auto in = std::make_shared<Inbox>();
    ASSERT_TRUE(hub->connect(g.id, *g.black_token, in));
    json s = in->last_state();
    EXPECT_EQ(s["players"]["black"]["account"], "alice");
    EXPECT_EQ(s["players"]["black"]["name"], "alice");  // the account's name, not the one sent
    EXPECT_TRUE(s["players"]["white"]["account"].is_null());  // a robot has none
    // Stored: the row carries the account id, and so after a restart.
    hub->flush();
    auto row = storage->load_game(g.id).value();
    ASSERT_TRUE(row);
    EXPECT_EQ(row->black_account, alice.id);
    EXPECT_EQ(row->white_account, 0);
    close();
    open();
    ASSERT_TRUE(hub->resume_from_storage());
    auto again = std::make_shared<Inbox>();
    ASSERT_TRUE(hub->connect(g.id, "", again));
    EXPECT_EQ(again->last_state()["players"]["black"]["account"], "alice");
}

TEST_F(IdentityP21, AnonymousAndHotseatGamesHaveNoAccounts) {
    auto anon = create({{"v", 1}, {"opponent", "invite"}, {"color", "white"}, {"name", "Anna"}}, nullptr);
    auto hot = create({{"v", 1}, {"opponent", "hotseat"}, {"name", "Anna"}}, &alice);
    for (const std::string& id : {anon.id, hot.id}) {
        auto in = std::make_shared<Inbox>();
        ASSERT_TRUE(hub->connect(id, "", in));
        json s = in->last_state();
        EXPECT_TRUE(s["players"]["white"]["account"].is_null()) << id;
        EXPECT_TRUE(s["players"]["black"]["account"].is_null()) << id;
        EXPECT_EQ(s["players"]["white"]["name"], "Anna");
    }
}

TEST_F(IdentityP21, ASignedInPlayerOpeningAnInviteTakesTheFreeSeatAndTheOtherSeesIt) {
    auto g = create({{"v", 1}, {"opponent", "invite"}, {"color", "white"}}, &alice);
    auto white = std::make_shared<Inbox>();
    ASSERT_TRUE(hub->connect(g.id, *g.white_token, white));
    auto black = std::make_shared<Inbox>();
    ASSERT_TRUE(hub->connect(g.id, *g.black_token, black, &bob));
    EXPECT_EQ(black->last_state()["players"]["black"]["account"], "Bob");
    EXPECT_EQ(white->last_state()["players"]["black"]["account"], "Bob");  // told at once
    hub->flush();
    EXPECT_EQ(storage->load_game(g.id).value()->black_account, bob.id);
    // Alice opening Bob's seat link takes nothing: the seat is Bob's, and she holds white.
    auto again = std::make_shared<Inbox>();
    ASSERT_TRUE(hub->connect(g.id, *g.black_token, again, &alice));
    EXPECT_EQ(again->last_state()["players"]["black"]["account"], "Bob");
}

TEST_F(IdentityP21, AnAnonymousGameInProgressIsClaimedWithItsSeatToken) {
    auto g = create({{"v", 1}, {"opponent", "robot"}, {"level", 1}, {"color", "white"}}, nullptr);
    auto claimed = hub->claim_seat(g.id, *g.white_token, alice);
    ASSERT_TRUE(claimed) << claimed.error().message;
    EXPECT_EQ(json::parse(*claimed)["you"], "white");
    hub->flush();
    EXPECT_EQ(storage->load_game(g.id).value()->white_account, alice.id);
    EXPECT_EQ(storage->load_game(g.id).value()->white_name, "alice");
    // Claiming again is harmless; another account may not take it; a wrong token is refused.
    EXPECT_TRUE(hub->claim_seat(g.id, *g.white_token, alice));
    auto stolen = hub->claim_seat(g.id, *g.white_token, bob);
    ASSERT_FALSE(stolen);
    EXPECT_EQ(stolen.error().code, "not_your_seat");
    auto wrong = hub->claim_seat(g.id, "nottheseat", bob);
    ASSERT_FALSE(wrong);
    EXPECT_EQ(wrong.error().code, "not_your_seat");
    auto robot_side = hub->claim_seat(g.id, "", bob);
    ASSERT_FALSE(robot_side);
    EXPECT_EQ(robot_side.error().code, "not_your_seat");
    auto none = hub->claim_seat("nosuchgame", *g.white_token, bob);
    ASSERT_FALSE(none);
    EXPECT_EQ(none.error().code, "not_found");
}

TEST_F(IdentityP21, OneAccountCannotHoldBothSeatsNorClaimAFinishedGame) {
    auto g = create({{"v", 1}, {"opponent", "invite"}, {"color", "white"}}, &alice);
    auto both = hub->claim_seat(g.id, *g.black_token, alice);
    ASSERT_FALSE(both);
    EXPECT_EQ(both.error().code, "not_allowed");
    auto h = create({{"v", 1}, {"opponent", "invite"}, {"color", "white"}}, nullptr);
    auto in = std::make_shared<Inbox>();
    ASSERT_TRUE(hub->connect(h.id, *h.white_token, in));
    hub->handle_message(h.id, Seat::WHITE_SEAT, R"({"v":1,"t":"resign"})", *in);
    auto late = hub->claim_seat(h.id, *h.white_token, alice);
    ASSERT_FALSE(late);
    EXPECT_EQ(late.error().code, "game_over");
}

TEST_F(IdentityP21, ARematchKeepsTheAccountsOnTheirNewColours) {
    auto g = create({{"v", 1}, {"opponent", "invite"}, {"color", "white"}}, &alice);
    auto w = std::make_shared<Inbox>();
    auto b = std::make_shared<Inbox>();
    ASSERT_TRUE(hub->connect(g.id, *g.white_token, w));
    ASSERT_TRUE(hub->connect(g.id, *g.black_token, b, &bob));
    hub->handle_message(g.id, Seat::WHITE_SEAT, R"({"v":1,"t":"resign"})", *w);
    hub->handle_message(g.id, Seat::WHITE_SEAT, R"({"v":1,"t":"rematch","action":"offer"})", *w);
    hub->handle_message(g.id, Seat::BLACK_SEAT, R"({"v":1,"t":"rematch","action":"accept"})", *b);
    const std::string next = w->last_state()["rematch"]["game"].get<std::string>();
    hub->flush();
    auto row = storage->load_game(next).value();
    ASSERT_TRUE(row);
    EXPECT_EQ(row->white_account, bob.id);
    EXPECT_EQ(row->black_account, alice.id);
}

TEST_F(IdentityP21, TheRouterCreatesTheGameForTheRequestsAccount) {
    StaticFiles files;
    HttpRequest req{"POST", "/api/v1/games", R"({"v":1,"opponent":"invite","color":"black"})", "client"};
    req.account = bob;
    HttpResponse r = route(req, *hub, files);
    ASSERT_EQ(r.status, 201) << r.body;
    const std::string id = json::parse(r.body)["game"];
    hub->flush();
    EXPECT_EQ(storage->load_game(id).value()->black_account, bob.id);
    EXPECT_EQ(storage->load_game(id).value()->white_account, 0);
}
