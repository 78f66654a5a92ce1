// Outpost — the contract of the game store and the rating store (stores/game_store.h,
// stores/rating_store.h), written against the interfaces only and run on every backend
// of store_backends.h: what is written is read back, whole; unfinished games are the
// live ones; a game is rated once.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <algorithm>

#include "store_backends.h"

using namespace outpost;
using namespace outpost::server;
using namespace outpost::server::testing_stores;

namespace {

StoredGame contract_game(const std::string& id, std::int64_t created_ms) {
    StoredGame g;
    g.id = id;
    g.created_ms = g.updated_ms = created_ms;
    g.white_token = "w-" + id;
    g.black_token = "b-" + id;
    g.white_kind = "human";
    g.black_kind = "robot";
    g.white_name = "Anna";
    g.black_name = "Robot";
    g.robot_level = 3;
    g.robot_elo = 1400;
    g.time_control = "5+3";
    g.variant = "standard";
    g.initial_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    g.white_ms = g.black_ms = 300'000;
    g.running = "white";
    g.turn_started_ms = created_ms;
    return g;
}

StoredMove contract_move(int ply, const std::string& uci) {
    return StoredMove{ply, uci, 299'000 - ply, 298'000 - ply, 1'000 + ply, 297'000 - ply};
}

class GameStoreContract : public StoreContract {};
class RatingStoreContract : public StoreContract {};

TEST_P(GameStoreContract, AGameIsReadBackWithEveryFieldAndMove) {
    auto store = std::move(GetParam().games(where).value());
    StoredGame g = contract_game("g1", 1'000);
    g.casual = true;
    g.chess960 = -1;
    g.offer_plies = "3,7";
    g.draw_offer = "black";
    g.rematch_of = "g0";
    g.client = "192.0.2.1";
    g.white_account = 7;
    g.adjournable = true;
    g.adjournment = R"({"sealed":true})";
    g.deadline_ms = 86'400'000;
    g.first_move = "forfeit";
    g.moves = {contract_move(1, "e2e4"), contract_move(2, "e7e5")};
    ASSERT_TRUE(store->write(GameWrite{GameWrite::INSERT_GAME, g, {}, 0}).ok());
    auto back = store->load_game("g1");
    ASSERT_TRUE(back.ok()) << back.error().message;
    ASSERT_TRUE(back->has_value());
    const StoredGame& b = **back;
    EXPECT_EQ(b.white_token, "w-g1");
    EXPECT_EQ(b.black_kind, "robot");
    EXPECT_EQ(b.robot_elo, 1400);
    EXPECT_EQ(b.time_control, "5+3");
    EXPECT_TRUE(b.casual);
    EXPECT_EQ(b.offer_plies, "3,7");
    EXPECT_EQ(b.draw_offer, "black");
    EXPECT_EQ(b.rematch_of, "g0");
    EXPECT_EQ(b.client, "192.0.2.1");
    EXPECT_EQ(b.white_account, 7);
    EXPECT_EQ(b.black_account, 0);
    EXPECT_TRUE(b.adjournable);
    EXPECT_EQ(b.adjournment, R"({"sealed":true})");
    EXPECT_EQ(b.deadline_ms, 86'400'000);
    EXPECT_EQ(b.first_move, "forfeit");
    ASSERT_EQ(b.moves.size(), 2u);
    EXPECT_EQ(b.moves[1].uci, "e7e5");
    EXPECT_EQ(b.moves[1].clock_after, 297'000 - 2);
    EXPECT_EQ(b.moves[0].at_ms, 1'001);
    auto none = store->load_game("nope");
    ASSERT_TRUE(none.ok());
    EXPECT_FALSE(none->has_value());
}

TEST_P(GameStoreContract, MovesAreAppendedAndTakenBack) {
    auto store = std::move(GetParam().games(where).value());
    StoredGame g = contract_game("g1", 1'000);
    ASSERT_TRUE(store->write(GameWrite{GameWrite::INSERT_GAME, g, {}, 0}).ok());
    const char* ucis[] = {"e2e4", "e7e5", "g1f3", "b8c6"};
    for (int ply = 1; ply <= 4; ++ply) {
        g.running = ply % 2 ? "black" : "white";
        ASSERT_TRUE(store->write(GameWrite{GameWrite::APPEND_MOVE, g, contract_move(ply, ucis[ply - 1]), 0}).ok());
    }
    g.running = "white";
    ASSERT_TRUE(store->write(GameWrite{GameWrite::TRUNCATE_MOVES, g, {}, 2}).ok());
    auto back = store->load_game("g1");
    ASSERT_TRUE(back.ok() && back->has_value());
    ASSERT_EQ((*back)->moves.size(), 2u);
    EXPECT_EQ((*back)->moves[1].uci, "e7e5");
    EXPECT_EQ((*back)->running, "white");
}

// Issue 26: a node paused past its lease writes nothing over its successor's moves.
TEST_P(GameStoreContract, Issue26AWriteWithAnOlderFencingTokenIsRefused) {
    auto store = std::move(GetParam().games(where).value());
    StoredGame g = contract_game("gf", 1'000);
    g.fence = 3;  // made by a node under lease 3
    ASSERT_TRUE(store->write(GameWrite{GameWrite::INSERT_GAME, g, {}, 0}).ok());
    ASSERT_TRUE(store->write(GameWrite{GameWrite::APPEND_MOVE, g, contract_move(1, "e2e4"), 0}).ok());
    StoredGame successor = g;
    successor.fence = 5;  // taken over
    successor.running = "white";
    ASSERT_TRUE(store->write(GameWrite{GameWrite::APPEND_MOVE, successor, contract_move(2, "e7e5"), 0}).ok());
    // The old owner wakes up and writes its own second move: refused, whole batch.
    StoredGame stale = g;
    stale.running = "white";
    auto refused = store->write(GameWrite{GameWrite::APPEND_MOVE, stale, contract_move(2, "c7c5"), 0});
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("fencing token"), std::string::npos) << refused.error().message;
    EXPECT_FALSE(store->write(GameWrite{GameWrite::UPDATE_GAME, stale, {}, 0}).ok());
    auto back = store->load_game("gf");
    ASSERT_TRUE(back.ok() && back->has_value());
    ASSERT_EQ((*back)->moves.size(), 2u);
    EXPECT_EQ((*back)->moves[1].uci, "e7e5");
    EXPECT_EQ((*back)->fence, 5);
    // The same token writes on; a game without leases (0) is never checked.
    successor.running = "black";
    EXPECT_TRUE(store->write(GameWrite{GameWrite::APPEND_MOVE, successor, contract_move(3, "g1f3"), 0}).ok());
    StoredGame one_node = contract_game("g0", 1'000);
    ASSERT_TRUE(store->write(GameWrite{GameWrite::INSERT_GAME, one_node, {}, 0}).ok());
    EXPECT_TRUE(store->write(GameWrite{GameWrite::UPDATE_GAME, one_node, {}, 0}).ok());
}

// D3 under load: a batch of many games' moves (the StorageWriter's group commit), two
// moves of one game among them, text that needs quoting, a game ending in the middle
// and one made in the middle: every move and the last row of each game read back.
TEST_P(GameStoreContract, ABatchOfManyGamesMovesIsReadBackWhole) {
    auto store = std::move(GetParam().games(where).value());
    std::vector<StoredGame> games;
    for (int i = 0; i < 4; ++i) {
        games.push_back(contract_game("b" + std::to_string(i), 1'000));
        games.back().fence = 7;
        ASSERT_TRUE(store->write(GameWrite{GameWrite::INSERT_GAME, games.back(), {}, 0}).ok());
    }
    std::vector<GameWrite> batch;
    const auto move = [&](int k, int ply, const std::string& uci, const std::string& offer) {
        StoredGame& g = games[size_t(k)];
        g.updated_ms = 2'000 + ply * 10 + k;
        g.running = ply % 2 ? "black" : "white";
        g.white_ms = 299'000 - ply;
        g.offer_plies = offer;
        g.draw_offer = ply == 2 ? "white" : "";
        batch.push_back(GameWrite{GameWrite::APPEND_MOVE, g, contract_move(ply, uci), 0});
    };
    move(0, 1, "e2e4", "a \"quoted\", {braced} \\ text");
    move(1, 1, "d2d4", "");
    move(0, 2, "e7e5", "NULL");
    StoredGame made = contract_game("b-new", 2'000);
    made.fence = 7;
    batch.push_back(GameWrite{GameWrite::INSERT_GAME, made, {}, 0});
    move(2, 1, "c2c4", "");
    move(3, 1, "g1f3", "");
    games[3].status = "resign";  // ends with its move: written whole
    games[3].result = "0-1";
    games[3].running = "";
    batch.push_back(GameWrite{GameWrite::UPDATE_GAME, games[3], {}, 0});
    move(1, 2, "d7d5", "");
    ASSERT_TRUE(store->write(batch).ok());
    const auto check = [&](int k, std::vector<std::string> ucis) {
        auto back = store->load_game(games[size_t(k)].id);
        ASSERT_TRUE(back.ok() && back->has_value()) << k;
        const StoredGame& b = **back;
        ASSERT_EQ(b.moves.size(), ucis.size()) << k;
        for (size_t i = 0; i < ucis.size(); ++i) EXPECT_EQ(b.moves[i].uci, ucis[i]) << k;
        EXPECT_EQ(b.moves.back().white_ms, 299'000 - int(ucis.size())) << k;
        EXPECT_EQ(b.updated_ms, games[size_t(k)].updated_ms) << k;
        EXPECT_EQ(b.running, games[size_t(k)].running) << k;
        EXPECT_EQ(b.offer_plies, games[size_t(k)].offer_plies) << k;
        EXPECT_EQ(b.draw_offer, games[size_t(k)].draw_offer) << k;
        EXPECT_EQ(b.status, games[size_t(k)].status) << k;
        EXPECT_EQ(b.fence, 7) << k;
    };
    check(0, {"e2e4", "e7e5"});
    check(1, {"d2d4", "d7d5"});
    check(2, {"c2c4"});
    check(3, {"g1f3"});
    auto fresh = store->load_game("b-new");
    ASSERT_TRUE(fresh.ok() && fresh->has_value());
}

// Issue 26: one game of a batch run by another node now refuses the whole batch.
TEST_P(GameStoreContract, Issue26ABatchWithOneFencedGameWritesNothing) {
    auto store = std::move(GetParam().games(where).value());
    StoredGame a = contract_game("fa", 1'000), b = contract_game("fb", 1'000);
    a.fence = b.fence = 3;
    ASSERT_TRUE(store->write(std::vector<GameWrite>{GameWrite{GameWrite::INSERT_GAME, a, {}, 0},
                                                    GameWrite{GameWrite::INSERT_GAME, b, {}, 0}})
                    .ok());
    StoredGame taken = b;
    taken.fence = 5;  // another node took b
    ASSERT_TRUE(store->write(GameWrite{GameWrite::APPEND_MOVE, taken, contract_move(1, "e2e4"), 0}).ok());
    a.running = b.running = "black";
    auto refused = store->write(std::vector<GameWrite>{GameWrite{GameWrite::APPEND_MOVE, a, contract_move(1, "d2d4"), 0},
                                                       GameWrite{GameWrite::APPEND_MOVE, b, contract_move(2, "e7e5"), 0}});
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("game fb"), std::string::npos) << refused.error().message;
    EXPECT_TRUE(store->load_game("fa").value()->moves.empty()) << "nothing of the batch is written";
    EXPECT_EQ(store->load_game("fb").value()->moves.size(), 1u);
}

TEST_P(GameStoreContract, OnlyUnfinishedGamesAreLive) {
    auto store = std::move(GetParam().games(where).value());
    StoredGame live = contract_game("live", 1'000), over = contract_game("over", 2'000);
    std::vector<GameWrite> batch{GameWrite{GameWrite::INSERT_GAME, live, {}, 0},
                                 GameWrite{GameWrite::INSERT_GAME, over, {}, 0}};
    ASSERT_TRUE(store->write(batch).ok());
    over.status = "mate";
    over.result = "1-0";
    over.running = "";
    ASSERT_TRUE(store->write(GameWrite{GameWrite::UPDATE_GAME, over, {}, 0}).ok());
    auto games = store->load_live_games();
    ASSERT_TRUE(games.ok()) << games.error().message;
    ASSERT_EQ(games->size(), 1u);
    EXPECT_EQ((*games)[0].id, "live");
    auto finished = store->load_game("over");
    ASSERT_TRUE(finished.ok() && finished->has_value());
    EXPECT_EQ((*finished)->status, "mate");
    EXPECT_EQ((*finished)->result, "1-0");
}

// Issue 29: what `outpost puzzles make --db/--database` reads: finished standard games
// with a result, oldest first, ids by bytes at the same time.
TEST_P(GameStoreContract, Issue29TheFinishedStandardGamesAreListedOldestFirst) {
    auto store = std::move(GetParam().games(where).value());
    auto finished = [](const std::string& id, std::int64_t at, const std::string& status, const std::string& result) {
        StoredGame g = contract_game(id, at);
        g.status = status;
        g.result = result;
        g.running = "";
        return g;
    };
    StoredGame c960 = finished("c960", 500, "mate", "0-1");
    c960.variant = "chess960";
    for (const StoredGame& g : {finished("b", 2'000, "mate", "1-0"), finished("a", 2'000, "resign", "0-1"),
                                finished("Z", 2'000, "draw", "1/2-1/2"), finished("old", 1'000, "timeout", "1-0"),
                                finished("aborted", 900, "aborted", "*"), contract_game("live", 800), c960})
        ASSERT_TRUE(store->write(GameWrite{GameWrite::INSERT_GAME, g, {}, 0}).ok());
    auto ids = store->finished_standard_game_ids();
    ASSERT_TRUE(ids.ok()) << ids.error().message;
    EXPECT_EQ(*ids, (std::vector<std::string>{"old", "Z", "a", "b"}));
}

TEST_P(GameStoreContract, GamesAreFoundByTokenAndByAccountNewestFirst) {
    auto store = std::move(GetParam().games(where).value());
    StoredGame a = contract_game("a", 1'000), b = contract_game("b", 2'000), c = contract_game("c", 3'000);
    a.white_account = 5;
    c.black_account = 5;
    c.moves = {contract_move(1, "d2d4")};
    for (const StoredGame& g : {a, b, c}) ASSERT_TRUE(store->write(GameWrite{GameWrite::INSERT_GAME, g, {}, 0}).ok());
    auto by_token = store->games_for_tokens({"w-a", "b-c"});
    ASSERT_TRUE(by_token.ok()) << by_token.error().message;
    std::vector<std::string> ids;
    for (const StoredSummary& s : *by_token) ids.push_back(s.game.id);
    std::sort(ids.begin(), ids.end());
    EXPECT_EQ(ids, (std::vector<std::string>{"a", "c"}));
    auto by_account = store->games_of_account(5, 10);
    ASSERT_TRUE(by_account.ok()) << by_account.error().message;
    ASSERT_EQ(by_account->size(), 2u);
    EXPECT_EQ((*by_account)[0].game.id, "c");
    EXPECT_EQ((*by_account)[0].moves, 1);
    EXPECT_EQ((*by_account)[1].moves, 0);
    EXPECT_EQ(store->games_of_account(5, 1)->size(), 1u);
}

TEST_P(GameStoreContract, AnAnalysisIsKeptOncePerGame) {
    auto store = std::move(GetParam().games(where).value());
    auto none = store->load_analysis("g1");
    ASSERT_TRUE(none.ok());
    EXPECT_FALSE(none->has_value());
    ASSERT_TRUE(store->store_analysis({"g1", "nodes 1000", R"({"v":1})", 5}).ok());
    ASSERT_TRUE(store->store_analysis({"g1", "nodes 2000", R"({"v":2})", 6}).ok());
    auto back = store->load_analysis("g1");
    ASSERT_TRUE(back.ok() && back->has_value());
    EXPECT_EQ((*back)->settings, "nodes 2000");
    EXPECT_EQ((*back)->json, R"({"v":2})");
}

TEST_P(GameStoreContract, TheArbitersResumptionTimeIsKept) {
    auto store = std::move(GetParam().games(where).value());
    StoredGame g = contract_game("g1", 1'000);
    ASSERT_TRUE(store->write(GameWrite{GameWrite::INSERT_GAME, g, {}, 0}).ok());
    EXPECT_FALSE(store->set_arbiter_resume("g1", 123'456).ok());  // only an adjourned game has one
    g.adjournment = R"({"sealed":true})";
    ASSERT_TRUE(store->write(GameWrite{GameWrite::UPDATE_GAME, g, {}, 0}).ok());
    EXPECT_EQ(store->arbiter_resume_at("g1").value(), 0);
    EXPECT_FALSE(store->set_arbiter_resume("nope", 123'456).ok());
    ASSERT_TRUE(store->set_arbiter_resume("g1", 123'456).ok());
    EXPECT_EQ(store->arbiter_resume_at("g1").value(), 123'456);
    EXPECT_EQ(store->load_game("g1").value()->arbiter_resume_ms, 123'456);
}

TEST_P(GameStoreContract, WhatIsWrittenOutlivesTheStore) {
    {
        auto store = std::move(GetParam().games(where).value());
        StoredGame g = contract_game("g1", 1'000);
        g.moves = {contract_move(1, "e2e4")};
        ASSERT_TRUE(store->write(GameWrite{GameWrite::INSERT_GAME, g, {}, 0}).ok());
    }
    auto reopened = std::move(GetParam().games(where).value());
    auto live = reopened->load_live_games();
    ASSERT_TRUE(live.ok());
    ASSERT_EQ(live->size(), 1u);
    ASSERT_EQ((*live)[0].moves.size(), 1u);
}

GameRating contract_rating(double white_after, double black_after) {
    GameRating r;
    r.rating_class = "blitz";
    r.side[0] = {1, 1500, true, 0, StoredRating{"blitz", white_after, 200, 0.06, 1, 9'000}};
    r.side[1] = {2, 1500, true, 0, StoredRating{"blitz", black_after, 200, 0.06, 1, 9'000}};
    r.side[0].diff = int(white_after) - 1500;
    r.side[1].diff = int(black_after) - 1500;
    return r;
}

TEST_P(RatingStoreContract, AGamesRatingsAreStoredWithItOnce) {
    auto games = std::move(GetParam().games(where).value());
    RatingStore* ratings = games.get();
    EXPECT_TRUE(ratings->ratings_of(1).value().empty());
    StoredGame g = contract_game("g1", 1'000);
    g.white_account = 1;
    g.black_account = 2;
    ASSERT_TRUE(games->write(GameWrite{GameWrite::INSERT_GAME, g, {}, 0}).ok());
    g.status = "resign";
    g.result = "1-0";
    g.updated_ms = 9'000;
    g.rating = contract_rating(1662, 1338);
    ASSERT_TRUE(games->write(GameWrite{GameWrite::UPDATE_GAME, g, {}, 0}).ok());
    g.rating = contract_rating(1800, 1200);  // written again: the first stands
    ASSERT_TRUE(games->write(GameWrite{GameWrite::UPDATE_GAME, g, {}, 0}).ok());

    auto white = ratings->ratings_of(1);
    ASSERT_TRUE(white.ok()) << white.error().message;
    ASSERT_EQ(white->size(), 1u);
    EXPECT_EQ((*white)[0].rating_class, "blitz");
    EXPECT_DOUBLE_EQ((*white)[0].rating, 1662);
    EXPECT_EQ((*white)[0].games, 1);
    auto history = ratings->rating_history(2, 10);
    ASSERT_TRUE(history.ok()) << history.error().message;
    ASSERT_EQ(history->size(), 1u);
    EXPECT_EQ((*history)[0].game_id, "g1");
    EXPECT_DOUBLE_EQ((*history)[0].rating, 1338);
    EXPECT_EQ((*history)[0].diff, -162);
    auto back = games->load_game("g1");
    ASSERT_TRUE(back.ok() && back->has_value() && (*back)->rating);
    EXPECT_EQ((*back)->rating->side[0].diff, 162);
    EXPECT_EQ((*back)->rating->side[1].account, 2);
}

TEST_P(RatingStoreContract, TheHistoryIsOldestFirstAndLimited) {
    auto games = std::move(GetParam().games(where).value());
    for (int i = 0; i < 3; ++i) {
        StoredGame g = contract_game("g" + std::to_string(i), 1'000 * (i + 1));
        g.white_account = 1;
        g.black_account = 2;
        g.status = "resign";
        g.result = "1-0";
        g.updated_ms = 10'000 * (i + 1);
        g.rating = contract_rating(1500 + 10 * (i + 1), 1500 - 10 * (i + 1));
        ASSERT_TRUE(games->write(GameWrite{GameWrite::INSERT_GAME, g, {}, 0}).ok());
    }
    auto history = games->rating_history(1, 2);
    ASSERT_TRUE(history.ok()) << history.error().message;
    ASSERT_EQ(history->size(), 2u);
    EXPECT_EQ((*history)[0].game_id, "g1");
    EXPECT_EQ((*history)[1].game_id, "g2");
}

// Issue 25 (rating farming): the rated games between two accounts that changed their
// ratings, from a time on, whichever colour each had; another opponent's and a game
// rated by neither (a casual one, or one the discount left unrated) do not count.
TEST_P(RatingStoreContract, Issue25TheRatedGamesBetweenTwoAccountsSinceATime) {
    auto games = std::move(GetParam().games(where).value());
    auto finished = [&](const std::string& id, std::int64_t white, std::int64_t black, std::int64_t at, bool rated) {
        StoredGame g = contract_game(id, at - 500);
        g.white_account = white;
        g.black_account = black;
        g.status = "resign";
        g.result = "1-0";
        g.updated_ms = at;
        if (rated) {
            g.rating = contract_rating(1510, 1490);
            g.rating->side[0].account = white;
            g.rating->side[1].account = black;
        }
        ASSERT_TRUE(games->write(GameWrite{GameWrite::INSERT_GAME, g, {}, 0}).ok()) << id;
    };
    finished("old", 1, 2, 1'000, true);        // before `since`
    finished("first", 2, 1, 5'000, true);      // 1 black: counted for the pair either way
    finished("other", 1, 3, 6'000, true);      // another opponent
    finished("unrated", 1, 2, 6'500, false);   // no rating changed
    finished("second", 1, 2, 7'000, true);
    for (auto [a, b] : {std::pair<std::int64_t, std::int64_t>{1, 2}, {2, 1}}) {
        auto got = games->rated_games_between(a, b, 5'000);
        ASSERT_TRUE(got.ok()) << got.error().message;
        EXPECT_EQ(*got, (std::vector<std::int64_t>{5'000, 7'000})) << a << " against " << b;
    }
    EXPECT_EQ(games->rated_games_between(1, 2, 0).value().size(), 3u);
    EXPECT_EQ(games->rated_games_between(1, 3, 0).value(), (std::vector<std::int64_t>{6'000}));
    EXPECT_TRUE(games->rated_games_between(2, 3, 0).value().empty());
    EXPECT_TRUE(games->rated_games_between(1, 2, 7'001).value().empty());
}

INSTANTIATE_TEST_SUITE_P(Backends, GameStoreContract, ::testing::ValuesIn(store_backends()), backend_name);
INSTANTIATE_TEST_SUITE_P(Backends, RatingStoreContract, ::testing::ValuesIn(store_backends()), backend_name);

}  // namespace
