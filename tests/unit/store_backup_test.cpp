// Outpost — backups (stores/backup.h, SPEC D7) and their commands, `outpost backup`,
// `outpost restore` and `outpost db check`: a round trip keeps every row, and each bad
// input is refused with one line and exit code 1, leaving nothing half-written (an
// existing target, a folder that cannot be written, a missing database, a text file, a
// truncated SQLite file, a database with a newer schema, one that is not Outpost's).
// The backup while 100 games are played is tests/slow/backup_live_test.cpp.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <sqlite3.h>

#include <atomic>
#include <filesystem>
#include <thread>
#include <string>
#include <vector>

#include "../support/run_outpost.h"
#include "../support/sqlite_peek.h"
#include "../support/temp_dir_test.h"
#include "server/stores/backup.h"
#include "server/stores/schema.h"

using namespace outpost;
using namespace outpost::test;
namespace fs = std::filesystem;

namespace {

using outpost::test::sqlite_exec;
using outpost::test::stored_moves;

// The files in dir, by name.
std::vector<std::string> listing(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

class StoreBackup : public TempDirTest {
protected:
    // An Outpost database (WAL, as the server leaves it) with `moves` moves of game g1.
    std::string make_database(const std::string& name, int moves = 2) {
        const std::string path = (dir_ / name).string();
        EXPECT_TRUE(server::migrate_schema(path));
        std::string sql = "PRAGMA journal_mode=WAL; BEGIN; INSERT INTO moves (game_id, ply, uci, white_ms, black_ms, at_ms) VALUES ";
        for (int i = 1; i <= moves; ++i) {  // (one append at a time: g++ 12 warns -Wstringop-overflow on a chain)
            if (i > 1) sql += ',';
            sql += "('g1', ";
            sql += std::to_string(i);
            sql += i % 2 ? ", 'e2e4', 1, 2, 3)" : ", 'e7e5', 1, 2, 3)";
        }
        sqlite_exec(path, sql + "; COMMIT;");
        return path;
    }
    std::string path(const std::string& name) const { return (dir_ / name).string(); }
    // Runs outpost; expects exit code 1 and one line on standard error naming `words`.
    void expect_refused(const std::vector<std::string>& args, const std::string& words) {
        const CliRun r = run_outpost(args);
        EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
        EXPECT_NE(r.err.find(words), std::string::npos) << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    }
    // Nothing but these names in the test's folder (no temporary file left behind).
    void expect_only(std::vector<std::string> names) {
        std::sort(names.begin(), names.end());
        std::vector<std::string> got;
        for (const std::string& n : listing(dir_))
            if (n.find("-wal") == std::string::npos && n.find("-shm") == std::string::npos) got.push_back(n);
        EXPECT_EQ(got, names);
    }
};

TEST_F(StoreBackup, BackupAndRestoreKeepEveryRow) {
    const std::string db = make_database("live.db", 300);
    const CliRun b = run_outpost({"backup", "--db", db, path("copy.db")});
    ASSERT_EQ(b.exit_code, 0) << b.err;
    EXPECT_NE(b.out.find("backup " + path("copy.db")), std::string::npos) << b.out;
    EXPECT_FALSE(fs::exists(path("copy.db-wal"))) << "a backup is one file";
    EXPECT_EQ(fs::status(path("copy.db")).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);

    const CliRun r = run_outpost({"restore", path("copy.db"), "--db", path("back.db")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(stored_moves(path("back.db"), "g1"), stored_moves(db, "g1"));
    EXPECT_EQ(stored_moves(path("back.db"), "g1").size(), 300u);
    const CliRun c = run_outpost({"db", "--db", path("back.db"), "check"});
    EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
    EXPECT_TRUE(c.has_line("ok")) << c.out;
    expect_only({"live.db", "copy.db", "back.db"});
}

TEST_F(StoreBackup, SmallStepsCopyTheSameSnapshot) {
    const std::string db = make_database("live.db", 2000);
    server::BackupOptions o;
    o.pages_per_step = 1;
    o.pause_ms = 0;
    auto r = server::backup_database(db, path("copy.db"), o);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_GT(r->steps, 10);
    EXPECT_EQ(r->schema_version, server::schema_status(db)->program);
    EXPECT_EQ(stored_moves(path("copy.db"), "g1"), stored_moves(db, "g1"));
}

// A writer in another connection commits all the while (as the server does): the copy,
// one page a chunk, still ends, and it is one snapshot: each transaction wrote a move
// and an analysis together, so the copy holds as many of one as of the other.
TEST_F(StoreBackup, TheCopyIsOneSnapshotWhileAnotherConnectionWrites) {
    const std::string db = make_database("live.db", 2000);
    std::atomic<bool> stop{false};
    std::atomic<int> commits{0};
    std::thread writer([&] {
        sqlite3* w = nullptr;
        sqlite3_open(db.c_str(), &w);
        sqlite3_busy_timeout(w, 5000);
        for (int i = 0; !stop; ++i) {
            std::string id(1, 'w');
            id += std::to_string(i);
            std::string sql = "BEGIN; INSERT INTO moves (game_id, ply, uci, white_ms, black_ms, at_ms) VALUES ('";
            sql += id;
            sql += "', 1, 'e2e4', 1, 2, 3); INSERT INTO analyses (game_id, settings, json, created_ms) VALUES ('";
            sql += id;
            sql += "', '', '{}', 0); COMMIT;";
            if (sqlite3_exec(w, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK) ++commits;
        }
        sqlite3_close(w);
    });
    while (commits < 20) std::this_thread::yield();
    server::BackupOptions o;
    o.pages_per_step = 1;
    o.pause_ms = 1;
    const int before = commits;
    auto r = server::backup_database(db, path("copy.db"), o);
    const int during = commits - before;
    stop = true;
    writer.join();
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_GT(during, 0) << "the writer waited for the copy";
    sqlite3* c = nullptr;
    ASSERT_EQ(sqlite3_open_v2(path("copy.db").c_str(), &c, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(c, "SELECT (SELECT count(*) FROM moves WHERE game_id LIKE 'w%'), (SELECT count(*) FROM analyses)", -1,
                       &s, nullptr);
    ASSERT_EQ(sqlite3_step(s), SQLITE_ROW);
    EXPECT_EQ(sqlite3_column_int(s, 0), sqlite3_column_int(s, 1));
    EXPECT_GE(sqlite3_column_int(s, 0), before);
    sqlite3_finalize(s);
    sqlite3_close(c);
}

TEST_F(StoreBackup, AnInterruptedBackupLeavesNothing) {
    const std::string db = make_database("live.db", 2000);
    server::BackupOptions o;
    o.pages_per_step = 1;
    int asked = 0;
    o.cancelled = [&] { return ++asked == 5; };
    auto r = server::backup_database(db, path("copy.db"), o);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("interrupted"), std::string::npos) << r.error().message;
    expect_only({"live.db"});
}

TEST_F(StoreBackup, BackupRefusesAnExistingTargetUnlessForced) {
    const std::string db = make_database("live.db");
    write("copy.db", "keep me");
    expect_refused({"backup", "--db", db, path("copy.db")}, path("copy.db") + " exists");
    EXPECT_EQ(fs::file_size(path("copy.db")), 7u) << "the existing file was changed";
    const CliRun forced = run_outpost({"backup", "--db", db, "--force", path("copy.db")});
    EXPECT_EQ(forced.exit_code, 0) << forced.err;
    EXPECT_EQ(stored_moves(path("copy.db"), "g1").size(), 2u);
    expect_refused({"backup", "--db", db, "--force", db}, "is the database itself");
}

TEST_F(StoreBackup, BackupRefusesAFolderItCannotWriteIn) {
    const std::string db = make_database("live.db");
    const std::string file = write("plain.txt", "a file, not a folder");
    expect_refused({"backup", "--db", db, file + "/copy.db"}, "cannot write in the folder " + file);
    expect_refused({"backup", "--db", db, path("missing/copy.db")}, "cannot write in the folder " + path("missing"));
    expect_refused({"backup", "--db", db, dir_.string()}, "is a folder");
    expect_only({"live.db", "plain.txt"});
}

TEST_F(StoreBackup, BackupRefusesWhatIsNotAnOutpostDatabase) {
    expect_refused({"backup", "--db", path("missing.db"), path("copy.db")}, "no database at " + path("missing.db"));
    const std::string text = write("notes.txt", std::string(5000, 'x'));
    expect_refused({"backup", "--db", text, path("copy.db")}, text + " is not a SQLite database");
    sqlite_exec(path("other.db"), "CREATE TABLE t (x); INSERT INTO t VALUES (1);");
    expect_refused({"backup", "--db", path("other.db"), path("copy.db")}, "not an Outpost database");
    expect_only({"notes.txt", "other.db"});
}

TEST_F(StoreBackup, RestoreRefusesToReplaceWithoutForce) {
    const std::string db = make_database("live.db", 4);
    const std::string backup = make_database("copy.db", 6);
    expect_refused({"restore", backup, "--db", db}, db + " exists");
    EXPECT_EQ(stored_moves(db, "g1").size(), 4u) << "the database was changed";
    // --force: the stale -wal and -shm of the old database go (an old WAL applied to the
    // new file would damage it).
    sqlite_exec(db, "PRAGMA wal_checkpoint(TRUNCATE);");
    write("live.db-wal", std::string(4096, 'w'));
    const CliRun r = run_outpost({"restore", backup, "--db", db, "--force"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(fs::exists(db + "-wal"));
    EXPECT_FALSE(fs::exists(db + "-shm"));
    EXPECT_EQ(stored_moves(db, "g1").size(), 6u);
    EXPECT_EQ(run_outpost({"db", "--db", db, "check"}).exit_code, 0);
}

TEST_F(StoreBackup, RestoreRefusesWhatIsNotAnOutpostDatabase) {
    const std::string target = path("new.db");
    expect_refused({"restore", path("missing.db"), "--db", target}, "no backup at " + path("missing.db"));
    const std::string text = write("notes.txt", "PRAGMA this is not a database\n");
    expect_refused({"restore", text, "--db", target}, text + " is not a SQLite database");
    sqlite_exec(path("other.db"), "CREATE TABLE t (x); INSERT INTO t VALUES (1);");
    expect_refused({"restore", path("other.db"), "--db", target}, "not an Outpost database");
    // A newer schema: a backup made by a newer outpost.
    const std::string newer = make_database("newer.db");
    sqlite_exec(newer, "PRAGMA user_version=99;");
    expect_refused({"restore", newer, "--db", target}, "schema version 99, newer than this program's");
    // Truncated: the first half of a database of many pages.
    const std::string whole = make_database("whole.db", 3000);
    sqlite_exec(whole, "PRAGMA journal_mode=DELETE;");
    fs::copy_file(whole, path("half.db"));
    fs::resize_file(path("half.db"), fs::file_size(whole) / 2);
    expect_refused({"restore", path("half.db"), "--db", target}, path("half.db") + " is damaged");
    // No --db at all: the command says what is missing.
    const CliRun r = run_outpost({"restore", whole});
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("--db is required"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(target));
    expect_only({"notes.txt", "other.db", "newer.db", "whole.db", "half.db"});
}

TEST_F(StoreBackup, CheckSaysOkOrWhatIsWrong) {
    const std::string db = make_database("live.db", 3000);
    const CliRun ok = run_outpost({"db", "--db", db, "check"});
    EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
    EXPECT_TRUE(ok.has_line("ok")) << ok.out;

    sqlite_exec(db, "PRAGMA journal_mode=DELETE;");
    fs::copy_file(db, path("half.db"));
    fs::resize_file(path("half.db"), fs::file_size(db) / 2);
    const CliRun half = run_outpost({"db", "--db", path("half.db"), "check"});
    EXPECT_EQ(half.exit_code, 1);
    EXPECT_NE(half.out.find(path("half.db") + " is damaged"), std::string::npos) << half.out;

    const std::string text = write("notes.txt", "hello\n");
    const CliRun t = run_outpost({"db", "--db", text, "check"});
    EXPECT_EQ(t.exit_code, 1);
    EXPECT_TRUE(t.has_line(text + " is not a SQLite database")) << t.out;

    sqlite_exec(db, "PRAGMA user_version=99;");
    const CliRun newer = run_outpost({"db", "--db", db, "check"});
    EXPECT_EQ(newer.exit_code, 1);
    EXPECT_NE(newer.out.find("newer than this program's"), std::string::npos) << newer.out;

    expect_refused({"db", "--db", path("missing.db"), "check"}, "no database at " + path("missing.db"));
    EXPECT_FALSE(fs::exists(path("missing.db"))) << "check created the database";
}

TEST_F(StoreBackup, CheckReportThroughTheInterface) {
    const std::string db = make_database("live.db");
    auto r = server::check_database(db);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(r->ok());
    EXPECT_EQ(r->schema_version, r->program_version);
    EXPECT_FALSE(server::check_database(path("missing.db")));
}

}  // namespace
