// Outpost tests — running the real `outpost` executable (OUTPOST_BINARY) and
// capturing its exit code, standard output and standard error.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace outpost::test {

struct CliRun {
    int exit_code = -1;
    std::string out;
    std::string err;
    std::vector<std::string> lines;  // of out, without the newline

    bool has_line(const std::string& line) const {
        for (const auto& l : lines)
            if (l == line) return true;
        return false;
    }
};

// s as one word for the shell.
inline std::string shell_quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// Runs `outpost ARGS` through the shell; ARGS is shell text (quote FENs and paths,
// e.g. with shell_quote).
inline CliRun run_outpost(const std::string& args) {
    static int counter = 0;
    const std::string err_path = testing::TempDir() + "outpost_cli_stderr_" + std::to_string(::getpid()) + "_" +
                                 std::to_string(counter++) + ".txt";
    const std::string command = shell_quote(OUTPOST_BINARY) + " " + args + " 2>" + shell_quote(err_path);
    CliRun run;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe) return run;
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) run.out.append(buf, n);
    const int status = ::pclose(pipe);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream err(err_path);
    std::stringstream ss;
    ss << err.rdbuf();
    run.err = ss.str();
    std::remove(err_path.c_str());
    std::istringstream lines(run.out);
    std::string line;
    while (std::getline(lines, line)) run.lines.push_back(line);
    return run;
}

// Runs `outpost` with these arguments, each quoted for the shell.
inline CliRun run_outpost(const std::vector<std::string>& args) {
    std::string text;
    for (const auto& a : args) {
        if (!text.empty()) text += ' ';
        text += shell_quote(a);  // (appending `" " + quote` made g++ 12 warn -Wstringop-overflow at -O3)
    }
    return run_outpost(text);
}

}  // namespace outpost::test
