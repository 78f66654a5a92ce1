// Outpost — ratings through the hub (SPEC P23): a rated game between two accounts
// moves both ratings exactly as Glicko-2 says (club/glicko2.cpp, lichess's settings),
// once; casual, aborted and anonymous games move nothing; the ratings show in the
// state, the PGN and the players' routes. With an exact fake clock.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "../support/counted_token.h"
#include "chess/pgn.h"
#include "club/glicko2.h"
#include "server/play/hub.h"
#include "server/players/lobby.h"
#include "server/accounts/ratings.h"
#include "server/stores/game_store.h"
#include "../support/collector.h"

using namespace outpost;
using namespace outpost::server;
using nlohmann::json;

namespace {

using outpost::test::Collector;

const club::Glicko2Rating Start{1500.0, 500.0, 0.09};

// What Glicko-2 gives `player` for one game against `opponent` (lichess's τ etc.).
club::Glicko2Rating after_one(club::Glicko2Rating player, club::Glicko2Rating opponent, double score) {
    const club::Glicko2Game g{opponent, score};
    return club::glicko2_update(player, {&g, 1}, club::Glicko2Config::lichess());
}

struct RatingsFixture : ::testing::Test {
    Millis now = 1'000'000;
    int token_counter = 0;
    std::unique_ptr<Storage> storage;
    std::unique_ptr<Hub> hub;
    std::string db_path;
    Account alice{1, "alice"}, bob{2, "bob"};

    std::int64_t wall() const { return 1'700'000'000'000 + now; }
    HubEnv env() {
        HubEnv e;
        e.monotonic_ms = [this] { return now; };
        e.wall_ms = [this] { return wall(); };
        e.random_token = [this](int len) {
            return outpost::test::counted_token('t', ++token_counter, len);
        };
        e.inline_writes = true;
        return e;
    }
    void SetUp() override {
        db_path = (std::filesystem::temp_directory_path() /
                   ("outpost-ratings-test-" + std::to_string(::getpid()) + "-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".db"))
                      .string();
        std::filesystem::remove(db_path);
        storage = std::move(Storage::open(db_path).value());
        hub = std::make_unique<Hub>(env(), storage.get());
    }
    void TearDown() override {
        hub.reset();
        storage.reset();
        for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(db_path + suffix);
    }
    void restart() {
        hub.reset();
        hub = std::make_unique<Hub>(env(), storage.get());
        ASSERT_TRUE(hub->resume_from_storage().ok());
    }

    struct Game {
        std::string id;
        std::shared_ptr<Collector> white, black;
    };
    // An invite game: alice creates it as White (signed in or not), bob takes Black's
    // seat (signed in or not).
    Game start(json body, const Account* creator, const Account* invitee) {
        body["opponent"] = "invite";
        body["color"] = "white";
        auto g = hub->create_game(body.dump(), "client", creator);
        EXPECT_TRUE(g.ok());
        Game out{g->id, std::make_shared<Collector>(), std::make_shared<Collector>()};
        EXPECT_TRUE(hub->connect(g->id, *g->white_token, out.white, creator).ok());
        EXPECT_TRUE(hub->connect(g->id, *g->black_token, out.black, invitee).ok());
        return out;
    }
    void send(const Game& g, Color c, const json& msg) {
        hub->handle_message(g.id, c == WHITE ? Seat::WHITE_SEAT : Seat::BLACK_SEAT, msg.dump(), c == WHITE ? *g.white : *g.black);
    }
    void open_with(const Game& g, std::initializer_list<const char*> moves) {
        Color c = WHITE;
        for (const char* m : moves) {
            send(g, c, {{"t", "move"}, {"uci", m}});
            c = ~c;
        }
    }
    std::optional<StoredRating> rating(std::int64_t account, const std::string& cls) {
        auto all = storage->ratings_of(account);
        EXPECT_TRUE(all.ok());
        for (const StoredRating& r : *all)
            if (r.rating_class == cls) return r;
        return std::nullopt;
    }
    bool no_ratings() { return storage->ratings_of(1)->empty() && storage->ratings_of(2)->empty(); }
};

}  // namespace

TEST_F(RatingsFixture, P23RatedGameMovesBothRatingsAsGlicko2Says) {
    Game g = start({{"time_control", "5+3"}, {"casual", false}}, &alice, &bob);
    json s = g.white->last_of("state")["game"];
    EXPECT_TRUE(s["rated"].get<bool>());
    EXPECT_FALSE(s["players"]["white"].contains("rating"));  // shown once the game is over
    open_with(g, {"e2e4", "e7e5", "g1f3", "b8c6"});
    send(g, BLACK, {{"t", "resign"}});

    const club::Glicko2Rating w = after_one(Start, Start, 1.0), b = after_one(Start, Start, 0.0);
    auto rw = rating(1, "blitz"), rb = rating(2, "blitz");
    ASSERT_TRUE(rw && rb);
    EXPECT_DOUBLE_EQ(rw->rating, w.rating);
    EXPECT_DOUBLE_EQ(rw->deviation, w.deviation);
    EXPECT_DOUBLE_EQ(rw->volatility, w.volatility);
    EXPECT_DOUBLE_EQ(rb->rating, b.rating);
    EXPECT_EQ(rw->games, 1);
    EXPECT_EQ(rw->last_ms, wall());
    EXPECT_GT(w.rating, 1500.0);

    const int diff = int(std::lround(w.rating)) - 1500;
    for (const auto& c : {g.white, g.black}) {
        json end = c->last_of("state")["game"];
        EXPECT_EQ(end["players"]["white"]["rating"], 1500);
        EXPECT_EQ(end["players"]["white"]["provisional"], true);
        EXPECT_EQ(end["players"]["white"]["rating_diff"], diff);
        EXPECT_EQ(end["players"]["black"]["rating_diff"], int(std::lround(b.rating)) - 1500);
    }
    // The PGN carries them as lichess writes them.
    auto pgn = read_pgn_game(hub->pgn(g.id).value());
    ASSERT_TRUE(pgn.ok());
    EXPECT_EQ(pgn->tag("Event"), "Rated game");
    EXPECT_EQ(pgn->tag("WhiteElo"), "1500");
    EXPECT_EQ(pgn->tag("BlackElo"), "1500");
    std::string plus_diff = std::to_string(diff);
    plus_diff.insert(plus_diff.begin(), '+');  // (not "+" + …: g++ 12's false warning, counted_token.h)
    EXPECT_EQ(pgn->tag("WhiteRatingDiff"), plus_diff);
    EXPECT_EQ(pgn->tag("BlackRatingDiff"), std::to_string(int(std::lround(b.rating)) - 1500));

    // History: one point each, for the chart.
    auto hist = storage->rating_history(1, 100);
    ASSERT_TRUE(hist.ok());
    ASSERT_EQ(hist->size(), 1u);
    EXPECT_EQ((*hist)[0].game_id, g.id);
    EXPECT_EQ((*hist)[0].diff, diff);
}

// The second game is rated from the stored ratings, with each RD widened for the days
// since the last rated game (0.21436 periods a day), across a restart; and restarting
// after a game ended does not rate it again.
TEST_F(RatingsFixture, P23RestartDoesNotRateTwiceAndInactivityWidens) {
    Game g1 = start({{"time_control", "15+10"}, {"casual", false}}, &alice, &bob);
    open_with(g1, {"e2e4", "e7e5", "g1f3", "b8c6"});
    send(g1, WHITE, {{"t", "draw"}, {"action", "offer"}});
    send(g1, BLACK, {{"t", "draw"}, {"action", "accept"}});
    auto r1w = rating(1, "rapid"), r1b = rating(2, "rapid");
    ASSERT_TRUE(r1w && r1b);
    EXPECT_EQ(g1.white->last_of("state")["game"]["status"], "agreement");

    restart();
    now += 3 * 86'400'000;  // three days later
    // Reading the finished game again (from storage) changes nothing and still shows it.
    json again = json::parse(hub->state_json(g1.id).value());
    EXPECT_EQ(again["game"]["players"]["white"]["rating"], 1500);
    EXPECT_EQ(rating(1, "rapid")->games, 1);
    EXPECT_EQ(storage->rating_history(1, 100)->size(), 1u);
    EXPECT_EQ(read_pgn_game(hub->pgn(g1.id).value())->tag("WhiteRatingDiff"),
              std::string(again["game"]["players"]["white"]["rating_diff"].get<int>() > 0 ? "+" : "") +
                  std::to_string(again["game"]["players"]["white"]["rating_diff"].get<int>()));

    Game g2 = start({{"time_control", "15+10"}, {"casual", false}}, &bob, &alice);  // bob is White now
    open_with(g2, {"f2f3", "e7e5", "g2g4", "d8h4"});  // alice (Black) mates
    const double periods = 3 * 0.21436;
    const auto cfg = club::Glicko2Config::lichess();
    const club::Glicko2Rating bob_pre = club::glicko2_widen({r1b->rating, r1b->deviation, r1b->volatility}, periods, cfg);
    const club::Glicko2Rating alice_pre = club::glicko2_widen({r1w->rating, r1w->deviation, r1w->volatility}, periods, cfg);
    EXPECT_GT(bob_pre.deviation, r1b->deviation);
    const club::Glicko2Rating bob_post = after_one(bob_pre, alice_pre, 0.0), alice_post = after_one(alice_pre, bob_pre, 1.0);
    EXPECT_DOUBLE_EQ(rating(2, "rapid")->rating, bob_post.rating);
    EXPECT_DOUBLE_EQ(rating(2, "rapid")->deviation, bob_post.deviation);
    EXPECT_DOUBLE_EQ(rating(1, "rapid")->rating, alice_post.rating);
    EXPECT_EQ(rating(1, "rapid")->games, 2);
    EXPECT_EQ(storage->rating_history(2, 100)->size(), 2u);

    restart();
    (void)hub->state_json(g2.id);
    (void)hub->pgn(g2.id);
    EXPECT_DOUBLE_EQ(rating(1, "rapid")->rating, alice_post.rating);
    EXPECT_EQ(storage->rating_history(1, 100)->size(), 2u);
}

TEST_F(RatingsFixture, P23CasualAbortedAndAnonymousGamesChangeNothing) {
    // Casual (the default) between two accounts.
    Game casual = start({{"time_control", "5+3"}}, &alice, &bob);
    EXPECT_FALSE(casual.white->last_of("state")["game"]["rated"].get<bool>());
    open_with(casual, {"e2e4", "e7e5"});
    send(casual, BLACK, {{"t", "resign"}});
    // Aborted before the first moves.
    Game aborted = start({{"time_control", "5+3"}, {"casual", false}}, &alice, &bob);
    send(aborted, WHITE, {{"t", "abort"}});
    EXPECT_EQ(aborted.white->last_of("state")["game"]["status"], "aborted");
    // Resigned before Black's first move: not decided by play.
    Game early = start({{"time_control", "5+3"}, {"casual", false}}, &alice, &bob);
    open_with(early, {"e2e4"});
    send(early, WHITE, {{"t", "resign"}});
    // Issue 25 item 8: Black has made one move, White two: not rated either.
    Game short_one = start({{"time_control", "5+3"}, {"casual", false}}, &alice, &bob);
    open_with(short_one, {"e2e4", "e7e5", "g1f3"});
    send(short_one, BLACK, {{"t", "resign"}});
    EXPECT_EQ(short_one.white->last_of("state")["game"]["status"], "resignation");
    // An anonymous invitee: not rated, whatever the creator asked.
    Game anon = start({{"time_control", "5+3"}, {"casual", false}}, &alice, nullptr);
    EXPECT_FALSE(anon.white->last_of("state")["game"]["rated"].get<bool>());
    open_with(anon, {"e2e4", "e7e5"});
    send(anon, BLACK, {{"t", "resign"}});
    // No clock: not rated.
    Game untimed = start({{"time_control", "-"}, {"casual", false}}, &alice, &bob);
    EXPECT_FALSE(untimed.white->last_of("state")["game"]["rated"].get<bool>());
    open_with(untimed, {"e2e4", "e7e5"});
    send(untimed, BLACK, {{"t", "resign"}});
    EXPECT_TRUE(no_ratings());
    for (const Game* g : {&casual, &anon, &untimed}) {
        json s = g->white->last_of("state")["game"];
        EXPECT_EQ(s["status"], "resignation");
        EXPECT_FALSE(s["players"]["white"].contains("rating_diff"));
        auto pgn = read_pgn_game(hub->pgn(g->id).value());
        // Issue 28 (8): asked for rated but not rated is an unrated game, not a casual one.
        EXPECT_EQ(pgn->tag("Event"), g == &casual ? "Casual game" : "Unrated game");
        EXPECT_FALSE(pgn->tag("WhiteElo").has_value());
    }
}

TEST_F(RatingsFixture, P23Chess960HasOneClassAtEveryTimeControl) {
    Game g = start({{"time_control", "1+0"}, {"variant", "chess960"}, {"chess960", 518}, {"casual", false}}, &alice, &bob);
    open_with(g, {"e2e4", "e7e5", "g1f3", "b8c6"});
    send(g, WHITE, {{"t", "resign"}});
    EXPECT_TRUE(rating(1, "chess960").has_value());
    EXPECT_FALSE(rating(1, "bullet").has_value());
    EXPECT_LT(rating(1, "chess960")->rating, 1500.0);
}

// The lobby (P22) makes a rated game from a rated seek: both accounts in their seats
// from the start; an anonymous member cannot seek nor accept one.
TEST_F(RatingsFixture, P23RatedSeekInTheLobbyMakesARatedGame) {
    LobbyEnv e;
    e.monotonic_ms = [this] { return now; };
    e.create_game = [this](const std::string& body, const std::string& client, const Account* owner, const Account* other) {
        return hub->create_game(body, client, owner, other);
    };
    e.rating = [this](const std::string& name, std::string_view cls) -> std::optional<LobbyRating> {
        auto r = rating(name == "alice" ? 1 : 2, std::string(cls));
        if (!r) return std::nullopt;
        return LobbyRating{int(std::lround(r->rating)), is_provisional(*r)};
    };
    e.coin = [] { return true; };
    Lobby lobby(e);
    auto a = std::make_shared<Collector>(), b = std::make_shared<Collector>(), anon = std::make_shared<Collector>();
    lobby.join(a, "1.1.1.1", &alice);
    lobby.join(b, "2.2.2.2", &bob);
    lobby.join(anon, "3.3.3.3");
    lobby.handle_message(*anon, R"({"t":"seek","time_control":"3+2","rated":true})");
    EXPECT_EQ(anon->last_of("error")["code"], "account_required");
    lobby.handle_message(*a, R"({"t":"seek","time_control":"3+2","rated":true})");
    const std::string seek = a->last_of("lobby")["seeks"][0]["id"];
    lobby.handle_message(*anon, json{{"t", "accept"}, {"seek", seek}}.dump());
    EXPECT_EQ(anon->last_of("error")["code"], "account_required");
    lobby.handle_message(*b, json{{"t", "accept"}, {"seek", seek}}.dump());
    json paired = a->last_of("paired");
    ASSERT_FALSE(paired.is_null());
    json state = json::parse(hub->state_json(paired["game"]).value())["game"];
    EXPECT_TRUE(state["rated"].get<bool>());
    EXPECT_FALSE(state["casual"].get<bool>());
    EXPECT_EQ(state["players"]["white"]["account"], "alice");  // the coin gives the owner White
    EXPECT_EQ(state["players"]["black"]["account"], "bob");
}

// Issue 25 (rating farming): two accounts of one person traded 30 resignations and
// stood at 2018 against 982. Of the rated games of one pair of accounts within 24
// hours, only the first three change ratings; the others are rated games that change
// nothing (as one without two moves each). A day later the pair is rated again, and
// another pair is never affected.
TEST_F(RatingsFixture, Issue25RepeatedPairIsRatedThreeTimesADay) {
    auto farm = [&](const Account& winner, const Account& loser) {
        Game g = start({{"time_control", "5+3"}, {"casual", false}}, &winner, &loser);
        open_with(g, {"e2e4", "e7e5", "g1f3", "b8c6"});
        send(g, BLACK, {{"t", "resign"}});
        now += 60'000;
        return g;
    };
    for (int i = 0; i < 30; ++i) farm(alice, bob);
    EXPECT_EQ(rating(1, "blitz")->games, 3);
    EXPECT_EQ(rating(2, "blitz")->games, 3);
    EXPECT_LT(rating(1, "blitz")->rating - rating(2, "blitz")->rating, 800.0)
        << rating(1, "blitz")->rating << " against " << rating(2, "blitz")->rating;
    EXPECT_EQ(storage->rating_history(1, 100)->size(), 3u);
    // The fourth game of the day: rated, no change shown or stored.
    Game late = farm(alice, bob);
    json s = late.white->last_of("state")["game"];
    EXPECT_TRUE(s["rated"].get<bool>());
    EXPECT_FALSE(s["players"]["white"].contains("rating_diff")) << s["players"];
    // Another pair is rated as usual.
    Account carol{3, "carol"};
    farm(alice, carol);
    EXPECT_EQ(rating(1, "blitz")->games, 4);
    EXPECT_EQ(rating(3, "blitz")->games, 1);
    // A day after the first three, the pair is rated again.
    now += 24 * 3'600'000LL;
    farm(bob, alice);
    EXPECT_EQ(rating(2, "blitz")->games, 4);
}

// Issue 25 (rating farming): the pair's count is read from the stored ratings' history,
// so a restart between the games does not start it over.
TEST_F(RatingsFixture, Issue25RepeatedPairCountSurvivesARestart) {
    auto farm = [&](const Account& winner, const Account& loser) {
        Game g = start({{"time_control", "5+3"}, {"casual", false}}, &winner, &loser);
        open_with(g, {"e2e4", "e7e5", "g1f3", "b8c6"});
        send(g, BLACK, {{"t", "resign"}});
        now += 60'000;
        return g;
    };
    farm(alice, bob);
    farm(bob, alice);
    restart();
    farm(alice, bob);  // the third of the day: rated
    EXPECT_EQ(rating(1, "blitz")->games, 3);
    restart();
    for (int i = 0; i < 3; ++i) farm(alice, bob);  // past the three: nothing changes
    EXPECT_EQ(rating(1, "blitz")->games, 3);
    EXPECT_EQ(rating(2, "blitz")->games, 3);
    EXPECT_EQ(storage->rating_history(1, 100)->size(), 3u);
    // A day after the first, the pair is rated again (after a restart too).
    now += 24 * 3'600'000LL - 5 * 60'000;
    restart();
    farm(bob, alice);
    EXPECT_EQ(rating(2, "blitz")->games, 4);
}
