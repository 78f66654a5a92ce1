// The web UI compiled into `outpost` (SPEC D5): the executable alone, started with no
// argument but a free port in an empty folder, serves the full UI, keeps its games in
// ./outpost.db, sends gzip to a browser that takes it, lets content-hashed assets be
// kept a year and has the page revalidated (ETag, 304).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <regex>

#include "../support/serve_process.h"
#include "../support/temp_dir_test.h"

namespace {

namespace fs = std::filesystem;
using namespace outpost::test;

// `outpost serve --port 0` run in `cwd`; the port, or 0 when it did not start.
struct ServeIn {
    pid_t pid = -1;
    int port = 0;
    explicit ServeIn(const fs::path& cwd) {
        const std::string log = (cwd / "serve.log").string();
        pid = fork();
        if (pid == 0) {
            if (::chdir(cwd.c_str()) != 0 || !std::freopen(log.c_str(), "w", stdout)) _exit(126);
            execl(OUTPOST_BINARY, OUTPOST_BINARY, "serve", "--port", "0", "--robot-threads", "1", nullptr);
            _exit(127);
        }
        const std::regex serving("http://[^:]+:([0-9]+)/");
        for (int i = 0; i < 400 && !port; ++i) {
            std::ifstream in(log);
            const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            std::smatch m;
            if (std::regex_search(text, m, serving)) port = std::stoi(m[1]);
            else std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    ~ServeIn() {
        ::kill(pid, SIGTERM);
        waitpid(pid, nullptr, 0);
    }
};

std::string header(const Response& r, const std::string& name) {
    std::smatch m;
    if (std::regex_search(r.head, m, std::regex("\r\n" + name + ": *([^\r]*)", std::regex::icase))) return m[1];
    return "";
}

class EmbeddedUiD5 : public TempDirTest {};

TEST_F(EmbeddedUiD5, TheExecutableAloneServesTheWholeUi) {
    ServeIn server(dir_);
    ASSERT_GT(server.port, 0) << "outpost serve did not start";
    EXPECT_TRUE(fs::exists(dir_ / "outpost.db"));  // the games' database in the folder it runs in

    const int fd = connect_to(server.port);
    const Response page = http(fd, "GET", "/");
    ASSERT_EQ(page.status, 200);
    if (page.body.find("built without its web UI") != std::string::npos)
        GTEST_SKIP() << "this build of outpost has no web UI compiled in (OUTPOST_EMBED_WEB=OFF or no npm)";
    EXPECT_EQ(header(page, "Cache-Control"), "no-cache");
    const std::string etag = header(page, "ETag");
    ASSERT_FALSE(etag.empty());
    EXPECT_EQ(http(fd, "GET", "/", "", "If-None-Match: " + etag + "\r\n").status, 304);
    // A route of the single-page app gets the same page.
    EXPECT_EQ(http(fd, "GET", "/lobby").body, page.body);

    // The page's script: hashed, kept a year, gzip when the browser takes it.
    std::smatch m;
    ASSERT_TRUE(std::regex_search(page.body, m, std::regex("src=\"(/assets/[^\"]+\\.js)\""))) << page.body;
    const std::string script = m[1];
    const Response plain = http(fd, "GET", script);
    ASSERT_EQ(plain.status, 200);
    EXPECT_GT(plain.body.size(), 10'000u);
    EXPECT_EQ(header(plain, "Cache-Control"), "public, max-age=31536000, immutable");
    EXPECT_EQ(header(plain, "Content-Encoding"), "");
    const Response zipped = http(fd, "GET", script, "", "Accept-Encoding: gzip, deflate, br\r\n");
    ASSERT_EQ(zipped.status, 200);
    EXPECT_EQ(header(zipped, "Content-Encoding"), "gzip");
    EXPECT_EQ(header(zipped, "Vary"), "Accept-Encoding");
    ASSERT_GE(zipped.body.size(), 2u);
    EXPECT_EQ(static_cast<unsigned char>(zipped.body[0]), 0x1f);  // the gzip magic
    EXPECT_EQ(static_cast<unsigned char>(zipped.body[1]), 0x8b);
    EXPECT_LT(zipped.body.size(), plain.body.size() / 2);
    EXPECT_EQ(header(http(fd, "GET", script, "", "Accept-Encoding: gzip;q=0\r\n"), "Content-Encoding"), "");
    ::close(fd);
}

}  // namespace
