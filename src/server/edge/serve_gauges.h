// Outpost — the gauges of `outpost serve` read at each scrape of /metrics: the state of
// the hub, the robot, the analysis pool and the database's write-ahead log.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

#include "server/observe/metrics.h"

namespace outpost::server {

class Hub;
class RobotPool;
class AnalysisService;

// Each reads its part when called: the parts must outlive every scrape.
std::vector<Sampled> serve_gauges(const Hub& hub, const RobotPool& robots, const AnalysisService& analysis,
                                  const std::string& db_path);

}  // namespace outpost::server
