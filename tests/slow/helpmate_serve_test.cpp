// Flag falls played out through a real `outpost serve` (R11, FIDE 6.9) in positions
// where counting material gives the wrong answer: the game starts from a PGN with a
// FEN tag and two moves (the clock starts after two plies, docs/protocol.md), nobody
// moves again, and the server's own clock lets the flag fall (C5). Plain POSIX
// sockets and HTTP/1.1, so that the test needs no network library.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;

// `outpost serve` on 127.0.0.1 with a port of its choosing, read from its log.
struct Serve {
    pid_t pid = -1;
    int port = 0;
    fs::path dir;
    Serve() {
        dir = fs::temp_directory_path() / ("outpost-flag-" + std::to_string(::getpid()));
        fs::create_directories(dir);
        const std::string log = (dir / "serve.log").string();
        std::vector<std::string> args = {OUTPOST_BINARY, "serve", "--host", "127.0.0.1", "--port", "0", "--db",
                                         (dir / "t.db").string(), "--web", "/nonexistent", "--robot-threads", "1"};
        pid = fork();
        if (pid == 0) {
            if (!std::freopen(log.c_str(), "w", stdout)) _exit(126);
            std::vector<char*> argv;
            for (auto& a : args) argv.push_back(a.data());
            argv.push_back(nullptr);
            execv(argv[0], argv.data());
            _exit(127);
        }
        const std::regex serving("http://[^:]+:([0-9]+)/");
        for (int i = 0; i < 300 && !port; ++i) {
            std::ifstream in(log);
            const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            std::smatch m;
            if (std::regex_search(text, m, serving)) port = std::stoi(m[1]);
            else std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    ~Serve() {
        if (pid > 0) {
            kill(pid, SIGTERM);
            int status = 0;
            waitpid(pid, &status, 0);
        }
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
};

// One HTTP/1.1 request on its own connection; the body of the answer ("" on failure).
std::string http(int port, const std::string& method, const std::string& target, const std::string& body = "") {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(uint16_t(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        close(fd);
        return "";
    }
    std::string req = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
    if (method == "POST") req += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
    req += "\r\n" + body;
    for (size_t off = 0; off < req.size();) {
        const ssize_t n = send(fd, req.data() + off, req.size() - off, MSG_NOSIGNAL);
        if (n <= 0) break;
        off += size_t(n);
    }
    std::string data;
    char buf[4096];
    for (pollfd p{fd, POLLIN, 0}; poll(&p, 1, 5000) > 0;) {
        const ssize_t got = recv(fd, buf, sizeof buf, 0);
        if (got <= 0) break;
        data.append(buf, size_t(got));
    }
    close(fd);
    const size_t end = data.find("\r\n\r\n");
    return end == std::string::npos ? "" : data.substr(end + 4);
}

std::string field(const std::string& json, const std::string& name) {
    std::smatch m;
    const std::regex re("\"" + name + "\": *\"([^\"]*)\"");
    return std::regex_search(json, m, re) ? std::string(m[1]) : "";
}

struct Ending {
    std::string status, result, end;
};

// A hotseat game from `fen` and the two `moves`, on a 1.2-second clock; waits for the
// server to see the flag fall and returns how the game ended.
Ending flag_fall(const Serve& s, const std::string& fen, const std::string& moves) {
    const std::string pgn = "[SetUp \\\"1\\\"]\\n[FEN \\\"" + fen + "\\\"]\\n\\n" + moves + " *";
    const std::string created =
        http(s.port, "POST", "/api/v1/games",
             R"({"v":1,"opponent":"hotseat","color":"white","time_control":"0.02+0","pgn":")" + pgn + "\"}");
    const std::string id = field(created, "game");
    EXPECT_FALSE(id.empty()) << created;
    if (id.empty()) return {};
    for (int i = 0; i < 100; ++i) {
        const std::string state = http(s.port, "GET", "/api/v1/games/" + id);
        if (field(state, "status") != "ongoing" && !field(state, "status").empty())
            return {field(state, "status"), field(state, "result"), field(state, "end")};
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ADD_FAILURE() << "no flag fall for " << fen;
    return {};
}

}  // namespace

TEST(HelpmateServeR11Fide6_9, FlagFallsDecidedByWhoCanStillMate) {
    Serve s;
    ASSERT_GT(s.port, 0) << "outpost serve did not start";

    // White: king and two bishops on one colour; Black: king and queen. White's flag falls: Black can mate (the bishops can block next to the
    // white king), so Black wins.
    Ending a = flag_fall(s, "4k3/8/8/3q4/8/8/3B1B2/4K3 w - - 0 1", "1. Ke2 Ke7 2. Ke1 Ke8");
    EXPECT_EQ(a.status, "timeout");
    EXPECT_EQ(a.result, "0-1");

    // The other way round: White king and queen, Black king and two bishops on one
    // colour. More material for White would say "White loses on time"; but Black can
    // never mate, so White's flag fall is a draw.
    Ending b = flag_fall(s, "4k3/3b1b2/8/8/3Q4/8/8/4K3 w - - 0 1", "1. Ke2 Ke7 2. Ke1 Ke8");
    EXPECT_EQ(b.status, "timeout-draw");
    EXPECT_EQ(b.result, "1/2-1/2");
    EXPECT_NE(b.end.find("could not checkmate"), std::string::npos) << b.end;

    // Locked pawns (a published test vector, "-B"): White has two bishops against one,
    // but neither of its bishops nor its king can ever reach the black king; Black's
    // bishop can. Black's flag falls: a draw, not a White win.
    Ending c = flag_fall(s, "8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/7B/8 b - - 0 1", "1... Ke7 2. Bhg1");
    EXPECT_EQ(c.status, "timeout-draw");
    EXPECT_EQ(c.result, "1/2-1/2");

    // The same position, White's flag: Black, who can mate, wins on time.
    Ending d = flag_fall(s, "8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/7B/8 b - - 0 1", "1... Ke7 2. Bhg1 Kf7");
    EXPECT_EQ(d.status, "timeout");
    EXPECT_EQ(d.result, "0-1");
}
