// Outpost tests — a real PostgreSQL of the test process's own (issue 26): Debian's
// server (scripts/install-deps.sh), initdb in a fresh temporary folder owned by an
// unprivileged user (`postgres` when the tests run as root, as in CI), listening only
// on a Unix socket in that folder (listen_addresses='': no TCP port, no clash), one
// database per test. Started once per process at the first use; stopped (SIGQUIT: an
// immediate shutdown, as `pg_ctl stop -m immediate`) and its folder removed when the
// process exits, also after a failed test; on an abort or a fatal signal the server is
// killed on the way out, and if the test process dies anyhow else (kill -9) the server
// gets SIGQUIT from the kernel (PR_SET_PDEATHSIG).
//
// When PostgreSQL cannot be started the tests that need it fail with the reason; a
// developer without PostgreSQL sets OUTPOST_NO_POSTGRES=1 to skip them instead.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "server/stores/postgres/pg_db.h"

namespace outpost::test {

class PostgresServer {
public:
    // The process's server, started at the first call.
    static PostgresServer& get() {
        static PostgresServer server;
        return server;
    }
    // OUTPOST_NO_POSTGRES=1: the PostgreSQL tests are skipped (with this reason), not run.
    static bool skipped_by_developer() {
        const char* v = std::getenv("OUTPOST_NO_POSTGRES");
        return v && std::string(v) == "1";
    }

    bool ok() const { return pid_ > 0; }
    // Why it did not start (with the end of its log).
    const std::string& failure() const { return failure_; }
    const std::filesystem::path& dir() const { return dir_; }
    pid_t pid() const { return pid_; }

    // The libpq URL of a database of this server.
    std::string url(const std::string& database) const {
        return "postgresql:///" + database + "?host=" + dir_.string() + "&user=outpost";
    }
    // A new, empty database (its URL), or "" with the reason in `why`.
    std::string create_database(std::string& why) {
        std::lock_guard lock(mutex_);
        const std::string name = "outpost_" + std::to_string(::getpid()) + "_" + std::to_string(++databases_);
        if (!admin("CREATE DATABASE " + name, why)) return "";
        return url(name);
    }
    // Drops the database of a URL this server gave (its connections are ended).
    void drop_database(const std::string& database_url) {
        std::lock_guard lock(mutex_);
        const size_t from = database_url.find(":///") + 4, to = database_url.find('?');
        if (from < 4 || to == std::string::npos) return;
        std::string why;
        (void)admin("DROP DATABASE IF EXISTS " + database_url.substr(from, to - from) + " WITH (FORCE)", why);
    }
    // Stops the server (immediate shutdown) and removes its folder. Called at exit.
    void stop() {
        if (pid_ > 0) {
            ::kill(pid_, SIGQUIT);
            int status = 0;
            for (int i = 0; i < 100 && waitpid(pid_, &status, WNOHANG) == 0; ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            if (waitpid(pid_, &status, WNOHANG) == 0) {
                ::kill(pid_, SIGKILL);
                waitpid(pid_, &status, 0);
            }
            pid_ = -1;
            running_pid() = -1;
        }
        std::error_code ec;
        if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
    }
    // For a test that takes the database away while a server uses it (issue 26, item 3):
    // stops PostgreSQL (immediately) and starts it again on the same folder.
    bool restart_stop() {
        if (pid_ <= 0) return false;
        ::kill(pid_, SIGQUIT);
        int status = 0;
        waitpid(pid_, &status, 0);
        pid_ = -1;
        running_pid() = -1;
        return true;
    }
    bool restart_start() { return launch(); }

    ~PostgresServer() { stop(); }
    PostgresServer(const PostgresServer&) = delete;
    PostgresServer& operator=(const PostgresServer&) = delete;

private:
    PostgresServer() {
        if (skipped_by_developer()) {
            failure_ = "OUTPOST_NO_POSTGRES=1: the PostgreSQL tests are skipped";
            return;
        }
        bin_ = find_bin();
        if (bin_.empty()) {
            failure_ = "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): bash scripts/install-deps.sh, "
                       "or OUTPOST_NO_POSTGRES=1 to skip these tests";
            return;
        }
        std::string name = (std::filesystem::temp_directory_path() / "outpost-pg-XXXXXX").string();
        if (!mkdtemp(name.data())) {
            failure_ = "cannot make a temporary folder for PostgreSQL: " + std::string(std::strerror(errno));
            return;
        }
        dir_ = name;
        // As root (CI), the server runs as the unprivileged `postgres` user (it refuses
        // to run as root), which must own its folder.
        if (::geteuid() == 0) {
            const passwd* pw = getpwnam("postgres");
            if (!pw) {
                failure_ = "running as root and there is no `postgres` user to run PostgreSQL as";
                return;
            }
            uid_ = pw->pw_uid;
            gid_ = pw->pw_gid;
            if (chown(dir_.c_str(), uid_, gid_) != 0) {
                failure_ = "cannot give " + dir_.string() + " to the postgres user";
                return;
            }
        }
        const std::string data = (dir_ / "data").string();
        const int rc = run({bin_ + "/initdb", "-D", data, "-A", "trust", "-U", "outpost", "-E", "UTF8", "--locale=C",
                            "--no-sync", "--no-instructions"},
                           (dir_ / "initdb.log").string());
        if (rc != 0) {
            failure_ = "initdb failed (exit " + std::to_string(rc) + "): " + tail(dir_ / "initdb.log");
            return;
        }
        if (!launch()) return;
        install_handlers();
    }

    bool launch() {
        const std::string data = (dir_ / "data").string();
        // No TCP at all; the socket in our folder; no fsync (a test's data is not worth a
        // disk flush; the server process's own durability is what the tests check).
        pid_ = spawn({bin_ + "/postgres", "-D", data, "-c", "listen_addresses=", "-c", "unix_socket_directories=" + dir_.string(),
                      "-c", "fsync=off", "-c", "full_page_writes=off", "-c", "max_connections=200", "-c",
                      "shared_buffers=16MB"},
                     (dir_ / "postgres.log").string(), true);
        if (pid_ <= 0) {
            failure_ = "cannot start postgres";
            return false;
        }
        running_pid() = pid_;
        const std::string probe = url("postgres");
        for (int i = 0; i < 600; ++i) {
            if (outpost::server::pg::Connection().open(probe)) return true;
            int status = 0;
            if (waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                running_pid() = -1;
                failure_ = "postgres exited at start: " + tail(dir_ / "postgres.log");
                return false;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        failure_ = "postgres did not accept connections within 30 s: " + tail(dir_ / "postgres.log");
        ::kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
        pid_ = -1;
        running_pid() = -1;
        return false;
    }

    // A statement on the maintenance database (CREATE/DROP DATABASE).
    bool admin(const std::string& sql, std::string& why) {
        if (!ok()) {
            why = failure_;
            return false;
        }
        outpost::server::pg::Connection c;
        auto opened = c.open(url("postgres"));
        if (!opened) {
            why = "cannot connect to the test PostgreSQL: " + opened.error().message;
            return false;
        }
        // Not a prepared statement: CREATE DATABASE takes no parameters (the names are ours).
        auto done = c.exec(sql.c_str());
        if (!done) why = sql + ": " + done.error().message;
        return bool(done);
    }

    static std::string find_bin() {
        std::error_code ec;
        for (const char* v : {"15", "16", "17", "14", "13"}) {
            const std::string b = std::string("/usr/lib/postgresql/") + v + "/bin";
            if (std::filesystem::exists(b + "/initdb", ec)) return b;
        }
        return "";
    }

    // Runs a program as the server's user, its output to `log`; its exit status.
    int run(const std::vector<std::string>& args, const std::string& log) {
        const pid_t pid = spawn(args, log, false);
        if (pid <= 0) return -1;
        int status = 0;
        waitpid(pid, &status, 0);
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }

    pid_t spawn(const std::vector<std::string>& args, const std::string& log, bool die_with_us) {
        // Everything the child needs is made before fork (a child of a threaded process
        // calls only async-signal-safe functions).
        std::vector<char*> argv;
        for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        const bool as_root = ::geteuid() == 0;
        const uid_t uid = uid_;
        const gid_t gid = gid_;
        const pid_t parent = ::getpid();
        const pid_t pid = fork();
        if (pid != 0) return pid;
        const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        const int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0) dup2(devnull, 0);
        setsid();  // not in the test's process group: a Ctrl-C reaches it through us
        if (as_root && (setgroups(0, nullptr) != 0 || setgid(gid) != 0 || setuid(uid) != 0)) _exit(126);
        // After setuid (which clears it): the server gets SIGQUIT when the test dies.
        if (die_with_us) {
            prctl(PR_SET_PDEATHSIG, SIGQUIT);
            if (::getppid() != parent) _exit(125);  // the test is gone already
        }
        execv(argv[0], argv.data());
        _exit(127);
    }

    static std::string tail(const std::filesystem::path& file) {
        std::ifstream in(file);
        std::stringstream s;
        s << in.rdbuf();
        const std::string text = s.str();
        return text.size() > 1500 ? text.substr(text.size() - 1500) : text;
    }

    // The pid a fatal signal's handler kills (async-signal-safe: one load, one kill).
    static std::atomic<pid_t>& running_pid() {
        static std::atomic<pid_t> pid{-1};
        return pid;
    }
    static void install_handlers() {
        for (int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGINT, SIGTERM}) {
            struct sigaction sa {};
            sa.sa_handler = [](int s) {
                const pid_t p = running_pid().load();
                if (p > 0) ::kill(p, SIGQUIT);
                signal(s, SIG_DFL);
                raise(s);
            };
            sigemptyset(&sa.sa_mask);
            sa.sa_flags = SA_RESETHAND;
            sigaction(sig, &sa, nullptr);
        }
    }

    std::string bin_, failure_;
    std::filesystem::path dir_;
    uid_t uid_ = ::geteuid();
    gid_t gid_ = ::getegid();
    pid_t pid_ = -1;
    int databases_ = 0;
    std::mutex mutex_;
};

}  // namespace outpost::test

// In a test body: the process's PostgreSQL, or the test fails with the reason (skips
// when OUTPOST_NO_POSTGRES=1).
#define OUTPOST_REQUIRE_POSTGRES()                                                                    \
    do {                                                                                              \
        if (!::outpost::test::PostgresServer::get().ok()) {                                           \
            if (::outpost::test::PostgresServer::skipped_by_developer())                              \
                GTEST_SKIP() << ::outpost::test::PostgresServer::get().failure();                     \
            FAIL() << "PostgreSQL is not available: " << ::outpost::test::PostgresServer::get().failure(); \
        }                                                                                             \
    } while (0)
