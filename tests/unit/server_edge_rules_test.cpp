// Outpost — the network edge's rules without a socket: token buckets, the WebSocket
// Origin policy, JSON-only POST bodies, the security headers (docs/protocol.md).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <vector>
#include <nlohmann/json.hpp>

#include "server/common/guards.h"
#include "server/play/hub.h"

using namespace outpost;
using namespace outpost::server;

TEST(EdgeRateLimit, BucketGivesItsBurstThenItsRate) {
    RateLimiter limiter(10, 50);  // 10 a second, 50 at once
    int allowed = 0;
    for (int i = 0; i < 200; ++i) allowed += limiter.allow("10.0.0.1", 1000);
    EXPECT_EQ(allowed, 50);
    EXPECT_TRUE(limiter.allow("10.0.0.2", 1000)) << "another address has its own bucket";
    allowed = 0;
    for (int i = 0; i < 200; ++i) allowed += limiter.allow("10.0.0.1", 2000);  // one second later: 10 more
    EXPECT_EQ(allowed, 10);
    EXPECT_FALSE(limiter.allow("10.0.0.1", 2000));
    EXPECT_TRUE(limiter.allow("10.0.0.1", 2100));
}

TEST(EdgeRateLimit, ConnectionsPerAddressAreCapped) {
    ConnectionCounter c;
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(c.try_add("::1", 3));
    EXPECT_FALSE(c.try_add("::1", 3));
    EXPECT_TRUE(c.try_add("127.0.0.1", 3));
    c.remove("::1");
    EXPECT_TRUE(c.try_add("::1", 3));
    EXPECT_EQ(c.count("::1"), 3);
}

TEST(EdgeOrigin, OnlyTheServersOwnPagesOpenWebSockets) {
    const std::vector<std::string> none;
    EXPECT_TRUE(origin_allowed("", "chess.example.org", none)) << "no Origin: not a browser";
    EXPECT_TRUE(origin_allowed("http://localhost:8080", "localhost:8080", none));
    EXPECT_TRUE(origin_allowed("https://Chess.Example.org", "chess.example.org", none));
    EXPECT_FALSE(origin_allowed("http://evil.example", "localhost:8080", none));
    EXPECT_FALSE(origin_allowed("http://localhost:8081", "localhost:8080", none));
    EXPECT_FALSE(origin_allowed("http://localhost:8080.evil.example", "localhost:8080", none));
    EXPECT_FALSE(origin_allowed("null", "localhost:8080", none));
    EXPECT_FALSE(origin_allowed("file://", "localhost:8080", none));
    EXPECT_FALSE(origin_allowed("http://localhost:8080", "", none));
    EXPECT_TRUE(origin_allowed("https://club.example.org", "10.0.0.5:8080", {"https://club.example.org"}));
    EXPECT_FALSE(origin_allowed("https://other.example.org", "10.0.0.5:8080", {"https://club.example.org"}));
    EXPECT_TRUE(origin_allowed("https://anything.example", "x", {"*"}));
}

TEST(EdgePost, BodiesMustBeJson) {
    EXPECT_TRUE(is_json_content_type("application/json"));
    EXPECT_TRUE(is_json_content_type("Application/JSON; charset=utf-8"));
    EXPECT_FALSE(is_json_content_type("text/plain"));
    EXPECT_FALSE(is_json_content_type("text/plain;charset=UTF-8"));
    EXPECT_FALSE(is_json_content_type("application/x-www-form-urlencoded"));
    EXPECT_FALSE(is_json_content_type("multipart/form-data; boundary=x"));
    EXPECT_FALSE(is_json_content_type(""));
}

TEST(EdgeHeaders, NoFramingAndOnlyOwnScripts) {
    std::string csp, xfo;
    for (const auto& [k, v] : security_headers()) {
        if (k == "Content-Security-Policy") csp = v;
        if (k == "X-Frame-Options") xfo = v;
    }
    EXPECT_NE(csp.find("frame-ancestors 'none'"), std::string::npos);
    EXPECT_NE(csp.find("script-src 'self'"), std::string::npos);
    EXPECT_EQ(csp.find("unsafe-eval"), std::string::npos);
    EXPECT_EQ(xfo, "DENY");
}

// Found by fuzz_server: an error quoting a path that is not UTF-8 threw from the JSON
// writer (the network layer turned it into a 500 "internal"; the fuzzer aborted).
TEST(EdgeErrors, ErrorsQuotingBytesThatAreNotUtf8AreStillJson) {
    const std::string text = error_json({"not_found", "no such path '/api/\x8a\xce\xd0\x9c/t1xxpgn'", 404});
    EXPECT_NE(text.find("\"not_found\""), std::string::npos);
    EXPECT_NE(text.find("t1xxpgn"), std::string::npos);
    const auto parsed = nlohmann::json::parse(text, nullptr, false);  // valid UTF-8 JSON
    ASSERT_FALSE(parsed.is_discarded()) << text;
    EXPECT_EQ(parsed["message"], "no such path '/api/\ufffd\ufffd\xd0\x9c/t1xxpgn'");  // D0 9C is a well-formed U+041C
    EXPECT_EQ(nlohmann::json::parse(error_json({"bad_request", "caf\xc3\xa9", 400}))["message"], "caf\xc3\xa9");
    // Bytes F5-FF never start a sequence (found by fuzz_server after the first fix).
    EXPECT_EQ(nlohmann::json::parse(error_json({"bad_request", "a\xff\xbf\xbf" "b\xf8", 400}))["message"],
              "a\ufffd\ufffd\ufffdb\ufffd");
}

// Issue 25 item 7: an IPv6 client owns a /64; it is limited as one client.
TEST(EdgeIssue25, AnIpv6ClientIsItsSlash64) {
    EXPECT_EQ(address_group("192.0.2.7"), "192.0.2.7");
    EXPECT_EQ(address_group("::ffff:192.0.2.7"), "192.0.2.7");
    EXPECT_EQ(address_group("2001:db8:1:2:3:4:5:6"), "2001:db8:1:2::/64");
    EXPECT_EQ(address_group("2001:db8:1:2::ffff"), "2001:db8:1:2::/64");
    EXPECT_EQ(address_group("::1"), "::/64");
    EXPECT_EQ(address_group("not an address"), "not an address");
    RateLimiter limiter(0, 3);
    EXPECT_TRUE(limiter.allow("2001:db8:1:2::1", 1000));
    EXPECT_TRUE(limiter.allow("2001:db8:1:2::2", 1000));
    EXPECT_TRUE(limiter.allow("2001:db8:1:2:ffff:ffff:ffff:ffff", 1000));
    EXPECT_FALSE(limiter.allow("2001:db8:1:2::4", 1000)) << "another address of the same /64 has its own bucket";
    EXPECT_TRUE(limiter.allow("2001:db8:1:3::1", 1000));
    ConnectionCounter c;
    EXPECT_TRUE(c.try_add("2001:db8::1", 2));
    EXPECT_TRUE(c.try_add("2001:db8::2", 2));
    EXPECT_FALSE(c.try_add("2001:db8::3", 2));
    c.remove("2001:db8::1");
    EXPECT_TRUE(c.try_add("2001:db8::3", 2));
}

// Issue 25 item 4: 160 addresses held 20,480 connections and the file limit was reached.
// Issue 25: message limits per connection and per account, with only a loose ceiling
// per address: one connection over its rate leaves its neighbours (same address,
// another connection or account) untouched; one account's connections share a bucket;
// many connections of one address meet the address's ceiling.
TEST(EdgeIssue25, MessageLimitsPerConnectionAndAccountWithAnAddressCeiling) {
    EdgeLimits l;
    l.ws_per_second = 0, l.ws_burst = 5;
    l.ws_account_per_second = 0, l.ws_account_burst = 8;
    l.ws_address_per_second = 0, l.ws_address_burst = 20;
    MessageLimiter limiter(l);
    TokenBucket flood, neighbour;
    for (int i = 0; i < 5; ++i) EXPECT_TRUE(limiter.allow(flood, 0, "192.0.2.1", 1000));
    for (int i = 0; i < 50; ++i) EXPECT_FALSE(limiter.allow(flood, 0, "192.0.2.1", 1000));
    for (int i = 0; i < 5; ++i) EXPECT_TRUE(limiter.allow(neighbour, 0, "192.0.2.1", 1000)) << i;
    // One account's two tabs: 8 in all.
    TokenBucket tab1, tab2;
    int allowed = 0;
    for (int i = 0; i < 5; ++i) allowed += limiter.allow(tab1, 7, "198.51.100.1", 1000);
    for (int i = 0; i < 5; ++i) allowed += limiter.allow(tab2, 7, "198.51.100.2", 1000);
    EXPECT_EQ(allowed, 8);
    TokenBucket other_account;
    EXPECT_TRUE(limiter.allow(other_account, 8, "198.51.100.1", 1000));
    // Ten connections of one address: the address's 20, then nothing (192.0.2.1 spent 10).
    allowed = 0;
    std::vector<TokenBucket> many(10);
    for (auto& b : many)
        for (int i = 0; i < 5; ++i) allowed += limiter.allow(b, 0, "192.0.2.1", 1000);
    EXPECT_EQ(allowed, 10);
}

TEST(EdgeIssue25, ConnectionsAreCappedServerWide) {
    ConnectionCounter c;
    for (int i = 0; i < 5; ++i) EXPECT_TRUE(c.try_add("10.0.0." + std::to_string(i), 100, 5));
    EXPECT_FALSE(c.try_add("10.0.0.9", 100, 5));
    EXPECT_EQ(c.total(), 5);
    c.remove("10.0.0.2");
    EXPECT_EQ(c.total(), 4);
    EXPECT_TRUE(c.try_add("10.0.0.9", 100, 5));
    EXPECT_GE(default_max_connections(), 16);
}

// Issue 25 item 10: DNS rebinding: a page of evil.example whose name now points at
// 127.0.0.1 sends "Host: evil.example:8080".
TEST(EdgeIssue25, HostMustBeAServedName) {
    const std::vector<std::string> none;
    for (const char* ok : {"", "127.0.0.1", "127.0.0.1:8080", "[::1]:8080", "[2001:db8::1]", "localhost", "LOCALHOST:8080",
                           "localhost.", "app.localhost:3000", "192.0.2.10:80"})
        EXPECT_TRUE(host_allowed(ok, none)) << ok;
    for (const char* bad : {"evil.example", "evil.example:8080", "127.0.0.1.evil.example", "localhost.evil.example", "[::1",
                            "[evil]:80", ":8080"})
        EXPECT_FALSE(host_allowed(bad, none)) << bad;
    const std::vector<std::string> served{"chess.example.org", "club.example.net:8443"};
    EXPECT_TRUE(host_allowed("chess.example.org", served));
    EXPECT_TRUE(host_allowed("Chess.Example.Org:443", served));
    EXPECT_TRUE(host_allowed("club.example.net", served));
    EXPECT_FALSE(host_allowed("example.org", served));
    EXPECT_FALSE(host_allowed("evil.chess.example.org", served));
}

// Issue 25 item 7: four addresses got 40 password guesses; now the account counts.
TEST(EdgeIssue25, WrongPasswordsPerAccountWaitADelayThatGrows) {
    AttemptGuard g(AttemptGuard::Options{3, 1000, 8000});
    Millis now = 10'000;
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(g.wait_ms("name:alice", now), 0);
        g.failed("name:alice", now);
    }
    EXPECT_EQ(g.wait_ms("name:alice", now), 0) << "three free failures";
    g.failed("name:alice", now);  // the fourth: 1 s
    EXPECT_EQ(g.wait_ms("name:alice", now), 1000);
    EXPECT_EQ(g.wait_ms("name:bob", now), 0) << "another account is not slowed";
    now += 1000;
    EXPECT_EQ(g.wait_ms("name:alice", now), 0);
    g.failed("name:alice", now);  // 2 s, then 4, 8, 8 …
    EXPECT_EQ(g.wait_ms("name:alice", now), 2000);
    now += 2000;
    g.failed("name:alice", now);
    EXPECT_EQ(g.wait_ms("name:alice", now), 4000);
    now += 4000;
    g.failed("name:alice", now);
    EXPECT_EQ(g.wait_ms("name:alice", now), 8000);
    now += 8000;
    g.failed("name:alice", now);
    EXPECT_EQ(g.wait_ms("name:alice", now), 8000) << "the delay has a ceiling: the owner is never locked out";
    now += 8000;
    // The right password after the delay: the count starts again.
    g.succeeded("name:alice");
    g.failed("name:alice", now);
    EXPECT_EQ(g.wait_ms("name:alice", now), 0);
}
