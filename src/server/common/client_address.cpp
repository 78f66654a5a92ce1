// Outpost — who the client is behind a reverse proxy (client_address.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/common/client_address.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <cstring>

namespace outpost::server {

namespace {

constexpr std::array<std::uint8_t, 12> V4MappedPrefix = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

std::string_view strip_ows(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

bool same_ignoring_case(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

// Splits on commas outside double quotes (a quoted Forwarded value may hold one).
std::vector<std::string_view> split_list(std::string_view s, char sep) {
    std::vector<std::string_view> out;
    bool quoted = false;
    size_t start = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '"') quoted = !quoted;
        else if (s[i] == '\\' && quoted) ++i;
        else if (s[i] == sep && !quoted) {
            out.push_back(strip_ows(s.substr(start, i - start)));
            start = i + 1;
        }
    }
    if (start <= s.size()) out.push_back(strip_ows(s.substr(start)));
    // A header that is empty, or only separators, lists nothing.
    if (std::all_of(out.begin(), out.end(), [](std::string_view e) { return e.empty(); })) out.clear();
    return out;
}

std::string unquote(std::string_view v) {
    if (v.size() < 2 || v.front() != '"' || v.back() != '"') return std::string(v);
    std::string out;
    for (size_t i = 1; i + 1 < v.size(); ++i) {
        if (v[i] == '\\' && i + 2 < v.size()) ++i;
        out += v[i];
    }
    return out;
}

// A hop as proxies write it: an address, "[v6]" or "[v6]:port", "v4:port".
std::optional<IpAddress> parse_node(std::string_view node) {
    node = strip_ows(node);
    if (auto a = parse_ip_address(node)) return a;
    if (!node.empty() && node.front() == '[') {
        const size_t close = node.find(']');
        if (close == std::string_view::npos) return std::nullopt;
        return parse_ip_address(node.substr(1, close - 1));
    }
    if (std::count(node.begin(), node.end(), ':') == 1) return parse_ip_address(node.substr(0, node.find(':')));
    return std::nullopt;
}

// One element of Forwarded ("for=192.0.2.60;proto=http;by=203.0.113.43"): the value
// of `key`, unquoted ("" when absent).
std::string forwarded_param(std::string_view element, std::string_view key) {
    for (std::string_view pair : split_list(element, ';')) {
        const size_t eq = pair.find('=');
        if (eq == std::string_view::npos) continue;
        if (same_ignoring_case(strip_ows(pair.substr(0, eq)), key)) return unquote(strip_ows(pair.substr(eq + 1)));
    }
    return {};
}

bool parse_prefix(std::string_view text, int& out) {
    if (text.empty() || text.size() > 3) return false;
    out = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
        out = out * 10 + (c - '0');
    }
    return true;
}

}  // namespace

bool IpAddress::is_v4() const { return std::equal(V4MappedPrefix.begin(), V4MappedPrefix.end(), bytes.begin()); }

std::string IpAddress::to_string() const {
    char text[INET6_ADDRSTRLEN] = {};
    if (is_v4()) inet_ntop(AF_INET, bytes.data() + 12, text, sizeof text);
    else inet_ntop(AF_INET6, bytes.data(), text, sizeof text);
    return text;
}

std::optional<IpAddress> parse_ip_address(std::string_view text) {
    if (text.size() >= 2 && text.front() == '[' && text.back() == ']') text = text.substr(1, text.size() - 2);
    if (text.empty() || text.size() >= INET6_ADDRSTRLEN) return std::nullopt;
    const std::string s(text);  // inet_pton wants a terminated string
    IpAddress a;
    if (s.find(':') == std::string::npos) {
        std::uint8_t v4[4];
        if (inet_pton(AF_INET, s.c_str(), v4) != 1) return std::nullopt;
        std::copy(V4MappedPrefix.begin(), V4MappedPrefix.end(), a.bytes.begin());
        std::memcpy(a.bytes.data() + 12, v4, 4);
        return a;
    }
    if (inet_pton(AF_INET6, s.c_str(), a.bytes.data()) != 1) return std::nullopt;
    return a;
}

std::string canonical_ip(std::string_view text) {
    auto a = parse_ip_address(text);
    return a ? a->to_string() : std::string(text);
}

bool IpNetwork::contains(const IpAddress& a) const {
    for (int bit = 0; bit < prefix; ++bit) {
        const std::uint8_t mask = std::uint8_t(0x80 >> (bit % 8));
        if ((a.bytes[size_t(bit / 8)] & mask) != (base.bytes[size_t(bit / 8)] & mask)) return false;
    }
    return true;
}

Result<IpNetwork> parse_ip_network(std::string_view text) {
    const std::string quoted = "'" + std::string(text) + "'";
    const size_t slash = text.find('/');
    const std::string_view address_text = text.substr(0, slash);
    auto address = parse_ip_address(address_text);
    if (!address)
        return make_error(quoted + " is not an IP address or network (for example 127.0.0.1, 10.0.0.0/8, ::1, fd00::/8)");
    const bool v6_text = address_text.find(':') != std::string_view::npos;
    const int family_bits = v6_text ? 128 : 32;
    int bits = family_bits;
    if (slash != std::string_view::npos) {
        if (!parse_prefix(text.substr(slash + 1), bits) || bits > family_bits)
            return make_error(quoted + ": the prefix length of an " + (v6_text ? "IPv6" : "IPv4") + " network is 0 to " +
                              std::to_string(family_bits));
    }
    IpNetwork net{*address, bits + (128 - family_bits)};
    IpNetwork exact = net;
    for (int bit = net.prefix; bit < 128; ++bit) exact.base.bytes[size_t(bit / 8)] &= std::uint8_t(~(0x80 >> (bit % 8)));
    if (!(exact.base == net.base)) {
        std::string base = exact.base.to_string();
        if (v6_text && exact.base.is_v4()) base = "::ffff:" + base;
        return make_error(quoted + " has bits set after the prefix: the network is " + base + "/" + std::to_string(bits));
    }
    return net;
}

Result<TrustedProxies> TrustedProxies::parse(const std::vector<std::string>& texts) {
    std::vector<IpNetwork> networks;
    for (const std::string& t : texts) {
        auto n = parse_ip_network(t);
        if (!n) return n.error();
        networks.push_back(*n);
    }
    return TrustedProxies(std::move(networks));
}

bool TrustedProxies::trusts(const IpAddress& a) const {
    return std::any_of(networks_.begin(), networks_.end(), [&a](const IpNetwork& n) { return n.contains(a); });
}

bool TrustedProxies::trusts(std::string_view address) const {
    if (networks_.empty()) return false;  // every request asks: no parsing without --trust-proxy
    auto a = parse_ip_address(address);
    return a && trusts(*a);
}

ClientView real_client(std::string_view peer, const ForwardingHeaders& headers, const TrustedProxies& trusted) {
    const auto peer_address = parse_ip_address(peer);
    if (!peer_address) return {std::string(peer), false, false};
    ClientView view{peer_address->to_string(), false, false};
    if (!trusted.trusts(*peer_address)) return view;

    // The hops, left (the client, as claimed) to right (the proxy nearest to us).
    const bool by_xff = !strip_ows(headers.x_forwarded_for).empty();
    const std::vector<std::string_view> elements = split_list(headers.forwarded, ',');
    std::vector<std::string> hops;
    if (by_xff) {
        for (std::string_view h : split_list(headers.x_forwarded_for, ',')) hops.emplace_back(h);
    } else {
        for (std::string_view e : elements) hops.push_back(forwarded_param(e, "for"));
    }
    IpAddress client = *peer_address;
    int chosen = -1;
    for (int i = int(hops.size()) - 1; i >= 0; --i) {
        const auto hop = parse_node(hops[size_t(i)]);
        if (!hop) break;
        client = *hop;
        chosen = i;
        if (!trusted.trusts(*hop)) break;
    }
    view.address = client.to_string();
    view.forwarded = chosen >= 0;

    std::string proto;
    if (const auto protos = split_list(headers.x_forwarded_proto, ','); !protos.empty()) {
        const bool aligned = by_xff && chosen >= 0 && protos.size() == hops.size();
        proto = std::string(aligned ? protos[size_t(chosen)] : protos.back());
    } else if (!elements.empty()) {
        const bool aligned = !by_xff && chosen >= 0;
        proto = forwarded_param(aligned ? elements[size_t(chosen)] : elements.back(), "proto");
    }
    view.https = same_ignoring_case(proto, "https");
    return view;
}

}  // namespace outpost::server
