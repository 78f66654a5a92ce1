// Outpost — a child process with its standard input and output on pipes (POSIX).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Engines are talked to line by line: write_line sends a command, read_line waits
// for one line of output with a timeout (poll), so that an engine that never answers
// cannot hang the match. The child gets its own process group: a Ctrl-C in the
// terminal then reaches the match runner only, which stops the engines itself.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "chess/result.h"

namespace outpost::match {

class Process {
public:
    Process() = default;
    Process(const Process&) = delete;
    Process& operator=(const Process&) = delete;
    ~Process();

    // Starts `argv[0]` (searched in PATH when it has no slash) with the remaining
    // arguments, in `dir` when not empty. stderr goes to /dev/null unless
    // keep_stderr. Errors when the program cannot be executed.
    Result<bool> start(const std::vector<std::string>& argv, const std::string& dir = {}, bool keep_stderr = false);

    bool running() const { return pid_ > 0; }
    pid_t pid() const { return pid_; }

    // False when the pipe is broken (the child has gone).
    bool write_line(const std::string& line);

    enum class ReadStatus { LINE, TIMEOUT, END };
    // Waits up to `timeout` (negative: for ever) for a full line; the trailing
    // newline (and a carriage return) is removed.
    ReadStatus read_line(std::string& line, std::chrono::milliseconds timeout);

    // Waits up to `grace` for the child to exit by itself, then kills it (SIGKILL)
    // and reaps it. Returns a description of how it ended ("exited with code 0").
    std::string stop(std::chrono::milliseconds grace);
    // If the child has ended, reaps it and describes how; nullopt while it runs.
    std::optional<std::string> poll_exit();

private:
    void close_pipes();
    std::string reap(int status);

    pid_t pid_ = -1;
    int to_child_ = -1;
    int from_child_ = -1;
    std::string buffer_;
    bool eof_ = false;
    std::string exit_text_;
};

// How a wait status reads to a person: "exited with code 1", "killed by signal 11 (Segmentation fault)".
std::string describe_exit(int status);

}  // namespace outpost::match
