// Issue 27 item 6 ("TLS and proxies") against the real executable: `outpost serve
// --tls-cert --tls-key` serves HTTPS and wss:// on its port with HSTS and Secure
// cookies, reads its certificate again on SIGHUP (keeping the old one when the new one
// is bad), redirects plain HTTP from --http-redirect-port; forwarding headers are
// believed only from --trust-proxy peers; and every mistake of an operator is refused
// at start with one line and a non-zero exit.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../support/run_outpost.h"
#include "../support/temp_dir_test.h"
#include "../support/tls_client.h"

namespace {

using namespace outpost::test;
using nlohmann::json;

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// `outpost serve ARGS` that must refuse to start: its exit code and standard error
// (killed after 30 s if it serves after all).
struct Refusal {
    int exit_code = -1;
    std::string err;
};
Refusal serve_refusal(const std::vector<std::string>& args, const fs::path& dir) {
    // (appending, not `"text" + string`: g++ 12 warns -Wstringop-overflow at -O3 about that)
    std::string command = "timeout 30 ";
    command += shell_quote(OUTPOST_BINARY);
    command += " serve --host 127.0.0.1 --web /nonexistent";
    if (std::find(args.begin(), args.end(), "--port") == args.end()) command += " --port 0";
    for (const auto& a : args) {
        command += ' ';
        command += shell_quote(a);
    }
    const std::string err = (dir / "refusal.err").string();
    command += " >/dev/null 2>";
    command += shell_quote(err);
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(err)};
}

// A listening socket on a free loopback port: {fd, port}.
std::pair<int, int> occupy_port() {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(fd, 1) != 0 ||
        getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0)
        return {-1, 0};
    return {fd, ntohs(a.sin_port)};
}

class ServeTlsIssue27 : public TempDirTest {
protected:
    void SetUp() override {
        TempDirTest::SetUp();
        std::tie(cert_, key_) = make_certificate(dir_, "first");
        ASSERT_FALSE(cert_.empty()) << "openssl req could not make a certificate";
    }
    std::vector<std::string> tls_args() const { return {"--tls-cert", cert_, "--tls-key", key_}; }
    // The one line of a refusal: what (the option), where (the file), why.
    void expect_one_line(const Refusal& r, const std::vector<std::string>& words) {
        EXPECT_NE(r.exit_code, 0) << r.err;
        EXPECT_NE(r.exit_code, 124) << "it served instead of refusing: " << r.err;
        ASSERT_FALSE(r.err.empty());
        const std::string first = r.err.substr(0, r.err.find('\n'));
        for (const auto& w : words) EXPECT_NE(first.find(w), std::string::npos) << "'" << w << "' not in: " << r.err;
        EXPECT_FALSE(fs::exists(dir_ / "t.db")) << "a database was made by a server that refused to start";
    }
    std::string db() const { return (dir_ / "t.db").string(); }
    std::string cert_, key_;
};

TEST_F(ServeTlsIssue27, AMissingCertificateIsRefusedInOneLine) {
    const std::string missing = (dir_ / "none.crt").string();
    expect_one_line(serve_refusal({"--db", db(), "--tls-cert", missing, "--tls-key", key_}, dir_),
                    {"--tls-cert", missing, "cannot read the certificate", "No such file or directory"});
}

TEST_F(ServeTlsIssue27, AnUnreadableKeyIsRefusedInOneLine) {
    // A folder where the key should be: unreadable whoever runs the test (root reads
    // files of mode 000).
    const std::string folder = (dir_ / "keys").string();
    fs::create_directories(folder);
    expect_one_line(serve_refusal({"--db", db(), "--tls-cert", cert_, "--tls-key", folder}, dir_),
                    {"--tls-key", folder, "cannot read the key", "Is a directory"});
    const std::string garbage = write("garbage.key", "not a key\n");
    expect_one_line(serve_refusal({"--db", db(), "--tls-cert", cert_, "--tls-key", garbage}, dir_),
                    {"--tls-key", garbage, "no private key in it"});
    const std::string not_cert = write("garbage.crt", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
    expect_one_line(serve_refusal({"--db", db(), "--tls-cert", not_cert, "--tls-key", key_}, dir_),
                    {"--tls-cert", not_cert, "no certificate in it"});
}

TEST_F(ServeTlsIssue27, AKeyThatDoesNotMatchIsRefusedInOneLine) {
    const auto [other_cert, other_key] = make_certificate(dir_, "other");
    expect_one_line(serve_refusal({"--db", db(), "--tls-cert", cert_, "--tls-key", other_key}, dir_),
                    {"--tls-key", other_key, "not the key of the certificate", cert_});
}

TEST_F(ServeTlsIssue27, HalfATlsSetupIsRefused) {
    expect_one_line(serve_refusal({"--db", db(), "--tls-cert", cert_}, dir_), {"--tls-cert and --tls-key go together"});
    expect_one_line(serve_refusal({"--db", db(), "--http-redirect-port", "0"}, dir_),
                    {"--http-redirect-port", "needs --tls-cert"});
}

TEST_F(ServeTlsIssue27, ABadNetworkIsRefusedWhereverItIsWritten) {
    expect_one_line(serve_refusal({"--db", db(), "--trust-proxy", "10.0.0.0/33"}, dir_),
                    {"--trust-proxy", "'10.0.0.0/33'", "the prefix length of an IPv4 network is 0 to 32"});
    expect_one_line(serve_refusal({"--db", db(), "--trust-proxy", "127.0.0.1", "--trust-proxy", "proxy.example"}, dir_),
                    {"--trust-proxy", "'proxy.example' is not an IP address or network"});
    const std::string config = write("outpost.toml", "trust-proxy = [\"127.0.0.1\",\n  \"10.0.0.1/8\"]\n");
    expect_one_line(serve_refusal({"--db", db(), "--config", config}, dir_),
                    {"outpost.toml:1:", "'10.0.0.1/8' has bits set after the prefix"});
    ::setenv("OUTPOST_TRUST_PROXY", "127.0.0.1,fd00::/200", 1);
    const Refusal from_env = serve_refusal({"--db", db()}, dir_);
    ::unsetenv("OUTPOST_TRUST_PROXY");
    expect_one_line(from_env, {"OUTPOST_TRUST_PROXY", "'fd00::/200'"});
}

TEST_F(ServeTlsIssue27, APortInUseIsRefusedInOneLine) {
    const auto [fd, port] = occupy_port();
    ASSERT_GE(fd, 0);
    const std::string where = "127.0.0.1:" + std::to_string(port);
    Refusal r = serve_refusal({"--db", db(), "--port", std::to_string(port)}, dir_);
    expect_one_line(r, {"cannot listen on " + where + " (--port)", "Address already in use"});
    std::vector<std::string> args = tls_args();
    args.insert(args.end(), {"--db", db(), "--http-redirect-port", std::to_string(port)});
    r = serve_refusal(args, dir_);
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("cannot listen on " + where + " (--http-redirect-port): Address already in use"),
              std::string::npos)
        << r.err;
    close(fd);
}

// POST /api/v1/games over a connected socket: the status and the body.
Response create_game(int fd, const std::string& extra_headers = "") {
    return http(fd, "POST", "/api/v1/games", R"({"v":1,"opponent":"hotseat","color":"white","time_control":"-"})",
                "Content-Type: application/json\r\n" + extra_headers);
}

TEST_F(ServeTlsIssue27, HttpsAnswersCarryHstsAndSecureCookies) {
    std::vector<std::string> args = tls_args();
    args.insert(args.end(), {"--password-cost", "cheapest"});
    Server s(args);
    ASSERT_GT(s.port, 0);
    EXPECT_NE(read_text(s.log).find("Outpost is serving on https://127.0.0.1:"), std::string::npos);
    TlsPipe tls("127.0.0.1", s.port, cert_);
    ASSERT_TRUE(tls.ok());
    EXPECT_EQ(tls.subject_cn(), "first");
    Response r = http(tls.fd(), "GET", "/healthz");
    EXPECT_EQ(r.status, 200);
    EXPECT_NE(r.head.find("Strict-Transport-Security: max-age=31536000"), std::string::npos) << r.head;
    r = http(tls.fd(), "GET", "/no/such/api");
    EXPECT_NE(r.head.find("Strict-Transport-Security: max-age=31536000"), std::string::npos) << r.head;
    r = http(tls.fd(), "POST", "/api/v1/account/signup", R"({"name":"tlsplayer","password":"a long enough passphrase"})",
             "Content-Type: application/json\r\n");
    ASSERT_EQ(r.status, 201) << r.body;
    EXPECT_TRUE(std::regex_search(r.head, std::regex("Set-Cookie: [^\r]*; Secure"))) << r.head;
    // Plain HTTP on the TLS port: no answer in clear text.
    const int plain = connect_to(s.port);
    send_all(plain, "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    EXPECT_EQ(read_some(plain, 4096, 5000).find("HTTP/1.1 200"), std::string::npos);
    close(plain);
}

TEST_F(ServeTlsIssue27, ForwardingHeadersAreBelievedFromTrustedProxiesOnly) {
    // A plain server: X-Forwarded-Proto from a peer that is not trusted does not make
    // its cookie Secure; from a trusted one it does.
    for (const bool trusted : {false, true}) {
        std::vector<std::string> args = {"--password-cost", "cheapest", "--max-open-games", "1"};
        if (trusted) args.insert(args.end(), {"--trust-proxy", "127.0.0.1"});
        Server s(args);
        ASSERT_GT(s.port, 0);
        const int fd = connect_to(s.port);
        Response r = http(fd, "POST", "/api/v1/account/signup", R"({"name":"proxied","password":"a long enough passphrase"})",
                          "Content-Type: application/json\r\nX-Forwarded-Proto: https\r\nForwarded: proto=https\r\n");
        ASSERT_EQ(r.status, 201) << r.body;
        EXPECT_EQ(std::regex_search(r.head, std::regex("Set-Cookie: [^\r]*; Secure")), trusted) << r.head;
        close(fd);
        // Per-address limits: from a peer that is not trusted (127.0.0.2 here), a forged
        // X-Forwarded-For changes nothing; through the trusted one, each client counts.
        int from2 = connect_from("127.0.0.2", s.port);
        EXPECT_EQ(create_game(from2).status, 201);
        EXPECT_EQ(create_game(from2, "X-Forwarded-For: 198.51.100.9\r\n").status, 429);
        close(from2);
        const int proxy = connect_to(s.port);
        EXPECT_EQ(create_game(proxy, "X-Forwarded-For: 198.51.100.10\r\n").status, 201);
        EXPECT_EQ(create_game(proxy, "X-Forwarded-For: 198.51.100.11\r\n").status, trusted ? 201 : 429);
        // The client's own X-Forwarded-For, left of what the proxy appended, is not believed.
        EXPECT_EQ(create_game(proxy, "X-Forwarded-For: 198.51.100.12, 198.51.100.11\r\n").status, 429);
        close(proxy);
    }
}

// --max-connections-per-ip behind a proxy: the proxy's own connections are not capped
// (all its clients share them), each WebSocket through it counts for its client.
TEST_F(ServeTlsIssue27, BehindATrustedProxyTheConnectionCapCountsEachClient) {
    Server s({"--trust-proxy", "127.0.0.1", "--max-connections-per-ip", "1"});
    ASSERT_GT(s.port, 0);
    std::vector<int> proxy;
    for (int i = 0; i < 3; ++i) {
        proxy.push_back(connect_to(s.port));
        EXPECT_EQ(http(proxy.back(), "GET", "/healthz").status, 200) << "the proxy's connection " << i << " was capped";
    }
    const auto [game, seat] = hotseat_game(s.port);
    ASSERT_FALSE(game.empty());
    auto ws_through_proxy = [&](int fd, const std::string& client) {
        const std::string target = "/api/v1/ws?game=" + game + "&seat=" + seat;  // stays open
        std::string req = upgrade_request(s.port, target, "");
        req.insert(req.size() - 2, "X-Forwarded-For: " + client + "\r\n");
        send_all(fd, req);
        const std::string head = read_some(fd, 4096);
        return head.size() > 12 ? std::stoi(head.substr(9, 3)) : 0;
    };
    EXPECT_EQ(ws_through_proxy(proxy[0], "198.51.100.1"), 101);
    EXPECT_EQ(ws_through_proxy(proxy[1], "198.51.100.1"), 429) << "a second WebSocket of one client behind the proxy";
    EXPECT_EQ(ws_through_proxy(proxy[2], "198.51.100.2"), 101) << "another client behind the proxy was capped";
    for (int fd : proxy) close(fd);
    // Not through the proxy: the cap holds for the peer's own address, whatever it says.
    const int first = connect_from("127.0.0.2", s.port);
    EXPECT_EQ(http(first, "GET", "/healthz").status, 200);
    const int second = connect_from("127.0.0.2", s.port);
    EXPECT_EQ(http(second, "GET", "/healthz", "", "X-Forwarded-For: 198.51.100.3\r\n").status, 0)
        << "a second connection of 127.0.0.2 was served";
    close(first);
    close(second);
}

TEST_F(ServeTlsIssue27, SighupLoadsANewCertificateAndKeepsTheOldOneWhenTheNewIsBad) {
    Server s(tls_args(), {}, true);
    ASSERT_GT(s.port, 0);
    auto open_cn = [&](const std::string& ca) {
        TlsPipe t("127.0.0.1", s.port, ca);
        return t.ok() ? t.subject_cn() : std::string("(handshake failed)");
    };
    ASSERT_EQ(open_cn(cert_), "first");
    TlsPipe before("127.0.0.1", s.port, cert_);  // open across the reload
    ASSERT_TRUE(before.ok());
    auto wait_for_log = [&](const std::string& text) {
        for (int i = 0; i < 200; ++i) {
            if (read_text(s.err_log).find(text) != std::string::npos) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(25));
        }
        return false;
    };
    // The operator renews the certificate in place and sends SIGHUP.
    const auto [second_cert, second_key] = make_certificate(dir_, "second");
    fs::copy_file(second_cert, cert_, fs::copy_options::overwrite_existing);
    fs::copy_file(second_key, key_, fs::copy_options::overwrite_existing);
    ::kill(s.pid, SIGHUP);
    ASSERT_TRUE(wait_for_log("SIGHUP: new connections get the certificate")) << read_text(s.err_log);
    EXPECT_EQ(open_cn(second_cert), "second");
    EXPECT_EQ(http(before.fd(), "GET", "/healthz").status, 200) << "a connection opened before the reload broke";
    // A bad certificate on the next SIGHUP: the one in use stays, and the log says why.
    std::ofstream(cert_) << "half a certificate\n";
    ::kill(s.pid, SIGHUP);
    ASSERT_TRUE(wait_for_log("SIGHUP: the certificate in use is kept: --tls-cert " + cert_ + ": no certificate in it"))
        << read_text(s.err_log);
    EXPECT_EQ(open_cn(second_cert), "second");
}

TEST_F(ServeTlsIssue27, PlainHttpIsRedirectedToTheSamePathOverHttps) {
    std::vector<std::string> args = tls_args();
    args.insert(args.end(), {"--http-redirect-port", "0"});
    Server s(args);
    ASSERT_GT(s.port, 0);
    std::smatch m;
    const std::string out = read_text(s.log);
    ASSERT_TRUE(std::regex_search(out, m, std::regex("Plain HTTP on port ([0-9]+): every request is redirected"))) << out;
    const int redirect_port = std::stoi(m[1]);
    int fd = connect_to(redirect_port);
    send_all(fd, "GET /game/abc?x=1 HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(redirect_port) + "\r\n\r\n");
    const std::string answer = read_some(fd, 4096);
    close(fd);
    EXPECT_EQ(answer.substr(0, 12), "HTTP/1.1 308") << answer;
    EXPECT_NE(answer.find("\r\nX-Outpost-Node: "), std::string::npos) << answer;  // issue 26: every answer
    EXPECT_NE(answer.find("Location: https://127.0.0.1:" + std::to_string(s.port) + "/game/abc?x=1\r\n"), std::string::npos)
        << answer;
    fd = connect_to(redirect_port);
    send_all(fd, "GET / HTTP/1.0\r\n\r\n");  // no Host: nowhere to send it
    EXPECT_EQ(read_some(fd, 4096).substr(8, 4), " 400");
    close(fd);
}

}  // namespace
