// Accounts (SPEC P21): usernames, passwords stored as Argon2id hashes, sessions held
// as HttpOnly cookies and stored only as hashes, "log out everywhere", the
// administrator's reset and disable (`outpost user`).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>

#include "../support/run_outpost.h"
#include "../support/temp_dir_test.h"
#include "server/accounts/accounts.h"

using namespace outpost;
using namespace outpost::server;

namespace {

constexpr std::int64_t T0 = 1'700'000'000'000;

std::unique_ptr<AccountStore> memory_store() {
    auto s = AccountStore::open(":memory:", PasswordCost::cheapest());
    EXPECT_TRUE(s.ok()) << s.error().message;
    return std::move(s).value();
}

}  // namespace

TEST(AccountsP21, UsernamesFollowOneRuleWithAnErrorThatSaysWhichPart) {
    for (const char* good : {"abc", "Magnus_C", "a-b-c", "x1y", "Kasparov1985", "aaaaaaaaaaaaaaaaaaaa"})
        EXPECT_TRUE(check_username(good).ok()) << good;
    struct Bad {
        const char* name;
        const char* says;
    };
    for (const Bad& b : {Bad{"ab", "at least 3"}, Bad{"aaaaaaaaaaaaaaaaaaaaa", "at most 20"},
                         Bad{"_abc", "begins and ends"}, Bad{"abc-", "begins and ends"}, Bad{"a__b", "in a row"},
                         Bad{"a b c", "character 2"}, Bad{"abc\xC3\xA9", "character 4"}, Bad{"Anonymous", "reserved"},
                         Bad{"ROBOT", "reserved"}, Bad{"a\"b;c", "character 2"}}) {
        auto r = check_username(b.name);
        ASSERT_FALSE(r.ok()) << b.name;
        EXPECT_NE(r.error().message.find(b.says), std::string::npos) << b.name << ": " << r.error().message;
    }
}

TEST(AccountsP21, PasswordsNeedLengthAndNotTheUsername) {
    EXPECT_TRUE(check_password("correct horse", "alice").ok());
    EXPECT_TRUE(check_password("\xE0\xB8\xAB\xE0\xB8\xA1\xE0\xB8\xB2\xE0\xB8\x81", "alice").ok());  // Thai, 12 bytes
    EXPECT_FALSE(check_password("short", "alice").ok());
    EXPECT_FALSE(check_password("Alice123", "alice123").ok());
    EXPECT_FALSE(check_password(std::string(1025, 'x'), "alice").ok());
}

TEST(AccountsP21, PasswordsAreStoredAsArgon2idHashesWithSalt) {
    auto h1 = hash_password("correct horse", PasswordCost::cheapest());
    auto h2 = hash_password("correct horse", PasswordCost::cheapest());
    ASSERT_TRUE(h1.ok() && h2.ok());
    EXPECT_EQ(h1->rfind("$argon2id$", 0), 0u) << *h1;
    EXPECT_NE(*h1, *h2);  // a salt of its own each time
    EXPECT_EQ(h1->find("correct"), std::string::npos);
    EXPECT_TRUE(verify_password(*h1, "correct horse"));
    EXPECT_FALSE(verify_password(*h1, "correct horsf"));
    EXPECT_FALSE(verify_password("", "correct horse"));
    EXPECT_FALSE(verify_password("$argon2id$garbage", "correct horse"));
    // The server's cost is libsodium's interactive one: 64 MiB.
    EXPECT_GE(PasswordCost::interactive().memory, std::size_t(64) << 20);
}

TEST(AccountsP21, CreateFindAndNamesUniqueWithoutRegardToCase) {
    auto store = memory_store();
    auto a = store->create("Alice", "correct horse", false, T0);
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_EQ(a->name, "Alice");
    auto again = store->create("ALICE", "another password", false, T0);
    ASSERT_FALSE(again.ok());
    EXPECT_NE(again.error().message.find("taken"), std::string::npos);
    EXPECT_FALSE(store->create("bob", "bob", false, T0).ok());       // password rule
    EXPECT_FALSE(store->create("b", "long enough", false, T0).ok());  // name rule
    auto found = store->find("alice");
    ASSERT_TRUE(found.ok() && found->has_value());
    EXPECT_EQ((*found)->name, "Alice");
    auto none = store->find("nobody");
    ASSERT_TRUE(none.ok());
    EXPECT_FALSE(none->has_value());
    ASSERT_TRUE(store->create("carol", "correct horse", true, T0).ok());
    auto all = store->list();
    ASSERT_TRUE(all.ok());
    ASSERT_EQ(all->size(), 2u);
    EXPECT_EQ((*all)[0].name, "Alice");
    EXPECT_TRUE((*all)[1].admin);
}

TEST(AccountsP21, AuthenticateSaysTheSameForUnknownNameAndWrongPassword) {
    auto store = memory_store();
    ASSERT_TRUE(store->create("alice", "correct horse", false, T0).ok());
    auto ok = store->authenticate("ALICE", "correct horse");
    ASSERT_TRUE(ok.ok()) << ok.error().message;
    EXPECT_EQ(ok->name, "alice");
    auto wrong = store->authenticate("alice", "wrong horse");
    auto unknown = store->authenticate("mallory", "correct horse");
    ASSERT_FALSE(wrong.ok());
    ASSERT_FALSE(unknown.ok());
    EXPECT_EQ(wrong.error().message, unknown.error().message);
    EXPECT_EQ(wrong.error().message, "wrong username or password");
}

TEST(AccountsP21, SessionsSlideExpireAndEnd) {
    auto store = memory_store();
    auto a = store->create("alice", "correct horse", false, T0);
    ASSERT_TRUE(a.ok());
    auto token = store->start_session(a->id, T0);
    ASSERT_TRUE(token.ok());
    EXPECT_EQ(token->size(), size_t(SessionTokenLength));
    auto who = store->session_account(*token, T0 + 1000);
    ASSERT_TRUE(who.ok() && who->has_value());
    EXPECT_EQ((*who)->name, "alice");
    // Used after 29 days: extended by 30 more from then.
    const std::int64_t day = 24LL * 3600 * 1000;
    ASSERT_TRUE(store->session_account(*token, T0 + 29 * day)->has_value());
    EXPECT_TRUE(store->session_account(*token, T0 + 58 * day)->has_value());
    // Unused for more than 30 days: gone.
    EXPECT_FALSE(store->session_account(*token, T0 + 89 * day)->has_value());
    // A token that was never issued, of the right length or not.
    EXPECT_FALSE(store->session_account(std::string(SessionTokenLength, 'a'), T0)->has_value());
    EXPECT_FALSE(store->session_account("", T0)->has_value());
    auto t2 = store->start_session(a->id, T0);
    ASSERT_TRUE(t2.ok());
    EXPECT_TRUE(*store->end_session(*t2));
    EXPECT_FALSE(store->session_account(*t2, T0)->has_value());
    EXPECT_FALSE(*store->end_session(*t2));
}

TEST(AccountsP21, SessionTokensAreStoredOnlyAsHashes) {
    const auto dir = std::filesystem::temp_directory_path() / ("outpost_accounts_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string path = (dir / "a.db").string();
    std::string token;
    {
        auto opened = AccountStore::open(path, PasswordCost::cheapest());
        ASSERT_TRUE(opened.ok()) << opened.error().message;
        auto a = (*opened)->create("alice", "correct horse", false, T0);
        ASSERT_TRUE(a.ok());
        token = *(*opened)->start_session(a->id, T0);
    }
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT token_hash FROM sessions", -1, &st, nullptr), SQLITE_OK);
    ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
    const std::string stored = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(db);
    EXPECT_EQ(stored.size(), 64u);
    EXPECT_EQ(stored.find(token), std::string::npos);
    // Reopened: the session is still there (sessions survive a restart).
    auto reopened = AccountStore::open(path, PasswordCost::cheapest());
    ASSERT_TRUE(reopened.ok());
    EXPECT_TRUE((*reopened)->session_account(token, T0 + 1)->has_value());
    std::filesystem::remove_all(dir);
}

TEST(AccountsP21, LogOutEverywhereAndPasswordChangesEndOtherSessions) {
    auto store = memory_store();
    auto a = store->create("alice", "correct horse", false, T0);
    ASSERT_TRUE(a.ok());
    const std::string phone = *store->start_session(a->id, T0);
    const std::string laptop = *store->start_session(a->id, T0 + 1);
    const std::string club = *store->start_session(a->id, T0 + 2);
    // The player's own change keeps the session it was made from.
    EXPECT_FALSE(store->change_password(a->id, "wrong horse", "battery staple", laptop).ok());
    ASSERT_TRUE(store->change_password(a->id, "correct horse", "battery staple", laptop).ok());
    EXPECT_FALSE(store->session_account(phone, T0 + 3)->has_value());
    EXPECT_FALSE(store->session_account(club, T0 + 3)->has_value());
    EXPECT_TRUE(store->session_account(laptop, T0 + 3)->has_value());
    EXPECT_FALSE(store->authenticate("alice", "correct horse").ok());
    EXPECT_TRUE(store->authenticate("alice", "battery staple").ok());
    (void)store->start_session(a->id, T0 + 4);
    auto ended = store->end_all_sessions(a->id);
    ASSERT_TRUE(ended.ok());
    EXPECT_EQ(*ended, 2);
    EXPECT_FALSE(store->session_account(laptop, T0 + 5)->has_value());
}

TEST(AccountsP21, AnAccountKeepsAtMostTwentySessions) {
    auto store = memory_store();
    auto a = store->create("alice", "correct horse", false, T0);
    ASSERT_TRUE(a.ok());
    const std::string first = *store->start_session(a->id, T0);
    for (int i = 1; i < MaxSessionsPerAccount; ++i) (void)store->start_session(a->id, T0 + i);
    EXPECT_TRUE(store->session_account(first, T0 + 100)->has_value());
    (void)store->start_session(a->id, T0 + 200);  // the 21st: the oldest ends
    EXPECT_FALSE(store->session_account(first, T0 + 300)->has_value());
}

TEST(AccountsP21, AdministratorResetsAndDisables) {
    auto store = memory_store();
    auto a = store->create("alice", "correct horse", false, T0);
    ASSERT_TRUE(a.ok());
    const std::string s = *store->start_session(a->id, T0);
    ASSERT_TRUE(store->set_disabled("alice", true).ok());
    EXPECT_FALSE(store->session_account(s, T0 + 1)->has_value());
    auto refused = store->authenticate("alice", "correct horse");
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().message, "account disabled");
    ASSERT_TRUE(store->set_disabled("alice", false).ok());
    EXPECT_TRUE(store->authenticate("alice", "correct horse").ok());
    const std::string s2 = *store->start_session(a->id, T0 + 2);
    ASSERT_TRUE(store->reset_password("ALICE", "new password here").ok());
    EXPECT_FALSE(store->session_account(s2, T0 + 3)->has_value());
    EXPECT_TRUE(store->authenticate("alice", "new password here").ok());
    EXPECT_FALSE(store->reset_password("nobody", "new password here").ok());
    EXPECT_FALSE(store->set_disabled("nobody", true).ok());
}

TEST(AccountsP21, SessionCookieIsHttpOnlySameSiteAndReadBack) {
    const std::string token(SessionTokenLength, 'A');
    const std::string c = session_cookie(token, false);
    EXPECT_EQ(c.rfind("outpost_session=" + token + ";", 0), 0u) << c;
    EXPECT_NE(c.find("HttpOnly"), std::string::npos);
    EXPECT_NE(c.find("SameSite=Lax"), std::string::npos);
    EXPECT_NE(c.find("Path=/"), std::string::npos);
    EXPECT_EQ(c.find("Secure"), std::string::npos);
    EXPECT_NE(session_cookie(token, true).find("; Secure"), std::string::npos);
    EXPECT_NE(expired_session_cookie(false).find("Max-Age=0"), std::string::npos);
    EXPECT_EQ(session_token_from_cookies("a=1; outpost_session=" + token + "; b=2"), token);
    EXPECT_EQ(session_token_from_cookies("outpost_session=" + token), token);
    EXPECT_FALSE(session_token_from_cookies("outpost_session=short").has_value());
    EXPECT_FALSE(session_token_from_cookies("outpost_session=" + std::string(SessionTokenLength - 1, 'A') + "!"));
    EXPECT_FALSE(session_token_from_cookies("xoutpost_session=" + token).has_value());
    EXPECT_FALSE(session_token_from_cookies("").has_value());
    EXPECT_FALSE(session_token_from_cookies(";;;=;").has_value());
}

class UserCliP21 : public outpost::test::TempDirTest {};

TEST_F(UserCliP21, AddListDisableResetFromTheCommandLine) {
    using outpost::test::run_outpost;
    using outpost::test::shell_quote;
    const std::string db = shell_quote((dir_ / "club.db").string());
    // The password comes on standard input (a file here; a prompt without echo on a terminal).
    auto pw = [this](const std::string& text) { return " < " + shell_quote(write("pw" + text.substr(0, 3), text + "\n")); };
    auto add = run_outpost("user --db " + db + " add alice --admin" + pw("correct horse"));
    EXPECT_EQ(add.exit_code, 0) << add.err;
    EXPECT_EQ(add.out, "created alice (administrator)\n");
    auto taken = run_outpost("user --db " + db + " add ALICE" + pw("correct horse"));
    EXPECT_EQ(taken.exit_code, 1);
    EXPECT_EQ(taken.err, "outpost user: the username 'ALICE' is taken\n");
    auto bad = run_outpost("user --db " + db + " add 'a b'" + pw("correct horse"));
    EXPECT_EQ(bad.exit_code, 1);
    EXPECT_NE(bad.err.find("character 2 of the username"), std::string::npos) << bad.err;
    auto weak = run_outpost("user --db " + db + " add bob" + pw("short"));
    EXPECT_EQ(weak.exit_code, 1);
    EXPECT_EQ(weak.err, "outpost user: a password has at least 8 characters\n");
    auto none = run_outpost("user --db " + db + " add bob < /dev/null");
    EXPECT_EQ(none.exit_code, 1);
    EXPECT_EQ(none.err, "outpost user: no password given\n");
    EXPECT_EQ(run_outpost("user --db " + db + " add bob" + pw("battery staple")).exit_code, 0);
    EXPECT_EQ(run_outpost("user --db " + db + " disable bob").out, "bob disabled\n");
    auto list = run_outpost("user --db " + db + " list");
    EXPECT_EQ(list.out, "alice\tadmin\tactive\nbob\tplayer\tdisabled\n");
    EXPECT_EQ(run_outpost("user --db " + db + " password bob" + pw("a new password")).exit_code, 0);
    auto missing = run_outpost("user --db " + db + " password carol" + pw("a new password"));
    EXPECT_EQ(missing.exit_code, 1);
    EXPECT_EQ(missing.err, "outpost user: no account is named 'carol'\n");
    EXPECT_EQ(run_outpost("user --db " + db + " logout alice").out, "0 sessions of alice ended\n");
    // The passwords set here open the accounts.
    auto store = AccountStore::open((dir_ / "club.db").string());
    ASSERT_TRUE(store.ok());
    EXPECT_TRUE((*store)->authenticate("alice", "correct horse").ok());
    EXPECT_EQ((*store)->authenticate("bob", "a new password").error().message, "account disabled");
}
