// Outpost — how busy the machine is with normal-priority work (server/observe/
// machine_load.h), which slows the dead-position watch while the moves need the
// processors (docs/scaling.md, "Background threads and the tail"). No test reads this
// machine's own /proc/stat: the readings are given.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "server/observe/machine_load.h"

namespace {

using namespace outpost::server;
using Steady = std::chrono::steady_clock;
using namespace std::chrono_literals;

TEST(MachineLoad, TheCpuLineIsReadAsNormalWorkAndTheRest) {
    // user nice system idle iowait irq softirq steal guest guest_nice
    auto t = parse_cpu_times("cpu  600 4000 100 2000 50 0 40 10 0 0\ncpu0 1 2 3 4 5 6 7 8 9 10");
    ASSERT_TRUE(t);
    EXPECT_EQ(t->normal, 600u + 100 + 0 + 40 + 10);
    EXPECT_EQ(t->total, t->normal + 4000 + 2000 + 50);
    // An old kernel's line ends after idle.
    auto old = parse_cpu_times("cpu 10 20 30 40");
    ASSERT_TRUE(old);
    EXPECT_EQ(old->normal, 40u);
    EXPECT_EQ(old->total, 100u);
    for (const char* bad : {"", "cpu", "cpu0 1 2 3 4 5 6 7 8", "cpu  x 2 3 4", "intr 1 2 3 4", "cpu 1 2 -3 4",
                            "cpu 99999999999999999999999 1 1 1"})
        EXPECT_FALSE(parse_cpu_times(bad)) << bad;
}

TEST(MachineLoad, TheShareIsOfTheTimeBetweenTwoSamplesTakenNoOftenerThanAsked) {
    std::vector<std::optional<CpuTimes>> readings = {CpuTimes{100, 1000}, CpuTimes{190, 1100}, CpuTimes{200, 1200},
                                                     std::nullopt, CpuTimes{300, 1300}};
    size_t reads = 0;
    MachineLoad load([&]() -> std::optional<CpuTimes> { return reads < readings.size() ? readings[reads++] : std::nullopt; });
    const auto t0 = Steady::now();
    EXPECT_FALSE(load.busy(t0)) << "one sample says nothing yet";
    EXPECT_FALSE(load.busy(t0 + 100ms)) << "not sampled again within `every`";
    EXPECT_EQ(reads, 1u);
    auto b = load.busy(t0 + 500ms);
    ASSERT_TRUE(b);
    EXPECT_DOUBLE_EQ(*b, 0.9);  // 90 of 100 ticks
    EXPECT_DOUBLE_EQ(load.busy(t0 + 700ms).value_or(-1), 0.9);
    EXPECT_EQ(reads, 2u);
    EXPECT_DOUBLE_EQ(load.busy(t0 + 1000ms).value_or(-1), 0.1);
    EXPECT_FALSE(load.busy(t0 + 1500ms)) << "unreadable: unknown, not the old share";
    EXPECT_DOUBLE_EQ(load.busy(t0 + 2000ms).value_or(-1), 1.0) << "against the last reading";
}

}  // namespace
