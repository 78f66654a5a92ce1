// Outpost — the reports players send (SPEC D9): "report" on a game or a profile, with a
// reason; and the admin page's side of them (the list, open or resolved).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Only a signed-in player reports (an account answers for its reports), at most
// AdminEnv::reports_per_hour an hour per account and a few at once per address; one
// cannot report oneself. The reason is free text under admin_text.h's rule.
#include "server/admin/admin_service.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "server/accounts/accounts.h"
#include "server/admin/admin_http.h"
#include "server/admin/admin_text.h"
#include "server/common/http_answer.h"

namespace outpost::server {
namespace {

using admin_http::no_store;
using admin_http::refused;
using nlohmann::json;

constexpr std::size_t MaxReportReason = 500;  // characters
constexpr std::int64_t HourMs = 3'600'000;


json report_json(const PlayerReport& r) {
    return json{{"id", r.id},          {"at", r.at_ms},         {"reporter", r.reporter_name}, {"kind", r.kind},
                {"target", r.target},  {"reason", r.reason},    {"state", r.state},
                {"resolved_at", r.resolved_ms ? json(r.resolved_ms) : json(nullptr)},
                {"resolved_by", r.resolved_by.empty() ? json(nullptr) : json(r.resolved_by)}};
}

}  // namespace

HttpResponse AdminService::send_report(const HttpRequest& req) {
    if (!req.account) return refused(not_signed_in());
    auto body = read_json_object(req.body);
    if (!body) return refused(body.error());
    const auto kind = body->find("kind"), target = body->find("target"), reason = body->find("reason");
    if (kind == body->end() || !kind->is_string() || (*kind != "game" && *kind != "player"))
        return refused({"bad_request", "field 'kind' must be game or player", 400});
    if (target == body->end() || !target->is_string() || target->get_ref<const std::string&>().size() > 64)
        return refused({"bad_request", "field 'target' must be a game's id or a player's name", 400});
    if (reason == body->end() || !reason->is_string())
        return refused({"bad_request", "field 'reason' must be a string", 400});
    auto text = admin_text::clean(reason->get<std::string>(), MaxReportReason, "reason");
    if (!text) return refused({"bad_request", text.error().message, 400});
    const std::string& what = target->get_ref<const std::string&>();
    std::string shown = what;
    if (*kind == "player") {
        if (!check_username(what)) return refused({"not_found", "no such player", 404});
        auto found = accounts_.find(what);
        if (!found) return refused({"internal", found.error().message, 500});
        if (!*found) return refused({"not_found", "no such player", 404});
        if ((*found)->id == req.account->id) return refused({"not_allowed", "you cannot report yourself", 409});
        shown = (*found)->name;
    } else {
        if (what.empty() || !std::all_of(what.begin(), what.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }))
            return refused({"not_found", "no such game", 404});
        if (auto game = hub_.state_json(what); !game) return refused(game.error());
    }
    const std::int64_t now = env_.wall_ms();
    if (env_.client_limits && !report_limiter_.allow(req.client, env_.monotonic_ms()))
        return refused({"rate_limited", "too many reports from this address; try again later", 429});
    auto sent = store_.reports_since(req.account->id, now - HourMs);
    if (!sent) return refused({"internal", sent.error().message, 500});
    if (*sent >= env_.reports_per_hour)
        return refused({"rate_limited",
                        "at most " + std::to_string(env_.reports_per_hour) + " reports an hour; try again later", 429});
    PlayerReport r;
    r.at_ms = now;
    r.reporter_account = req.account->id;
    r.reporter_name = req.account->name;
    r.kind = kind->get<std::string>();
    r.target = shown;
    r.reason = *text;
    auto id = store_.add_report(r);
    if (!id) return refused({"internal", id.error().message, 500});
    return no_store(json_value_answer(201, {{"v", 1}, {"report", *id}}));
}

HttpResponse AdminService::list_reports(const std::map<std::string, std::string>& query) {
    std::string state = query.count("state") ? query.at("state") : "open";
    if (state != "open" && state != "resolved" && state != "all")
        return refused({"bad_request", "state must be open, resolved or all", 400});
    auto list = store_.reports(state == "all" ? "" : state, 200);
    if (!list) return refused({"internal", list.error().message, 500});
    json out = json::array();
    for (const PlayerReport& r : *list) out.push_back(report_json(r));
    return no_store(json_value_answer(200, {{"v", 1}, {"reports", out}}));
}

HttpResponse AdminService::set_report_state(const HttpRequest& req, const Account& admin, const std::string& id) {
    if (id.empty() || id.size() > 18 || !std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return refused({"not_found", "no such report", 404});
    auto body = read_json_object(req.body);
    if (!body) return refused(body.error());
    const auto state = body->find("state");
    if (state == body->end() || !state->is_string() || (*state != "open" && *state != "resolved"))
        return refused({"bad_request", "field 'state' must be open or resolved", 400});
    const std::int64_t n = std::stoll(id);
    auto was = store_.report(n);
    if (!was) return refused({"internal", was.error().message, 500});
    if (!*was) return refused({"not_found", "no such report", 404});
    const std::string to = state->get<std::string>();
    const std::int64_t now = env_.wall_ms();
    auto done = store_.set_report_state(n, to, to == "resolved" ? admin.name : "", to == "resolved" ? now : 0);
    if (!done) return refused({"internal", done.error().message, 500});
    if (auto failed = audit(admin, to == "resolved" ? "resolve_report" : "reopen_report", "report:" + id,
                            nlohmann::json{{"state", (*was)->state}}.dump(), nlohmann::json{{"state", to}}.dump()))
        return *failed;
    auto now_report = store_.report(n);
    if (!now_report || !*now_report) return refused({"internal", "the report vanished", 500});
    return no_store(json_value_answer(200, {{"v", 1}, {"report", report_json(**now_report)}}));
}

}  // namespace outpost::server
