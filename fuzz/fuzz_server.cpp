// libFuzzer target: the server's message handling (D4: bad input never crashes
// anything). The first byte picks the door:
//   0-63    an HTTP request to the pure router: "METHOD TARGET\nBODY";
//   64-255  WebSocket texts, one a line, to a hub with an in-memory database and a fake
//           environment (exact clock, no robot thread), from the seat the line's first
//           byte picks, in a hotseat game, a robot game and an invite game.
// Every answer the hub sends is a JSON object with "v" and "t".
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "chess/movegen.h"
#include "fuzz_check.h"
#include "server/play/hub.h"
#include "server/edge/router.h"
#include "server/stores/game_store.h"

using namespace outpost;
using namespace outpost::server;

namespace {

struct Checker : Subscriber {
    void deliver(std::shared_ptr<const std::string> m) override {
        auto j = nlohmann::json::parse(*m, nullptr, false);
        FUZZ_CHECK(j.is_object() && j.contains("v") && j.contains("t"), "the hub sent '%s'", m->c_str());
    }
};

struct World {
    Millis now = 1'000'000;
    int tokens = 0;
    std::vector<RobotRequest> robot;
    std::unique_ptr<Storage> storage;
    std::unique_ptr<Hub> hub;
    World() {
        storage = std::move(Storage::open(":memory:").value());
        HubEnv e;
        e.monotonic_ms = [this] { return now; };
        e.wall_ms = [this] { return 1'700'000'000'000 + now; };
        e.call_back_in = [](const std::string&, Millis) {};
        e.ask_robot = [this](RobotRequest r) { robot.push_back(std::move(r)); };
        e.cancel_robot = [](const std::string&) {};
        e.random_token = [this](int len) {
            std::string s = "t" + std::to_string(++tokens);
            while (int(s.size()) < len) s += "x";
            return s;
        };
        e.levels_json = [] { return std::string(R"({"v":1,"levels":[]})"); };
        e.level_elo = [](int) { return 1000; };
        hub = std::make_unique<Hub>(e, storage.get());
    }
};

void fuzz_http(std::string_view in) {
    static const StaticFiles files = StaticFiles::load("/nonexistent");
    World w;
    const size_t nl = in.find('\n');
    const std::string_view line = in.substr(0, nl);
    const std::string body(nl == std::string_view::npos ? std::string_view() : in.substr(nl + 1));
    const size_t sp = line.find(' ');
    HttpRequest req{std::string(line.substr(0, sp)), sp == std::string_view::npos ? "/" : std::string(line.substr(sp + 1)), body, "127.0.0.1"};
    HttpResponse r = route(req, *w.hub, files);
    FUZZ_CHECK(r.status >= 200 && r.status < 600, "status %d", r.status);
    if (r.content_type.find("json") != std::string::npos) {
        auto j = nlohmann::json::parse(r.body, nullptr, false);
        FUZZ_CHECK(!j.is_discarded(), "a JSON answer that is not JSON: '%s'", r.body.c_str());
    }
}

void fuzz_ws(std::string_view in) {
    World w;
    struct Game {
        std::string id;
        std::string tokens[2];
    };
    std::vector<Game> games;
    for (const char* spec : {R"({"v":1,"opponent":"hotseat","time_control":"1+0"})",
                             R"({"v":1,"opponent":"robot","color":"white","level":1,"time_control":"3+2","casual":true})",
                             R"({"v":1,"opponent":"invite","color":"white","time_control":"-"})"}) {
        auto c = w.hub->create_game(spec, "127.0.0.1");
        FUZZ_CHECK(c.ok(), "a fixed game could not be created");
        const CreatedGame& g = c.value();
        games.push_back({g.id, {g.white_token.value_or(""), g.black_token.value_or("")}});
    }
    std::vector<std::shared_ptr<Checker>> subscribers;
    std::vector<std::pair<size_t, Seat>> seats;
    for (size_t i = 0; i < games.size(); ++i)
        for (int s = 0; s < 3; ++s) {
            auto sub = std::make_shared<Checker>();
            auto r = w.hub->connect(games[i].id, s < 2 ? games[i].tokens[s] : "", sub);
            if (r.ok()) {
                subscribers.push_back(sub);
                seats.emplace_back(i, r.value());
            }
        }
    FUZZ_CHECK(!seats.empty(), "no seat connected");
    size_t start = 0;
    while (start < in.size()) {
        size_t end = in.find('\n', start);
        if (end == std::string_view::npos) end = in.size();
        std::string_view line = in.substr(start, end - start);
        start = end + 1;
        if (line.empty()) continue;
        const size_t who = size_t(static_cast<unsigned char>(line[0])) % seats.size();
        w.now += static_cast<unsigned char>(line[0]) * 37;  // time passes, clocks run and flags fall
        line.remove_prefix(1);
        w.hub->handle_message(games[seats[who].first].id, seats[who].second, line, *subscribers[who],
                              static_cast<unsigned char>(line.empty() ? 0 : line[0]));
        // The robot answers its latest request with its first legal move, if any.
        if (!w.robot.empty()) {
            const RobotRequest r = w.robot.back();
            w.robot.clear();
            Position p = r.start;
            for (Move m : r.moves) p.do_move(m);
            const MoveList legal = legal_moves(p);
            if (!legal.empty()) w.hub->on_robot_move(r.game_id, r.request_id, legal[0]);
        }
        w.hub->on_timer(games[who % games.size()].id);
    }
    for (size_t i = 0; i < subscribers.size(); ++i) w.hub->disconnect(games[seats[i].first].id, subscribers[i].get());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, size_t size) {
    if (size < 1 || size > 8192) return 0;
    const std::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);
    if (data[0] < 64) fuzz_http(in);
    else fuzz_ws(in);
    return 0;
}
