// Outpost — issue 26 item 1: `outpost db copy --from FILE.db --to postgresql://…` moves
// everything an SQLite server holds into PostgreSQL. An SQLite database is filled
// through the stores (games in progress, finished and rated, adjourned; accounts and a
// session; an event; a simul; the admin's rows; an analysis; puzzles, a puzzle rating
// and its attempt, a game the puzzle generator has read), copied by the real
// executable into a database of the test's own PostgreSQL (tests/support/
// postgres_server.h), and everything is found again through the PostgreSQL stores.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <regex>

#include "../support/postgres_server.h"
#include "../support/run_outpost.h"
#include "../support/temp_dir_test.h"
#include "server/stores/postgres/pg_stores.h"

namespace {

using namespace outpost;
using namespace outpost::server;
using outpost::test::PostgresServer;

constexpr const char* Password = "a long enough password";

StoredGame game(const std::string& id, std::int64_t at) {
    StoredGame g;
    g.id = id;
    g.created_ms = g.updated_ms = at;
    g.white_token = "w-" + id;
    g.black_token = "b-" + id;
    g.white_kind = g.black_kind = "human";
    g.white_name = "Anna";
    g.black_name = "Boris";
    g.time_control = "5+3";
    g.variant = "standard";
    g.initial_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    g.white_ms = g.black_ms = 300'000;
    g.running = "white";
    g.turn_started_ms = at;
    g.moves = {StoredMove{1, "e2e4", 299'000, 300'000, at + 1, 299'000}, StoredMove{2, "e7e5", 299'000, 298'500, at + 2, 298'500}};
    return g;
}

PlayerReport report(std::int64_t at, std::int64_t account, const std::string& name, const std::string& kind,
                    const std::string& target, const std::string& reason) {
    PlayerReport r;
    r.at_ms = at;
    r.reporter_account = account;
    r.reporter_name = name;
    r.kind = kind;
    r.target = target;
    r.reason = reason;
    return r;
}

class PostgresCopy : public outpost::test::TempDirTest {};

TEST_F(PostgresCopy, Issue26EverythingOfAnSqliteServerIsFoundInPostgresAfterTheCopy) {
    OUTPOST_REQUIRE_POSTGRES();
    const std::string db = (dir_ / "club.db").string();
    std::string why;
    const std::string url = PostgresServer::get().create_database(why);
    ASSERT_FALSE(url.empty()) << why;

    // The SQLite server's data, through its stores.
    std::int64_t anna = 0, boris = 0, event_id = 0, report_id = 0;
    std::string token;
    {
        auto accounts = AccountStore::open(db, PasswordCost::cheapest()).value();
        anna = accounts->create("Anna", Password, true, 1'000).value().id;
        boris = accounts->create("Boris", Password, false, 2'000).value().id;
        token = accounts->start_session(boris, 3'000).value();
        auto games = Storage::open(db).value();
        StoredGame live = game("live1", 10'000);
        live.white_account = anna;
        live.deadline_ms = 86'400'000;
        ASSERT_TRUE(games->write(GameWrite{GameWrite::INSERT_GAME, live, {}, 0}).ok());
        StoredGame adjourned = game("adj1", 11'000);
        adjourned.adjournable = true;
        adjourned.adjournment = R"({"sealed":true})";
        ASSERT_TRUE(games->write(GameWrite{GameWrite::INSERT_GAME, adjourned, {}, 0}).ok());
        ASSERT_TRUE(games->set_arbiter_resume("adj1", 99'000).ok());
        StoredGame over = game("over1", 12'000);
        over.white_account = anna;
        over.black_account = boris;
        over.status = "resign";
        over.result = "1-0";
        over.running = "";
        over.updated_ms = 20'000;
        GameRating r;
        r.rating_class = "blitz";
        r.side[0] = {anna, 1500, true, 162, StoredRating{"blitz", 1662.123456789, 290.5, 0.0599999, 1, 20'000}};
        r.side[1] = {boris, 1500, true, -162, StoredRating{"blitz", 1337.876543211, 290.5, 0.0600001, 1, 20'000}};
        over.rating = r;
        ASSERT_TRUE(games->write(GameWrite{GameWrite::INSERT_GAME, over, {}, 0}).ok());
        ASSERT_TRUE(games->store_analysis({"over1", "nodes 1000", R"({"moves":[]})", 21'000}).ok());
        auto events = EventStore::open(db).value();
        StoredEvent e;
        e.name = "Club Swiss";
        e.organiser = anna;
        e.organiser_name = "Anna";
        e.rounds = 3;
        e.time_control = "15+10";
        e.tiebreaks = "BH";
        e.created_ms = 4'000;
        e.current_round = 1;
        e.round_started_ms = {5'000};
        e.players = {EventPlayer{1, anna, "Anna", 1662, 0, 1, {3}}, EventPlayer{2, boris, "Boris", 1338, 0, 1, {}}};
        e.boards = {EventBoard{1, 1, 1, 2, "over1", "w-over1", "b-over1", "1-0", ""}};
        event_id = events->save(e).value();
        auto simuls = SimulStore::open(db).value();
        ASSERT_TRUE(simuls->save("sim1", anna, "started", 6'000, R"({"id":"sim1","boards":2})").ok());
        auto admin = AdminStore::open(db).value();
        ASSERT_TRUE(admin->audit(AuditEntry{0, 7'000, anna, "Anna", "disable", "account:Boris", "{}", "{}"}).ok());
        report_id = admin->add_report(report(8'000, boris, "Boris", "game", "over1", "engine?")).value();
        ASSERT_TRUE(admin->set_arbiter_reason("over1", "fair play").ok());
        // Issue 29: the puzzle tables.
        auto puzzles = PuzzleStore::open(db).value();
        PuzzleRecord p;
        p.id = "pz1";
        p.fen = "6k1/5ppp/8/8/8/8/5PPP/R5K1 b - - 0 1";
        p.moves = {"g8h8", "a1a8"};
        p.themes = {"mateIn1", "backRankMate"};
        p.game_url = "/#/game/over1?ply=3";
        p.opening_tags = {"Kings_Pawn_Game"};
        p.position_key = "key-pz1";
        p.glicko = PuzzleGlicko{1523.25, 80, 0.09};
        p.popularity = 7;
        ASSERT_EQ(puzzles->add({p}).value().added, 1);
        PuzzleAttempt a;
        a.account = boris;
        a.puzzle = "pz1";
        a.at_ms = 30'000;
        a.solved = true;
        a.moves = "a1a8";
        a.rating_before = 1500;
        a.rating_after = 1587.5;
        a.puzzle_rating = 1523;
        const PuzzleRatingChange change{StoredPuzzleRating{PuzzleGlicko{1587.5, 310.25, 0.0899}, 30'000, 1},
                                        PuzzleGlicko{1490.75, 79, 0.09}};
        ASSERT_GT(puzzles->record(a, change).value(), 0);
        ASSERT_TRUE(puzzles->mark_game_scanned("over1", 1).ok());
    }

    const auto copied = outpost::test::run_outpost("db copy --from " + outpost::test::shell_quote(db) + " --to " +
                                                   outpost::test::shell_quote(url));
    ASSERT_EQ(copied.exit_code, 0) << copied.err << copied.out;
    EXPECT_TRUE(copied.has_line("games: 3 rows in " + db + ", 3 in the copy")) << copied.out;
    EXPECT_TRUE(copied.has_line("moves: 6 rows in " + db + ", 6 in the copy")) << copied.out;
    EXPECT_TRUE(copied.has_line("accounts: 2 rows in " + db + ", 2 in the copy")) << copied.out;
    EXPECT_TRUE(copied.has_line("rating_history: 2 rows in " + db + ", 2 in the copy")) << copied.out;
    EXPECT_TRUE(copied.has_line("event_players: 2 rows in " + db + ", 2 in the copy")) << copied.out;
    EXPECT_TRUE(copied.has_line("puzzles: 1 rows in " + db + ", 1 in the copy")) << copied.out;
    EXPECT_TRUE(copied.has_line("puzzle_attempts: 1 rows in " + db + ", 1 in the copy")) << copied.out;
    EXPECT_NE(copied.out.find("every count checked"), std::string::npos) << copied.out;

    // Everything, through the PostgreSQL stores.
    auto games = postgres::open_games(url);
    ASSERT_TRUE(games.ok()) << games.error().message;
    auto live = (*games)->load_live_games().value();
    EXPECT_EQ(live.size(), 2u);  // live1 and adj1
    auto live1 = (*games)->load_game("live1").value();
    ASSERT_TRUE(live1.has_value());
    EXPECT_EQ(live1->moves.size(), 2u);
    EXPECT_EQ(live1->moves[1].clock_after, 298'500);
    EXPECT_EQ(live1->white_account, anna);
    EXPECT_EQ(live1->black_account, 0);  // NULL stays NULL
    EXPECT_EQ(live1->deadline_ms, 86'400'000);
    EXPECT_EQ((*games)->arbiter_resume_at("adj1").value(), 99'000);
    EXPECT_EQ((*games)->load_game("adj1").value()->adjournment, R"({"sealed":true})");
    auto over = (*games)->load_game("over1").value();
    ASSERT_TRUE(over.has_value() && over->rating.has_value());
    EXPECT_EQ(over->result, "1-0");
    EXPECT_EQ(over->rating->side[1].diff, -162);
    auto ratings = (*games)->ratings_of(anna).value();
    ASSERT_EQ(ratings.size(), 1u);
    EXPECT_EQ(ratings[0].rating, 1662.123456789);  // every digit of a real
    EXPECT_EQ(ratings[0].volatility, 0.0599999);
    EXPECT_EQ((*games)->rating_history(boris, 10).value().size(), 1u);
    EXPECT_EQ((*games)->load_analysis("over1").value()->json, R"({"moves":[]})");

    auto accounts = postgres::open_accounts(url, PasswordCost::cheapest()).value();
    EXPECT_TRUE(accounts->authenticate("anna", Password).ok());
    EXPECT_TRUE(accounts->find("Anna").value()->admin);
    auto session = accounts->session_account(token, 4'000);
    ASSERT_TRUE(session.ok() && session->has_value()) << "the session survives the copy";
    EXPECT_EQ((*session)->id, boris);
    // The ids the database gives go on after the copied ones.
    EXPECT_GT(accounts->create("Chen", Password, false, 9'000).value().id, boris);

    auto events = postgres::open_events(url).value()->load_all().value();
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].id, event_id);
    EXPECT_EQ(events[0].players[0].byes, std::set<int>{3});
    EXPECT_EQ(events[0].boards[0].game_id, "over1");
    EXPECT_EQ(postgres::open_simuls(url).value()->load("sim1").value().value(), R"({"id":"sim1","boards":2})");
    auto admin = postgres::open_admin(url).value();
    EXPECT_EQ(admin->audit_log(10).value().size(), 1u);
    EXPECT_EQ(admin->report(report_id).value()->reason, "engine?");
    EXPECT_EQ(admin->arbiter_reason("over1").value(), "fair play");
    EXPECT_GT(admin->add_report(report(9'000, anna, "Anna", "player", "Chen", "rude")).value(), report_id);
    auto puzzles = postgres::open_puzzles(url);
    ASSERT_TRUE(puzzles.ok()) << puzzles.error().message;
    auto pz1 = (*puzzles)->puzzle("pz1").value();
    ASSERT_TRUE(pz1.has_value());
    EXPECT_EQ(pz1->moves, (std::vector<std::string>{"g8h8", "a1a8"}));
    EXPECT_EQ(pz1->opening_tags, std::vector<std::string>{"Kings_Pawn_Game"});
    EXPECT_EQ(pz1->glicko.rating, 1490.75);  // as the rated attempt left it
    EXPECT_EQ(pz1->plays, 1);
    EXPECT_EQ((*puzzles)->themes().value(),
              (std::vector<std::pair<std::string, std::int64_t>>{{"backRankMate", 1}, {"mateIn1", 1}}));
    auto attempts = (*puzzles)->history(boris, 10).value();
    ASSERT_EQ(attempts.size(), 1u);
    EXPECT_EQ(attempts[0].puzzle, "pz1");
    EXPECT_TRUE(attempts[0].solved && attempts[0].rated);
    EXPECT_EQ(attempts[0].moves, "a1a8");
    EXPECT_EQ(attempts[0].rating_after, 1587.5);
    auto boris_rating = (*puzzles)->rating(boris).value();
    ASSERT_TRUE(boris_rating.has_value());
    EXPECT_EQ(boris_rating->glicko.deviation, 310.25);
    EXPECT_EQ(boris_rating->attempts, 1);
    EXPECT_TRUE((*puzzles)->attempted(boris, "pz1").value());
    EXPECT_TRUE((*puzzles)->game_scanned("over1").value());
    PuzzleAttempt later;
    later.account = anna;
    later.puzzle = "pz1";
    later.at_ms = 40'000;
    EXPECT_GT((*puzzles)->record(later, std::nullopt).value(), attempts[0].id);

    // The operator's commands on the PostgreSQL server's database.
    const auto dora = outpost::test::run_outpost("user --database " + outpost::test::shell_quote(url) + " add Dora --admin < " +
                                                 outpost::test::shell_quote(write("pw", "correct horse battery\n")));
    EXPECT_EQ(dora.exit_code, 0) << dora.err;
    EXPECT_TRUE(accounts->authenticate("dora", "correct horse battery").ok());
    const auto resume = outpost::test::run_outpost("game --database " + outpost::test::shell_quote(url) +
                                                   " resume adj1 --at 2026-12-01T18:00:00Z");
    EXPECT_EQ(resume.exit_code, 0) << resume.err;
    EXPECT_EQ((*games)->arbiter_resume_at("adj1").value(), 1'796'148'000'000);
    const auto imported = outpost::test::run_outpost(
        "puzzles import --database " + outpost::test::shell_quote(url) + " " +
        outpost::test::shell_quote(write("p.csv",
                                         "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,"
                                         "OpeningTags\n"
                                         "00sHx,q3k1nr/1pp1nQpp/3p4/1P2p3/4P3/B1PP1b2/B5PP/5K2 b k - 0 17,e8d7 a2e6 d7d8 "
                                         "f7f8,1760,80,83,72,mate mateIn2 middlegame short,"
                                         "https://lichess.org/yyznGmXs/black#34,Italian_Game\n")));
    EXPECT_EQ(imported.exit_code, 0) << imported.err;
    EXPECT_TRUE(imported.has_line("1 read, 1 new, 0 duplicates")) << imported.out;
    EXPECT_EQ((*puzzles)->count().value(), 2);
    // `puzzles make --database` reads the finished games of PostgreSQL (over1 only).
    const auto made = outpost::test::run_outpost("puzzles make --nodes 20000 --scan-nodes 2000 --database " +
                                                 outpost::test::shell_quote(url));
    EXPECT_EQ(made.exit_code, 0) << made.err;
    EXPECT_NE(made.err.find("done: 1 games (0 skipped)"), std::string::npos) << made.err;
    EXPECT_EQ(made.out.rfind("PuzzleId,FEN,Moves,", 0), 0u) << made.out;

    // A second copy into a database that holds data is refused, and changes nothing.
    const auto again = outpost::test::run_outpost("db copy --from " + outpost::test::shell_quote(db) + " --to " +
                                                  outpost::test::shell_quote(url));
    EXPECT_EQ(again.exit_code, 1);
    EXPECT_NE(again.err.find("already holds data"), std::string::npos) << again.err;
    EXPECT_EQ(postgres::open_games(url).value()->load_live_games().value().size(), 2u);
    // `db status --database` reads the PostgreSQL schema version.
    const auto status = outpost::test::run_outpost("db --database " + outpost::test::shell_quote(url) + " status");
    EXPECT_EQ(status.exit_code, 0) << status.err;
    EXPECT_TRUE(status.has_line("no migration pending")) << status.out;
    PostgresServer::get().drop_database(url);
}

TEST_F(PostgresCopy, Issue26ACopyFromAMissingFileOrToAnUnreachableDatabaseSaysWhy) {
    OUTPOST_REQUIRE_POSTGRES();
    const auto missing = outpost::test::run_outpost("db copy --from " + outpost::test::shell_quote((dir_ / "none.db").string()) +
                                                    " --to postgresql:///x?host=/nonexistent");
    EXPECT_EQ(missing.exit_code, 1);
    EXPECT_NE(missing.err.find("no database at"), std::string::npos) << missing.err;
    {
        auto accounts = AccountStore::open((dir_ / "a.db").string(), PasswordCost::cheapest()).value();
    }
    const auto unreachable = outpost::test::run_outpost("db copy --from " + outpost::test::shell_quote((dir_ / "a.db").string()) +
                                                        " --to 'postgresql://u:secret@/x?host=/nonexistent'");
    EXPECT_EQ(unreachable.exit_code, 1);
    EXPECT_NE(unreachable.err.find("cannot connect to the database"), std::string::npos) << unreachable.err;
    EXPECT_EQ(unreachable.err.find("secret"), std::string::npos) << "the password is never shown: " << unreachable.err;
    const auto not_url = outpost::test::run_outpost("db copy --from a.db --to other.db");
    EXPECT_NE(not_url.exit_code, 0);
}

}  // namespace
