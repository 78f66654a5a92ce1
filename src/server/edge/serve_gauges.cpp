// Outpost — the gauges of `outpost serve`.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/edge/serve_gauges.h"

#include <filesystem>

#include "server/analysis/analysis_service.h"
#include "server/play/hub.h"
#include "server/play/robot.h"

namespace outpost::server {

std::vector<Sampled> serve_gauges(const Hub& hub, const RobotPool& robots, const AnalysisService& analysis,
                                  const std::string& db_path) {
    const std::string wal = db_path + "-wal";
    return {
        {"outpost_games_live", "Games being played (unfinished games in memory).", [&hub] { return double(hub.live_games()); }},
        {"outpost_robot_queue", "Robot moves waiting for a thread.", [&robots] { return double(robots.queued()); }},
        {"outpost_robot_thinking", "Robot moves being searched.", [&robots] { return double(robots.thinking()); }},
        {"outpost_analysis_queue", "Finished games waiting for analysis.", [&analysis] { return double(analysis.queue_length()); }},
        {"outpost_storage_queue", "Writes waiting for the storage writer's next transaction.",
         [&hub] { return double(hub.writer().health().queued); }},
        {"outpost_wal_bytes", "Size of the SQLite write-ahead log (the database file's -wal).",
         [wal] {
             std::error_code ec;
             const auto size = std::filesystem::file_size(wal, ec);
             return ec ? 0.0 : double(size);
         }},
    };
}

}  // namespace outpost::server
