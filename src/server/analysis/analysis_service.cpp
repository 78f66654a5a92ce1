// Outpost — analysis of finished games over HTTP.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/analysis/analysis_service.h"

#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>

#include "chess/san.h"
#include "chess/uci.h"

namespace outpost::server {
namespace {

using nlohmann::json;

json eval_json(const engine::Eval& e) {
    // Checkmate on the board: no moves to count, the sign of mate says who won.
    if (e.checkmated) return {{"mate", 0}, {"winner", e.mate > 0 ? "white" : "black"}};
    if (e.mate) return {{"mate", e.mate}};
    return {{"cp", e.cp}};
}

json accuracy_json(double a) { return std::isnan(a) ? json(nullptr) : json(std::round(a * 10) / 10); }

const char* mark_id(engine::Mark m) {
    switch (m) {
    case engine::Mark::INACCURACY: return "inaccuracy";
    case engine::Mark::MISTAKE: return "mistake";
    case engine::Mark::BLUNDER: return "blunder";
    default: return nullptr;
    }
}

const char* state_id(AnalysisPool::State s) {
    switch (s) {
    case AnalysisPool::State::QUEUED: return "queued";
    case AnalysisPool::State::RUNNING: return "running";
    case AnalysisPool::State::DONE: return "done";
    case AnalysisPool::State::FAILED: return "failed";
    }
    return "failed";
}

std::string done_message(const std::string& game_id, const std::string& analysis) {
    // The stored object is spliced in as it is: no parse and dump per request.
    return R"({"v":1,"t":"analysis","game":)" + json(game_id).dump() + R"(,"status":"done","analysis":)" + analysis + "}";
}

std::int64_t wall_now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace

std::string AnalysisService::analysis_json(const engine::GameAnalysis& a, const Position& start,
                                           const std::vector<Move>& moves, const engine::AnalysisSettings& settings) {
    json out;
    out["settings"] = settings.describe();
    out["opening"] = a.opening ? json{{"eco", a.opening->eco}, {"name", a.opening->name}} : json(nullptr);
    json accuracy, marks;
    for (Color c : {WHITE, BLACK}) {
        const char* side = color_name(c, Capital::NO);
        accuracy[side] = accuracy_json(a.accuracy[c]);
        const auto& m = a.marks[c];
        marks[side] = {{"inaccuracy", m[int(engine::Mark::INACCURACY)]},
                       {"mistake", m[int(engine::Mark::MISTAKE)]},
                       {"blunder", m[int(engine::Mark::BLUNDER)]}};
    }
    out["accuracy"] = accuracy;
    out["marks"] = marks;
    json evals = json::array();
    for (const auto& p : a.positions) evals.push_back(eval_json(p.eval));
    out["evals"] = evals;
    json list = json::array();
    Position pos = start;
    for (size_t i = 0; i < moves.size() && i < a.moves.size(); ++i) {
        const engine::MoveAnalysis& m = a.moves[i];
        json j{{"ply", int(i) + 1},
               {"color", color_name(pos.side_to_move(), Capital::NO)},
               {"uci", move_to_uci(pos, moves[i])},
               {"san", move_to_san(pos, moves[i])},
               {"eval", eval_json(m.eval_after)},
               {"accuracy", accuracy_json(m.accuracy)},
               {"was_best", m.was_best}};
        const char* mark = mark_id(m.mark);
        j["mark"] = mark ? json(mark) : json(nullptr);
        if (m.best != Move::none()) {
            j["best_uci"] = move_to_uci(pos, m.best);
            j["best_san"] = move_to_san(pos, m.best);
        }
        list.push_back(std::move(j));
        pos.do_move(moves[i]);
    }
    out["moves"] = list;
    out["nodes"] = a.nodes;
    out["time_ms"] = a.time_ms;
    return out.dump();
}

AnalysisService::AnalysisService(Options options, Hub& hub, Storage* storage, std::function<Millis()> monotonic_ms)
    : options_(options),
      hub_(hub),
      storage_(storage),
      now_(std::move(monotonic_ms)),
      started_(options.per_client_per_second, options.per_client_burst),
      pool_(options.pool, [this](const std::string& id, const AnalysisPool::Status& st) { on_report(id, st); }) {}

AnalysisService::~AnalysisService() = default;

void AnalysisService::remember_locked(const std::string& game_id, std::string text) {
    if (!finished_.count(game_id)) finished_order_.push_back(game_id);
    finished_[game_id] = std::move(text);
    while (finished_order_.size() > std::max<std::size_t>(options_.max_finished_in_memory, 1)) {
        finished_.erase(finished_order_.front());
        finished_order_.pop_front();
    }
}

// On a worker thread: the end of an analysis. The JSON is made and stored here, off
// the network thread; a request that comes meanwhile still sees it running.
void AnalysisService::on_report(const std::string& game_id, const AnalysisPool::Status& st) {
    if (st.state != AnalysisPool::State::DONE && st.state != AnalysisPool::State::FAILED) return;
    Pending p;
    {
        std::lock_guard lock(mutex_);
        auto it = pending_.find(game_id);
        if (it == pending_.end()) return;
        p = std::move(it->second);
        pending_.erase(it);
        for (const std::string& key : p.clients)
            if (auto c = at_once_.find(key); c != at_once_.end() && --c->second <= 0) at_once_.erase(c);
    }
    if (st.state != AnalysisPool::State::DONE || !st.result) return;  // the pool keeps the error for status()
    std::string text = analysis_json(*st.result, p.start, p.moves, options_.settings);
    if (storage_) (void)storage_->store_analysis({game_id, options_.settings.describe(), text, wall_now_ms()});
    std::lock_guard lock(mutex_);
    remember_locked(game_id, std::move(text));
}

std::optional<std::string> AnalysisService::finished_locked(const std::string& game_id) {
    if (auto it = finished_.find(game_id); it != finished_.end()) return it->second;
    return std::nullopt;
}

Answer<std::string> AnalysisService::status(const std::string& game_id) {
    {
        std::lock_guard lock(mutex_);
        if (auto text = finished_locked(game_id)) return done_message(game_id, *text);
    }
    if (storage_) {
        auto stored = storage_->load_analysis(game_id);
        if (!stored) return ProtocolError{"internal", "the analysis could not be read: " + stored.error().message, 500};
        if (stored->has_value()) {
            std::lock_guard lock(mutex_);
            remember_locked(game_id, (*stored)->json);
            return done_message(game_id, (*stored)->json);
        }
    }
    auto st = pool_.status(game_id);
    if (!st) return ProtocolError{"not_found", "no analysis of game '" + game_id.substr(0, 64) + "'; POST to ask for one", 404};
    json j{{"v", 1}, {"t", "analysis"}, {"game", game_id}, {"status", state_id(st->state)},
           {"queue_position", st->queue_position}, {"done", st->done}, {"total", st->total}};
    // Done in the pool but not yet turned into JSON (the worker is storing it): running.
    if (st->state == AnalysisPool::State::DONE) j["status"] = "running", j["done"] = st->total;
    if (st->state == AnalysisPool::State::FAILED) j["error"] = st->error;
    return j.dump();
}

std::pair<int, Answer<std::string>> AnalysisService::request(const std::string& game_id, std::string_view body,
                                                             const std::string& client_address, std::int64_t account) {
    // Issue 25: a client is its address (an IPv6 /64) and, signed in, its account too;
    // anonymous requests ("anonymous") share part of the queue.
    const std::string client = address_group(client_address);
    std::vector<std::string> keys{client, account ? "account:" + std::to_string(account) : std::string("anonymous")};
    // The body is optional; when there is one it is a JSON object of protocol 1.
    if (!body.empty()) {
        json j = json::parse(body, nullptr, false);
        if (j.is_discarded() || !j.is_object()) return {400, bad_request("the body is not a JSON object")};
        if (j.contains("v") && j["v"] != 1) return {400, bad_request("unknown protocol version (this server speaks v 1)")};
    }
    // An analysis there is, or one under way, costs nothing more.
    if (auto known = status(game_id); known) {
        json j = json::parse(*known, nullptr, false);
        const std::string state = j.value("status", "");
        if (state == "done") return {200, known};
        if (state == "queued" || state == "running") return {202, known};
    } else if (known.error().code != "not_found") {
        return {500, known};
    }

    auto game = hub_.game_moves(game_id);
    if (!game) return {game.error().http_status, game.error()};
    GameMoves& g = *game;
    if (!g.over) return {409, not_allowed("the game is not over yet: analysis comes after the game")};
    if (g.moves.empty()) return {409, not_allowed("the game has no moves to analyse")};
    if (g.moves.size() > AnalysisPool::MaxPlies)
        return {409, not_allowed("the game is too long to analyse here (" + std::to_string(g.moves.size()) + " plies; at most " +
                                 std::to_string(AnalysisPool::MaxPlies) + ")")};

    std::lock_guard lock(mutex_);
    const bool known_job = pending_.count(game_id) > 0;
    if (!known_job && options_.client_limits) {
        for (size_t k = 0; k < 2; ++k) {
            auto c = at_once_.find(keys[k]);
            const int cap = k == 1 && !account ? std::max(1, int(options_.pool.max_queue / 2)) : options_.per_client_at_once;
            if (c != at_once_.end() && c->second >= cap)
                return {429, ProtocolError{"rate_limited",
                                           k == 1 && !account
                                               ? "the analyses asked for without an account fill their share of the queue; "
                                                 "sign in, or try again later"
                                               : "you have " + std::to_string(c->second) +
                                                     " analyses under way; wait for one to finish before you ask for another",
                                           429}};
        }
        if (account && !started_.allow("account:" + std::to_string(account), now_()))
            return {429, ProtocolError{"rate_limited", "you have asked for many analyses; try again in a few minutes", 429}};
        if (!started_.allow(client, now_()))
            return {429, ProtocolError{"rate_limited", "you have asked for many analyses; try again in a few minutes", 429}};
    }
    AnalysisRequest req{game_id, g.start, g.moves, options_.settings,
                        account ? "account:" + std::to_string(account) : "address:" + client};  // issue 25: fair shares
    auto submitted = pool_.submit(std::move(req));
    if (!submitted) return {429, ProtocolError{"rate_limited", submitted.error().message, 429}};
    if (submitted->state == AnalysisPool::State::DONE && submitted->result) {  // the pool's own cache
        std::string text = analysis_json(*submitted->result, g.start, g.moves, options_.settings);
        remember_locked(game_id, text);
        return {200, done_message(game_id, text)};
    }
    if (!known_job) {
        for (const std::string& key : keys) ++at_once_[key];
        pending_[game_id] = Pending{std::move(keys), g.start, std::move(g.moves)};
    }
    json j{{"v", 1},
           {"t", "analysis"},
           {"game", game_id},
           {"status", state_id(submitted->state)},
           {"queue_position", submitted->queue_position},
           {"done", submitted->done},
           {"total", submitted->total}};
    return {202, j.dump()};
}

}  // namespace outpost::server
