// Outpost — a UCI engine in a child process, as the match runner sees it.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The engine is never trusted: every wait has a timeout, a dead pipe is a crash and
// not an error of ours, and what it says is parsed without assuming it is well formed.
// Whether its move is legal is for the referee to say, not for this class.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "match/process.h"
#include "match/time_control.h"

namespace outpost::match {

struct EngineConfig {
    std::string name;                  // shown in results and PGN; default: the engine's id name
    std::vector<std::string> command;  // argv
    std::string dir;                   // working directory
    std::vector<std::pair<std::string, std::string>> options;  // setoption name … value …
    EngineTimeControl tc;
    bool restart = false;  // a fresh process for every game
};

// An engine's evaluation from its own point of view.
struct Score {
    bool mate = false;
    int value = 0;  // centipawns, or moves to mate (negative: being mated)
    // For adjudication: mates as very large centipawn values, nearer mates larger.
    int centipawns() const { return mate ? (value > 0 ? 100000 - value : -100000 - value) : value; }
    bool operator==(const Score&) const = default;
};

struct SearchOutcome {
    enum class Status { MOVE, TIMEOUT, CRASH, ABORTED };
    Status status = Status::MOVE;
    std::string bestmove;        // as the engine wrote it ("(none)" included)
    std::optional<Score> score;  // from the last info line with a score
    int depth = 0;
    Millis elapsed = 0;     // from sending `go` to receiving `bestmove`
    std::string exit_text;  // for a crash: how the process ended
};

// Reads an `info` line into score and depth; other fields are ignored, and so are the
// scores of secondary lines (multipv > 1).
void parse_info_line(const std::string& line, std::optional<Score>& score, int& depth);

class UciEngine {
public:
    using Log = std::function<void(const std::string& line)>;

    explicit UciEngine(EngineConfig config, Log debug = {});
    ~UciEngine();
    UciEngine(const UciEngine&) = delete;
    UciEngine& operator=(const UciEngine&) = delete;

    // Starts the process and completes the handshake: uci/uciok, the options, and
    // isready/readyok. Options the engine did not declare are skipped with a warning.
    Result<bool> start(bool chess960);
    // ucinewgame and isready. An error means the engine is unusable.
    Result<bool> new_game();
    // Sends `position` and `go`, then waits for bestmove up to `deadline_ms` (negative:
    // no limit). On a timeout the engine is told to stop and, if it does not answer
    // within a second, killed. `abort` is looked at while waiting.
    SearchOutcome search(const std::string& position_cmd, const std::string& go_cmd, Millis deadline_ms,
                         const std::atomic<bool>* abort = nullptr);
    // quit, then a kill after a grace period.
    void quit();

    bool alive() const { return process_.running(); }
    const EngineConfig& config() const { return config_; }
    // The name from `id name`, empty before start.
    const std::string& id_name() const { return id_name_; }
    // Things worth telling the user once: unknown options, for example.
    std::vector<std::string> take_warnings() { return std::exchange(warnings_, {}); }

private:
    bool send(const std::string& line);
    // Reads lines until one starts with `token`; false on timeout or end of output.
    bool wait_for(const std::string& token, Millis timeout_ms);
    void kill_now();

    EngineConfig config_;
    Log debug_;
    Process process_;
    std::string id_name_;
    std::vector<std::string> declared_options_;
    std::vector<std::string> warnings_;
};

}  // namespace outpost::match
