// Outpost — simultaneous exhibitions: the routes under /api/v1/simuls (simul.h;
// docs/protocol.md, "Simuls"): creating, joining, accepting, withdrawing, cancelling
// and starting a simul (its games made in the hub).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/events/simul.h"
#include "server/events/simul_detail.h"
#include "server/common/http_answer.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "chess/clock.h"
#include "server/common/guards.h"
#include "server/common/names.h"
#include "server/common/game_bounds.h"

namespace outpost::server {

using simul_detail::no_simul;
using simul_detail::valid_simul_id;

namespace {

using nlohmann::json;

constexpr const char* Prefix = "/api/v1/simuls";
constexpr std::size_t MaxSimulName = 60, MaxPlayerName = MaxPlayerNameChars;

ProtocolError only_host(const char* what) { return not_allowed(std::string("only the host ") + what); }

// Optional typed fields: a present field of another type, or out of its range, is an
// error that names it.
std::optional<ProtocolError> text_field(const json& j, const char* name, std::optional<std::string>& out, size_t max) {
    auto it = j.find(name);
    if (it == j.end() || it->is_null()) return std::nullopt;
    if (!it->is_string()) return bad_request(std::string("field '") + name + "' must be a string");
    const auto& s = it->get_ref<const std::string&>();
    if (s.size() > max) return bad_request(std::string("field '") + name + "' is longer than " + std::to_string(max) + " bytes");
    out = s;
    return std::nullopt;
}
std::optional<ProtocolError> int_field(const json& j, const char* name, std::optional<int>& out, int lo, int hi) {
    auto it = j.find(name);
    if (it == j.end() || it->is_null()) return std::nullopt;
    if (!it->is_number_integer() || it->get<std::int64_t>() < lo || it->get<std::int64_t>() > hi)
        return bad_request(std::string("field '") + name + "' must be a whole number from " + std::to_string(lo) + " to " +
                           std::to_string(hi));
    out = it->get<int>();
    return std::nullopt;
}
std::optional<ProtocolError> bool_field(const json& j, const char* name, std::optional<bool>& out) {
    auto it = j.find(name);
    if (it == j.end() || it->is_null()) return std::nullopt;
    if (!it->is_boolean()) return bad_request(std::string("field '") + name + "' must be true or false");
    out = it->get<bool>();
    return std::nullopt;
}


}  // namespace

bool SimulService::handles(const HttpRequest& req) {
    const std::string path = split_target(req.target).first;
    return path == Prefix || path.rfind(std::string(Prefix) + "/", 0) == 0;
}

HttpResponse SimulService::handle(const HttpRequest& req) {
    const auto [path, query] = split_target(req.target);
    if (req.method == "POST") {
        // CSRF: as the account routes (account_service.h).
        if (!req.content_type.empty() && !is_json_content_type(req.content_type))
            return error_answer({"bad_request", "a POST body must be JSON, sent with Content-Type: application/json", 415});
        if (!req.origin.empty() && !origin_allowed(req.origin, req.host, env_.allowed_origins))
            return error_answer({"forbidden_origin", "simuls are changed only from pages of this server", 403});
    }
    if (path == Prefix) {
        if (req.method == "GET") return list();
        if (req.method == "POST") return create(req);
        return error_answer({"bad_request", "use GET or POST", 405});
    }
    std::string rest = path.substr(std::string(Prefix).size() + 1);
    std::string action;
    if (auto slash = rest.find('/'); slash != std::string::npos) {
        action = rest.substr(slash + 1);
        rest.resize(slash);
    }
    if (!valid_simul_id(rest)) return error_answer(no_simul());
    if (action.empty()) {
        if (req.method != "GET") return error_answer({"bad_request", "use GET", 405});
        auto key = query.find("key");
        return get(rest, Viewer{req.account ? req.account->id : 0, key == query.end() ? "" : key->second});
    }
    if (req.method != "POST") return error_answer({"bad_request", "use POST", 405});
    if (action == "join") return join(req, rest);
    if (action == "accept") return accept(req, rest);
    if (action == "withdraw") return withdraw(req, rest);
    if (action == "start") return start(req, rest);
    if (action == "cancel") return cancel(req, rest);
    return error_answer({"not_found", "no API endpoint " + path.substr(0, 100), 404});
}

HttpResponse SimulService::create(const HttpRequest& req) {
    if (!req.account) return error_answer(not_signed_in());
    auto body = read_json_object(req.body);
    if (!body) return error_answer(body.error());
    const json& j = *body;
    std::optional<std::string> name, color, tc_text;
    std::optional<int> extra, max_boards;
    std::optional<bool> directly;
    for (auto e : {text_field(j, "name", name, 4 * MaxSimulName), text_field(j, "color", color, 16),
                   text_field(j, "time_control", tc_text, 64), int_field(j, "host_extra", extra, 0, 60),
                   int_field(j, "max_boards", max_boards, 1, env_.max_boards), bool_field(j, "join_directly", directly)})
        if (e) return error_answer(*e);
    if (!name) return error_answer(bad_request("field 'name' is missing"));
    // Issue 25: the one rule for names (common/names.h), counted in characters.
    if (auto read = read_name(*name, "field 'name'", MaxSimulName); !read) return error_answer(read.error());
    else name = *read;
    if (color && *color != "white" && *color != "black" && *color != "alternate")
        return error_answer(bad_request("field 'color' must be 'white', 'black' or 'alternate'"));
    if (!tc_text) return error_answer(bad_request("field 'time_control' is missing (\"-\" for no clock)"));
    auto tc = read_served_time_control(*tc_text);
    if (!tc) return error_answer(bad_request("field 'time_control': " + tc.error().message));
    if (tc->correspondence())
        return error_answer(bad_request("field 'time_control': a simul is played at one sitting, not by correspondence"));
    if (extra.value_or(0) > 0 && tc->unlimited())
        return error_answer(bad_request("field 'host_extra': a simul without a clock has no extra time"));

    Simul s;
    s.name = *name;
    s.host_name = req.account->name;
    s.host_account = req.account->id;
    s.host_color = color.value_or("white");
    s.time_control = tc->to_string();
    s.host_extra = extra.value_or(0);
    s.max_boards = max_boards.value_or(std::min(10, env_.max_boards));
    s.join_directly = directly.value_or(true);
    s.created_ms = s.updated_ms = env_.wall_ms();
    std::lock_guard lock(mutex_);
    std::size_t open = 0;
    int mine = 0;
    for (const auto& [id, o] : simuls_) {
        if (o.status == "finished" || o.status == "cancelled") continue;
        ++open;
        mine += o.host_account == s.host_account;
    }
    if (mine >= env_.max_open_per_host)
        return error_answer({"rate_limited",
                             "you host " + std::to_string(mine) + " simuls that are not over; finish or cancel one first", 429});
    if (open >= env_.max_open) return error_answer({"rate_limited", "too many simuls at once; try again later", 429});
    for (int tries = 0;; ++tries) {
        s.id = env_.random_token(8);
        if (simuls_.count(s.id)) continue;
        auto taken = store_ ? store_->load(s.id) : Result<std::optional<std::string>>(std::nullopt);
        if (!taken) return error_answer({"internal", taken.error().message, 500});
        if (!taken->has_value()) break;
        if (tries > 100) return error_answer({"internal", "no free simul id", 500});
    }
    const std::string sid = s.id;
    Simul& in = simuls_[sid] = std::move(s);
    changed(in);
    return json_value_answer(201, json::parse(view(in, Viewer{in.host_account, ""})));
}

HttpResponse SimulService::list() {
    std::lock_guard lock(mutex_);
    std::vector<const Simul*> all;
    for (const auto& [id, s] : simuls_)
        if (s.status != "cancelled") all.push_back(&s);
    // Open ones first, then those being played, then the finished; newest first in each.
    auto rank = [](const Simul* s) { return s->status == "finished" ? 2 : s->status == "started" ? 1 : 0; };
    std::sort(all.begin(), all.end(), [&](const Simul* a, const Simul* b) {
        return rank(a) != rank(b) ? rank(a) < rank(b) : a->created_ms > b->created_ms;
    });
    json out = json::array();
    for (size_t i = 0; i < all.size() && i < 100; ++i) {
        const Simul& s = *all[i];
        int over = 0;
        for (const Board& b : s.boards) over += b.over;
        out.push_back({{"id", s.id},
                       {"name", s.name},
                       {"host", s.host_name},
                       {"host_color", s.host_color},
                       {"time_control", s.time_control},
                       {"max_boards", s.max_boards},
                       {"players", accepted(s)},
                       {"boards", s.boards.size()},
                       {"over", over},
                       {"status", s.status == "starting" ? "open" : s.status},
                       {"created_ms", s.created_ms}});
    }
    return json_value_answer(200, {{"v", 1}, {"simuls", out}});
}

HttpResponse SimulService::get(const std::string& id, const Viewer& v) {
    std::lock_guard lock(mutex_);
    Simul* s = find(id);
    if (!s) return error_answer(no_simul());
    return HttpResponse{200, "application/json", view(*s, v), {}};
}

HttpResponse SimulService::join(const HttpRequest& req, const std::string& id) {
    auto body = read_json_object(req.body);
    if (!body) return error_answer(body.error());
    std::optional<std::string> name, key;
    std::optional<int> robot;
    for (auto e : {text_field(*body, "name", name, 4 * MaxPlayerName), text_field(*body, "key", key, 64),
                   int_field(*body, "robot", robot, 1, 10)})
        if (e) return error_answer(*e);
    const std::int64_t account = req.account ? req.account->id : 0;
    std::lock_guard lock(mutex_);
    Simul* s = find(id);
    if (!s) return error_answer(no_simul());
    if (s->status != "open") return error_answer(not_allowed("this simul has started or is over: no one joins now"));
    const bool host = account && account == s->host_account;
    if (robot && !host) return error_answer(only_host("adds robots"));
    if (host && !robot) return error_answer(not_allowed("the host plays every board: the host does not join"));
    if (!robot) {
        // Joining twice is joining once: the same entry, and its key, come back.
        for (const Player& p : s->players)
            if ((account && p.account == account) || (key && !key->empty() && p.key == *key))
                return HttpResponse{200, "application/json", view(*s, Viewer{account, p.key}), {}};
        if (!account && !name)
            return error_answer(bad_request("field 'name' is missing (anonymous players give one)"));
        if (!account) {
            auto read = read_player_name(*name, "field 'name'");
            if (!read) return error_answer(read.error());
            name = *read;
        }
    }
    if (int(s->players.size()) >= env_.max_applicants)
        return error_answer({"rate_limited", "this simul has as many entries as it takes", 429});
    const bool room = accepted(*s) < s->max_boards;
    if ((robot || s->join_directly) && !room)
        return error_answer(not_allowed("this simul is full (" + std::to_string(s->max_boards) + " boards)"));
    Player p;
    p.id = "p" + std::to_string(++s->next_player);
    p.account = robot ? 0 : account;
    p.name = robot ? "Robot level " + std::to_string(*robot) : account ? req.account->name : *name;
    p.key = robot ? "" : env_.random_token(22);
    p.robot_level = robot.value_or(0);
    p.accepted = robot || s->join_directly;
    p.joined_ms = env_.wall_ms();
    const std::string mine = p.key;
    s->players.push_back(std::move(p));
    changed(*s);
    return HttpResponse{201, "application/json", view(*s, Viewer{account, mine}), {}};
}

HttpResponse SimulService::accept(const HttpRequest& req, const std::string& id) {
    if (!req.account) return error_answer(not_signed_in());
    auto body = read_json_object(req.body);
    if (!body) return error_answer(body.error());
    std::optional<std::string> player;
    if (auto e = text_field(*body, "player", player, 16)) return error_answer(*e);
    if (!player) return error_answer(bad_request("field 'player' is missing"));
    std::lock_guard lock(mutex_);
    Simul* s = find(id);
    if (!s) return error_answer(no_simul());
    if (s->host_account != req.account->id) return error_answer(only_host("accepts players"));
    if (s->status != "open") return error_answer(not_allowed("this simul has started or is over"));
    auto p = std::find_if(s->players.begin(), s->players.end(), [&](const Player& x) { return x.id == *player; });
    if (p == s->players.end()) return error_answer(bad_request("field 'player': no such player in this simul"));
    if (!p->accepted) {
        if (accepted(*s) >= s->max_boards)
            return error_answer(not_allowed("this simul is full (" + std::to_string(s->max_boards) + " boards)"));
        p->accepted = true;
        changed(*s);
    }
    return HttpResponse{200, "application/json", view(*s, Viewer{req.account->id, ""}), {}};
}

HttpResponse SimulService::withdraw(const HttpRequest& req, const std::string& id) {
    auto body = read_json_object(req.body);
    if (!body) return error_answer(body.error());
    std::optional<std::string> player, key;
    for (auto e : {text_field(*body, "player", player, 16), text_field(*body, "key", key, 64)})
        if (e) return error_answer(*e);
    const std::int64_t account = req.account ? req.account->id : 0;
    std::lock_guard lock(mutex_);
    Simul* s = find(id);
    if (!s) return error_answer(no_simul());
    if (s->status != "open") return error_answer(not_allowed("the simul has started: resign the game instead"));
    const bool host = account && account == s->host_account;
    auto it = s->players.end();
    if (player) {  // the host removes an entry
        if (!host) return error_answer(only_host("removes players"));
        it = std::find_if(s->players.begin(), s->players.end(), [&](const Player& p) { return p.id == *player; });
        if (it == s->players.end()) return error_answer(bad_request("field 'player': no such player in this simul"));
    } else {
        it = std::find_if(s->players.begin(), s->players.end(), [&](const Player& p) {
            return !p.robot_level && ((account && p.account == account) || (key && !key->empty() && p.key == *key));
        });
        if (it == s->players.end()) return error_answer(not_allowed("you have not joined this simul"));
    }
    s->players.erase(it);
    changed(*s);
    return HttpResponse{200, "application/json", view(*s, Viewer{account, key.value_or("")}), {}};
}

HttpResponse SimulService::cancel(const HttpRequest& req, const std::string& id) {
    if (!req.account) return error_answer(not_signed_in());
    std::lock_guard lock(mutex_);
    Simul* s = find(id);
    if (!s) return error_answer(no_simul());
    if (s->host_account != req.account->id) return error_answer(only_host("cancels the simul"));
    if (s->status != "open") return error_answer(not_allowed("only a simul that has not started is cancelled"));
    s->status = "cancelled";
    s->finished_ms = env_.wall_ms();
    changed(*s);
    return HttpResponse{200, "application/json", view(*s, Viewer{req.account->id, ""}), {}};
}

// The boards of every accepted player without one, each with the id of the game it
// will have (under the lock; issue 13: saved before any game is made).
void SimulService::plan_boards(Simul& s) {
    std::size_t i = 0;
    for (const Player& p : s.players) {
        if (!p.accepted) continue;
        const std::size_t n = i++;
        if (std::any_of(s.boards.begin(), s.boards.end(), [&](const Board& b) { return b.player == p.id; })) continue;
        Board b;
        b.player = p.id;
        b.host_white = s.host_color == "white" || (s.host_color == "alternate" && n % 2 == 0);
        b.game = env_.random_token(8);
        by_game_[b.game] = {s.id, s.boards.size()};
        s.boards.push_back(std::move(b));
    }
}

// Makes the games of a "starting" simul's boards that have an id and no seats yet,
// outside the lock (the hub's lock comes after ours, never before), each board saved
// as its game is made; then the simul has started. A game made before a stop is
// found by its id (Hub::create_game), not made again.
void SimulService::make_games(const std::string& id) {
    struct ToMake {
        std::size_t board;
        std::string game;
        NewGameRequest spec;
        std::int64_t opponent = 0;
    };
    std::vector<ToMake> todo;
    Account host;
    {
        std::lock_guard lock(mutex_);
        auto it = simuls_.find(id);
        if (it == simuls_.end() || it->second.status != "starting") return;
        const Simul& s = it->second;
        host = Account{s.host_account, s.host_name};
        for (std::size_t i = 0; i < s.boards.size(); ++i) {
            const Board& b = s.boards[i];
            if (b.game.empty() || !b.host_token.empty() || b.over) continue;
            auto p = std::find_if(s.players.begin(), s.players.end(), [&](const Player& x) { return x.id == b.player; });
            if (p == s.players.end()) continue;
            NewGameRequest spec;
            spec.game_id = b.game;
            spec.opponent = p->robot_level ? "robot" : "invite";
            spec.level = p->robot_level ? p->robot_level : 1;
            spec.creator_color = b.host_white ? WHITE : BLACK;
            spec.time_control = s.time_control;
            spec.name = s.host_name;
            spec.opponent_name = p->name;
            spec.casual = true;
            spec.creator_extra_ms = Millis(s.host_extra) * 1000 * Millis(s.boards.size());
            // R14: a board is never aborted; the player who does not start loses by forfeit
            // (the host, who walks from board to board, has the hub's long limit).
            spec.first_move = b.host_white ? "forfeit-host-white" : "forfeit-host-black";
            todo.push_back({i, b.game, std::move(spec), p->robot_level ? 0 : p->account});
        }
    }
    for (const ToMake& t : todo) {
        auto created = env_.create_game ? env_.create_game(t.spec, host, t.opponent)
                                        : Answer<CreatedGame>(ProtocolError{"internal", "no games here", 500});
        std::lock_guard lock(mutex_);
        auto it = simuls_.find(id);
        if (it == simuls_.end() || t.board >= it->second.boards.size()) return;
        Board& b = it->second.boards[t.board];
        if (b.game != t.game) continue;
        if (created) {
            b.host_token = (b.host_white ? created->white_token : created->black_token).value_or("");
            b.player_token = (b.host_white ? created->black_token : created->white_token).value_or("");
        } else {
            by_game_.erase(b.game);
            b.game.clear();
            b.over = true;  // a board without a game ("failed"): no score either way
        }
        save(it->second);
    }
    std::lock_guard lock(mutex_);
    auto it = simuls_.find(id);
    if (it == simuls_.end() || it->second.status != "starting") return;
    Simul& s = it->second;
    s.status = "started";
    s.started_ms = env_.wall_ms();
    finish_if_done(s);
    changed(s);
}

// The boards are planned and saved first ("starting", which no other request
// changes), then the games are made (make_games); a stop in between is mended by
// load().
HttpResponse SimulService::start(const HttpRequest& req, const std::string& id) {
    if (!req.account) return error_answer(not_signed_in());
    {
        std::lock_guard lock(mutex_);
        Simul* s = find(id);
        if (!s) return error_answer(no_simul());
        if (s->host_account != req.account->id) return error_answer(only_host("starts the simul"));
        if (s->status != "open") return error_answer(not_allowed("this simul has started or is over"));
        if (accepted(*s) == 0) return error_answer(not_allowed("no player has joined (or been accepted) yet"));
        s->status = "starting";
        plan_boards(*s);
        s->updated_ms = env_.wall_ms();
        save(*s);
    }
    make_games(id);
    std::lock_guard lock(mutex_);
    Simul* s = find(id);
    if (!s) return error_answer(no_simul());
    return HttpResponse{200, "application/json", view(*s, Viewer{req.account->id, ""}), {}};
}

}  // namespace outpost::server
