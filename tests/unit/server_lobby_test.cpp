// Outpost — the lobby (SPEC P22): seeks, quick pairing by rating, the games being
// played, and its bounds (docs/protocol.md "Lobby").
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "../support/counted_token.h"
#include "server/play/hub.h"
#include "server/players/lobby.h"
#include "server/stores/game_store.h"

using namespace outpost;
using namespace outpost::server;
using nlohmann::json;

namespace {

struct Member : Subscriber {
    std::vector<json> messages;
    void deliver(std::shared_ptr<const std::string> m) override { messages.push_back(json::parse(*m)); }
    json last(const std::string& type) const {
        for (auto it = messages.rbegin(); it != messages.rend(); ++it)
            if ((*it)["t"] == type) return *it;
        return json();
    }
    std::string last_error() const { return messages.empty() || messages.back()["t"] != "error" ? "" : messages.back()["code"].get<std::string>(); }
};

struct LobbyFixture : ::testing::Test {
    Millis now = 1'000'000;
    std::map<std::string, int> ratings;  // account -> rating in every class
    std::vector<std::pair<json, std::string>> created;  // new-game bodies and clients
    std::unique_ptr<Lobby> lobby;

    LobbyEnv env() {
        LobbyEnv e;
        e.monotonic_ms = [this] { return now; };
        e.create_game = [this](const std::string& body, const std::string& client, const Account*,
                               const Account*) -> Answer<CreatedGame> {
            created.emplace_back(json::parse(body), client);
            CreatedGame g;
            g.id = "g" + std::to_string(created.size());
            g.white_token = "w" + std::to_string(created.size());
            g.black_token = "b" + std::to_string(created.size());
            return g;
        };
        e.rating = [this](const std::string& account, std::string_view) -> std::optional<LobbyRating> {
            auto it = ratings.find(account);
            if (it == ratings.end()) return std::nullopt;
            return LobbyRating{it->second, false};
        };
        e.coin = [] { return true; };
        return e;
    }
    void SetUp() override { lobby = std::make_unique<Lobby>(env()); }

    std::shared_ptr<Member> join(const std::string& client, const std::string& account = {}) {
        auto m = std::make_shared<Member>();
        Account a;
        a.id = std::int64_t(std::hash<std::string>{}(account) & 0xffff) + 1;
        a.name = account;
        lobby->join(m, client, account.empty() ? nullptr : &a);
        EXPECT_EQ(m->messages.back()["t"], "lobby");
        return m;
    }
    void send(Member& m, const json& msg) { lobby->handle_message(m, msg.dump()); }
};

}  // namespace

// Quick pairing pairs two waiting players of close rating, and not two far apart.
TEST_F(LobbyFixture, P22QuickPairingPairsCloseRatings) {
    ratings = {{"anna", 1500}, {"boris", 1900}, {"carl", 1530}};
    auto a = join("1.1.1.1", "anna"), b = join("2.2.2.2", "boris"), c = join("3.3.3.3", "carl");
    send(*a, {{"t", "quick"}, {"time_control", "3+2"}});
    send(*b, {{"t", "quick"}, {"time_control", "3+2"}});
    lobby->tick();
    EXPECT_TRUE(created.empty());  // 400 apart: not yet
    EXPECT_EQ(lobby->seeks(), 2u);
    send(*c, {{"t", "quick"}, {"time_control", "3+2"}});
    ASSERT_EQ(created.size(), 1u);  // anna and carl, 30 apart, at once
    EXPECT_EQ(created[0].first["opponent"], "invite");
    EXPECT_EQ(created[0].first["time_control"], "3+2");
    EXPECT_EQ(created[0].second, "1.1.1.1");
    json pa = a->last("paired"), pc = c->last("paired");
    ASSERT_FALSE(pa.is_null());
    ASSERT_FALSE(pc.is_null());
    EXPECT_EQ(pa["game"], pc["game"]);
    EXPECT_NE(pa["color"], pc["color"]);
    EXPECT_EQ(pa["seat"], pa["color"] == "white" ? "w1" : "b1");
    EXPECT_EQ(pc["seat"], pc["color"] == "white" ? "w1" : "b1");
    EXPECT_TRUE(b->last("paired").is_null());
    EXPECT_EQ(lobby->seeks(), 1u);
    // A different time control never pairs.
    auto d = join("4.4.4.4", "dora");
    ratings["dora"] = 1900;
    send(*d, {{"t", "quick"}, {"time_control", "5+3"}});
    lobby->tick();
    EXPECT_EQ(created.size(), 1u);
}

// The range widens with waiting: 100 + 20 a second of the shorter wait.
TEST_F(LobbyFixture, P22QuickPairingRangeWidensWithWaitingTime) {
    ratings = {{"anna", 1500}, {"boris", 1800}};
    auto a = join("1.1.1.1", "anna"), b = join("2.2.2.2", "boris");
    send(*a, {{"t", "quick"}, {"time_control", "1+0"}});
    send(*b, {{"t", "quick"}, {"time_control", "1+0"}});
    now += 9'000;  // 280 < 300
    lobby->tick();
    EXPECT_TRUE(created.empty());
    now += 1'000;  // 300
    lobby->tick();
    ASSERT_EQ(created.size(), 1u);
    EXPECT_FALSE(a->last("paired").is_null());
    EXPECT_FALSE(b->last("paired").is_null());
    EXPECT_EQ(lobby->seeks(), 0u);
    // Only the six quick time controls, standard chess.
    send(*a, {{"t", "quick"}, {"time_control", "7+1"}});
    EXPECT_EQ(a->last_error(), "bad_request");
    // Waiting twice for the same button is one wait.
    send(*a, {{"t", "quick"}, {"time_control", "1+0"}});
    send(*a, {{"t", "quick"}, {"time_control", "1+0"}});
    EXPECT_EQ(a->last_error(), "not_allowed");
    EXPECT_EQ(lobby->seeks(), 1u);
}

// A seek's rating range: an acceptor outside it is refused, one inside it is paired
// with the colour the seek asked for.
TEST_F(LobbyFixture, P22SeekRatingRangeIsRespected) {
    ratings = {{"anna", 1500}, {"boris", 1400}, {"carl", 1700}};
    auto a = join("1.1.1.1", "anna"), b = join("2.2.2.2", "boris"), c = join("3.3.3.3", "carl");
    send(*a, {{"t", "seek"}, {"time_control", "10+5"}, {"color", "black"}, {"rating_min", 1450}, {"rating_max", 1800}});
    const json seek = a->last("lobby")["seeks"][0];
    ASSERT_EQ(a->last("lobby")["mine"], json::array({seek["id"]}));
    EXPECT_EQ(seek["color"], "black");
    EXPECT_EQ(seek["class"], "rapid");
    EXPECT_EQ(seek["rating"], 1500);
    send(*b, {{"t", "accept"}, {"seek", seek["id"]}});
    EXPECT_EQ(b->last_error(), "not_allowed");
    send(*a, {{"t", "accept"}, {"seek", seek["id"]}});
    EXPECT_EQ(a->last_error(), "not_allowed");  // one's own
    send(*c, {{"t", "accept"}, {"seek", seek["id"]}});
    ASSERT_EQ(created.size(), 1u);
    EXPECT_EQ(created[0].first["color"], "black");
    EXPECT_EQ(a->last("paired")["color"], "black");
    EXPECT_EQ(c->last("paired")["color"], "white");
    EXPECT_EQ(c->last("paired")["seat"], "w1");
    send(*b, {{"t", "accept"}, {"seek", seek["id"]}});
    EXPECT_EQ(b->last_error(), "not_found");  // taken
    send(*a, {{"t", "seek"}, {"time_control", "5+0"}, {"rating_min", 1900}, {"rating_max", 1800}});
    EXPECT_EQ(a->last_error(), "bad_request");
}

// Seeks live as long as their owner's connection; cancel takes one or all.
TEST_F(LobbyFixture, P22SeeksDieWithTheirSocket) {
    auto a = join("1.1.1.1"), b = join("2.2.2.2");
    send(*a, {{"t", "seek"}, {"time_control", "5+3"}});
    send(*a, {{"t", "seek"}, {"time_control", "15+10"}, {"variant", "chess960"}});
    send(*b, {{"t", "seek"}, {"time_control", "3+2"}});
    EXPECT_EQ(lobby->seeks(), 3u);
    lobby->tick();
    EXPECT_EQ(b->last("lobby")["seeks"].size(), 3u);
    lobby->leave(a.get());
    EXPECT_EQ(lobby->seeks(), 1u);
    EXPECT_EQ(lobby->members(), 1u);
    lobby->tick();
    EXPECT_EQ(b->last("lobby")["seeks"].size(), 1u);
    send(*b, {{"t", "cancel"}});
    EXPECT_EQ(lobby->seeks(), 0u);
}

// Floods are bounded: seeks per client address, seeks in the whole lobby; bad input
// is answered, never obeyed; rated seeks need an account.
TEST_F(LobbyFixture, P22SeekFloodsAreBoundedAndBadInputAnswered) {
    LobbyEnv e = env();
    e.max_seeks = 5;
    lobby = std::make_unique<Lobby>(e);
    auto a1 = join("1.1.1.1"), a2 = join("1.1.1.1");
    for (int i = 0; i < 3; ++i) send(i % 2 ? *a1 : *a2, {{"t", "seek"}, {"time_control", "5+3"}});
    EXPECT_EQ(lobby->seeks(), 3u);
    send(*a2, {{"t", "seek"}, {"time_control", "5+3"}});
    EXPECT_EQ(a2->last_error(), "rate_limited");  // a fourth from the same address
    auto b = join("2.2.2.2"), c = join("3.3.3.3");
    send(*b, {{"t", "seek"}, {"time_control", "5+3"}});
    send(*b, {{"t", "seek"}, {"time_control", "5+3"}});
    send(*c, {{"t", "seek"}, {"time_control", "5+3"}});
    EXPECT_EQ(c->last_error(), "rate_limited");  // the lobby is full
    EXPECT_EQ(lobby->seeks(), 5u);

    auto d = join("4.4.4.4");
    send(*d, {{"t", "seek"}, {"time_control", "5+3"}, {"rated", true}});
    EXPECT_EQ(d->last_error(), "account_required");
    // A signed-in member may seek a rated game only where ratings are kept.
    LobbyEnv unrated = env();
    unrated.rating = nullptr;
    Lobby plain(unrated);
    auto signed_in = std::make_shared<Member>();
    Account acct;
    acct.id = 7;
    acct.name = "erik";
    plain.join(signed_in, "5.5.5.5", &acct);
    plain.handle_message(*signed_in, R"({"t":"seek","time_control":"5+3","rated":true})");
    EXPECT_EQ(signed_in->last_error(), "not_allowed");
    plain.handle_message(*signed_in, R"({"t":"seek","time_control":"5+3","rated":false})");
    EXPECT_EQ(plain.seeks(), 1u);
    for (const char* bad : {"", "[]", "{", "{\"t\":5}", "{\"t\":\"seek\"}", "{\"t\":\"seek\",\"time_control\":\"/1d\"}",
                            "{\"t\":\"seek\",\"time_control\":\"5+3\",\"variant\":\"atomic\"}",
                            "{\"t\":\"seek\",\"time_control\":\"5+3\",\"rating_min\":-4}",
                            "{\"t\":\"accept\"}", "{\"t\":\"accept\",\"seek\":\"nope\"}", "{\"t\":\"dance\"}",
                            "{\"v\":2,\"t\":\"cancel\"}", "{\"t\":\"seek\",\"time_control\":\"5+3\",\"name\":\"\"}"}) {
        const size_t n = d->messages.size();
        lobby->handle_message(*d, bad);
        ASSERT_EQ(d->messages.size(), n + 1) << bad;
        EXPECT_EQ(d->messages.back()["t"], "error") << bad;
    }
    EXPECT_EQ(lobby->seeks(), 5u);
    send(*d, {{"t", "ping"}});
    EXPECT_EQ(d->messages.back()["t"], "pong");
}

// Issue 25 item 7: 170 addresses filled the 500 seeks. An account's seeks count
// from every address; an IPv6 client is its /64; anonymous seeks fill at most a
// share of the lobby; a time control is bounded (it is in every snapshot).
TEST_F(LobbyFixture, Issue25SeeksAreSharedPerAccountPerSlash64AndAnonymousShare) {
    LobbyEnv e = env();
    e.max_seeks = 8;
    e.max_anonymous_seeks = 4;
    lobby = std::make_unique<Lobby>(e);
    auto a1 = join("1.1.1.1", "anna"), a2 = join("2.2.2.2", "anna"), a3 = join("3.3.3.3", "anna");
    send(*a1, {{"t", "seek"}, {"time_control", "5+3"}});
    send(*a2, {{"t", "seek"}, {"time_control", "5+3"}});
    send(*a3, {{"t", "seek"}, {"time_control", "5+3"}});
    auto a4 = join("4.4.4.4", "anna");
    send(*a4, {{"t", "seek"}, {"time_control", "5+3"}});
    EXPECT_EQ(a4->last_error(), "rate_limited");  // a fourth of the same account
    EXPECT_EQ(lobby->seeks(), 3u);
    auto v6a = join("2001:db8:0:1::1"), v6b = join("2001:db8:0:1::2");
    send(*v6a, {{"t", "seek"}, {"time_control", "5+3"}});
    send(*v6a, {{"t", "seek"}, {"time_control", "5+3"}});
    send(*v6b, {{"t", "seek"}, {"time_control", "5+3"}});
    send(*v6b, {{"t", "seek"}, {"time_control", "5+3"}});
    EXPECT_EQ(v6b->last_error(), "rate_limited");  // a fourth of the same /64
    EXPECT_EQ(lobby->seeks(), 6u);
    auto x = join("9.9.9.9"), y = join("8.8.8.8");
    send(*x, {{"t", "seek"}, {"time_control", "5+3"}});
    send(*y, {{"t", "seek"}, {"time_control", "5+3"}});
    EXPECT_EQ(y->last_error(), "rate_limited");  // anonymous seeks have their share (4)
    auto boris = join("7.7.7.7", "boris");
    send(*boris, {{"t", "seek"}, {"time_control", "5+3"}});
    EXPECT_EQ(boris->last_error(), "");
    EXPECT_EQ(lobby->seeks(), 8u);
    auto carl = join("6.6.6.6", "carl");
    send(*carl, {{"t", "seek"}, {"time_control", "40/5400+30:20/1800:10/600:600"}});
    EXPECT_EQ(carl->last_error(), "bad_request");
    EXPECT_NE(carl->messages.back()["message"].get<std::string>().find("at most 3 periods"), std::string::npos);
}

// The games being played, fed by the hub: listed once both are playing (the first
// move), gone when they end; hotseat games are not listed.
TEST_F(LobbyFixture, P22GamesBeingPlayedFedByTheHub) {
    const std::string db_path = (std::filesystem::temp_directory_path() /
                                 ("outpost-lobby-test-" + std::to_string(::getpid()) + ".db")).string();
    std::filesystem::remove(db_path);
    {
        auto storage = std::move(Storage::open(db_path).value());
        HubEnv h;
        int tokens = 0;
        h.monotonic_ms = [this] { return now; };
        h.wall_ms = [this] { return 1'700'000'000'000 + now; };
        h.random_token = [&tokens](int len) {
            return outpost::test::counted_token('t', ++tokens, len);
        };
        h.inline_writes = true;
        std::map<std::string, int> reports;  // by game
        h.on_live_game = [this, &reports](const LiveGame& g) {
            ++reports[g.id];
            lobby->on_live_game(g);
        };
        Hub hub(h, storage.get());
        LobbyEnv e = env();
        e.create_game = [&hub](const std::string& body, const std::string& client, const Account* owner,
                               const Account* other) {
            return hub.create_game(body, client, owner, other);
        };
        lobby = std::make_unique<Lobby>(e);
        auto a = join("1.1.1.1"), b = join("2.2.2.2"), watcher = join("3.3.3.3");
        send(*a, {{"t", "quick"}, {"time_control", "5+3"}, {"name", "Anna"}});
        send(*b, {{"t", "quick"}, {"time_control", "5+3"}, {"name", "Boris"}});
        json pa = a->last("paired"), pb = b->last("paired");
        ASSERT_FALSE(pa.is_null());
        ASSERT_FALSE(pb.is_null());
        const std::string id = pa["game"];
        EXPECT_EQ(lobby->games_listed(), 0u);  // no move yet
        struct Null : Subscriber {
            void deliver(std::shared_ptr<const std::string>) override {}
        };
        auto sa = std::make_shared<Null>(), sb = std::make_shared<Null>();
        const Seat seat_a = hub.connect(id, pa["seat"].get<std::string>(), sa).value();
        ASSERT_TRUE(hub.connect(id, pb["seat"].get<std::string>(), sb).ok());
        EXPECT_EQ(seat_a, pa["color"] == "white" ? Seat::WHITE_SEAT : Seat::BLACK_SEAT);
        Subscriber& white = seat_a == Seat::WHITE_SEAT ? *sa : *sb;
        hub.handle_message(id, Seat::WHITE_SEAT, R"({"t":"move","uci":"e2e4"})", white);
        EXPECT_EQ(lobby->games_listed(), 1u);
        lobby->tick();
        json games = watcher->last("lobby")["games"];
        ASSERT_EQ(games.size(), 1u);
        EXPECT_EQ(games[0]["id"], id);
        EXPECT_EQ(games[0][pa["color"].get<std::string>()], "Anna");
        EXPECT_EQ(games[0]["time_control"], "5+3");
        auto hotseat = hub.create_game(R"({"opponent":"hotseat"})");
        ASSERT_TRUE(hotseat.ok());
        hub.handle_message(hotseat->id, Seat::BOTH, R"({"t":"move","uci":"e2e4"})", white);
        EXPECT_EQ(lobby->games_listed(), 1u);
        // Nothing reads a hotseat game's reports (never listed, never an event's or a
        // simul's board): none is made, on several nodes none is published.
        EXPECT_EQ(reports.count(hotseat->id), 0u);
        EXPECT_GT(reports[id], 0);
        hub.handle_message(id, Seat::WHITE_SEAT, R"({"t":"resign"})", white);
        EXPECT_EQ(lobby->games_listed(), 0u);
        lobby->tick();
        EXPECT_TRUE(watcher->last("lobby")["games"].empty());
    }
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_path + suffix);
}

// Issue 28 (9): the lobby shows at each quick-pairing button how many wait and how
// many play at that speed; the games being played carry their position (mini boards)
// as it moves on; a seat claimed by an account after sign-up shows its name.
TEST_F(LobbyFixture, Issue28Item9SpeedsMiniBoardsAndClaimedNames) {
    auto watcher = join("3.3.3.3"), anna = join("1.1.1.1");
    send(*anna, {{"t", "quick"}, {"time_control", "5+3"}});
    send(*anna, {{"t", "seek"}, {"time_control", "10+0"}});
    LiveGame g;
    g.id = "g1";
    g.white = "Anonymous";
    g.black = "boris";
    g.time_control = "10";  // the server's spelling of 10+0
    g.variant = "standard";
    g.ply = 1;
    g.fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    g.last_move = "e2e4";
    lobby->on_live_game(g);
    lobby->tick();
    json m = watcher->last("lobby");
    std::map<std::string, std::pair<int, int>> speeds;
    for (const json& s : m["speeds"]) speeds[s["time_control"]] = {s["waiting"], s["playing"]};
    ASSERT_EQ(speeds.size(), 6u);
    EXPECT_EQ(speeds["5+3"], std::make_pair(1, 0));
    EXPECT_EQ(speeds["10+0"], std::make_pair(1, 1));
    EXPECT_EQ(speeds["1+0"], std::make_pair(0, 0));
    ASSERT_EQ(m["games"].size(), 1u);
    EXPECT_EQ(m["games"][0]["fen"], g.fen);
    EXPECT_EQ(m["games"][0]["last_move"], "e2e4");
    EXPECT_EQ(m["games"][0]["white"], "Anonymous");

    // White signs up and claims the seat: the list says so at the next tick.
    g.white = "wanda";
    lobby->on_live_game(g);
    lobby->tick();
    EXPECT_EQ(watcher->last("lobby")["games"][0]["white"], "wanda");
    // A move: the mini board follows.
    g.ply = 2;
    g.fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    g.last_move = "e7e5";
    const size_t before = watcher->messages.size();
    lobby->on_live_game(g);
    lobby->tick();
    ASSERT_GT(watcher->messages.size(), before);
    EXPECT_EQ(watcher->last("lobby")["games"][0]["fen"], g.fen);
    // Over: no longer played.
    g.over = true;
    lobby->on_live_game(g);
    lobby->tick();
    // The message is kept in a variable: a range-for over a member of a temporary reads
    // freed memory in C++20 (the temporary dies before the loop; ASan caught it).
    const json lobby_state = watcher->last("lobby");
    for (const json& s : lobby_state["speeds"]) EXPECT_EQ(s["playing"], 0) << s.dump();
}

// Issue 26: a node that runs the lobby again after another did forgets the games it
// listed (they may have ended meanwhile); the games' next reports list them again.
TEST_F(LobbyFixture, Issue26ForgetGamesEmptiesTheListUntilTheNextReports) {
    auto watcher = join("3.3.3.3");
    LiveGame g;
    g.id = "g1";
    g.white = "anna";
    g.black = "boris";
    g.time_control = "5+3";
    g.variant = "standard";
    g.ply = 1;
    lobby->on_live_game(g);
    lobby->tick();
    ASSERT_EQ(watcher->last("lobby")["games"].size(), 1u);
    lobby->forget_games();
    lobby->tick();
    json m = watcher->last("lobby");
    EXPECT_EQ(m["games"].size(), 0u);
    for (const json& s : m["speeds"]) EXPECT_EQ(s["playing"], 0) << s.dump();
    g.ply = 2;
    lobby->on_live_game(g);
    lobby->tick();
    EXPECT_EQ(watcher->last("lobby")["games"].size(), 1u);
}
