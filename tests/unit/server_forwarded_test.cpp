// Issue 27 item 6 ("TLS and proxies"): addresses and networks as --trust-proxy takes
// them, the rules by which X-Forwarded-For, X-Forwarded-Proto and Forwarded are
// believed (common/client_address.h), and the https:// address of the redirect port
// (common/https.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include "server/common/client_address.h"
#include "server/common/https.h"

namespace {

using namespace outpost::server;

IpNetwork network(const char* text) {
    auto n = parse_ip_network(text);
    EXPECT_TRUE(n) << text << ": " << n.error().message;
    return n ? *n : IpNetwork{};
}

std::string refusal(const char* text) {
    auto n = parse_ip_network(text);
    EXPECT_FALSE(n) << text << " was taken";
    return n ? std::string() : n.error().message;
}

IpAddress address(const char* text) {
    auto a = parse_ip_address(text);
    EXPECT_TRUE(a) << text;
    return a.value_or(IpAddress{});
}

TEST(ForwardedIssue27, AddressesAreReadInBothFamiliesAndWrittenCanonically) {
    EXPECT_EQ(address("192.0.2.1").to_string(), "192.0.2.1");
    EXPECT_TRUE(address("192.0.2.1").is_v4());
    EXPECT_EQ(address("2001:DB8:0:0::1").to_string(), "2001:db8::1");
    EXPECT_EQ(address("[2001:db8::1]").to_string(), "2001:db8::1");
    // A dual-stack listener's IPv4 peers are IPv4 addresses, one key per client.
    EXPECT_EQ(address("::ffff:127.0.0.1").to_string(), "127.0.0.1");
    EXPECT_EQ(address("::ffff:127.0.0.1"), address("127.0.0.1"));
    EXPECT_EQ(canonical_ip("::ffff:10.1.2.3"), "10.1.2.3");
    EXPECT_EQ(canonical_ip("not an address"), "not an address");
    for (const char* bad : {"", "1.2.3", "1.2.3.4.5", "256.1.1.1", "01.2.3.4", "1.2.3.4:80", "::1%lo", "[::1", "gggg::1",
                            "1.2.3.4 ", "localhost"})
        EXPECT_FALSE(parse_ip_address(bad)) << "'" << bad << "'";
}

TEST(ForwardedIssue27, NetworksContainTheirAddressesOnly) {
    const IpNetwork ten = network("10.0.0.0/8");
    EXPECT_TRUE(ten.contains(address("10.0.0.0")));
    EXPECT_TRUE(ten.contains(address("10.255.255.255")));
    EXPECT_TRUE(ten.contains(address("::ffff:10.9.9.9")));
    EXPECT_FALSE(ten.contains(address("11.0.0.0")));
    EXPECT_FALSE(ten.contains(address("9.255.255.255")));
    EXPECT_FALSE(ten.contains(address("::a00:1")));  // IPv4-compatible, not IPv4
    const IpNetwork one = network("127.0.0.1");
    EXPECT_TRUE(one.contains(address("127.0.0.1")));
    EXPECT_FALSE(one.contains(address("127.0.0.2")));
    const IpNetwork odd = network("192.168.4.0/22");
    EXPECT_TRUE(odd.contains(address("192.168.7.255")));
    EXPECT_FALSE(odd.contains(address("192.168.8.0")));
    EXPECT_FALSE(odd.contains(address("192.168.3.255")));
    const IpNetwork v6 = network("fd00::/8");
    EXPECT_TRUE(v6.contains(address("fd12:3456::1")));
    EXPECT_FALSE(v6.contains(address("fe80::1")));
    EXPECT_FALSE(v6.contains(address("10.0.0.1")));
    EXPECT_TRUE(network("::1").contains(address("::1")));
    EXPECT_FALSE(network("::1").contains(address("127.0.0.1")));
    const IpNetwork every4 = network("0.0.0.0/0");
    EXPECT_TRUE(every4.contains(address("203.0.113.9")));
    EXPECT_FALSE(every4.contains(address("2001:db8::1")));
    EXPECT_TRUE(network("::/0").contains(address("203.0.113.9")));
    EXPECT_TRUE(network("2001:db8::/127").contains(address("2001:db8::1")));
    EXPECT_FALSE(network("2001:db8::/127").contains(address("2001:db8::2")));
}

TEST(ForwardedIssue27, ABadNetworkIsRefusedInWords) {
    EXPECT_EQ(refusal("10.0.0.0/33"), "'10.0.0.0/33': the prefix length of an IPv4 network is 0 to 32");
    EXPECT_EQ(refusal("fd00::/129"), "'fd00::/129': the prefix length of an IPv6 network is 0 to 128");
    EXPECT_EQ(refusal("10.0.0.1/8"), "'10.0.0.1/8' has bits set after the prefix: the network is 10.0.0.0/8");
    EXPECT_EQ(refusal("fd00::1/8"), "'fd00::1/8' has bits set after the prefix: the network is fd00::/8");
    EXPECT_NE(refusal("10.0.0/8").find("is not an IP address or network"), std::string::npos);
    for (const char* bad : {"", "/8", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/8/8", "10.0.0.0/ 8", "10.0.0.0/0x8",
                            "example.org", "*", "10.0.0.0/1000"})
        EXPECT_FALSE(parse_ip_network(bad)) << "'" << bad << "'";
    auto many = TrustedProxies::parse({"127.0.0.1", "fd00::/8", "10.0.0.0/99"});
    ASSERT_FALSE(many);
    EXPECT_NE(many.error().message.find("'10.0.0.0/99'"), std::string::npos);
}

// The headers of a request: X-Forwarded-For, X-Forwarded-Proto, Forwarded.
ClientView from(const char* peer, ForwardingHeaders h, const TrustedProxies& trusted) { return real_client(peer, h, trusted); }

TEST(ForwardedIssue27, HeadersFromAPeerThatIsNotTrustedAreIgnored) {
    const TrustedProxies none;
    const TrustedProxies proxy(std::vector<IpNetwork>{network("127.0.0.1")});
    for (const TrustedProxies* trusted : {&none, &proxy}) {
        // A forged X-Forwarded-For, X-Forwarded-Proto, Forwarded: none of them believed.
        const ClientView v = from("203.0.113.7", {"198.51.100.1", "https", "for=198.51.100.2;proto=https"}, *trusted);
        EXPECT_EQ(v.address, "203.0.113.7");
        EXPECT_FALSE(v.https);
        EXPECT_FALSE(v.forwarded);
    }
    EXPECT_EQ(from("::ffff:203.0.113.7", {"198.51.100.1", "", ""}, proxy).address, "203.0.113.7");
}

TEST(ForwardedIssue27, TheClientIsTheRightMostUntrustedAddress) {
    const TrustedProxies trusted(std::vector<IpNetwork>{network("127.0.0.1"), network("10.0.0.0/8")});
    // nginx appends the address it saw to what the client sent.
    ClientView v = from("127.0.0.1", {"198.51.100.1", "https", ""}, trusted);
    EXPECT_EQ(v.address, "198.51.100.1");
    EXPECT_TRUE(v.https);
    EXPECT_TRUE(v.forwarded);
    // A client's own "X-Forwarded-For: 1.2.3.4" is left of its real address.
    EXPECT_EQ(from("127.0.0.1", {"1.2.3.4, 198.51.100.1", "https", ""}, trusted).address, "198.51.100.1");
    // Through two trusted proxies (a load balancer at 10.1.1.1, then nginx).
    EXPECT_EQ(from("127.0.0.1", {"1.2.3.4, 198.51.100.1, 10.1.1.1", "", ""}, trusted).address, "198.51.100.1");
    // Several header lines are one list; spaces, ports and brackets as proxies write them.
    EXPECT_EQ(from("127.0.0.1", {"1.2.3.4,198.51.100.1:5555", "", ""}, trusted).address, "198.51.100.1");
    EXPECT_EQ(from("127.0.0.1", {"  [2001:db8::7]:443 ", "", ""}, trusted).address, "2001:db8::7");
    EXPECT_EQ(from("127.0.0.1", {"2001:DB8::7", "", ""}, trusted).address, "2001:db8::7");
    // Every hop trusted: the left-most is the client.
    EXPECT_EQ(from("127.0.0.1", {"10.0.0.5, 10.0.0.6", "", ""}, trusted).address, "10.0.0.5");
    // Garbage ends the walk at the last address known: never at a made-up one.
    EXPECT_EQ(from("127.0.0.1", {"198.51.100.1, garbage", "", ""}, trusted).address, "127.0.0.1");
    EXPECT_EQ(from("127.0.0.1", {"garbage, 10.0.0.9", "", ""}, trusted).address, "10.0.0.9");
    EXPECT_EQ(from("127.0.0.1", {"unknown, 198.51.100.1", "", ""}, trusted).address, "198.51.100.1");
    EXPECT_EQ(from("127.0.0.1", {",,, ", "", ""}, trusted).address, "127.0.0.1");
    // No header: the proxy itself.
    v = from("127.0.0.1", {"", "", ""}, trusted);
    EXPECT_EQ(v.address, "127.0.0.1");
    EXPECT_FALSE(v.forwarded);
    EXPECT_FALSE(v.https);
    // IPv6 proxies.
    const TrustedProxies v6(std::vector<IpNetwork>{network("::1"), network("fd00::/8")});
    EXPECT_EQ(from("::1", {"2001:db8::1, fd00::2", "", ""}, v6).address, "2001:db8::1");
    EXPECT_EQ(from("fd00::9", {"198.51.100.3", "", ""}, v6).address, "198.51.100.3");
    EXPECT_EQ(from("::2", {"198.51.100.3", "", ""}, v6).address, "::2");
}

TEST(ForwardedIssue27, ForwardedIsReadWhenThereIsNoXForwardedFor) {
    const TrustedProxies trusted(std::vector<IpNetwork>{network("127.0.0.1")});
    ClientView v = from("127.0.0.1", {"", "", R"(for=1.2.3.4, for="[2001:db8:cafe::17]:4711";proto=https;by=127.0.0.1)"},
                        trusted);
    EXPECT_EQ(v.address, "2001:db8:cafe::17");
    EXPECT_TRUE(v.https);
    v = from("127.0.0.1", {"", "", "For=192.0.2.60;Proto=http, for=198.51.100.17;proto=HTTPS"}, trusted);
    EXPECT_EQ(v.address, "198.51.100.17");
    EXPECT_TRUE(v.https);
    // The proto is that of the client's own element.
    v = from("127.0.0.1", {"", "", "for=198.51.100.17;proto=https, for=127.0.0.1;proto=http"}, trusted);
    EXPECT_EQ(v.address, "198.51.100.17");
    EXPECT_TRUE(v.https);
    EXPECT_EQ(from("127.0.0.1", {"", "", "for=_hidden;proto=https"}, trusted).address, "127.0.0.1");
    EXPECT_EQ(from("127.0.0.1", {"", "", R"(for="1.2.3.4, 5.6.7.8")"}, trusted).address, "127.0.0.1");
    EXPECT_EQ(from("127.0.0.1", {"", "", "proto=https"}, trusted).address, "127.0.0.1");
    EXPECT_TRUE(from("127.0.0.1", {"", "", "proto=https"}, trusted).https);
    // X-Forwarded-For wins over Forwarded.
    EXPECT_EQ(from("127.0.0.1", {"198.51.100.1", "", "for=198.51.100.2"}, trusted).address, "198.51.100.1");
}

TEST(ForwardedIssue27, TheSchemeIsThatOfTheNearestProxyUnlessEachHopHasOne) {
    const TrustedProxies trusted(std::vector<IpNetwork>{network("127.0.0.1"), network("10.0.0.0/8")});
    // nginx writes its own scheme over the client's.
    EXPECT_TRUE(from("127.0.0.1", {"6.6.6.6, 198.51.100.1", "https", ""}, trusted).https);
    EXPECT_FALSE(from("127.0.0.1", {"198.51.100.1", "http", ""}, trusted).https);
    EXPECT_FALSE(from("127.0.0.1", {"198.51.100.1", "", ""}, trusted).https);
    EXPECT_FALSE(from("127.0.0.1", {"198.51.100.1", "httpsx", ""}, trusted).https);
    // One entry per hop: the client's hop decides (https at the edge, http inside).
    EXPECT_TRUE(from("127.0.0.1", {"198.51.100.1, 10.0.0.2", "https, http", ""}, trusted).https);
    EXPECT_FALSE(from("127.0.0.1", {"198.51.100.1, 10.0.0.2", "http, https", ""}, trusted).https);
    // Otherwise the right-most: what the nearest proxy saw.
    EXPECT_FALSE(from("127.0.0.1", {"198.51.100.1", "https, http", ""}, trusted).https);
    EXPECT_TRUE(from("127.0.0.1", {"198.51.100.1", " HTTPS ", ""}, trusted).https);
}

TEST(HttpsRedirectIssue27, TheSamePathOnTheSameHostOverHttps) {
    EXPECT_EQ(https_location("club.example", "/game/abc?x=1", 443), "https://club.example/game/abc?x=1");
    EXPECT_EQ(https_location("club.example:80", "/", 443), "https://club.example/");
    EXPECT_EQ(https_location("club.example:8080", "/a", 8443), "https://club.example:8443/a");
    EXPECT_EQ(https_location("127.0.0.1:5000", "/a", 8443), "https://127.0.0.1:8443/a");
    EXPECT_EQ(https_location("[::1]:80", "/a", 443), "https://[::1]/a");
    EXPECT_EQ(https_location("[2001:db8::1]", "/a", 8443), "https://[2001:db8::1]:8443/a");
    EXPECT_EQ(https_location("Club.Example", "//other.example/x", 443), "https://Club.Example//other.example/x");
    // No host, or something that is no host: no redirect.
    for (const char* bad : {"", ":80", "club.example:", "club.example:http", "evil.example/x", "evil.example@club",
                            "[::1", "[zz]:80", "[::1]x", "a b", ".example", "-x.example", "club.example:80:80"})
        EXPECT_FALSE(https_location(bad, "/", 443)) << "'" << bad << "'";
    EXPECT_FALSE(https_location("club.example", "http://evil.example/", 443));
    EXPECT_FALSE(https_location("club.example", "*", 443));
    EXPECT_FALSE(https_location("club.example", "", 443));
    EXPECT_STREQ(StrictTransportSecurity, "max-age=31536000");
}

}  // namespace
