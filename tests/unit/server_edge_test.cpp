// Outpost — the network edge: seat tokens (D4), the robot pool, rate limits and the
// lag quota as the server applies them (C5). Protocol: docs/protocol.md.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <array>
#include <set>
#include <string>

#include "server/random.h"

using namespace outpost;
using namespace outpost::server;

namespace {

// D4: a seat is guarded by its token alone. The tokens came from mt19937_64, whose
// state an attacker recovered from the tokens of games it created, and then predicted
// a victim's seat token. Now: getrandom(2), 22 characters of 62 (131 bits).
TEST(SeatTokensD4, WellFormedAndDistinct) {
    std::set<std::string> seen;
    for (int i = 0; i < 20000; ++i) {
        const std::string t = secure_token(22);
        ASSERT_EQ(t.size(), 22u);
        for (char c : t) ASSERT_TRUE((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) << t;
        ASSERT_TRUE(seen.insert(t).second) << "a token came twice: " << t;
    }
    EXPECT_EQ(secure_token(0), "");
    EXPECT_EQ(secure_token(1000).size(), 1000u);
}

// Every character equally likely (rejection sampling rather than `byte % 62`, which
// would make the first 8 characters 5/4 as likely as the others with bytes): a
// chi-square test over 620,000 characters, 61 degrees of freedom, at p ~ 1e-6.
TEST(SeatTokensD4, CharactersUniform) {
    std::array<long, 128> count{};
    const int Tokens = 20000;
    for (int i = 0; i < Tokens; ++i)
        for (char c : secure_token(31)) ++count[size_t(c)];
    const double expected = Tokens * 31.0 / 62;
    double chi2 = 0;
    for (long n : count)
        if (n) chi2 += (n - expected) * (n - expected) / expected;
    EXPECT_LT(chi2, 130.0);  // mean 61; a biased byte % 62 gives ~4,000 here
}

}  // namespace
