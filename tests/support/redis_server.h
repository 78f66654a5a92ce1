// Outpost tests — a real Redis (Debian's redis-server) of the test's own: started on a
// Unix socket in a temporary folder (no TCP port, so nothing to clash with), stopped
// and removed when the object goes, even when the test fails; and restarted on the same
// socket for the tests of a Redis that went away.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

namespace outpost::test {

class RedisServer {
public:
    RedisServer() {
        static int n = 0;
        dir_ = std::filesystem::temp_directory_path() / ("outpost-redis-" + std::to_string(::getpid()) + "-" + std::to_string(++n));
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
        start();
    }
    ~RedisServer() {
        stop();
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }
    RedisServer(const RedisServer&) = delete;
    RedisServer& operator=(const RedisServer&) = delete;

    std::string socket() const { return (dir_ / "redis.sock").string(); }
    std::string url() const { return "unix://" + socket(); }
    bool running() const { return pid_ > 0; }

    // Starts redis-server and waits (up to 5 s) for its socket to answer.
    bool start() {
        std::filesystem::remove(socket());
        pid_ = ::fork();
        if (pid_ == 0) {
            ::setpgid(0, 0);
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // the test process died: so does its Redis
            const std::string sock = socket(), dir = dir_.string(), log = (dir_ / "redis.log").string();
            ::execlp("redis-server", "redis-server", "--port", "0", "--unixsocket", sock.c_str(), "--unixsocketperm", "700",
                     "--dir", dir.c_str(), "--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel",
                     "warning", "--logfile", log.c_str(), static_cast<char*>(nullptr));
            ::_exit(127);
        }
        for (int i = 0; i < 500; ++i) {
            // The file is there from bind(2), before listen(2): a connection is the answer.
            if (std::filesystem::exists(socket()) && accepts()) return true;
            int status = 0;
            if (::waitpid(pid_, &status, WNOHANG) == pid_) {  // it exited: not installed, or refused its options
                pid_ = -1;
                return false;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return false;
    }
    // kill -9, as a crash; the socket file is left behind, as a crash leaves it.
    void stop() {
        if (pid_ <= 0) return;
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
        pid_ = -1;
    }

private:
    bool accepts() const {
        const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
        if (fd < 0) return false;
        sockaddr_un at{};
        at.sun_family = AF_UNIX;
        const std::string path = socket();
        if (path.size() >= sizeof at.sun_path) {
            ::close(fd);
            return true;  // too long to try: the file's existence has to do
        }
        std::memcpy(at.sun_path, path.c_str(), path.size() + 1);
        const bool ok = ::connect(fd, reinterpret_cast<const sockaddr*>(&at), sizeof at) == 0;
        ::close(fd);
        return ok;
    }

    std::filesystem::path dir_;
    pid_t pid_ = -1;
};

}  // namespace outpost::test
