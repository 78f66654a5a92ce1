// Outpost — the machine's processors' normal-priority work (machine_load.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/observe/machine_load.h"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <string>

namespace outpost::server {

std::optional<CpuTimes> parse_cpu_times(std::string_view stat) {
    if (!stat.starts_with("cpu ")) return std::nullopt;
    stat.remove_prefix(4);
    // user nice system idle iowait irq softirq steal (later fields, guest time, are
    // already in user and nice).
    std::uint64_t v[8] = {};
    for (int i = 0; i < 8; ++i) {
        while (!stat.empty() && stat.front() == ' ') stat.remove_prefix(1);
        const auto [end, ec] = std::from_chars(stat.data(), stat.data() + stat.size(), v[i]);
        if (ec != std::errc{}) {
            if (i >= 4) break;  // very old kernels end after idle (then iowait…: 0)
            return std::nullopt;
        }
        stat.remove_prefix(size_t(end - stat.data()));
    }
    CpuTimes t;
    t.normal = v[0] + v[2] + v[5] + v[6] + v[7];
    t.total = t.normal + v[1] + v[3] + v[4];
    return t;
}

namespace {

std::optional<CpuTimes> read_proc_stat() {
    std::ifstream in("/proc/stat");
    std::string line;
    if (!in || !std::getline(in, line)) return std::nullopt;
    return parse_cpu_times(line);
}

}  // namespace

MachineLoad::MachineLoad(Read read) : read_(read ? std::move(read) : Read(read_proc_stat)) {}

std::optional<double> MachineLoad::busy(std::chrono::steady_clock::time_point now, std::chrono::milliseconds every) {
    if (last_ && now - last_at_ < every) return share_;
    auto t = read_();
    if (!t) return share_ = std::nullopt;
    if (last_ && t->total > last_->total && t->normal >= last_->normal)
        share_ = std::min(1.0, double(t->normal - last_->normal) / double(t->total - last_->total));
    last_ = t;
    last_at_ = now;
    return share_;
}

}  // namespace outpost::server
