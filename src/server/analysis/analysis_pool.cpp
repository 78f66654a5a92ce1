// Outpost — the analysis workers of the server.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/analysis/analysis_pool.h"

#include <algorithm>
#include <cerrno>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>

#include "chess/fen.h"
#include "engine/engine.h"

namespace outpost::server {

struct AnalysisPool::Job {
    AnalysisRequest request;
    std::string fingerprint;  // what makes two requests the same analysis
    Status status;
    std::uint64_t arrival = 0;  // the order it came in (fair order within a round)
    std::atomic<bool> cancelled{false};
    Worker* worker = nullptr;  // while running
};

struct AnalysisPool::Worker {
    engine::Engine engine;
    std::thread thread;
};

namespace {

std::string fingerprint_of(const AnalysisRequest& r) {
    std::string f = to_fen(r.start) + "|" + r.settings.describe() + "|t" + std::to_string(r.settings.threads) + "|h" +
                    std::to_string(r.settings.hash_mb) + "|l" + std::to_string(r.settings.line_plies) + "|";
    for (Move m : r.moves) f += std::to_string(m.raw()) + ",";
    return f;
}

std::string owner_key(const AnalysisRequest& r) { return r.owner.empty() ? "game:" + r.game_id : r.owner; }

}  // namespace

AnalysisPool::AnalysisPool(Options options, Listener listener) : options_(options), listener_(std::move(listener)) {
    options_.workers = std::clamp(options_.workers, 1, 64);
    options_.max_queue = std::max<std::size_t>(options_.max_queue, 1);
    options_.max_cached = std::max<std::size_t>(options_.max_cached, 1);
    for (int i = 0; i < options_.workers; ++i) workers_.push_back(std::make_unique<Worker>());
    for (auto& w : workers_) {
        Worker* worker = w.get();
        worker->thread = std::thread([this, worker] { run(*worker); });
    }
}

AnalysisPool::~AnalysisPool() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        queue_.clear();
        for (auto& [id, job] : jobs_)
            if (job->worker) {
                job->cancelled = true;
                job->worker->engine.stop();
            }
    }
    cv_.notify_all();
    for (auto& w : workers_)
        if (w->thread.joinable()) w->thread.join();
}

Result<AnalysisPool::Status> AnalysisPool::submit(AnalysisRequest request) {
    const engine::AnalysisSettings& s = request.settings;
    if (auto ok = s.validate(); !ok) return ok.error();
    if (s.nodes > options_.max_nodes || s.depth > options_.max_depth || s.movetime_ms > options_.max_movetime_ms ||
        s.threads > options_.max_threads || s.hash_mb > options_.max_hash_mb)
        return make_error("analysis: " + s.describe() + " with " + std::to_string(s.threads) + " threads and " +
                          std::to_string(s.hash_mb) + " MB is more than this server allows (nodes " +
                          std::to_string(options_.max_nodes) + ", depth " + std::to_string(options_.max_depth) +
                          ", movetime " + std::to_string(options_.max_movetime_ms) + " ms, threads " +
                          std::to_string(options_.max_threads) + ", hash " + std::to_string(options_.max_hash_mb) +
                          " MB)");
    if (request.moves.size() > MaxPlies)
        return make_error("analysis: " + std::to_string(request.moves.size()) + " plies is more than " +
                          std::to_string(MaxPlies));
    if (request.game_id.empty()) return make_error("analysis: no game id");

    const std::string fingerprint = fingerprint_of(request);
    std::lock_guard lock(mutex_);
    if (stopping_) return make_error("analysis: the server is stopping");
    if (auto it = jobs_.find(request.game_id); it != jobs_.end()) {
        const std::shared_ptr<Job>& job = it->second;
        if (job->fingerprint == fingerprint && job->status.state != State::FAILED) {
            if (job->status.state == State::DONE) {  // recently used: keep it longest
                finished_order_.remove(request.game_id);
                finished_order_.push_back(request.game_id);
            }
            Status st = job->status;
            if (st.state == State::QUEUED)
                st.queue_position = int(std::find(queue_.begin(), queue_.end(), job) - queue_.begin()) + 1;
            return st;
        }
        if (job->status.state == State::QUEUED) {
            // The game went on while it waited: analyse the new moves in its place.
            job->request = std::move(request);
            job->fingerprint = fingerprint;
            Status st = job->status;
            st.queue_position = int(std::find(queue_.begin(), queue_.end(), job) - queue_.begin()) + 1;
            return st;
        }
        if (job->status.state == State::RUNNING) {
            job->cancelled = true;
            job->worker->engine.stop();
        } else {
            finished_order_.remove(request.game_id);
        }
        jobs_.erase(it);
    }
    if (queue_.size() >= options_.max_queue)
        return make_error("analysis: the queue is full (" + std::to_string(queue_.size()) +
                          " games waiting); try again later");
    auto job = std::make_shared<Job>();
    job->fingerprint = fingerprint;
    job->status.total = int(request.moves.size()) + 1;
    job->request = std::move(request);
    job->arrival = ++arrivals_;
    queue_.push_back(job);
    jobs_[job->request.game_id] = job;
    order_fairly_locked();
    Status st = job->status;
    st.queue_position = int(std::find(queue_.begin(), queue_.end(), job) - queue_.begin()) + 1;
    cv_.notify_one();
    return st;
}

std::optional<AnalysisPool::Status> AnalysisPool::status(const std::string& game_id) const {
    std::lock_guard lock(mutex_);
    auto it = jobs_.find(game_id);
    if (it == jobs_.end()) return std::nullopt;
    Status st = it->second->status;
    if (st.state == State::QUEUED)
        st.queue_position = int(std::find(queue_.begin(), queue_.end(), it->second) - queue_.begin()) + 1;
    return st;
}

bool AnalysisPool::cancel(const std::string& game_id) {
    std::vector<std::pair<std::string, Status>> reports;
    {
        std::lock_guard lock(mutex_);
        auto it = jobs_.find(game_id);
        if (it == jobs_.end()) return false;
        const std::shared_ptr<Job> job = it->second;
        if (job->status.state == State::QUEUED) {
            queue_.erase(std::find(queue_.begin(), queue_.end(), job));
            jobs_.erase(it);
            report_queue_positions_locked(reports);
        } else if (job->status.state == State::RUNNING) {
            job->cancelled = true;
            job->worker->engine.stop();
        } else {
            return false;
        }
    }
    notify(reports);
    return true;
}

void AnalysisPool::order_fairly_locked() {
    std::unordered_map<std::string, int> round;
    for (const auto& [id, job] : jobs_)
        if (job->status.state == State::RUNNING) ++round[owner_key(job->request)];
    struct Ranked {
        int round;
        std::uint64_t served;
        std::shared_ptr<Job> job;
    };
    std::vector<Ranked> ranked;
    ranked.reserve(queue_.size());
    for (const auto& job : queue_) {
        const std::string owner = owner_key(job->request);
        const auto served = last_served_.find(owner);
        ranked.push_back(Ranked{round[owner]++, served == last_served_.end() ? 0 : served->second, job});
    }
    std::sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) {
        if (a.round != b.round) return a.round < b.round;
        if (a.served != b.served) return a.served < b.served;
        return a.job->arrival < b.job->arrival;
    });
    for (std::size_t i = 0; i < ranked.size(); ++i) queue_[i] = std::move(ranked[i].job);
    if (last_served_.size() > 2 * (jobs_.size() + 8)) {
        std::erase_if(last_served_, [&](const auto& e) {
            return std::none_of(jobs_.begin(), jobs_.end(), [&](const auto& j) {
                return (j.second->status.state == State::QUEUED || j.second->status.state == State::RUNNING) &&
                       owner_key(j.second->request) == e.first;
            });
        });
    }
}

std::size_t AnalysisPool::queue_length() const {
    std::lock_guard lock(mutex_);
    return queue_.size();
}

void AnalysisPool::report_queue_positions_locked(std::vector<std::pair<std::string, Status>>& reports) {
    for (std::size_t i = 0; i < queue_.size(); ++i) {
        Status st = queue_[i]->status;
        st.queue_position = int(i) + 1;
        reports.emplace_back(queue_[i]->request.game_id, st);
    }
}

void AnalysisPool::remember_locked(const std::shared_ptr<Job>& job) {
    auto it = jobs_.find(job->request.game_id);
    if (it == jobs_.end() || it->second != job) return;  // replaced or dropped meanwhile
    finished_order_.push_back(job->request.game_id);
    while (finished_order_.size() > options_.max_cached) {
        jobs_.erase(finished_order_.front());
        finished_order_.pop_front();
    }
}

void AnalysisPool::notify(const std::vector<std::pair<std::string, Status>>& reports) const {
    if (!listener_) return;
    for (const auto& [id, st] : reports) listener_(id, st);
}

void AnalysisPool::run(Worker& worker) {
    // Lower this thread's priority relative to the server's (an operator who runs the
    // server under `nice` keeps the analysis that much further below it); the engine's
    // search threads, created from here, inherit it (Linux keeps the nice value per
    // thread). 19 is the lowest there is.
    if (options_.nice > 0) {
        const auto tid = id_t(::syscall(SYS_gettid));
        errno = 0;
        const int own = getpriority(PRIO_PROCESS, tid);
        if (errno == 0) setpriority(PRIO_PROCESS, tid, std::min(19, own + options_.nice));
    }

    for (;;) {
        std::shared_ptr<Job> job;
        std::vector<std::pair<std::string, Status>> reports;
        {
            std::unique_lock lock(mutex_);
            cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (stopping_) return;
            job = queue_.front();
            queue_.pop_front();
            job->status.state = State::RUNNING;
            job->worker = &worker;
            last_served_[owner_key(job->request)] = ++starts_;
            order_fairly_locked();
            reports.emplace_back(job->request.game_id, job->status);
            report_queue_positions_locked(reports);
        }
        notify(reports);

        const std::string id = job->request.game_id;
        auto progress = [&](int done, int total) {
            Status st;
            {
                std::lock_guard lock(mutex_);
                job->status.done = done;
                job->status.total = total;
                st = job->status;
            }
            if (listener_) listener_(id, st);
            return !job->cancelled.load();
        };
        auto analysis = job->cancelled ? Result<engine::GameAnalysis>(make_error("analysis: cancelled"))
                                       : engine::analyse_game(worker.engine, job->request.start, job->request.moves,
                                                              job->request.settings, progress);
        Status st;
        {
            std::lock_guard lock(mutex_);
            job->worker = nullptr;
            if (analysis && !job->cancelled) {
                job->status.state = State::DONE;
                job->status.result = std::make_shared<const engine::GameAnalysis>(std::move(analysis).value());
            } else {
                job->status.state = State::FAILED;
                job->status.error = job->cancelled || analysis ? "analysis: cancelled" : analysis.error().message;
            }
            remember_locked(job);
            st = job->status;
            order_fairly_locked();  // its owner has one running less: its next one moves up
        }
        if (listener_) listener_(id, st);
    }
}

}  // namespace outpost::server
