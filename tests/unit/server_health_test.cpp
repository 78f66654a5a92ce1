// Outpost — /healthz and /readyz (SPEC D6; docs/protocol.md, "Operations"): the process
// answers; the database takes writes, else 503 with the reason — not the web page
// that every unknown path gets, which a load balancer would read as healthy.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../support/counted_token.h"
#include "server/edge/router.h"
#include "server/play/hub.h"
#include "server/stores/game_store.h"

using namespace outpost;
using namespace outpost::server;
using nlohmann::json;

namespace {

// A database that refuses every write (a full disk, a file made read-only).
struct RefusingStorage : Storage {
    Result<bool> write(const std::vector<GameWrite>&) override { return make_error("disk full"); }
    Result<std::optional<StoredGame>> load_game(const std::string&) override { return std::optional<StoredGame>{}; }
    Result<std::vector<StoredGame>> load_live_games() override { return std::vector<StoredGame>{}; }
    Result<std::vector<StoredSummary>> games_for_tokens(const std::vector<std::string>&, int) override {
        return std::vector<StoredSummary>{};
    }
};

HubEnv env() {
    HubEnv e;
    e.monotonic_ms = [] { return Millis(1'000'000); };
    e.wall_ms = [] { return std::int64_t(1'700'000'000'000); };
    e.call_back_in = [](const std::string&, Millis) {};
    e.ask_robot = [](RobotRequest) {};
    int counter = 0;
    e.random_token = [counter](int len) mutable {
        return outpost::test::counted_token('t', ++counter, len);
    };
    return e;
}

HttpResponse get(Hub& hub, const std::string& path) {
    static const StaticFiles files = StaticFiles::load("/nonexistent");
    return route(HttpRequest{"GET", path, ""}, hub, files);
}

TEST(HealthD6, HealthzAndReadyzAnswerJsonWhenAllIsWell) {
    auto storage = Storage::open(":memory:");
    ASSERT_TRUE(storage);
    Hub hub(env(), storage->get());
    ASSERT_TRUE(hub.create_game(R"({"opponent":"hotseat"})"));
    hub.flush();
    const HttpResponse h = get(hub, "/healthz");
    EXPECT_EQ(h.status, 200);
    EXPECT_EQ(json::parse(h.body)["status"], "ok");
    const HttpResponse r = get(hub, "/readyz");
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(json::parse(r.body)["status"], "ready");
    EXPECT_EQ(r.content_type, "application/json");
}

TEST(HealthD6, ReadyzIs503WithTheReasonWhileWritesFail) {
    RefusingStorage storage;
    Hub hub(env(), &storage);
    (void)hub.create_game(R"({"opponent":"hotseat"})");
    hub.flush();
    EXPECT_EQ(get(hub, "/healthz").status, 200);  // the process still answers
    const HttpResponse r = get(hub, "/readyz");
    EXPECT_EQ(r.status, 503);
    const json body = json::parse(r.body);
    EXPECT_EQ(body["status"], "not_ready");
    EXPECT_NE(body["problem"].get<std::string>().find("disk full"), std::string::npos) << r.body;
}

}  // namespace
