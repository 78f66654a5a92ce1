// Outpost — the contract of the admin store (stores/admin_store.h, SPEC D9): the audit
// log, the players' reports and the arbiters' decisions, written against the interface
// only and run on every backend of store_backends.h.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include "store_backends.h"

using namespace outpost;
using namespace outpost::server;
using namespace outpost::server::testing_stores;

namespace {

class AdminStoreContract : public StoreContract {};

AuditEntry entry(std::int64_t at, const std::string& action, const std::string& target) {
    return AuditEntry{0, at, 7, "Root", action, target, R"({"disabled":false})", R"({"disabled":true})"};
}

TEST_P(AdminStoreContract, D9TheAuditLogKeepsWhoWhatWhenBeforeAndAfterNewestFirst) {
    auto store = std::move(GetParam().admin(where).value());
    const std::int64_t a = store->audit(entry(1'000, "disable", "account:Boris")).value();
    const std::int64_t b = store->audit(entry(2'000, "sign_out", "account:Boris")).value();
    const std::int64_t c = store->audit(entry(3'000, "arbiter", "game:abc")).value();
    EXPECT_LT(a, b);
    EXPECT_LT(b, c);
    auto log = store->audit_log(10).value();
    ASSERT_EQ(log.size(), 3u);
    EXPECT_EQ(log[0].id, c);
    EXPECT_EQ(log[0].action, "arbiter");
    EXPECT_EQ(log[2].at_ms, 1'000);
    EXPECT_EQ(log[2].admin_account, 7);
    EXPECT_EQ(log[2].admin_name, "Root");
    EXPECT_EQ(log[2].target, "account:Boris");
    EXPECT_EQ(log[2].before, R"({"disabled":false})");
    EXPECT_EQ(log[2].after, R"({"disabled":true})");
    // Pages: at most `limit`, and older than an id.
    auto page = store->audit_log(1, c).value();
    ASSERT_EQ(page.size(), 1u);
    EXPECT_EQ(page[0].id, b);
}

TEST_P(AdminStoreContract, D9AReportIsOpenUntilResolved) {
    auto store = std::move(GetParam().admin(where).value());
    PlayerReport r;
    r.at_ms = 5'000;
    r.reporter_account = 3;
    r.reporter_name = "Anna";
    r.kind = "game";
    r.target = "g123";
    r.reason = "engine use?";
    const std::int64_t id = store->add_report(r).value();
    r.kind = "player";
    r.target = "Boris";
    r.at_ms = 9'000;
    const std::int64_t id2 = store->add_report(r).value();
    EXPECT_EQ(store->reports("open", 10).value().size(), 2u);
    EXPECT_EQ(store->reports("open", 10).value()[0].id, id2);
    EXPECT_EQ(store->reports_since(3, 6'000).value(), 1);
    EXPECT_EQ(store->reports_since(3, 0).value(), 2);
    EXPECT_EQ(store->reports_since(4, 0).value(), 0);
    EXPECT_TRUE(store->set_report_state(id, "resolved", "Root", 10'000).value());
    EXPECT_FALSE(store->set_report_state(999, "resolved", "Root", 10'000).value());
    auto open = store->reports("open", 10).value();
    ASSERT_EQ(open.size(), 1u);
    EXPECT_EQ(open[0].target, "Boris");
    auto got = store->report(id).value();
    ASSERT_TRUE(got.has_value());
    EXPECT_EQ(got->state, "resolved");
    EXPECT_EQ(got->resolved_by, "Root");
    EXPECT_EQ(got->resolved_ms, 10'000);
    EXPECT_EQ(got->reason, "engine use?");
    EXPECT_EQ(got->reporter_name, "Anna");
    EXPECT_EQ(store->reports("", 10).value().size(), 2u);
    EXPECT_FALSE(store->report(999).value().has_value());
}

TEST_P(AdminStoreContract, D9ArbitersReasonsOutliveTheStore) {
    {
        auto store = std::move(GetParam().admin(where).value());
        EXPECT_EQ(store->arbiter_reason("g1").value(), "");
        ASSERT_TRUE(store->set_arbiter_reason("g1", "fair play").ok());
        ASSERT_TRUE(store->audit(entry(1, "arbiter", "game:g1")).ok());
    }
    auto reopened = std::move(GetParam().admin(where).value());
    EXPECT_EQ(reopened->arbiter_reason("g1").value(), "fair play");
    EXPECT_EQ(reopened->audit_log(5).value().size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(Backends, AdminStoreContract, ::testing::ValuesIn(store_backends()), backend_name);

}  // namespace
