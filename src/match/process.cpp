// Outpost — a child process on pipes.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "match/process.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

namespace outpost::match {

namespace {

// Writing to an engine that has just died raises SIGPIPE, whose default action would
// end the whole match; the failed write is reported as EPIPE instead and handled as a
// crash of that engine.
void ignore_sigpipe() {
    static std::once_flag once;
    std::call_once(once, [] { std::signal(SIGPIPE, SIG_IGN); });
}

bool is_executable(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

// PATH lookup happens before fork: between fork and exec in a threaded program only
// async-signal-safe calls are allowed, and execvp may allocate.
std::optional<std::string> resolve_program(const std::string& name) {
    if (name.find('/') != std::string::npos) return is_executable(name) ? std::optional(name) : std::nullopt;
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    std::size_t pos = 0;
    while (pos <= dirs.size()) {
        std::size_t end = dirs.find(':', pos);
        if (end == std::string::npos) end = dirs.size();
        std::string dir = dirs.substr(pos, end - pos);
        std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
        if (is_executable(candidate)) return candidate;
        pos = end + 1;
    }
    return std::nullopt;
}

}  // namespace

std::string describe_exit(int status) {
    if (WIFEXITED(status)) return "exited with code " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        const char* name = strsignal(sig);
        return "killed by signal " + std::to_string(sig) + (name ? std::string(" (") + name + ")" : std::string());
    }
    return "ended with status " + std::to_string(status);
}

Process::~Process() {
    if (running()) stop(std::chrono::milliseconds(0));
    close_pipes();
}

void Process::close_pipes() {
    if (to_child_ >= 0) ::close(to_child_);
    if (from_child_ >= 0) ::close(from_child_);
    to_child_ = from_child_ = -1;
}

Result<bool> Process::start(const std::vector<std::string>& argv, const std::string& dir, bool keep_stderr) {
    ignore_sigpipe();
    if (running()) return make_error("process already running");
    if (argv.empty() || argv[0].empty()) return make_error("no command given");
    auto program = resolve_program(argv[0]);
    if (!program) return make_error("cannot execute '" + argv[0] + "': not found or not executable");
    if (!dir.empty()) {
        struct stat st {};
        if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
            return make_error("working directory '" + dir + "' does not exist");
    }

    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);

    // O_CLOEXEC on every descriptor: engines started by other threads at the same
    // moment must not inherit our pipe ends, or an engine's death would never show
    // as end-of-file. The child's copies on fds 0 and 1 (dup2) stay open.
    int in[2], out[2], err[2];
    if (::pipe2(in, O_CLOEXEC) != 0) return make_error(std::string("pipe: ") + std::strerror(errno));
    if (::pipe2(out, O_CLOEXEC) != 0) {
        ::close(in[0]), ::close(in[1]);
        return make_error(std::string("pipe: ") + std::strerror(errno));
    }
    // Reports a failed exec back to the parent: closed by a successful exec.
    if (::pipe2(err, O_CLOEXEC) != 0) {
        ::close(in[0]), ::close(in[1]), ::close(out[0]), ::close(out[1]);
        return make_error(std::string("pipe: ") + std::strerror(errno));
    }
    const int devnull = keep_stderr ? -1 : ::open("/dev/null", O_WRONLY | O_CLOEXEC);

    const pid_t pid = ::fork();
    if (pid < 0) {
        for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1], devnull})
            if (fd >= 0) ::close(fd);
        return make_error(std::string("fork: ") + std::strerror(errno));
    }
    if (pid == 0) {
        ::setpgid(0, 0);
        ::dup2(in[0], STDIN_FILENO);
        ::dup2(out[1], STDOUT_FILENO);
        if (devnull >= 0) ::dup2(devnull, STDERR_FILENO);
        int code = 0;
        if (!dir.empty() && ::chdir(dir.c_str()) != 0) {
            code = errno;
        } else {
            ::execv(program->c_str(), args.data());
            code = errno;
        }
        [[maybe_unused]] auto n = ::write(err[1], &code, sizeof code);
        ::_exit(127);
    }

    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    if (devnull >= 0) ::close(devnull);
    int code = 0;
    ssize_t n;
    do n = ::read(err[0], &code, sizeof code);
    while (n < 0 && errno == EINTR);
    ::close(err[0]);
    if (n == sizeof code) {
        ::close(in[1]);
        ::close(out[0]);
        int status = 0;
        ::waitpid(pid, &status, 0);
        return make_error("cannot execute '" + argv[0] + "': " + std::strerror(code));
    }
    pid_ = pid;
    to_child_ = in[1];
    from_child_ = out[0];
    buffer_.clear();
    eof_ = false;
    exit_text_.clear();
    return true;
}

bool Process::write_line(const std::string& line) {
    if (to_child_ < 0) return false;
    std::string data = line + "\n";
    const char* p = data.data();
    std::size_t left = data.size();
    while (left > 0) {
        ssize_t n = ::write(to_child_, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    return true;
}

Process::ReadStatus Process::read_line(std::string& line, std::chrono::milliseconds timeout) {
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + timeout;
    for (;;) {
        if (auto nl = buffer_.find('\n'); nl != std::string::npos) {
            line.assign(buffer_, 0, nl);
            buffer_.erase(0, nl + 1);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            return ReadStatus::LINE;
        }
        if (eof_ || from_child_ < 0) {
            // A last line without a newline still counts.
            if (!buffer_.empty()) {
                line = std::move(buffer_);
                buffer_.clear();
                return ReadStatus::LINE;
            }
            return ReadStatus::END;
        }
        int wait_ms = -1;
        if (timeout.count() >= 0) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            if (left <= 0) return ReadStatus::TIMEOUT;
            wait_ms = static_cast<int>(std::min<long long>(left, 1 << 30));
        }
        pollfd pfd{from_child_, POLLIN, 0};
        const int r = ::poll(&pfd, 1, wait_ms);
        if (r < 0) {
            if (errno == EINTR) continue;
            eof_ = true;
            continue;
        }
        if (r == 0) return ReadStatus::TIMEOUT;
        char chunk[4096];
        const ssize_t n = ::read(from_child_, chunk, sizeof chunk);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            eof_ = true;
        } else if (n == 0) {
            eof_ = true;
        } else {
            buffer_.append(chunk, static_cast<std::size_t>(n));
        }
    }
}

std::string Process::reap(int status) {
    exit_text_ = describe_exit(status);
    pid_ = -1;
    close_pipes();
    return exit_text_;
}

std::optional<std::string> Process::poll_exit() {
    if (pid_ <= 0) return exit_text_.empty() ? std::nullopt : std::optional(exit_text_);
    int status = 0;
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) return reap(status);
    return std::nullopt;
}

std::string Process::stop(std::chrono::milliseconds grace) {
    if (pid_ <= 0) return exit_text_;
    // Closing stdin is the polite signal for engines that read to end-of-file.
    if (to_child_ >= 0) {
        ::close(to_child_);
        to_child_ = -1;
    }
    const auto deadline = std::chrono::steady_clock::now() + grace;
    for (;;) {
        if (auto done = poll_exit()) return *done;
        if (std::chrono::steady_clock::now() >= deadline) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ::kill(pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    return reap(status);
}

}  // namespace outpost::match
