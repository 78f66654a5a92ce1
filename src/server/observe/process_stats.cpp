// Outpost — process_* from /proc.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/observe/process_stats.h"

#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace outpost::server {

std::optional<ProcessStats> parse_process_stat(const std::string& stat, double boot_time_seconds, double ticks_per_second,
                                               double page_size) {
    const size_t close = stat.rfind(')');
    if (close == std::string::npos || ticks_per_second <= 0) return std::nullopt;
    // After the name: field 3 (state) onwards, so field N is fields[N - 3].
    std::istringstream in(stat.substr(close + 1));
    std::vector<std::string> fields;
    for (std::string f; in >> f;) fields.push_back(f);
    if (fields.size() < 22) return std::nullopt;
    try {
        ProcessStats s;
        s.cpu_seconds = (std::stod(fields[14 - 3]) + std::stod(fields[15 - 3])) / ticks_per_second;
        s.start_time_seconds = boot_time_seconds + std::stod(fields[22 - 3]) / ticks_per_second;
        s.virtual_bytes = std::stod(fields[23 - 3]);
        s.resident_bytes = std::stod(fields[24 - 3]) * page_size;
        return s;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

std::optional<ProcessStats> read_process_stats() {
    std::ifstream stat_file("/proc/self/stat");
    std::string stat((std::istreambuf_iterator<char>(stat_file)), std::istreambuf_iterator<char>());
    double boot = 0;
    std::ifstream proc_stat("/proc/stat");
    for (std::string line; std::getline(proc_stat, line);)
        if (line.rfind("btime ", 0) == 0) boot = std::strtod(line.c_str() + 6, nullptr);
    auto s = parse_process_stat(stat, boot, double(::sysconf(_SC_CLK_TCK)), double(::sysconf(_SC_PAGESIZE)));
    if (!s) return std::nullopt;
    std::error_code ec;
    double fds = 0;
    for (auto it = std::filesystem::directory_iterator("/proc/self/fd", ec); !ec && it != std::filesystem::directory_iterator();
         it.increment(ec))
        ++fds;
    s->open_fds = fds > 0 ? fds - 1 : 0;  // less the one the listing itself holds open
    rlimit limit{};
    if (::getrlimit(RLIMIT_NOFILE, &limit) == 0) s->max_fds = double(limit.rlim_cur);
    return s;
}

}  // namespace outpost::server
