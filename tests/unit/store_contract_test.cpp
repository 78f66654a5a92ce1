// Outpost — the contracts of the account, event and simul stores (stores/*_store.h),
// written against the interfaces only and run on every backend of store_backends.h
// (the game and rating stores' are in store_games_contract_test.cpp).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <atomic>
#include <gtest/gtest.h>

#include <algorithm>

#include "store_backends.h"

using namespace outpost;
using namespace outpost::server;
using namespace outpost::server::testing_stores;

namespace {

constexpr const char* Password = "a long enough password";

class AccountStoreContract : public StoreContract {};
class EventStoreContract : public StoreContract {};
class SimulStoreContract : public StoreContract {};

TEST_P(AccountStoreContract, AnAccountIsFoundByItsNameWhateverTheCase) {
    auto store = std::move(GetParam().accounts(where).value());
    auto made = store->create("Anna_K", Password, true, 1'000);
    ASSERT_TRUE(made.ok()) << made.error().message;
    EXPECT_GT(made->id, 0);
    auto found = store->find("anna_k");
    ASSERT_TRUE(found.ok() && found->has_value());
    EXPECT_EQ((*found)->name, "Anna_K");
    EXPECT_TRUE((*found)->admin);
    EXPECT_EQ((*found)->created_ms, 1'000);
    EXPECT_FALSE(store->create("ANNA_k", Password, false, 2'000).ok());
    ASSERT_TRUE(store->create("Boris", Password, false, 2'000).ok());
    EXPECT_EQ(store->list().value().size(), 2u);
    EXPECT_FALSE(store->find("nobody").value().has_value());
}

TEST_P(AccountStoreContract, SignInNeedsTheRightPasswordOfAnEnabledAccount) {
    auto store = std::move(GetParam().accounts(where).value());
    ASSERT_TRUE(store->create("Anna", Password, false, 1'000).ok());
    EXPECT_TRUE(store->authenticate("anna", Password).ok());
    auto wrong = store->authenticate("Anna", "not the password");
    ASSERT_FALSE(wrong.ok());
    EXPECT_EQ(wrong.error().message, store->authenticate("Nobody", Password).error().message);
    ASSERT_TRUE(store->set_disabled("Anna", true).ok());
    EXPECT_FALSE(store->authenticate("Anna", Password).ok());
    ASSERT_TRUE(store->set_disabled("Anna", false).ok());
    EXPECT_TRUE(store->authenticate("Anna", Password).ok());
}

TEST_P(AccountStoreContract, SessionsStartAndEnd) {
    auto store = std::move(GetParam().accounts(where).value());
    const Account a = store->create("Anna", Password, false, 1'000).value();
    const std::string one = store->start_session(a.id, 1'000).value();
    const std::string two = store->start_session(a.id, 1'000).value();
    EXPECT_NE(one, two);
    auto who = store->session_account(one, 2'000);
    ASSERT_TRUE(who.ok() && who->has_value());
    EXPECT_EQ((*who)->id, a.id);
    EXPECT_FALSE(store->session_account("not a token", 2'000).value().has_value());
    ASSERT_TRUE(store->end_session(one).ok());
    EXPECT_FALSE(store->session_account(one, 2'000).value().has_value());
    EXPECT_TRUE(store->session_account(two, 2'000).value().has_value());
    EXPECT_EQ(store->end_all_sessions(a.id).value(), 1);
    EXPECT_FALSE(store->session_account(two, 2'000).value().has_value());
}

TEST_P(AccountStoreContract, APasswordChangeEndsTheOtherSessions) {
    auto store = std::move(GetParam().accounts(where).value());
    const Account a = store->create("Anna", Password, false, 1'000).value();
    const std::string keep = store->start_session(a.id, 1'000).value();
    const std::string other = store->start_session(a.id, 1'000).value();
    EXPECT_FALSE(store->change_password(a.id, "not the password", "another long password", keep).ok());
    ASSERT_TRUE(store->change_password(a.id, Password, "another long password", keep).ok());
    EXPECT_TRUE(store->session_account(keep, 2'000).value().has_value());
    EXPECT_FALSE(store->session_account(other, 2'000).value().has_value());
    EXPECT_TRUE(store->authenticate("Anna", "another long password").ok());
    ASSERT_TRUE(store->reset_password("Anna", "a third long password").ok());
    EXPECT_FALSE(store->session_account(keep, 2'000).value().has_value());
    EXPECT_TRUE(store->authenticate("Anna", "a third long password").ok());
}

TEST_P(AccountStoreContract, AccountsOutliveTheStore) {
    std::string token;
    {
        auto store = std::move(GetParam().accounts(where).value());
        const Account a = store->create("Anna", Password, false, 1'000).value();
        token = store->start_session(a.id, 1'000).value();
    }
    auto reopened = std::move(GetParam().accounts(where).value());
    EXPECT_TRUE(reopened->find("Anna").value().has_value());
    EXPECT_TRUE(reopened->session_account(token, 2'000).value().has_value());
}

StoredEvent contract_event() {
    StoredEvent e;
    e.name = "Club Swiss";
    e.organiser = 3;
    e.organiser_name = "Olga";
    e.system = "swiss";
    e.rounds = 5;
    e.time_control = "15+10";
    e.rated = true;
    e.online = true;
    e.tiebreaks = "BH-C1,BH,SB";
    e.initial_colour = "W";
    e.created_ms = 1'000;
    e.current_round = 1;
    e.round_started_ms = {5'000};
    e.players = {EventPlayer{1, 10, "Anna", 1600, 0, 1, {3}}, EventPlayer{2, 11, "Boris", 1500, 0, 1, {}},
                 EventPlayer{3, 12, "Chen", 0, 2, 1, {}}};
    e.boards = {EventBoard{1, 1, 1, 2, "g1", "wt", "bt", "", ""}, EventBoard{1, 2, 3, 0, "", "", "", "bye", ""}};
    return e;
}

TEST_P(EventStoreContract, AnEventIsReadBackWhole) {
    auto store = std::move(GetParam().events(where).value());
    EXPECT_TRUE(store->load_all().value().empty());
    auto id = store->save(contract_event());
    ASSERT_TRUE(id.ok()) << id.error().message;
    EXPECT_GT(*id, 0);
    auto second = store->save(contract_event());
    ASSERT_TRUE(second.ok());
    EXPECT_NE(*second, *id);
    auto all = store->load_all();
    ASSERT_TRUE(all.ok()) << all.error().message;
    ASSERT_EQ(all->size(), 2u);
    const StoredEvent& e = (*all)[0];
    EXPECT_EQ(e.id, *id);
    EXPECT_EQ(e.name, "Club Swiss");
    EXPECT_EQ(e.organiser_name, "Olga");
    EXPECT_EQ(e.system, "swiss");
    EXPECT_EQ(e.tiebreaks, "BH-C1,BH,SB");
    EXPECT_EQ(e.initial_colour, "W");
    EXPECT_TRUE(e.rated);
    EXPECT_EQ(e.round_started_ms, std::vector<std::int64_t>{5'000});
    ASSERT_EQ(e.players.size(), 3u);
    EXPECT_EQ(e.players[0].byes, std::set<int>{3});
    EXPECT_EQ(e.players[2].withdrawn_from, 2);
    ASSERT_EQ(e.boards.size(), 2u);
    EXPECT_EQ(e.boards[0].game_id, "g1");
    EXPECT_EQ(e.boards[1].result, "bye");
}

TEST_P(EventStoreContract, SavingAgainRewritesTheEvent) {
    auto store = std::move(GetParam().events(where).value());
    StoredEvent e = contract_event();
    e.id = store->save(e).value();
    e.players.pop_back();
    e.boards.pop_back();
    e.current_round = 2;
    ASSERT_EQ(store->save(e).value(), e.id);
    auto all = store->load_all().value();
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].current_round, 2);
    EXPECT_EQ(all[0].players.size(), 2u);
    EXPECT_EQ(all[0].boards.size(), 1u);
}

TEST_P(EventStoreContract, ABoardsResultAndGameAreWrittenAlone) {
    auto store = std::move(GetParam().events(where).value());
    StoredEvent e = contract_event();
    e.id = store->save(e).value();
    EventBoard b = e.boards[0];
    b.result = "1-0";
    b.note = "";
    ASSERT_TRUE(store->save_result(e.id, b).ok());
    b.game_id = "g2";
    b.white_token = "w2";
    b.black_token = "b2";
    ASSERT_TRUE(store->save_board_game(e.id, b).ok());
    {
        auto store2 = std::move(GetParam().events(where).value());  // another connection, as after a restart
        const StoredEvent back = store2->load_all().value().at(0);
        EXPECT_EQ(back.boards[0].result, "1-0");
        EXPECT_EQ(back.boards[0].game_id, "g2");
        EXPECT_EQ(back.boards[0].black_token, "b2");
    }
    EventBoard missing = b;
    missing.round = 9;
    EXPECT_FALSE(store->save_result(e.id, missing).ok());
    EXPECT_FALSE(store->save_board_game(e.id, missing).ok());
}

// Issue 26 (stores/domains_fence.h): two nodes' stores on one database. The node that
// took the domains lease with a higher token claims it; the other, paused past its
// lease, is refused every write from then on, and nothing of it is written.
TEST_P(EventStoreContract, Issue26AWriteUnderAnOlderDomainsTokenIsRefused) {
    auto old_node = std::move(GetParam().events(where).value());
    auto new_node = std::move(GetParam().events(where).value());
    std::atomic<std::int64_t> old_token{7}, new_token{9};
    old_node->fence_with([&] { return old_token.load(); });
    new_node->fence_with([&] { return new_token.load(); });
    EXPECT_EQ(old_node->claim_fence(7).value(), 7);
    StoredEvent e = contract_event();
    e.id = old_node->save(e).value();  // token 7 writes while it holds the lease
    EXPECT_EQ(new_node->claim_fence(9).value(), 9);
    EXPECT_EQ(old_node->claim_fence(8).value(), 9) << "a claim below the stored token answers the stored one";
    e.name = "written by the paused node";
    auto refused = old_node->save(e);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().message.find("fencing token 7"), std::string::npos) << refused.error().message;
    EventBoard b = e.boards[0];
    b.result = "0-1";
    EXPECT_FALSE(old_node->save_result(e.id, b).ok());
    EXPECT_FALSE(old_node->save_board_game(e.id, b).ok());
    old_token = -1;  // not the holder as it counts (its grant ran out)
    EXPECT_FALSE(old_node->save(contract_event()).ok());
    const auto all = new_node->load_all().value();
    ASSERT_EQ(all.size(), 1u);
    EXPECT_EQ(all[0].name, "Club Swiss");
    EXPECT_EQ(all[0].boards[0].result, "");
    b.result = "1-0";
    EXPECT_TRUE(new_node->save_result(e.id, b).ok());  // the holder writes on
    old_node->fence_with([] { return std::int64_t(0); });  // one node, no leases: not fenced
    EXPECT_TRUE(old_node->save_result(e.id, b).ok());
}

TEST_P(SimulStoreContract, Issue26ASaveUnderAnOlderDomainsTokenIsRefused) {
    auto events = std::move(GetParam().events(where).value());  // the claim goes through the events' store
    auto old_node = std::move(GetParam().simuls(where).value());
    auto new_node = std::move(GetParam().simuls(where).value());
    old_node->fence_with([] { return std::int64_t(3); });
    new_node->fence_with([] { return std::int64_t(4); });
    ASSERT_TRUE(old_node->save("s1", 3, "open", 1'000, "by 3").ok());
    EXPECT_EQ(events->claim_fence(4).value(), 4);
    EXPECT_FALSE(old_node->save("s1", 3, "open", 2'000, "by 3 again").ok());
    EXPECT_EQ(new_node->load("s1").value().value_or(""), "by 3");
    EXPECT_TRUE(new_node->save("s1", 3, "started", 3'000, "by 4").ok());
    EXPECT_EQ(old_node->load("s1").value().value_or(""), "by 4");
}

TEST_P(SimulStoreContract, ASimulIsSavedAndReplaced) {
    auto store = std::move(GetParam().simuls(where).value());
    EXPECT_FALSE(store->load("s1").value().has_value());
    ASSERT_TRUE(store->save("s1", 3, "open", 1'000, R"({"v":1})").ok());
    ASSERT_TRUE(store->save("s1", 3, "started", 2'000, R"({"v":2})").ok());
    auto back = store->load("s1");
    ASSERT_TRUE(back.ok() && back->has_value());
    EXPECT_EQ(**back, R"({"v":2})");
}

TEST_P(SimulStoreContract, RecentAreTheUnfinishedAndTheLastFinished) {
    auto store = std::move(GetParam().simuls(where).value());
    ASSERT_TRUE(store->save("open", 3, "open", 1'000, "open").ok());
    ASSERT_TRUE(store->save("started", 3, "started", 1'000, "started").ok());
    ASSERT_TRUE(store->save("old", 3, "finished", 1'000, "old").ok());
    ASSERT_TRUE(store->save("cancelled", 3, "cancelled", 2'000, "cancelled").ok());
    ASSERT_TRUE(store->save("new", 3, "finished", 3'000, "new").ok());
    auto recent = store->load_recent(2);
    ASSERT_TRUE(recent.ok()) << recent.error().message;
    std::vector<std::string> got = *recent;
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, (std::vector<std::string>{"cancelled", "new", "open", "started"}));
}

INSTANTIATE_TEST_SUITE_P(Backends, AccountStoreContract, ::testing::ValuesIn(store_backends()), backend_name);
INSTANTIATE_TEST_SUITE_P(Backends, EventStoreContract, ::testing::ValuesIn(store_backends()), backend_name);
INSTANTIATE_TEST_SUITE_P(Backends, SimulStoreContract, ::testing::ValuesIn(store_backends()), backend_name);

}  // namespace
