// `outpost --version` and `outpost serve --config FILE` with OUTPOST_… environment
// variables (SPEC D5): the real executable, its words and its exit status; which of
// command line, environment and file wins, seen from the database file it opens.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "../support/run_outpost.h"
#include "../support/temp_dir_test.h"

namespace {

namespace fs = std::filesystem;
using outpost::test::CliRun;
using outpost::test::run_outpost;
using outpost::test::shell_quote;

// Sets an environment variable for the life of the object (CTest runs each test in a
// process of its own).
struct ScopedEnv {
    std::string name;
    ScopedEnv(std::string n, const std::string& value) : name(std::move(n)) { ::setenv(name.c_str(), value.c_str(), 1); }
    ~ScopedEnv() { ::unsetenv(name.c_str()); }
};

// Runs `outpost ARGS` until it says it is serving (true) or exits or 20 s pass
// (false), then stops it with SIGTERM.
bool serves(const std::vector<std::string>& args, const fs::path& log) {
    std::vector<std::string> all = {OUTPOST_BINARY};
    all.insert(all.end(), args.begin(), args.end());
    const pid_t pid = fork();
    if (pid == 0) {
        if (!std::freopen(log.c_str(), "w", stdout) || !std::freopen(log.c_str(), "a", stderr)) _exit(126);
        std::vector<char*> argv;
        for (auto& a : all) argv.push_back(a.data());
        argv.push_back(nullptr);
        execv(argv[0], argv.data());
        _exit(127);
    }
    bool ready = false;
    for (int i = 0; i < 400 && !ready; ++i) {
        std::ifstream in(log);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (text.find("serving on") != std::string::npos) ready = true;
        else if (waitpid(pid, nullptr, WNOHANG) == pid) return false;
        else std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ::kill(pid, SIGTERM);
    waitpid(pid, nullptr, 0);
    return ready;
}

class ServeConfigD5 : public outpost::test::TempDirTest {
protected:
    // A config file that serves on a free loopback port with the database `db`.
    std::string config_with_db(const std::string& db, const std::string& more = "") {
        return write("outpost.toml", "# Outpost test\nhost = \"127.0.0.1\"\nport = 0\ndb = \"" + db +
                                         "\"\nweb = \"/nonexistent\"\nrobot-threads = 1\npassword-cost = \"cheapest\"\n" +
                                         more);
    }
    CliRun serve_with(const std::string& config_text) {
        return run_outpost("serve --config " + shell_quote(write("bad.toml", config_text)));
    }
};

TEST(VersionD5, PrintsVersionAndCommit) {
    const CliRun r = run_outpost("--version");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    ASSERT_FALSE(r.lines.empty());
    EXPECT_TRUE(std::regex_match(r.lines.front(), std::regex(R"(outpost [0-9]+\.[0-9]+\.[0-9]+ \(([0-9a-f]{12}(-modified)?|unknown)\))")))
        << r.lines.front();
}

TEST_F(ServeConfigD5, UnknownKeyIsRefusedWithFileAndLine) {
    const CliRun r = serve_with("port = 0\nprot = 8080\n");
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("bad.toml:2:1: unknown key 'prot'"), std::string::npos) << r.err;
}

TEST_F(ServeConfigD5, ValueOutOfRangeIsRefusedWithFileLineAndReason) {
    const CliRun r = serve_with("\n\nio-threads = 500\n");
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("bad.toml:3:"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("500"), std::string::npos) << r.err;
}

TEST_F(ServeConfigD5, ValueOfTheWrongKindIsRefused) {
    for (const char* text : {"port = \"many\"\n", "port = { a = 1 }\n", "no-client-limits = \"sometimes\"\n",
                             "port = [1, 2]\n", "config = \"other.toml\"\n"}) {
        const CliRun r = serve_with(text);
        EXPECT_NE(r.exit_code, 0) << text;
        EXPECT_NE(r.err.find("bad.toml:1:"), std::string::npos) << text << " -> " << r.err;
    }
}

TEST_F(ServeConfigD5, BrokenTomlIsRefusedWithLineAndColumn) {
    const CliRun r = serve_with("port = 0\nhost = \"127.0.0.1\n");
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("bad.toml:2:"), std::string::npos) << r.err;
}

TEST_F(ServeConfigD5, MissingFileIsRefused) {
    const CliRun r = run_outpost("serve --config " + shell_quote((dir_ / "none.toml").string()));
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("none.toml"), std::string::npos) << r.err;
}

TEST_F(ServeConfigD5, BadEnvironmentValueNamesTheVariable) {
    ScopedEnv port("OUTPOST_IO_THREADS", "0");
    const CliRun r = run_outpost("serve --port 0 --db " + shell_quote((dir_ / "t.db").string()));
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("OUTPOST_IO_THREADS"), std::string::npos) << r.err;
}

// Precedence: the command line, then the environment, then the file.
TEST_F(ServeConfigD5, FileThenEnvironmentThenCommandLine) {
    const fs::path from_file = dir_ / "file.db", from_env = dir_ / "env.db", from_flag = dir_ / "flag.db";
    const std::string config = config_with_db(from_file.string());

    ASSERT_TRUE(serves({"serve", "--config", config}, dir_ / "1.log"));
    EXPECT_TRUE(fs::exists(from_file));
    {
        ScopedEnv db("OUTPOST_DB", from_env.string());
        ASSERT_TRUE(serves({"serve", "--config", config}, dir_ / "2.log"));
        EXPECT_TRUE(fs::exists(from_env));
        ASSERT_TRUE(serves({"serve", "--config", config, "--db", from_flag.string()}, dir_ / "3.log"));
        EXPECT_TRUE(fs::exists(from_flag));
    }
    fs::remove(from_file);
    ScopedEnv cfg("OUTPOST_CONFIG", config);  // the file itself named by the environment
    ASSERT_TRUE(serves({"serve"}, dir_ / "4.log"));
    EXPECT_TRUE(fs::exists(from_file));
}

TEST_F(ServeConfigD5, ListsAndFlagsFromTheFile) {
    const std::string config =
        config_with_db((dir_ / "t.db").string(), "allow-origin = [\"https://a.example\", \"https://b.example\"]\n"
                                                 "no-client-limits = true\nsync_full = true\n");
    EXPECT_TRUE(serves({"serve", "--config", config}, dir_ / "s.log"));
}

// Issue 27: the metrics address and the log's settings are serve options like the others:
// read from the file, refused there with the line and the reason.
TEST_F(ServeConfigD5, Issue27MetricsAndLogSettingsAreCheckedInTheFile) {
    CliRun r = serve_with("port = 0\nmetrics-listen = \"example.org:9464\"\n");
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("bad.toml:2:"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("not an IP address"), std::string::npos) << r.err;
    r = serve_with("log-format = \"xml\"\n");
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("bad.toml:1:"), std::string::npos) << r.err;
    r = serve_with("log-level = \"verbose\"\n");
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("bad.toml:1:"), std::string::npos) << r.err;
    const std::string config = config_with_db((dir_ / "t.db").string(),
                                              "metrics-listen = \"127.0.0.1:0\"\nlog-format = \"json\"\nlog-level = \"warn\"\n");
    EXPECT_TRUE(serves({"serve", "--config", config}, dir_ / "s.log"));
    std::ifstream in(dir_ / "s.log");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("Metrics on http://127.0.0.1:"), std::string::npos) << text;
    EXPECT_EQ(text.find("\"level\":\"info\""), std::string::npos) << "info lines at log-level warn: " << text;
}

// Issue 27, "Bad input": a metrics address whose port is taken stops the start with one
// line that says which address and why.
TEST_F(ServeConfigD5, Issue27MetricsPortInUseIsRefusedWithOneLine) {
    const int taken = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(bind(taken, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    ASSERT_EQ(listen(taken, 1), 0);
    socklen_t len = sizeof a;
    getsockname(taken, reinterpret_cast<sockaddr*>(&a), &len);
    const std::string port = std::to_string(ntohs(a.sin_port));
    const std::string config = config_with_db((dir_ / "t.db").string());
    const CliRun r = run_outpost("serve --config " + shell_quote(config) + " --metrics-listen 127.0.0.1:" + port);
    ::close(taken);
    EXPECT_NE(r.exit_code, 0);
    EXPECT_NE(r.err.find("cannot listen for metrics on 127.0.0.1:" + port), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

}  // namespace
