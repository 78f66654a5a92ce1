// Outpost — the store backends the contract suites run on (store_*contract_test.cpp):
// one StoreBackend per database, each a way to make an empty database and to open each
// store on it: SQLite (a temporary file) and PostgreSQL (a database of the test
// process's own server, tests/support/postgres_server.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <unistd.h>
#include <vector>

#include "server/stores/account_store.h"
#include "server/stores/admin_store.h"
#include "server/stores/event_store.h"
#include "server/stores/game_store.h"
#include "server/stores/puzzle_store.h"
#include "server/stores/postgres/pg_stores.h"
#include "server/stores/simul_store.h"
#include "../support/postgres_server.h"

namespace outpost::server::testing_stores {

struct StoreBackend {
    std::string name;
    // Why this backend cannot run here ("" when it can), and whether that is a skip
    // (the developer said so) rather than a failure.
    std::function<std::string()> unavailable = [] { return std::string(); };
    bool skipped = false;
    // A new, empty database for one test (its location as the stores open it), and
    // dropping it after.
    std::function<std::string(const std::string& test)> fresh;
    std::function<void(const std::string& where)> drop;
    std::function<Result<std::unique_ptr<Storage>>(const std::string&)> games;  // also the RatingStore
    std::function<Result<std::unique_ptr<AccountStore>>(const std::string&)> accounts;
    std::function<Result<std::unique_ptr<EventStore>>(const std::string&)> events;
    std::function<Result<std::unique_ptr<SimulStore>>(const std::string&)> simuls;
    std::function<Result<std::unique_ptr<AdminStore>>(const std::string&)> admin;  // SPEC D9
    std::function<Result<std::unique_ptr<PuzzleStore>>(const std::string&)> puzzles;  // issue 29
};

// Test names say the backend; the parameter prints as its name, not as bytes.
inline void PrintTo(const StoreBackend& b, std::ostream* os) { *os << b.name; }

inline void remove_sqlite_files(const std::string& path) {
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
}

inline StoreBackend sqlite_backend() {
    StoreBackend b;
    b.name = "SQLite";
    b.fresh = [](const std::string& test) {
        const std::string path = (std::filesystem::temp_directory_path() /
                                  ("outpost-contract-" + std::to_string(::getpid()) + "-" + test + ".db"))
                                     .string();
        remove_sqlite_files(path);
        return path;
    };
    b.drop = remove_sqlite_files;
    b.games = [](const std::string& w) { return Storage::open(w); };
    b.accounts = [](const std::string& w) { return AccountStore::open(w, PasswordCost::cheapest()); };
    b.events = [](const std::string& w) { return EventStore::open(w); };
    b.simuls = [](const std::string& w) { return SimulStore::open(w); };
    b.admin = [](const std::string& w) { return AdminStore::open(w); };
    b.puzzles = [](const std::string& w) { return PuzzleStore::open(w); };
    return b;
}

// PostgreSQL (issue 26): one server per test process, one database per test. These
// run as one CTest entry (tests/CMakeLists.txt), so that the server starts once.
inline StoreBackend postgres_backend() {
    using outpost::test::PostgresServer;
    StoreBackend b;
    b.name = "PostgreSQL";
    b.skipped = PostgresServer::skipped_by_developer();
    b.unavailable = [] {
        PostgresServer& pg = PostgresServer::get();
        return pg.ok() ? std::string() : pg.failure();
    };
    b.fresh = [](const std::string&) {
        std::string why;
        std::string url = PostgresServer::get().create_database(why);
        if (url.empty()) ADD_FAILURE() << why;
        return url;
    };
    b.drop = [](const std::string& url) {
        if (!url.empty()) PostgresServer::get().drop_database(url);
    };
    b.games = [](const std::string& w) { return postgres::open_games(w); };
    b.accounts = [](const std::string& w) { return postgres::open_accounts(w, PasswordCost::cheapest()); };
    b.events = [](const std::string& w) { return postgres::open_events(w); };
    b.simuls = [](const std::string& w) { return postgres::open_simuls(w); };
    b.admin = [](const std::string& w) { return postgres::open_admin(w); };
    b.puzzles = [](const std::string& w) { return postgres::open_puzzles(w); };
    return b;
}

inline std::vector<StoreBackend> store_backends() {
    return {sqlite_backend(), postgres_backend()};
}

inline std::string backend_name(const ::testing::TestParamInfo<StoreBackend>& info) { return info.param.name; }

// A fixture of one test on one backend: a fresh database, dropped at the end.
class StoreContract : public ::testing::TestWithParam<StoreBackend> {
protected:
    void SetUp() override {
        if (const std::string why = GetParam().unavailable(); !why.empty()) {
            if (GetParam().skipped) GTEST_SKIP() << why;
            FAIL() << GetParam().name << " is not available: " << why;
        }
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        std::string test = std::string(info->test_suite_name()) + "-" + info->name();
        for (char& c : test)
            if (c == '/') c = '-';
        where = GetParam().fresh(test);
    }
    void TearDown() override {
        if (!where.empty()) GetParam().drop(where);
    }
    std::string where;
};

}  // namespace outpost::server::testing_stores
