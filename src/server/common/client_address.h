// Outpost — who the client is behind a reverse proxy (issue 27, "TLS and proxies"):
// IP addresses and networks as an operator writes them (`--trust-proxy 10.0.0.0/8`),
// and the rules by which X-Forwarded-For, X-Forwarded-Proto and Forwarded (RFC 7239)
// are believed. Pure parsing: no socket, no Beast.
//
// The rules: the headers are believed only when the connection comes from a trusted
// proxy. Then the client is the right-most address of the chain that is not itself a
// trusted proxy: every proxy appends the address it saw, so the entries left of the
// first untrusted one may have been written by anybody (a client can send
// `X-Forwarded-For: 1.2.3.4` of its own; the proxy appends the client's real address
// after it). Each per-address limit is keyed by that address.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chess/result.h"

namespace outpost::server {

// An IPv4 or IPv6 address. IPv4 is kept as its IPv6-mapped form (::ffff:a.b.c.d), so
// that a dual-stack listener's peers and an operator's IPv4 networks compare alike.
struct IpAddress {
    std::array<std::uint8_t, 16> bytes{};
    bool is_v4() const;
    // The canonical text: "192.0.2.1" for IPv4 (mapped or not), RFC 5952 for IPv6.
    std::string to_string() const;
    bool operator==(const IpAddress&) const = default;
};

// "192.0.2.1", "2001:db8::1"; also "[2001:db8::1]". Nothing else (no port, no zone).
std::optional<IpAddress> parse_ip_address(std::string_view text);

// The canonical text of an address ("::ffff:127.0.0.1" -> "127.0.0.1"), so that one
// client is one key of the per-address limits; text that is no address, unchanged.
std::string canonical_ip(std::string_view text);

// A network: an address and how many of its leading bits are fixed.
struct IpNetwork {
    IpAddress base;
    int prefix = 128;  // over the 128 bits of the mapped form (an IPv4 /8 is 104 here)
    bool contains(const IpAddress& a) const;
};

// "127.0.0.1" (one address), "10.0.0.0/8", "::1", "fd00::/8". Refused, in words: not
// an address, a prefix out of range for the family, bits set after the prefix (a
// typing mistake more often than not: "10.0.0.1/8" names 10.0.0.0/8).
Result<IpNetwork> parse_ip_network(std::string_view text);

// The proxies whose forwarding headers are believed (--trust-proxy, repeatable).
class TrustedProxies {
public:
    TrustedProxies() = default;
    explicit TrustedProxies(std::vector<IpNetwork> networks) : networks_(std::move(networks)) {}
    // Each text through parse_ip_network; the first bad one's error.
    static Result<TrustedProxies> parse(const std::vector<std::string>& texts);
    bool trusts(const IpAddress& a) const;
    bool trusts(std::string_view address) const;
    bool empty() const { return networks_.empty(); }

private:
    std::vector<IpNetwork> networks_;
};

// The forwarding headers of a request, each with all its lines joined by ", " ("" when
// absent).
struct ForwardingHeaders {
    std::string_view x_forwarded_for;
    std::string_view x_forwarded_proto;
    std::string_view forwarded;
};

struct ClientView {
    std::string address;     // the real client's address, canonical (IpAddress::to_string)
    bool https = false;      // a trusted proxy says the client came over HTTPS
    bool forwarded = false;  // the address comes from a trusted proxy's header
};

// The client of a request that came from `peer` (the TCP peer's address). From a peer
// that is not trusted: the peer itself, and no header believed. From a trusted one:
// X-Forwarded-For if present, else the `for=` of Forwarded, walked from the right
// past trusted proxies; an entry that is not an address ("unknown", "_hidden",
// garbage) ends the walk at the last address known. The scheme: X-Forwarded-Proto
// (the entry of the chosen hop when it has one per hop, else the right-most: what the
// nearest proxy saw), else the `proto=` of the chosen Forwarded element.
ClientView real_client(std::string_view peer, const ForwardingHeaders& headers, const TrustedProxies& trusted);

}  // namespace outpost::server
