// Issue 27 item 6 ("TLS and proxies"), end to end: a game played over wss:// through
// Debian's nginx configured with the shipped deploy/nginx.conf, and one over the
// server's own TLS; in both the server must see each player's own address (a
// per-address limit, --max-open-games 1, tells: two players from two addresses may
// each open a game, one player may not open two), and an address a client writes in
// X-Forwarded-For must change nothing.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include <chrono>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "../support/temp_dir_test.h"
#include "../support/tls_client.h"

namespace {

using namespace outpost::test;
using nlohmann::json;

std::string read_text(const fs::path& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A free loopback port (free when asked: nginx binds it a moment later).
int free_port() {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
    close(fd);
    return ntohs(a.sin_port);
}

// Replaces `from` in `text` by `to`; a test failure names what deploy/nginx.conf no
// longer says.
void replace(std::string& text, const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << "deploy/nginx.conf no longer contains: " << from;
    text.replace(at, from.size(), to);
}

// nginx with deploy/nginx.conf, its ports and certificate those of the test, its
// files in `dir`; stopped when the object goes, and with the test's process if that
// dies first.
struct Nginx {
    pid_t pid = -1;
    int https_port = 0, http_port = 0;
    fs::path dir;
    std::string failure;  // why it did not start

    Nginx(const fs::path& d, int upstream_port, const std::string& cert, const std::string& key) : dir(d) {
        std::string site = read_text(fs::path(OUTPOST_TEST_DATA) / ".." / ".." / "deploy" / "nginx.conf");
        https_port = free_port();
        http_port = free_port();
        configure(site, upstream_port, cert, key);
        if (::testing::Test::HasFatalFailure()) return;
        for (const char* sub : {"body", "proxy", "fastcgi", "uwsgi", "scgi"}) fs::create_directories(dir / "tmp" / sub);
        const fs::path conf = dir / "nginx.conf";
        std::ofstream(conf) << "worker_processes 1;\npid " << (dir / "nginx.pid").string() << ";\nerror_log "
                            << (dir / "error.log").string() << " info;\nevents { worker_connections 64; }\nhttp {\n"
                            << "  access_log " << (dir / "access.log").string() << ";\n"
                            << "  client_body_temp_path " << (dir / "tmp/body").string() << ";\n"
                            << "  proxy_temp_path " << (dir / "tmp/proxy").string() << ";\n"
                            << "  fastcgi_temp_path " << (dir / "tmp/fastcgi").string() << ";\n"
                            << "  uwsgi_temp_path " << (dir / "tmp/uwsgi").string() << ";\n"
                            << "  scgi_temp_path " << (dir / "tmp/scgi").string() << ";\n"
                            << site << "\n}\n";
        pid = fork();
        if (pid == 0) {
            prctl(PR_SET_PDEATHSIG, SIGTERM);
            const std::string d_s = dir.string(), conf_s = conf.string(), err = (dir / "error.log").string();
            execl("/usr/sbin/nginx", "nginx", "-p", d_s.c_str(), "-c", conf_s.c_str(), "-e", err.c_str(), "-g",
                  "daemon off;", static_cast<char*>(nullptr));
            _exit(127);
        }
        for (int i = 0; i < 200; ++i) {
            const int fd = connect_to(https_port);
            if (fd >= 0) {
                close(fd);
                return;
            }
            if (waitpid(pid, nullptr, WNOHANG) == pid) {
                pid = -1;
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(25));
        }
        failure = "nginx did not start: " + read_text(dir / "error.log");
    }
    void configure(std::string& site, int upstream_port, const std::string& cert, const std::string& key) {
        replace(site, "server 127.0.0.1:8080;", "server 127.0.0.1:" + std::to_string(upstream_port) + ";");
        replace(site, "listen 80;", "listen 127.0.0.1:" + std::to_string(http_port) + ";");
        replace(site, "listen [::]:80;", "");
        replace(site, "listen 443 ssl http2;", "listen 127.0.0.1:" + std::to_string(https_port) + " ssl http2;");
        replace(site, "listen [::]:443 ssl http2;", "");
        replace(site, "/etc/letsencrypt/live/chess.example.org/fullchain.pem", cert);
        replace(site, "/etc/letsencrypt/live/chess.example.org/privkey.pem", key);
    }
    Nginx(const Nginx&) = delete;
    Nginx& operator=(const Nginx&) = delete;
    ~Nginx() {
        if (pid <= 0) return;
        ::kill(pid, SIGTERM);
        waitpid(pid, nullptr, 0);
    }
};

// POST /api/v1/games from `source` over TLS to `port`: {status, game id, seat token}.
struct Created {
    int status = 0;
    std::string game, seat;
};
Created create_game(const std::string& source, int port, const std::string& ca, const std::string& extra = "") {
    TlsPipe tls(source, port, ca);
    if (!tls.ok()) return {};
    Response r = http(tls.fd(), "POST", "/api/v1/games", R"({"v":1,"opponent":"hotseat","color":"white","time_control":"-"})",
                      "Content-Type: application/json\r\n" + extra);
    Created c{r.status, "", ""};
    std::smatch m;
    if (std::regex_search(r.body, m, std::regex(R"re("game":"([A-Za-z0-9]+)".*"white":"([A-Za-z0-9]+)")re"))) {
        c.game = m[1];
        c.seat = m[2];
    }
    return c;
}

// Plays the fool's mate in a hotseat game over wss:// from `source`, as a browser
// would (with the page's Origin); the final state's status.
std::string play_fools_mate(const std::string& source, int port, const std::string& ca, const Created& g) {
    TlsPipe tls(source, port, ca);
    if (!tls.ok()) return "(no TLS connection)";
    std::string head;
    const int status = ws_handshake(tls.fd(), port, "/api/v1/ws?game=" + g.game + "&seat=" + g.seat,
                                    "https://127.0.0.1:" + std::to_string(port), &head);
    if (status != 101) return "(WebSocket refused: " + head + ")";
    const std::vector<std::string> moves = {"f2f3", "e7e5", "g2g4", "d8h4"};
    std::string last_status;
    for (size_t ply = 0; ply < moves.size(); ++ply) {
        if (!ws_send(tls.fd(), json{{"v", 1}, {"t", "move"}, {"uci", moves[ply]}, {"ply", ply}}.dump()))
            return "(send failed)";
        for (;;) {
            auto [op, text] = ws_read_data(tls.fd(), 10000);
            if (op != 1) return "(connection ended at ply " + std::to_string(ply) + ")";
            const json msg = json::parse(text, nullptr, false);
            if (msg.value("t", "") == "error") return "(error: " + text + ")";
            if (msg.value("t", "") != "move" || !msg.contains("game") || msg["game"].value("uci", "") != moves[ply]) continue;
            last_status = msg["game"].value("status", "");
            break;
        }
    }
    return last_status;
}

// The per-address limit seen through `port` (nginx's or the server's own): the
// players at 127.0.0.2 and 127.0.0.3 each open a game, a second one of the first is
// refused, with or without a made-up X-Forwarded-For; the first player's game over
// wss:// to mate, after which the first player may open another.
void check_addresses_and_play(int port, const std::string& ca) {
    const Created first = create_game("127.0.0.2", port, ca);
    ASSERT_EQ(first.status, 201);
    ASSERT_FALSE(first.game.empty());
    EXPECT_EQ(create_game("127.0.0.2", port, ca).status, 429) << "one player, two open games";
    EXPECT_EQ(create_game("127.0.0.3", port, ca).status, 201) << "the second player was taken for the first";
    EXPECT_EQ(create_game("127.0.0.2", port, ca, "X-Forwarded-For: 127.0.0.44\r\n").status, 429)
        << "a forged X-Forwarded-For was believed";
    EXPECT_EQ(create_game("127.0.0.2", port, ca, "X-Forwarded-For: 127.0.0.45, 127.0.0.46\r\n").status, 429)
        << "a forged X-Forwarded-For was believed";
    EXPECT_EQ(play_fools_mate("127.0.0.2", port, ca, first), "checkmate");
    EXPECT_EQ(create_game("127.0.0.2", port, ca).status, 201) << "the finished game still counts";
}

class TlsProxyIssue27 : public TempDirTest {
protected:
    void SetUp() override {
        TempDirTest::SetUp();
        std::tie(cert_, key_) = make_certificate(dir_, "outpost-test");
        ASSERT_FALSE(cert_.empty()) << "openssl req could not make a certificate";
    }
    std::string cert_, key_;
};

TEST_F(TlsProxyIssue27, AGameOverWssThroughNginxAndTheServerSeesTheClientsAddress) {
    ASSERT_TRUE(fs::exists("/usr/sbin/nginx")) << "nginx is missing: bash scripts/install-deps.sh";
    Server outpost({"--trust-proxy", "127.0.0.1", "--max-open-games", "1", "--password-cost", "cheapest"});
    ASSERT_GT(outpost.port, 0);
    Nginx nginx(dir_ / "nginx", outpost.port, cert_, key_);
    ASSERT_FALSE(::testing::Test::HasFatalFailure());
    ASSERT_GT(nginx.pid, 0) << nginx.failure;

    check_addresses_and_play(nginx.https_port, cert_);

    // Through nginx, the scheme is https: the session cookie is Secure, HSTS is sent.
    {
        TlsPipe tls("127.0.0.2", nginx.https_port, cert_);
        ASSERT_TRUE(tls.ok());
        Response r = http(tls.fd(), "POST", "/api/v1/account/signup",
                          R"({"name":"behindnginx","password":"a long enough passphrase"})",
                          "Content-Type: application/json\r\n");
        ASSERT_EQ(r.status, 201) << r.body;
        EXPECT_TRUE(std::regex_search(r.head, std::regex("Set-Cookie: [^\r]*; Secure"))) << r.head;
        EXPECT_NE(r.head.find("Strict-Transport-Security: max-age=31536000"), std::string::npos) << r.head;
    }
    // Plain HTTP to nginx goes to https://.
    const int fd = connect_to(nginx.http_port);
    send_all(fd, "GET /game/x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    const std::string answer = read_some(fd, 4096);
    close(fd);
    EXPECT_EQ(answer.substr(0, 12), "HTTP/1.1 308") << answer;
    EXPECT_NE(answer.find("Location: https://127.0.0.1/game/x"), std::string::npos) << answer;
}

TEST_F(TlsProxyIssue27, AGameOverTheServersOwnTlsAndTheServerSeesTheClientsAddress) {
    // 127.0.0.2 is not a trusted proxy: its X-Forwarded-For is not believed.
    Server outpost({"--tls-cert", cert_, "--tls-key", key_, "--trust-proxy", "127.0.0.1", "--max-open-games", "1"});
    ASSERT_GT(outpost.port, 0);
    check_addresses_and_play(outpost.port, cert_);
}

}  // namespace
