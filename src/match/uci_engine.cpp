// Outpost — a UCI engine in a child process.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "match/uci_engine.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <sstream>

namespace outpost::match {

namespace {

using std::chrono::milliseconds;
using SteadyClock = std::chrono::steady_clock;

// Engines load networks and tables before uciok/readyok; generous, yet finite, so
// that a program that is not a UCI engine at all cannot hang the match.
constexpr Millis HandshakeTimeout = 15000;
// After `stop` a well-behaved engine answers at once.
constexpr Millis StopGrace = 1000;
constexpr Millis QuitGrace = 500;
// How often a search in progress looks at the abort flag.
constexpr Millis AbortPoll = 50;

bool starts_with_token(const std::string& line, const std::string& token) {
    return line.compare(0, token.size(), token) == 0 &&
           (line.size() == token.size() || line[token.size()] == ' ' || line[token.size()] == '\t');
}

std::optional<int> to_int(const std::string& s) {
    int v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

}  // namespace

void parse_info_line(const std::string& line, std::optional<Score>& score, int& depth) {
    std::istringstream in(line);
    std::string tok;
    in >> tok;  // "info"
    std::optional<Score> s;
    std::optional<int> d;
    int multipv = 1;
    while (in >> tok) {
        if (tok == "string") break;  // free text to the end of the line
        if (tok == "pv") break;      // moves to the end of the line
        std::string value;
        if (tok == "depth") {
            if (in >> value) d = to_int(value);
        } else if (tok == "multipv") {
            if (in >> value) multipv = to_int(value).value_or(1);
        } else if (tok == "score") {
            std::string kind;
            if (!(in >> kind >> value)) break;
            auto v = to_int(value);
            if (v && (kind == "cp" || kind == "mate")) s = Score{kind == "mate", *v};
        }
    }
    if (multipv != 1) return;
    if (s) score = s;
    if (d && *d > 0) depth = *d;
}

UciEngine::UciEngine(EngineConfig config, Log debug) : config_(std::move(config)), debug_(std::move(debug)) {}

UciEngine::~UciEngine() { quit(); }

bool UciEngine::send(const std::string& line) {
    if (debug_) debug_("> " + line);
    return process_.write_line(line);
}

bool UciEngine::wait_for(const std::string& token, Millis timeout_ms) {
    const auto deadline = SteadyClock::now() + milliseconds(timeout_ms);
    std::string line;
    for (;;) {
        const auto left = std::chrono::duration_cast<milliseconds>(deadline - SteadyClock::now());
        if (left.count() <= 0) return false;
        const auto status = process_.read_line(line, left);
        if (status != Process::ReadStatus::LINE) return false;
        if (debug_) debug_("< " + line);
        if (starts_with_token(line, token)) return true;
        if (starts_with_token(line, "id")) {
            std::istringstream in(line);
            std::string id, field;
            in >> id >> field;
            if (field == "name") {
                std::getline(in >> std::ws, id_name_);
            }
        } else if (starts_with_token(line, "option")) {
            // option name <words…> type …: the name may contain spaces.
            auto name_at = line.find(" name ");
            auto type_at = line.find(" type ");
            if (name_at != std::string::npos && type_at != std::string::npos && type_at > name_at)
                declared_options_.push_back(lower(line.substr(name_at + 6, type_at - name_at - 6)));
        }
    }
}

void UciEngine::kill_now() { process_.stop(milliseconds(0)); }

Result<bool> UciEngine::start(bool chess960) {
    declared_options_.clear();
    auto started = process_.start(config_.command, config_.dir);
    if (!started) return started.error();
    const std::string who = config_.name.empty() ? config_.command[0] : config_.name;
    if (!send("uci") || !wait_for("uciok", HandshakeTimeout)) {
        kill_now();
        return make_error("engine '" + who + "' did not answer 'uci' with 'uciok'");
    }
    auto set = [&](const std::string& name, const std::string& value) {
        if (std::find(declared_options_.begin(), declared_options_.end(), lower(name)) == declared_options_.end()) {
            warnings_.push_back("engine '" + who + "' has no option '" + name + "'; not sent");
            return;
        }
        send("setoption name " + name + (value.empty() ? "" : " value " + value));
    };
    if (chess960) set("UCI_Chess960", "true");
    for (const auto& [name, value] : config_.options) set(name, value);
    if (!send("isready") || !wait_for("readyok", HandshakeTimeout)) {
        kill_now();
        return make_error("engine '" + who + "' did not answer 'isready' with 'readyok'");
    }
    return true;
}

Result<bool> UciEngine::new_game() {
    if (!alive()) return make_error("engine is not running");
    if (!send("ucinewgame") || !send("isready") || !wait_for("readyok", HandshakeTimeout)) {
        kill_now();
        return make_error("engine did not answer 'isready' after 'ucinewgame'");
    }
    return true;
}

SearchOutcome UciEngine::search(const std::string& position_cmd, const std::string& go_cmd, Millis deadline_ms,
                                const std::atomic<bool>* abort) {
    SearchOutcome out;
    auto crashed = [&] {
        out.status = SearchOutcome::Status::CRASH;
        out.exit_text = process_.stop(milliseconds(200));
        return out;
    };
    if (!send(position_cmd) || !send(go_cmd)) return crashed();
    const auto started = SteadyClock::now();
    auto elapsed = [&] { return std::chrono::duration_cast<milliseconds>(SteadyClock::now() - started).count(); };
    std::string line;
    for (;;) {
        Millis wait = AbortPoll;
        if (deadline_ms >= 0) {
            const Millis left = deadline_ms - elapsed();
            if (left <= 0) break;  // out of time
            if (!abort)
                wait = left;
            else
                wait = std::min(wait, left);
        } else if (!abort) {
            wait = -1;
        }
        const auto status = process_.read_line(line, milliseconds(wait));
        if (status == Process::ReadStatus::END) {
            out.elapsed = elapsed();
            return crashed();
        }
        if (status == Process::ReadStatus::TIMEOUT) {
            if (abort && abort->load()) {
                out.status = SearchOutcome::Status::ABORTED;
                break;
            }
            continue;
        }
        if (debug_) debug_("< " + line);
        if (starts_with_token(line, "info")) {
            parse_info_line(line, out.score, out.depth);
        } else if (starts_with_token(line, "bestmove")) {
            out.elapsed = elapsed();
            std::istringstream in(line);
            std::string word;
            in >> word >> out.bestmove;
            out.status = SearchOutcome::Status::MOVE;
            return out;
        }
    }
    // Out of time or aborted: the engine must stop and give its (now useless) move,
    // so that the next `go` is not answered by this search's bestmove.
    out.elapsed = elapsed();
    if (out.status != SearchOutcome::Status::ABORTED) out.status = SearchOutcome::Status::TIMEOUT;
    send("stop");
    if (!wait_for("bestmove", StopGrace)) kill_now();
    return out;
}

void UciEngine::quit() {
    if (!process_.running()) return;
    send("quit");
    process_.stop(milliseconds(QuitGrace));
}

}  // namespace outpost::match
