// Outpost — robot players.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/robot.h"

#include <nlohmann/json.hpp>

#include "engine/engine.h"
#include "engine/skill.h"

namespace outpost::server {

RobotPool::RobotPool(int threads, Answer answer) : answer_(std::move(answer)) {
    for (int i = 0; i < std::max(1, threads); ++i) threads_.emplace_back([this] { run(); });
}

RobotPool::~RobotPool() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    cv_.notify_all();
    for (auto& t : threads_) t.join();
}

void RobotPool::ask(RobotRequest request) {
    {
        std::lock_guard lock(mutex_);
        queue_.push_back(std::move(request));
    }
    cv_.notify_one();
}

void RobotPool::cancel(const std::string& game_id) {
    std::lock_guard lock(mutex_);
    std::erase_if(queue_, [&](const RobotRequest& r) { return r.game_id == game_id; });
}

void RobotPool::run() {
    engine::Engine engine;
    (void)engine.set_option("Hash", "16");
    (void)engine.set_option("Threads", "1");
    for (;;) {
        RobotRequest req;
        {
            std::unique_lock lock(mutex_);
            cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
            if (stopping_) return;
            req = std::move(queue_.front());
            queue_.pop_front();
        }
        if (req.level > 0) {
            (void)engine.set_option("UCI_LimitStrength", "false");
            (void)engine.set_option("Level", std::to_string(req.level));
        } else {
            (void)engine.set_option("Level", "10");
            (void)engine.set_option("UCI_LimitStrength", "true");
            (void)engine.set_option("UCI_Elo", std::to_string(req.elo));
        }
        (void)engine.set_option("UCI_Chess960", req.start.is_chess960() ? "true" : "false");
        if (!engine.set_position(req.start, req.moves)) continue;
        engine::Limits limits;
        const Color us = engine.position().side_to_move();
        if (req.my_time >= 0) {
            limits.time[us] = req.my_time;
            limits.time[~us] = req.their_time;
            limits.inc[us] = req.my_inc;
            limits.inc[~us] = req.their_inc;
        } else {
            limits.movetime = 1500;  // unlimited and correspondence games: a short think
        }
        const engine::SearchResult result = engine.search_sync(limits);
        if (result.best) answer_(req.game_id, req.request_id, result.best);
    }
}

int RobotPool::level_elo(int level) { return engine::level_strength(level).elo; }

std::string RobotPool::levels_json() {
    nlohmann::json levels = nlohmann::json::array();
    for (int l = engine::LEVEL_MIN; l <= engine::LEVEL_MAX; ++l) {
        const engine::LevelStrength st = engine::level_strength(l);
        std::string label = "Level " + std::to_string(l);
        if (st.measured)
            label += " (" + std::to_string(st.elo) + " \u00b1 " + std::to_string(st.error) + " Elo, measured in " +
                     std::to_string(st.games) + " games against " + st.against + ")";
        else if (st.elo)
            label += " (about " + std::to_string(st.elo) + ", a design target, not measured)";
        else
            label += " (full strength)";
        levels.push_back({{"level", l}, {"elo", st.elo}, {"error", st.error}, {"games", st.games},
                          {"measured", st.measured}, {"label", label}});
    }
    return nlohmann::json{{"v", 1}, {"levels", levels}, {"elo_min", engine::ELO_MIN}, {"elo_max", engine::ELO_MAX}}.dump();
}

}  // namespace outpost::server
