// Outpost — the process's own numbers for the standard process_* metrics (the names and
// meanings every Prometheus client library gives them), read from Linux's /proc.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <optional>
#include <string>

namespace outpost::server {

struct ProcessStats {
    double cpu_seconds = 0;          // user + system
    double resident_bytes = 0;
    double virtual_bytes = 0;
    double start_time_seconds = 0;   // since the Unix epoch
    double open_fds = 0;
    double max_fds = 0;              // the soft limit on open files
};

// Nothing when /proc cannot be read (another system, a sandbox without it).
std::optional<ProcessStats> read_process_stats();

// The fields after the command name of /proc/self/stat (the name, in parentheses, may
// hold spaces and parentheses: it ends at the last ')'), and /proc/stat's btime. For
// tests: the parsing without the files.
std::optional<ProcessStats> parse_process_stat(const std::string& stat, double boot_time_seconds, double ticks_per_second,
                                               double page_size);

}  // namespace outpost::server
