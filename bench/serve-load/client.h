// Outpost — bench/serve-load and bench/cluster-load: what their load generators share.
// The CPU time of processes (from /proc), a field read straight from a server message's
// text (no JSON parse per message: the generator must not be the bottleneck), and one
// HTTP exchange on a connection of its own.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "server/edge/net.h"  // first: see net.h

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace outpost::bench {

namespace asio = boost::asio;

// CPU seconds (user + system) used so far by a process (0: this one), from /proc/PID/stat;
// 0 for a process that is gone.
inline double cpu_seconds(int pid) {
    std::ifstream in(pid ? "/proc/" + std::to_string(pid) + "/stat" : std::string("/proc/self/stat"));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = text.rfind(')');
    if (close == std::string::npos) return 0;
    std::istringstream fields(text.substr(close + 2));
    std::string f;
    double ticks = 0;
    for (int i = 3; i <= 15 && fields >> f; ++i)
        if (i == 14 || i == 15) ticks += std::stod(f);
    return ticks / double(sysconf(_SC_CLK_TCK));
}

// The sum over several processes ("123,456": the nodes of a cluster).
inline double cpu_seconds(const std::vector<int>& pids) {
    double sum = 0;
    for (int pid : pids) sum += cpu_seconds(pid);
    return sum;
}

// As above, without the threads in the background: at nice 19 or SCHED_IDLE (the
// server's dead-position watch and puzzle miner, which take whatever CPU is idle).
// From /proc/PID/task/TID/stat of the threads alive when asked.
inline double foreground_cpu_seconds(const std::vector<int>& pids) {
    double ticks = 0;
    for (int pid : pids) {
        std::error_code ec;
        for (const auto& task : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec)) {
            std::ifstream in(task.path() / "stat");
            std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            const auto close = text.rfind(')');
            if (close == std::string::npos) continue;
            std::istringstream fields(text.substr(close + 2));
            std::vector<std::string> f(1);  // f[i]: field i + 2 of proc(5) (f[1] is field 3)
            for (std::string one; fields >> one;) f.push_back(one);
            if (f.size() <= 40) continue;
            const bool background = f[17] == "19" || f[39] == "5";  // nice (19), policy (41): SCHED_IDLE
            if (!background) ticks += std::stod(f[12]) + std::stod(f[13]);  // utime (14), stime (15)
        }
    }
    return ticks / double(sysconf(_SC_CLK_TCK));
}

// "123,456" as pids (what is not a number is skipped).
inline std::vector<int> parse_pids(const std::string& text) {
    std::vector<int> pids;
    std::istringstream in(text);
    for (std::string one; std::getline(in, one, ',');)
        if (!one.empty() && one.find_first_not_of("0123456789") == std::string::npos) pids.push_back(std::stoi(one));
    return pids;
}

// The text of a field's value in one of the server's messages: a string without its
// quotes, or a number, or for an object `{}` when it is empty (anything else: its
// first character). The first occurrence of the key wins: the server writes `t`
// and the game's scalar fields before any user text.
inline std::string_view field(std::string_view text, std::string_view key) {
    std::string pattern = "\"" + std::string(key) + "\":";
    const size_t at = text.find(pattern);
    if (at == std::string_view::npos) return {};
    std::string_view rest = text.substr(at + pattern.size());
    if (rest.empty()) return {};
    if (rest[0] == '"') {
        const size_t end = rest.find('"', 1);
        return end == std::string_view::npos ? std::string_view{} : rest.substr(1, end - 1);
    }
    if (rest[0] == '{') return rest.size() > 1 && rest[1] == '}' ? rest.substr(0, 2) : rest.substr(0, 1);
    const size_t end = rest.find_first_of(",}");
    return rest.substr(0, end);
}

// One request (a JSON body when not empty) on a connection of its own: the answer's
// status and body. Throws on a network error.
inline asio::awaitable<std::pair<int, std::string>> http_request(const std::string& host, const std::string& port,
                                                                 server::http::verb verb, const std::string& target,
                                                                 const std::string& body = "") {
    using namespace outpost::server;
    auto ex = co_await asio::this_coro::executor;
    tcp::resolver resolver(ex);
    beast::tcp_stream stream(ex);
    stream.expires_after(std::chrono::seconds(30));
    auto results = co_await resolver.async_resolve(host, port, asio::use_awaitable);
    co_await stream.async_connect(results, asio::use_awaitable);
    http::request<http::string_body> req{verb, target, 11};
    req.set(http::field::host, host);
    if (!body.empty()) {
        req.set(http::field::content_type, "application/json");
        req.body() = body;
    }
    req.prepare_payload();
    co_await http::async_write(stream, req, asio::use_awaitable);
    beast::flat_buffer buffer;
    http::response<http::string_body> res;
    co_await http::async_read(stream, buffer, res, asio::use_awaitable);
    beast::error_code ec;
    stream.socket().shutdown(tcp::socket::shutdown_both, ec);
    co_return std::pair<int, std::string>{int(res.result_int()), res.body()};
}

}  // namespace outpost::bench
