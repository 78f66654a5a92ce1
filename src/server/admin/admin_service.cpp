// Outpost — the admin page's routes (admin_service.h; docs/protocol.md, "Administration").
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/admin/admin_service.h"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "server/accounts/accounts.h"
#include "server/admin/admin_http.h"
#include "server/admin/admin_text.h"
#include "server/common/http_answer.h"
#include "server/events/events.h"
#include "server/events/simul.h"

namespace outpost::server {
namespace {

using admin_http::no_store;
using admin_http::refused;
using nlohmann::json;

constexpr std::string_view AdminPrefix = "/api/v1/admin/";
constexpr std::size_t MaxArbiterReason = 300;  // characters
constexpr int MaxAccountsFound = 50;
constexpr std::size_t MaxGamesListed = 500;

HttpResponse ok(const json& j) { return no_store(json_value_answer(200, j)); }
HttpResponse internal(const Error& e) { return refused({"internal", e.message, 500}); }
HttpResponse not_found(const std::string& what) { return refused({"not_found", "no such " + what, 404}); }

bool valid_id(std::string_view id, std::size_t max) {
    if (id.empty() || id.size() > max) return false;
    return std::all_of(id.begin(), id.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; });
}

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

json account_json(const Account& a, int connections) {
    return json{{"name", a.name}, {"admin", a.admin}, {"disabled", a.disabled}, {"created_ms", a.created_ms},
                {"connections", connections}};
}

}  // namespace

AdminService::AdminService(AdminEnv env, AdminStore& store, AccountStore& accounts, Hub& hub, EventService* events,
                           SimulService* simuls)
    : env_(std::move(env)), store_(store), accounts_(accounts), hub_(hub), events_(events), simuls_(simuls) {}

bool AdminService::handles(const HttpRequest& req) {
    const std::string path = split_target(req.target).first;
    return path.rfind(AdminPrefix, 0) == 0 || path == "/api/v1/admin" || path == "/api/v1/reports";
}

std::string AdminService::arbiter_reason(const std::string& game_id) {
    auto r = store_.arbiter_reason(game_id);
    return r ? *r : std::string();
}

std::optional<HttpResponse> AdminService::refuse_cross_site(const HttpRequest& req) const {
    // Any method: an admin's answers are read by the admin page only.
    if (!req.origin.empty() && !origin_allowed(req.origin, req.host, env_.allowed_origins))
        return refused({"forbidden_origin", "the admin routes are used only from pages of this server", 403});
    if (req.method == "POST" && !is_json_content_type(req.content_type))
        return refused({"bad_request", "a POST body must be JSON, sent with Content-Type: application/json", 415});
    return std::nullopt;
}

HttpResponse AdminService::handle(const HttpRequest& req) {
    if (auto r = refuse_cross_site(req)) return *r;
    const auto [path, query] = split_target(req.target);
    if (path == "/api/v1/reports") {
        if (req.method != "POST") return refused({"bad_request", "use POST", 405});
        return send_report(req);
    }
    if (!req.account) return refused(not_signed_in());
    // The account as stored now: an admin flag taken away, or a disabled account, counts at once.
    auto now = accounts_.find(req.account->name);
    if (!now) return internal(now.error());
    if (!*now || (*now)->id != req.account->id || (*now)->disabled || !(*now)->admin)
        return refused({"not_admin", "the admin page is for administrators (outpost user add NAME --admin)", 403});
    return admin_route(req, **now, path, query);
}

HttpResponse AdminService::admin_route(const HttpRequest& req, const Account& admin, const std::string& path,
                                       const std::map<std::string, std::string>& query) {
    const bool get = req.method == "GET" || req.method == "HEAD";
    const bool post = req.method == "POST";
    const std::string rest = path.size() > AdminPrefix.size() ? path.substr(AdminPrefix.size()) : "";
    const auto param = [&query](const char* k) { return query.count(k) ? query.at(k) : std::string(); };
    const auto parts = [&rest] {
        std::vector<std::string> p;
        std::size_t start = 0;
        for (;;) {
            const std::size_t slash = rest.find('/', start);
            p.push_back(rest.substr(start, slash - start));
            if (slash == std::string::npos) break;
            start = slash + 1;
        }
        return p;
    }();
    const auto wrong_method = [](const char* use) { return refused({"bad_request", std::string("use ") + use, 405}); };
    if (parts.size() == 1) {
        const std::string& what = parts[0];
        if (what == "overview") return get ? overview() : wrong_method("GET");
        if (what == "accounts") return get ? find_accounts(param("q")) : wrong_method("GET");
        if (what == "reports") return get ? list_reports(query) : wrong_method("GET");
        if (what == "audit") return get ? audit_log(query) : wrong_method("GET");
    }
    if (parts.size() == 3) {
        const std::string &kind = parts[0], &id = parts[1], &action = parts[2];
        if (kind == "accounts" && (action == "disable" || action == "enable" || action == "signout")) {
            if (!post) return wrong_method("POST");
            if (!check_username(id)) return not_found("account");
            return account_action(req, admin, id, action);
        }
        if (kind == "games" && action == "end") {
            if (!post) return wrong_method("POST");
            if (!valid_id(id, 64)) return not_found("game");
            return end_game(req, admin, id);
        }
        if (kind == "events" && action == "close") {
            if (!post) return wrong_method("POST");
            return close_event(admin, id);
        }
        if (kind == "simuls" && action == "close") {
            if (!post) return wrong_method("POST");
            if (!valid_id(id, 64)) return not_found("simul");
            return close_simul(admin, id);
        }
    }
    if (parts.size() == 2 && parts[0] == "reports") {
        if (!post) return wrong_method("POST");
        return set_report_state(req, admin, parts[1]);
    }
    return refused({"not_found", "no admin endpoint " + path.substr(0, 100), 404});
}

HttpResponse AdminService::overview() {
    json games = json::array();
    for (const LiveGameView& v : hub_.live_game_views(MaxGamesListed))
        games.push_back({{"id", v.game.id}, {"white", v.game.white}, {"black", v.game.black},
                         {"time_control", v.game.time_control}, {"variant", v.game.variant}, {"rated", v.game.rated},
                         {"ply", v.game.ply}, {"connections", v.connections}});
    std::map<std::string, int> by_kind, by_account;
    int total = 0, anonymous = 0;
    if (env_.connections)
        for (const AdminConnection& c : env_.connections()) {
            ++total;
            ++by_kind[c.kind];
            if (c.account.empty()) ++anonymous;
            else ++by_account[c.account];
        }
    json accounts = json::array();
    for (const auto& [name, n] : by_account) accounts.push_back({{"name", name}, {"connections", n}});
    auto open = store_.reports("open", 1000);
    if (!open) return internal(open.error());
    return ok({{"v", 1},
               {"games", games},
               {"live_games", hub_.live_games()},
               {"connections", {{"total", total}, {"anonymous", anonymous}, {"by_kind", by_kind}, {"accounts", accounts}}},
               {"open_reports", open->size()}});
}

HttpResponse AdminService::find_accounts(const std::string& q) {
    if (q.size() > 40) return refused({"bad_request", "the search is at most 40 characters", 400});
    auto all = accounts_.list();
    if (!all) return internal(all.error());
    std::map<std::string, int> connections;
    if (env_.connections)
        for (const AdminConnection& c : env_.connections())
            if (!c.account.empty()) ++connections[lower(c.account)];
    const std::string needle = lower(q);
    json found = json::array();
    int total = 0;
    for (const Account& a : *all) {
        const std::string key = lower(a.name);
        if (!needle.empty() && key.find(needle) == std::string::npos) continue;
        if (++total > MaxAccountsFound) continue;
        found.push_back(account_json(a, connections.count(key) ? connections[key] : 0));
    }
    return ok({{"v", 1}, {"accounts", found}, {"total", total}});
}

HttpResponse AdminService::account_action(const HttpRequest&, const Account& admin, const std::string& name,
                                          const std::string& action) {
    auto found = accounts_.find(name);
    if (!found) return internal(found.error());
    if (!*found) return not_found("account");
    const Account target = **found;
    if (action == "disable" && target.id == admin.id)
        return refused({"not_allowed", "an administrator does not disable their own account", 409});
    const json before{{"disabled", target.disabled}};
    json after = before;
    int closed = 0;
    if (action == "signout") {
        auto n = accounts_.end_all_sessions(target.id);
        if (!n) return internal(n.error());
        if (env_.end_sessions) closed = env_.end_sessions({target.id, "", "", "signed out by an administrator"});
        after = {{"disabled", target.disabled}, {"sessions_ended", *n}, {"connections_closed", closed}};
    } else {
        const bool disable = action == "disable";
        auto done = accounts_.set_disabled(target.name, disable);
        if (!done) return internal(done.error());
        // Disabling ends every session (the store) and closes their connections (issue 25).
        if (disable && env_.end_sessions) closed = env_.end_sessions({target.id, "", "", "account disabled"});
        after = {{"disabled", disable}, {"connections_closed", closed}};
    }
    if (auto failed = audit(admin, action, "account:" + target.name, dump_json(before), dump_json(after))) return *failed;
    auto now = accounts_.find(target.name);
    if (!now || !*now) return internal(now ? make_error("the account vanished") : now.error());
    return ok({{"v", 1}, {"account", account_json(**now, 0)}, {"connections_closed", closed}});
}

HttpResponse AdminService::end_game(const HttpRequest& req, const Account& admin, const std::string& id) {
    auto body = read_json_object(req.body);
    if (!body) return refused(body.error());
    const auto result = body->find("result"), reason = body->find("reason");
    if (result == body->end() || !result->is_string())
        return refused({"bad_request", "field 'result' must be 1-0, 0-1 or 1/2-1/2", 400});
    if (reason == body->end() || !reason->is_string())
        return refused({"bad_request", "field 'reason' must be a string", 400});
    auto text = admin_text::clean(reason->get<std::string>(), MaxArbiterReason, "reason");
    if (!text) return refused({"bad_request", text.error().message, 400});
    const std::string r = result->get<std::string>();
    if (r != "1-0" && r != "0-1" && r != "1/2-1/2")
        return refused({"bad_request", "field 'result' must be 1-0, 0-1 or 1/2-1/2", 400});
    auto state = hub_.state_json(id);
    if (!state) return refused(state.error());
    const json was = json::parse(*state, nullptr, false);
    const json& g = was.is_object() && was.contains("game") ? was["game"] : was;
    const json before{{"status", g.value("status", "")}, {"result", g.value("result", "")}};
    if (g.value("status", "") != "ongoing") return refused({"game_over", "the game is over", 409});
    // The reason is kept first: the hub reads it back whenever it loads the game.
    if (auto kept = store_.set_arbiter_reason(id, *text); !kept) return internal(kept.error());
    auto ended = hub_.arbiter_decision(id, r, *text);
    if (!ended) return refused(ended.error());
    const json after{{"status", "arbiter-decision"}, {"result", r}, {"reason", *text}};
    if (auto failed = audit(admin, "end_game", "game:" + id, dump_json(before), dump_json(after))) return *failed;
    return ok({{"v", 1}, {"game", id}, {"result", r}, {"reason", *text}});
}

HttpResponse AdminService::close_event(const Account& admin, const std::string& id) {
    if (!events_) return not_found("event");
    std::int64_t n = 0;
    if (id.empty() || id.size() > 18 || !std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return not_found("event");
    n = std::stoll(id);
    auto done = events_->close(n);
    if (!done) return refused(done.error());
    if (auto failed = audit(admin, "close_event", "event:" + id, dump_json({{"status", done->first}}),
                            dump_json({{"status", done->second}})))
        return *failed;
    return ok({{"v", 1}, {"event", n}, {"status", done->second}});
}

HttpResponse AdminService::close_simul(const Account& admin, const std::string& id) {
    if (!simuls_) return not_found("simul");
    auto done = simuls_->close(id);
    if (!done) return refused(done.error());
    if (auto failed = audit(admin, "close_simul", "simul:" + id, dump_json({{"status", done->first}}),
                            dump_json({{"status", done->second}})))
        return *failed;
    return ok({{"v", 1}, {"simul", id}, {"status", done->second}});
}

HttpResponse AdminService::audit_log(const std::map<std::string, std::string>& query) {
    std::int64_t before = 0;
    int limit = 50;
    try {
        if (query.count("before")) before = std::stoll(query.at("before"));
        if (query.count("limit")) limit = std::stoi(query.at("limit"));
    } catch (const std::exception&) {
        return refused({"bad_request", "before and limit must be whole numbers", 400});
    }
    if (before < 0 || limit < 1 || limit > 200) return refused({"bad_request", "limit must be 1-200, before >= 0", 400});
    auto log = store_.audit_log(limit, before);
    if (!log) return internal(log.error());
    json entries = json::array();
    for (const AuditEntry& e : *log)
        entries.push_back({{"id", e.id}, {"at", e.at_ms}, {"admin", e.admin_name}, {"action", e.action},
                           {"target", e.target}, {"before", e.before}, {"after", e.after}});
    return ok({{"v", 1}, {"entries", entries}});
}

std::optional<HttpResponse> AdminService::audit(const Account& admin, const std::string& action,
                                                const std::string& target, const std::string& before,
                                                const std::string& after) {
    auto written = store_.audit(AuditEntry{0, env_.wall_ms(), admin.id, admin.name, action, target, before, after});
    if (!written) return internal(make_error("done, but the audit log could not be written: " + written.error().message));
    return std::nullopt;
}

}  // namespace outpost::server
