// Outpost — how busy this machine's processors are with normal-priority work, read from
// Linux's /proc/stat. The background searches (the dead-position watch, play/dead_watch.h)
// keep to a smaller share while the moves need the processors (docs/scaling.md,
// "Background threads and the tail").
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>

namespace outpost::server {

struct CpuTimes {
    std::uint64_t normal = 0;  // user + system + irq + softirq + steal, in ticks
    std::uint64_t total = 0;   // those, nice, idle and iowait
};

// The first line of /proc/stat ("cpu  user nice system idle iowait irq softirq steal …").
// Time at a nice above 0 (every program's background threads, these among them) and
// idle time count as free. Nothing when the text does not start so.
std::optional<CpuTimes> parse_cpu_times(std::string_view stat);

class MachineLoad {
public:
    using Read = std::function<std::optional<CpuTimes>()>;
    explicit MachineLoad(Read read = {});  // unset: /proc/stat

    // The share (0 to 1) of all the processors' time that normal-priority work used
    // between the last two samples; a sample is taken when the last one is at least
    // `every` old. Nothing before two samples, or when /proc/stat cannot be read.
    std::optional<double> busy(std::chrono::steady_clock::time_point now,
                               std::chrono::milliseconds every = std::chrono::milliseconds(500));

private:
    Read read_;
    std::optional<CpuTimes> last_;
    std::chrono::steady_clock::time_point last_at_{};
    std::optional<double> share_;
};

}  // namespace outpost::server
