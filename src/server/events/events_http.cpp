// Outpost — tournaments run by the server: the HTTP routes under /api/v1/events
// (docs/protocol.md, "Events"): which operation a request names, who may call it.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/events/events.h"
#include "server/events/events_detail.h"
#include "server/common/guards.h"
#include "server/common/http_answer.h"

namespace outpost::server {

using namespace events_detail;

namespace {

HttpResponse event_answer(const Answer<std::string>& a, int status = 200) {
    return a ? json_answer(status, *a) : error_answer(a.error());
}

}  // namespace

bool EventService::handles(const HttpRequest& req) {
    const std::string path = split_target(req.target).first;
    return path == EventsPrefix || path.rfind(std::string(EventsPrefix) + "/", 0) == 0;
}

HttpResponse EventService::handle(const HttpRequest& req) {
    const std::string path = split_target(req.target).first;
    const bool post = req.method == "POST";
    if (post) {  // the account routes' rules (account_service.h, CSRF)
        if (!is_json_content_type(req.content_type) && !req.content_type.empty())
            return error_answer({"bad_request", "a POST body must be JSON, sent with Content-Type: application/json", 415});
        if (!req.origin.empty() && !origin_allowed(req.origin, req.host, allowed_origins_))
            return error_answer({"forbidden_origin", "events are changed only from pages of this server", 403});
        if (!req.account) return error_answer({"not_signed_in", "sign in first", 401});
    } else if (req.method != "GET" && req.method != "HEAD") {
        return error_answer({"bad_request", "use GET or POST", 405});
    }
    const Account* who = req.account ? &*req.account : nullptr;
    if (path == EventsPrefix) {
        if (post) return event_answer(create(*who, req.body), 201);
        return event_answer(list_json());
    }
    std::string rest = path.substr(std::string_view(EventsPrefix).size() + 1);
    const std::size_t slash = rest.find('/');
    const std::string id_text = rest.substr(0, slash);
    const std::string action = slash == std::string::npos ? "" : rest.substr(slash + 1);
    if (id_text.empty() || id_text.size() > 15 || !std::all_of(id_text.begin(), id_text.end(), ::isdigit))
        return error_answer(not_found());
    const std::int64_t id = std::stoll(id_text);
    auto need = [&](bool want_post) -> std::optional<HttpResponse> {
        if (want_post != post) return error_answer({"bad_request", want_post ? "use POST" : "use GET", 405});
        return std::nullopt;
    };
    if (action.empty()) {
        if (auto wrong = need(false)) return *wrong;
        return event_answer(event_json(id, who));
    }
    if (action == "join" || action == "withdraw" || action == "bye" || action == "rounds" || action == "results") {
        if (auto wrong = need(true)) return *wrong;
        if (action == "join") return event_answer(join(id, *who));
        if (action == "withdraw") return event_answer(withdraw(id, *who));
        if (action == "bye") return event_answer(request_bye(id, *who, req.body));
        if (action == "rounds") return event_answer(start_round(id, *who), 201);
        return event_answer(enter_result(id, *who, req.body));
    }
    if (auto wrong = need(false)) return *wrong;
    if (action == "standings") return event_answer(standings_json(id));
    if (action == "trf" || action == "pgn") {
        auto text = action == "trf" ? trf(id) : pgn(id);
        if (!text) return error_answer(text.error());
        HttpResponse r{200, action == "trf" ? "text/plain; charset=utf-8" : "application/x-chess-pgn; charset=utf-8", *text, {}};
        r.headers.emplace_back("Content-Disposition",
                               "attachment; filename=\"outpost-event-" + id_text + (action == "trf" ? ".trf" : ".pgn") + "\"");
        return r;
    }
    return error_answer({"not_found", "no event route " + action.substr(0, 40), 404});
}

}  // namespace outpost::server
