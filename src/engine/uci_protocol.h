// Outpost — the UCI protocol (E1) over the Engine facade.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The session reads commands on the caller's thread; the search runs on the
// engine's threads and its output arrives through the engine's callbacks. Every
// line goes out through one function under one mutex, so lines never interleave.
// Bad input never ends the session: it is answered with `info string error: ...`.
#pragma once

#include <functional>
#include <istream>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.h"

namespace outpost::engine {

class UciSession {
public:
    using Output = std::function<void(std::string_view line)>;

    explicit UciSession(Output out);
    ~UciSession();

    // Handles one command line. Returns false after `quit`.
    bool handle(std::string_view line);
    // Reads and handles lines until `quit` or the end of input.
    void loop(std::istream& in);

    Engine& engine() { return engine_; }

private:
    void send(const std::string& line);
    void cmd_uci();
    void cmd_setoption(const std::vector<std::string>& tokens);
    void cmd_position(const std::vector<std::string>& tokens);
    void cmd_go(const std::vector<std::string>& tokens);
    void cmd_display();
    void on_info(const SearchInfo& info);
    void on_bestmove(Move best, Move ponder);

    Output out_;
    std::mutex out_mutex_;
    Engine engine_;
};

// `outpost uci`: the whole session on the given streams (flushed line by line).
int run_uci(std::istream& in, std::ostream& out);

// The UCI score field: "cp 34" or "mate -3".
std::string uci_score(Value v);

}  // namespace outpost::engine
