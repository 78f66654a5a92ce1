// Outpost — the contract of the puzzle store (stores/puzzle_store.h, issue 29 item 3):
// puzzles kept once per position, the next puzzle near a rating and by theme, the
// attempts and ratings, written against the interface only and run on every backend of
// store_backends.h.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include "store_backends.h"

using namespace outpost;
using namespace outpost::server;
using namespace outpost::server::testing_stores;

namespace {

class PuzzleStoreContract : public StoreContract {};

PuzzleRecord puzzle(const std::string& id, double rating, std::vector<std::string> themes, const std::string& key = "") {
    PuzzleRecord p;
    p.id = id;
    p.fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1";
    p.moves = {"g8h8", "a1a8"};
    p.themes = std::move(themes);
    p.game_url = "/#/game/abc?ply=" + id;
    p.opening_tags = {};
    p.position_key = key.empty() ? "key-" + id : key;
    p.glicko = PuzzleGlicko{rating, 80, 0.09};
    return p;
}

TEST_P(PuzzleStoreContract, Issue29APuzzleIsStoredOncePerPositionWithEveryField) {
    auto store = std::move(GetParam().puzzles(where).value());
    PuzzleRecord a = puzzle("a1", 1500, {"mateIn1", "backRankMate", "endgame"});
    a.opening_tags = {"Sicilian_Defense", "Sicilian_Defense_Najdorf"};
    a.popularity = 93;
    a.plays = 12;
    auto counts = store->add({a, puzzle("b2", 1600, {"fork"}, "key-a1"), puzzle("a1", 1700, {"pin"}, "other")}).value();
    EXPECT_EQ(counts.added, 1);
    EXPECT_EQ(counts.duplicates, 2);  // the same position under another id, and the same id again
    EXPECT_EQ(store->count().value(), 1);
    auto again = store->add({a}).value();
    EXPECT_EQ(again.added, 0);
    EXPECT_EQ(again.duplicates, 1);
    auto got = store->puzzle("a1").value();
    ASSERT_TRUE(got);
    EXPECT_EQ(got->fen, a.fen);
    EXPECT_EQ(got->moves, a.moves);
    EXPECT_EQ(got->themes, a.themes);
    EXPECT_EQ(got->game_url, a.game_url);
    EXPECT_EQ(got->opening_tags, a.opening_tags);
    EXPECT_EQ(got->position_key, "key-a1");
    EXPECT_DOUBLE_EQ(got->glicko.rating, 1500);
    EXPECT_DOUBLE_EQ(got->glicko.deviation, 80);
    EXPECT_EQ(got->popularity, 93);
    EXPECT_EQ(got->plays, 12);
    EXPECT_FALSE(store->puzzle("nope").value());
}

TEST_P(PuzzleStoreContract, Issue29TheNextPuzzleIsTheNearestAboveThenBelowByThemeNotAttempted) {
    auto store = std::move(GetParam().puzzles(where).value());
    ASSERT_TRUE(store->add({puzzle("low", 1200, {"fork", "middlegame"}), puzzle("mid", 1500, {"pin"}),
                            puzzle("high", 1900, {"fork"})}));
    PuzzleQuery q;
    q.from_rating = 1450;
    EXPECT_EQ(store->next(q).value()->id, "mid");
    q.theme = "fork";
    EXPECT_EQ(store->next(q).value()->id, "high");  // the nearest above with the theme
    q.from_rating = 2500;
    EXPECT_EQ(store->next(q).value()->id, "high");  // none above: the nearest below
    q.skip = {"high"};
    EXPECT_EQ(store->next(q).value()->id, "low");
    q.theme = "nosuchtheme";
    EXPECT_FALSE(store->next(q).value());
    // An account is not given a puzzle it attempted.
    PuzzleAttempt at;
    at.account = 5;
    at.puzzle = "mid";
    at.at_ms = 1000;
    ASSERT_TRUE(store->record(at, std::nullopt));
    PuzzleQuery mine;
    mine.account = 5;
    mine.from_rating = 1500;
    EXPECT_EQ(store->next(mine).value()->id, "high");
    mine.account = 6;  // another account is
    EXPECT_EQ(store->next(mine).value()->id, "mid");
    auto themes = store->themes().value();
    ASSERT_EQ(themes.size(), 3u);
    EXPECT_EQ(themes[0], (std::pair<std::string, std::int64_t>("fork", 2)));
    EXPECT_EQ(themes[1], (std::pair<std::string, std::int64_t>("middlegame", 1)));
    EXPECT_EQ(themes[2], (std::pair<std::string, std::int64_t>("pin", 1)));
}

TEST_P(PuzzleStoreContract, Issue29AnAttemptWritesTheRatingsAndTheHistoryNewestFirst) {
    auto store = std::move(GetParam().puzzles(where).value());
    ASSERT_TRUE(store->add({puzzle("p1", 1500, {"fork"}), puzzle("p2", 1600, {"pin"})}));
    EXPECT_FALSE(store->rating(9).value());
    EXPECT_FALSE(store->attempted(9, "p1").value());
    PuzzleAttempt a;
    a.account = 9;
    a.puzzle = "p1";
    a.at_ms = 10'000;
    a.solved = true;
    a.moves = "a1a8";
    a.rating_before = 1500;
    a.rating_after = 1620.5;
    a.puzzle_rating = 1500;
    PuzzleRatingChange change{StoredPuzzleRating{PuzzleGlicko{1620.5, 290, 0.0899}, 10'000, 1},
                              PuzzleGlicko{1480, 78, 0.09}};
    const std::int64_t first = store->record(a, change).value();
    EXPECT_TRUE(store->attempted(9, "p1").value());
    EXPECT_FALSE(store->attempted(8, "p1").value());
    auto r = store->rating(9).value();
    ASSERT_TRUE(r);
    EXPECT_DOUBLE_EQ(r->glicko.rating, 1620.5);
    EXPECT_DOUBLE_EQ(r->glicko.deviation, 290);
    EXPECT_DOUBLE_EQ(r->glicko.volatility, 0.0899);
    EXPECT_EQ(r->last_ms, 10'000);
    EXPECT_EQ(r->attempts, 1);
    auto p = store->puzzle("p1").value();
    EXPECT_DOUBLE_EQ(p->glicko.rating, 1480);
    EXPECT_DOUBLE_EQ(p->glicko.deviation, 78);
    EXPECT_EQ(p->plays, 1);
    // An unrated attempt changes no rating.
    PuzzleAttempt b = a;
    b.puzzle = "p2";
    b.at_ms = 20'000;
    b.solved = false;
    b.rating_after = 1620.5;
    const std::int64_t second = store->record(b, std::nullopt).value();
    EXPECT_GT(second, first);
    EXPECT_EQ(store->rating(9).value()->attempts, 1);
    EXPECT_EQ(store->puzzle("p2").value()->plays, 0);
    auto h = store->history(9, 10).value();
    ASSERT_EQ(h.size(), 2u);
    EXPECT_EQ(h[0].puzzle, "p2");
    EXPECT_FALSE(h[0].solved);
    EXPECT_FALSE(h[0].rated);
    EXPECT_EQ(h[1].puzzle, "p1");
    EXPECT_TRUE(h[1].solved);
    EXPECT_TRUE(h[1].rated);
    EXPECT_EQ(h[1].moves, "a1a8");
    EXPECT_DOUBLE_EQ(h[1].rating_before, 1500);
    EXPECT_DOUBLE_EQ(h[1].rating_after, 1620.5);
    EXPECT_EQ(h[1].puzzle_rating, 1500);
    EXPECT_EQ(h[1].at_ms, 10'000);
    auto page = store->history(9, 10, second).value();
    ASSERT_EQ(page.size(), 1u);
    EXPECT_EQ(page[0].id, first);
    EXPECT_TRUE(store->history(8, 10).value().empty());
}

// The ids to skip come from a guest's page: only data, whatever they hold; an account
// id past 32 bits is an account like another.
TEST_P(PuzzleStoreContract, Issue29SkippedIdsAreDataAndLargeAccountIdsWork) {
    auto store = std::move(GetParam().puzzles(where).value());
    ASSERT_TRUE(store->add({puzzle("low", 1200, {"fork"}), puzzle("mid", 1500, {"fork"})}));
    PuzzleQuery q;
    q.from_rating = 1500;
    q.skip = {"mid", "x') OR 1=1 --", "\"]", "{\"a\":1}", "\xff\xfe", ""};
    EXPECT_EQ(store->next(q).value()->id, "low");
    q.theme = "' OR ''='";
    EXPECT_FALSE(store->next(q).value());
    const std::int64_t big = 5'000'000'000;
    PuzzleAttempt at;
    at.account = big;
    at.puzzle = "mid";
    at.at_ms = 1;
    ASSERT_TRUE(store->record(at, PuzzleRatingChange{StoredPuzzleRating{PuzzleGlicko{1550, 300, 0.09}, 1, 1},
                                                     PuzzleGlicko{1490, 80, 0.09}}));
    PuzzleQuery mine;
    mine.account = big;
    mine.from_rating = 1500;
    EXPECT_EQ(store->next(mine).value()->id, "low");
    EXPECT_TRUE(store->attempted(big, "mid").value());
    EXPECT_FALSE(store->attempted(big % (std::int64_t(1) << 32), "mid").value());
    EXPECT_EQ(store->rating(big).value()->attempts, 1);
    EXPECT_EQ(store->history(big, 5).value().size(), 1u);
}

StoredGame finished_game(const std::string& id, const std::string& status, const std::string& variant, std::int64_t at) {
    StoredGame g;
    g.id = id;
    g.created_ms = g.updated_ms = at;
    g.white_kind = g.black_kind = "human";
    g.time_control = "-";
    g.variant = variant;
    g.initial_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    g.status = status;
    g.result = status == "ongoing" || status == "aborted" ? "*" : "1-0";
    g.white_token = id + "w";
    g.black_token = id + "b";
    return g;
}

TEST_P(PuzzleStoreContract, Issue29TheGeneratorRemembersTheGamesItRead) {
    auto games = std::move(GetParam().games(where).value());
    for (const StoredGame& g : {finished_game("g2", "resignation", "standard", 2'000),
                                finished_game("g1", "checkmate", "standard", 1'000),
                                finished_game("live", "ongoing", "standard", 500),
                                finished_game("aborted", "aborted", "standard", 600),
                                finished_game("c960", "checkmate", "chess960", 700)}) {
        GameWrite w;
        w.kind = GameWrite::INSERT_GAME;
        w.game = g;
        ASSERT_TRUE(games->write(w));
    }
    auto store = std::move(GetParam().puzzles(where).value());
    // Finished standard games, oldest first: not the live, aborted or Chess960 ones.
    EXPECT_EQ(store->games_to_scan(10).value(), (std::vector<std::string>{"g1", "g2"}));
    EXPECT_EQ(store->games_to_scan(1).value(), (std::vector<std::string>{"g1"}));
    EXPECT_FALSE(store->game_scanned("g1").value());
    ASSERT_TRUE(store->mark_game_scanned("g1", 2));
    EXPECT_TRUE(store->game_scanned("g1").value());
    EXPECT_FALSE(store->game_scanned("g2").value());
    EXPECT_EQ(store->games_to_scan(10).value(), (std::vector<std::string>{"g2"}));
}

INSTANTIATE_TEST_SUITE_P(Backends, PuzzleStoreContract, ::testing::ValuesIn(store_backends()), backend_name);

}  // namespace
