// Outpost — robot players.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/play/robot.h"

#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>

#include "engine/engine.h"
#include "engine/human_time.h"
#include "engine/skill.h"
#include "server/common/protocol.h"

namespace outpost::server {

static_assert(RobotEloMin == engine::ELO_MIN && RobotEloMax == engine::ELO_MAX,
              "the protocol reads the robot's Elo in the engine's range (common/protocol.h)");

namespace {
Millis steady_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

RobotPool::RobotPool(int threads, OnMove answer, std::function<Millis()> now)
    : answer_(std::move(answer)), now_(now ? std::move(now) : std::function<Millis()>(steady_ms)) {
    if (threads <= 0) threads = int(std::max(1u, std::thread::hardware_concurrency()));
    for (int i = 0; i <= threads; ++i) slots_.push_back(std::make_unique<Slot>());
    for (int i = 0; i <= threads; ++i)
        threads_.emplace_back([this, i, threads] { run(*slots_[size_t(i)], i == threads); });
    timer_ = std::thread([this] { timer_loop(); });
}

void RobotPool::set_human_time(bool on, std::uint64_t seed) {
    std::lock_guard lock(mutex_);
    human_ = on;
    rng_.seed(seed);
}

Millis RobotPool::answer_time(const RobotRequest& r) {
    if (!is_quick(r)) return 0;
    Position pos = r.start;
    for (Move m : r.moves) pos.do_move(m);
    engine::HumanTimeInput in = engine::human_time_input(pos, r.ply, r.my_time, r.my_inc);
    in.level = r.level;
    if (!in.level)  // an Elo: the strongest level at or under it
        for (int l = 1; l <= 10; ++l)
            if (l == 1 || level_elo(l) <= r.elo) in.level = l;
    std::lock_guard lock(mutex_);
    if (!human_ || r.instant) return 0;
    return engine::human_move_time(in, rng_);
}

void RobotPool::timer_loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
        if (stopping_) return;
        if (due_.empty()) {
            due_cv_.wait(lock);
            continue;
        }
        auto first = std::min_element(due_.begin(), due_.end(), [](const Due& a, const Due& b) { return a.at < b.at; });
        const Millis now = now_();
        if (first->at > now) {
            due_cv_.wait_for(lock, std::chrono::milliseconds(first->at - now));
            continue;
        }
        Due d = std::move(*first);
        due_.erase(first);
        lock.unlock();
        answer_(d.game_id, d.request_id, d.move);
        lock.lock();
    }
}

RobotPool::~RobotPool() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        for (auto& s : slots_)
            if (s->engine) s->engine->stop();
    }
    cv_.notify_all();
    due_cv_.notify_all();
    for (auto& t : threads_) t.join();
    timer_.join();
}

bool RobotPool::is_quick(const RobotRequest& r) {
    const engine::SkillParams s = r.level > 0 ? engine::skill_for_level(r.level) : engine::skill_for_elo(r.elo);
    return s.enabled && s.max_ms > 0 && s.max_ms <= QuickMs;
}

engine::Limits RobotPool::limits_for(const RobotRequest& r, Color us, Millis now) {
    engine::Limits limits;
    if (r.my_time >= 0) {
        const Millis waited = std::max<Millis>(0, now - r.asked_at_ms);
        limits.time[us] = std::max<Millis>(1, r.my_time - waited - AnswerOverheadMs);
        limits.time[~us] = r.their_time;
        limits.inc[us] = r.my_inc;
        limits.inc[~us] = r.their_inc;
    } else {
        limits.movetime = 1500;  // unlimited and correspondence games: a short think
    }
    return limits;
}

void RobotPool::ask(RobotRequest request) {
    {
        std::lock_guard lock(mutex_);
        // The game's position changed: what it asked before is obsolete.
        std::erase_if(due_, [&](const Due& d) { return d.game_id == request.game_id; });
        for (auto& s : slots_)
            if (s->game_id == request.game_id) {
                s->discard = true;
                if (s->engine) s->engine->stop();
            }
        auto same = std::find_if(queue_.begin(), queue_.end(), [&](const RobotRequest& r) { return r.game_id == request.game_id; });
        if (same != queue_.end()) *same = std::move(request);
        else queue_.push_back(std::move(request));
    }
    cv_.notify_all();
}

void RobotPool::cancel(const std::string& game_id) {
    std::lock_guard lock(mutex_);
    std::erase_if(queue_, [&](const RobotRequest& r) { return r.game_id == game_id; });
    std::erase_if(due_, [&](const Due& d) { return d.game_id == game_id; });
    for (auto& s : slots_)
        if (s->game_id == game_id) {
            s->discard = true;
            if (s->engine) s->engine->stop();
        }
}

size_t RobotPool::queued() const {
    std::lock_guard lock(mutex_);
    return queue_.size();
}

size_t RobotPool::thinking() const {
    std::lock_guard lock(mutex_);
    return size_t(std::count_if(slots_.begin(), slots_.end(), [](const auto& s) { return !s->game_id.empty(); }));
}

bool RobotPool::take(bool quick_only, RobotRequest& out) {
    auto busy = [&](const std::string& id) {
        return std::any_of(slots_.begin(), slots_.end(), [&](const auto& s) { return s->game_id == id; });
    };
    // A request without an owner is its game's own.
    auto owner_of = [](const RobotRequest& r) { return r.owner.empty() ? "game:" + r.game_id : r.owner; };
    auto running = [&](const std::string& owner) {
        return std::count_if(slots_.begin(), slots_.end(), [&](const auto& s) { return !s->game_id.empty() && s->owner == owner; });
    };
    auto served = [&](const std::string& owner) {
        auto it = last_served_.find(owner);
        return it == last_served_.end() ? std::uint64_t(0) : it->second;
    };
    // Quick requests first, then the others; among them the owner with the fewest
    // searches running, then the owner served longest ago, then the game that asked
    // first. A game whose previous search is still being stopped waits for it (one
    // search per game).
    for (bool quick : {true, false}) {
        if (!quick && quick_only) break;
        auto best = queue_.end();
        std::string best_owner;
        std::ptrdiff_t best_running = 0;
        std::uint64_t best_served = 0;
        for (auto it = queue_.begin(); it != queue_.end(); ++it) {
            if (is_quick(*it) != quick || busy(it->game_id)) continue;
            std::string owner = owner_of(*it);
            const std::ptrdiff_t n = running(owner);
            const std::uint64_t when = served(owner);
            if (best == queue_.end() || n < best_running || (n == best_running && when < best_served)) {
                best = it;
                best_owner = std::move(owner);
                best_running = n;
                best_served = when;
            }
        }
        if (best == queue_.end()) continue;
        out = std::move(*best);
        queue_.erase(best);
        last_served_[best_owner] = ++takes_;
        // Forget owners with nothing queued or running (the map stays as small as the
        // set of players waiting for the robot).
        if (last_served_.size() > 2 * (queue_.size() + slots_.size()) + 16)
            std::erase_if(last_served_, [&](const auto& e) {
                return e.first != best_owner && running(e.first) == 0 &&
                       std::none_of(queue_.begin(), queue_.end(), [&](const RobotRequest& r) { return owner_of(r) == e.first; });
            });
        return true;
    }
    return false;
}

void RobotPool::run(Slot& slot, bool quick_only) {
    engine::Engine engine;
    (void)engine.set_option("Hash", "16");
    (void)engine.set_option("Threads", "1");
    for (;;) {
        RobotRequest req;
        {
            std::unique_lock lock(mutex_);
            cv_.wait(lock, [&] { return stopping_ || take(quick_only, req); });
            if (stopping_) return;
            slot.game_id = req.game_id;
            slot.owner = req.owner.empty() ? "game:" + req.game_id : req.owner;
            slot.discard = false;
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
        engine::SearchResult result;
        Millis answer_at = 0;
        if (engine.set_position(req.start, req.moves)) {
            if (const Millis think = answer_time(req); think > 0) answer_at = req.asked_at_ms + think;
            engine.go(limits_for(req, engine.position().side_to_move(), now_()));
            {
                std::lock_guard lock(mutex_);
                slot.engine = &engine;
                if (slot.discard || stopping_) engine.stop();  // cancelled while it started
            }
            engine.wait();
            result = engine.last_result();
        }
        bool discard, held = false;
        {
            std::lock_guard lock(mutex_);
            discard = slot.discard || stopping_;
            slot.engine = nullptr;
            slot.game_id.clear();
            slot.owner.clear();
            // A person's time: the move waits for the timer (a new request or a cancel
            // of the game drops it), and this thread goes on to the next game.
            if (!discard && result.best && answer_at > now_()) {
                due_.push_back(Due{answer_at, req.game_id, req.request_id, result.best});
                held = true;
            }
        }
        cv_.notify_all();  // a request of this game may have waited for this search to end
        if (held) due_cv_.notify_all();
        else if (!discard && result.best) answer_(req.game_id, req.request_id, result.best);
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
