// Outpost — simultaneous exhibitions (simul.h; docs/protocol.md, "Simuls"): a simul's
// storage (as JSON in its SimulStore), its views, the results its games report, and its
// socket. The routes that change a simul are in simul_routes.cpp.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/events/simul.h"
#include "server/events/simul_detail.h"
#include "server/common/http_answer.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "chess/clock.h"
#include "server/common/guards.h"

namespace outpost::server {

using simul_detail::no_simul;
using simul_detail::valid_simul_id;

namespace {

using nlohmann::json;

// The host's score on a board from its PGN result; none: no game (aborted, failed).
std::optional<double> host_points(const std::string& result, bool host_white) {
    if (result == "1/2-1/2") return 0.5;
    if (result == "1-0") return host_white ? 1.0 : 0.0;
    if (result == "0-1") return host_white ? 0.0 : 1.0;
    return std::nullopt;
}

}  // namespace

SimulService::SimulService(SimulEnv env, SimulStore* store) : env_(std::move(env)), store_(store) {}

// --- Storage ------------------------------------------------------------------------------

std::string SimulService::to_stored(const Simul& s) const {
    json players = json::array(), boards = json::array();
    for (const Player& p : s.players)
        players.push_back({{"id", p.id}, {"name", p.name}, {"account", p.account}, {"key", p.key},
                           {"robot", p.robot_level}, {"accepted", p.accepted}, {"joined_ms", p.joined_ms}});
    for (const Board& b : s.boards)
        boards.push_back({{"player", b.player}, {"game", b.game}, {"host_white", b.host_white}, {"host_token", b.host_token},
                          {"player_token", b.player_token}, {"ply", b.ply}, {"over", b.over}, {"result", b.result}});
    return dump_json({{"v", 1}, {"id", s.id}, {"name", s.name}, {"host_name", s.host_name}, {"host_account", s.host_account},
                 {"host_color", s.host_color}, {"time_control", s.time_control}, {"host_extra", s.host_extra},
                 {"max_boards", s.max_boards}, {"join_directly", s.join_directly}, {"status", s.status},
                 {"created_ms", s.created_ms}, {"started_ms", s.started_ms}, {"finished_ms", s.finished_ms},
                 {"updated_ms", s.updated_ms}, {"next_player", s.next_player}, {"players", players}, {"boards", boards}});
}

std::optional<SimulService::Simul> SimulService::from_stored(const std::string& body) {
    json j = json::parse(body, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return std::nullopt;
    try {
        Simul s;
        s.id = j.at("id").get<std::string>();
        s.name = j.at("name").get<std::string>();
        s.host_name = j.at("host_name").get<std::string>();
        s.host_account = j.at("host_account").get<std::int64_t>();
        s.host_color = j.at("host_color").get<std::string>();
        s.time_control = j.at("time_control").get<std::string>();
        s.host_extra = j.at("host_extra").get<int>();
        s.max_boards = j.at("max_boards").get<int>();
        s.join_directly = j.at("join_directly").get<bool>();
        s.status = j.at("status").get<std::string>();
        s.created_ms = j.at("created_ms").get<std::int64_t>();
        s.started_ms = j.at("started_ms").get<std::int64_t>();
        s.finished_ms = j.at("finished_ms").get<std::int64_t>();
        s.updated_ms = j.at("updated_ms").get<std::int64_t>();
        s.next_player = j.at("next_player").get<int>();
        for (const json& p : j.at("players"))
            s.players.push_back(Player{p.at("id").get<std::string>(), p.at("name").get<std::string>(),
                                       p.at("account").get<std::int64_t>(), p.at("key").get<std::string>(),
                                       p.at("robot").get<int>(), p.at("accepted").get<bool>(),
                                       p.at("joined_ms").get<std::int64_t>()});
        for (const json& b : j.at("boards"))
            s.boards.push_back(Board{b.at("player").get<std::string>(), b.at("game").get<std::string>(),
                                     b.at("host_white").get<bool>(), b.at("host_token").get<std::string>(),
                                     b.at("player_token").get<std::string>(), b.at("ply").get<int>(),
                                     b.at("over").get<bool>(), b.at("result").get<std::string>()});
        return s;
    } catch (const json::exception&) {
        return std::nullopt;  // a row this version cannot read stays in the store, untouched
    }
}

void SimulService::save(const Simul& s) {
    if (store_) (void)store_->save(s.id, s.host_account, s.status, s.updated_ms, to_stored(s));
}

Result<int> SimulService::load() {
    if (!store_) return 0;
    auto rows = store_->load_recent(int(env_.max_finished_in_memory));
    if (!rows) return rows.error();
    std::vector<std::string> playing;  // games to ask about, outside the lock
    std::vector<std::string> starting;  // simuls whose start a stop cut short
    {
        std::lock_guard lock(mutex_);
        for (const std::string& body : *rows) {
            auto s = from_stored(body);
            if (!s) continue;
            for (size_t i = 0; i < s->boards.size(); ++i) {
                const Board& b = s->boards[i];
                if (b.game.empty()) continue;
                by_game_[b.game] = {s->id, i};
                if (!b.over && !b.host_token.empty()) playing.push_back(b.game);
            }
            const std::string sid = s->id;
            Simul& in = simuls_[sid] = std::move(*s);
            // A start cut short by a stop (issue 13): the boards missing are planned (a
            // simul saved by an older version has only the boards made), the games not
            // made are made and the made ones linked, below.
            if (in.status == "starting") {
                plan_boards(in);
                starting.push_back(sid);
            }
        }
    }
    for (const std::string& id : starting) make_games(id);
    // Results the hub knows and the simul missed (a stop before the next tick).
    for (const std::string& game : playing) {
        auto result = env_.game_result ? env_.game_result(game) : std::nullopt;
        if (!result) continue;
        LiveGame g;
        g.id = game;
        g.over = true;
        g.result = *result;
        on_live_game(g);
    }
    tick();
    std::lock_guard lock(mutex_);
    return int(simuls_.size());
}

SimulService::Simul* SimulService::find(const std::string& id) {
    auto it = simuls_.find(id);
    if (it != simuls_.end()) return &it->second;
    if (!store_ || !valid_simul_id(id)) return nullptr;
    auto row = store_->load(id);
    if (!row || !row->has_value()) return nullptr;
    auto s = from_stored(**row);
    if (!s) return nullptr;
    for (size_t i = 0; i < s->boards.size(); ++i)
        if (!s->boards[i].game.empty()) by_game_[s->boards[i].game] = {s->id, i};
    Simul& in = simuls_[id] = std::move(*s);
    return &in;
}

// --- Views ----------------------------------------------------------------------------------

int SimulService::accepted(const Simul& s) const {
    return int(std::count_if(s.players.begin(), s.players.end(), [](const Player& p) { return p.accepted; }));
}

std::string SimulService::view(const Simul& s, const Viewer& v) const {
    json players = json::array(), boards = json::array();
    for (const Player& p : s.players)
        players.push_back({{"id", p.id}, {"name", p.name}, {"signed_in", p.account != 0}, {"robot", p.robot_level},
                           {"accepted", p.accepted}});
    int wins = 0, losses = 0, draws = 0, aborted = 0, playing = 0;
    for (size_t i = 0; i < s.boards.size(); ++i) {
        const Board& b = s.boards[i];
        auto p = std::find_if(s.players.begin(), s.players.end(), [&](const Player& x) { return x.id == b.player; });
        const bool white_to_move = b.ply % 2 == 0;  // every board starts from the initial position
        const auto points = host_points(b.result, b.host_white);
        const char* status = b.game.empty() ? "failed" : !b.over ? "playing" : points ? "over" : "aborted";
        if (!b.over) ++playing;
        else if (!points) ++aborted;
        else if (*points == 1) ++wins;
        else if (*points == 0) ++losses;
        else ++draws;
        boards.push_back({{"n", i + 1},
                          {"player", b.player},
                          {"name", p == s.players.end() ? "" : p->name},
                          {"robot", p == s.players.end() ? 0 : p->robot_level},
                          {"game", b.game},
                          {"host_color", b.host_white ? "white" : "black"},
                          {"ply", b.ply},
                          {"turn", b.over ? "" : white_to_move == b.host_white ? "host" : "player"},
                          {"status", status},
                          {"result", b.result}});
    }
    json summary = {{"wins", wins},       {"losses", losses},   {"draws", draws},
                    {"aborted", aborted}, {"playing", playing}, {"score", wins + 0.5 * draws},
                    {"of", wins + losses + draws}};
    json simul = {{"id", s.id},
                  {"name", s.name},
                  {"host", s.host_name},
                  {"host_color", s.host_color},
                  {"time_control", s.time_control},
                  {"host_extra", s.host_extra},
                  {"max_boards", s.max_boards},
                  {"join_directly", s.join_directly},
                  {"status", s.status == "starting" ? "open" : s.status},
                  {"created_ms", s.created_ms},
                  {"started_ms", s.started_ms},
                  {"finished_ms", s.finished_ms},
                  {"players", players},
                  {"boards", boards},
                  {"summary", summary}};
    json you = {{"role", "none"}};
    if (v.account && v.account == s.host_account) {
        json seats = json::object();
        for (const Board& b : s.boards)
            if (!b.game.empty()) seats[b.game] = b.host_token;
        you = {{"role", "host"}, {"seats", seats}};
    } else {
        for (const Player& p : s.players) {
            if (p.robot_level || !((v.account && p.account == v.account) || (!v.key.empty() && p.key == v.key))) continue;
            you = {{"role", "player"}, {"player", p.id}, {"accepted", p.accepted}, {"key", p.key}};
            for (const Board& b : s.boards)
                if (b.player == p.id && !b.game.empty()) {
                    you["game"] = b.game;
                    you["seat"] = b.player_token;
                    you["color"] = b.host_white ? "black" : "white";
                }
        }
    }
    return dump_json({{"v", 1}, {"simul", simul}, {"you", you}});
}

void SimulService::send_to_watchers(const Simul& s) {
    for (auto& [p, w] : watchers_) {
        if (w.simul != s.id) continue;
        auto sub = w.sub.lock();
        if (!sub) continue;
        std::string text = view(s, Viewer{w.account, w.key});
        text.insert(1, R"("t":"simul",)");
        sub->deliver(std::make_shared<const std::string>(std::move(text)));
    }
}

void SimulService::changed(Simul& s) {
    s.updated_ms = env_.wall_ms();
    save(s);
    dirty_.erase(s.id);
    send_to_watchers(s);  // (eviction waits for tick(): the caller still holds `s`)
}

void SimulService::finish_if_done(Simul& s) {
    if (s.status != "started") return;
    if (std::all_of(s.boards.begin(), s.boards.end(), [](const Board& b) { return b.over; })) {
        s.status = "finished";
        s.finished_ms = env_.wall_ms();
    }
}

// Finished and cancelled simuls beyond the bound leave memory (the store keeps them),
// the oldest first; none that someone watches.
void SimulService::evict_finished() {
    std::vector<std::pair<std::int64_t, std::string>> done;
    for (const auto& [id, s] : simuls_)
        if ((s.status == "finished" || s.status == "cancelled") && !dirty_.count(id)) done.emplace_back(s.updated_ms, id);
    if (done.size() <= env_.max_finished_in_memory) return;
    std::sort(done.begin(), done.end());
    for (size_t i = 0; i + env_.max_finished_in_memory < done.size(); ++i) {
        const std::string& id = done[i].second;
        if (std::any_of(watchers_.begin(), watchers_.end(), [&](const auto& w) { return w.second.simul == id; })) continue;
        for (const Board& b : simuls_[id].boards) by_game_.erase(b.game);
        simuls_.erase(id);
    }
}

// --- Games ----------------------------------------------------------------------------------

void SimulService::on_live_game(const LiveGame& g) {
    std::lock_guard lock(mutex_);
    auto it = by_game_.find(g.id);
    if (it == by_game_.end()) return;
    auto s = simuls_.find(it->second.first);
    if (s == simuls_.end() || it->second.second >= s->second.boards.size()) return;
    Board& b = s->second.boards[it->second.second];
    if (b.over) return;
    b.ply = g.ply;
    if (!g.over) return;
    b.over = true;
    b.result = g.result;
    finish_if_done(s->second);
    s->second.updated_ms = env_.wall_ms();
    dirty_.insert(s->first);
    send_to_watchers(s->second);
}

void SimulService::tick() {
    std::lock_guard lock(mutex_);
    // Issue 25: an open simul nobody came to, or one never started, is cancelled (the
    // cap on open simuls is not held by the abandoned ones).
    const std::int64_t now = env_.wall_ms();
    for (auto& [id, sim] : simuls_) {
        if (sim.status != "open") continue;
        const bool someone = std::any_of(sim.players.begin(), sim.players.end(), [](const Player& p) { return p.robot_level == 0; });
        const std::int64_t age = now - sim.created_ms;
        if ((!someone && age >= env_.empty_expiry_ms) || age >= env_.open_expiry_ms) {
            sim.status = "cancelled";
            sim.finished_ms = now;
            changed(sim);
        }
    }
    for (const std::string& id : dirty_)
        if (auto s = simuls_.find(id); s != simuls_.end()) save(s->second);
    dirty_.clear();
    evict_finished();
}

std::size_t SimulService::simuls_in_memory() const {
    std::lock_guard lock(mutex_);
    return simuls_.size();
}

// --- The simul's socket -----------------------------------------------------------------------

void SimulService::watch(const std::shared_ptr<Subscriber>& who, const std::string& id, const std::string& key,
                         const Account* account) {
    std::lock_guard lock(mutex_);
    Simul* s = valid_simul_id(id) ? find(id) : nullptr;
    if (!s) {
        who->deliver(std::make_shared<const std::string>(error_json(no_simul())));
        return;
    }
    Watcher& w = watchers_[who.get()];
    w.sub = who;
    w.simul = id;
    w.key = key.substr(0, 64);
    w.account = account ? account->id : 0;
    std::string text = view(*s, Viewer{w.account, w.key});
    text.insert(1, R"("t":"simul",)");
    who->deliver(std::make_shared<const std::string>(std::move(text)));
}

void SimulService::unwatch(const Subscriber* who) {
    std::lock_guard lock(mutex_);
    watchers_.erase(who);
}

void SimulService::handle_message(Subscriber& from, std::string_view text) {
    json j = json::parse(text, nullptr, false);
    if (j.is_object() && j.value("t", "") == "ping")
        return from.deliver(std::make_shared<const std::string>(R"({"v":1,"t":"pong"})"));
    from.deliver(std::make_shared<const std::string>(
        error_json(bad_request("a simul's socket only listens: send {\"t\":\"ping\"}, or play on the games' sockets"))));
}

}  // namespace outpost::server
