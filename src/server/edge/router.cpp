// Outpost — the HTTP router.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/edge/router.h"

#include <nlohmann/json.hpp>


#include "server/analysis/analysis_service.h"

namespace outpost::server {
namespace {

int hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string url_decode(std::string_view s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) >= 0 && hex(s[i + 2]) >= 0) {
            out += char(hex(s[i + 1]) * 16 + hex(s[i + 2]));
            i += 2;
        } else {
            out += s[i] == '+' ? ' ' : s[i];
        }
    }
    return out;
}

HttpResponse json_response(int status, std::string body) { return HttpResponse{status, "application/json", std::move(body), {}}; }

HttpResponse error_response(const ProtocolError& e) { return json_response(e.http_status, error_json(e)); }

template <class T>
HttpResponse answer(const Answer<T>& a, int ok_status = 200) {
    if (!a) return error_response(a.error());
    if constexpr (std::is_same_v<T, CreatedGame>) return json_response(ok_status, a->json());
    else return json_response(ok_status, *a);
}

bool valid_id(const std::string& id) {
    if (id.empty() || id.size() > 64) return false;
    for (char c : id)
        if (!std::isalnum(static_cast<unsigned char>(c))) return false;
    return true;
}

// /readyz: 503 while the last batch of writes failed or the one being written has
// taken longer than a healthy disk ever takes (a load balancer stops sending players).
HttpResponse readiness(const StorageWriter::Health& h) {
    constexpr double StuckSeconds = 5;
    std::string problem;
    if (!h.last_write_ok) problem = "the last write to the database failed: " + h.last_error;
    else if (h.writing_seconds > StuckSeconds) problem = "a write to the database has taken " +
                                                         std::to_string(int(h.writing_seconds)) + " s";
    nlohmann::json body = {{"status", problem.empty() ? "ready" : "not_ready"}, {"queued_writes", h.queued}};
    if (!problem.empty()) body["problem"] = problem;
    return json_response(problem.empty() ? 200 : 503,
                         body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

}  // namespace

std::pair<std::string, std::map<std::string, std::string>> split_target(const std::string& target) {
    std::map<std::string, std::string> query;
    const size_t q = target.find('?');
    std::string path = url_decode(target.substr(0, q));
    if (q != std::string::npos) {
        std::string_view rest = std::string_view(target).substr(q + 1);
        while (!rest.empty()) {
            const size_t amp = rest.find('&');
            std::string_view pair = rest.substr(0, amp);
            const size_t eq = pair.find('=');
            query[url_decode(pair.substr(0, eq))] = eq == std::string_view::npos ? "" : url_decode(pair.substr(eq + 1));
            if (amp == std::string_view::npos) break;
            rest = rest.substr(amp + 1);
        }
    }
    return {path, query};
}

HttpResponse route(const HttpRequest& req, Hub& hub, const StaticFiles& files, AnalysisService* analysis) {
    const auto [path, query] = split_target(req.target);
    // Operations (docs/protocol.md, "Operations"): the process answers; the store takes writes.
    if (path == "/healthz") return json_response(200, R"({"status":"ok"})");
    if (path == "/readyz") return readiness(hub.writer().health());
    // Never on the public port (issue 27): `--metrics-listen` serves them on an address of their own.
    if (path == "/metrics") return error_response({"not_found", "metrics are served on the --metrics-listen address", 404});
    if (path.rfind("/api/", 0) == 0) {
        if (path == "/api/v1/levels") {
            if (req.method != "GET") return error_response({"bad_request", "use GET", 405});
            return json_response(200, hub.levels_json());
        }
        if (path == "/api/v1/games") {
            if (req.method != "POST") return error_response({"bad_request", "use POST to create a game", 405});
            return answer(hub.create_game(req.body, req.client, req.account ? &*req.account : nullptr, nullptr, true), 201);
        }
        if (path == "/api/v1/games/lookup") {
            if (req.method != "POST") return error_response({"bad_request", "use POST", 405});
            return answer(hub.lookup(req.body));
        }
        const std::string prefix = "/api/v1/games/";
        if (path.rfind(prefix, 0) == 0) {
            std::string rest = path.substr(prefix.size());
            if (analysis && rest.ends_with("/analysis")) {  // docs/protocol.md, "Analysis"
                rest.resize(rest.size() - 9);
                if (!valid_id(rest)) return error_response({"not_found", "no such game", 404});
                if (req.method == "GET") return answer(analysis->status(rest));
                if (req.method != "POST") return error_response({"bad_request", "use GET or POST", 405});
                auto [status, a] = analysis->request(rest, req.body, req.client, req.account ? req.account->id : 0);
                return answer(a, status);
            }
            const bool want_pgn = rest.ends_with("/pgn");
            if (want_pgn) rest.resize(rest.size() - 4);
            if (!valid_id(rest)) return error_response({"not_found", "no such game", 404});
            if (req.method != "GET") return error_response({"bad_request", "use GET", 405});
            if (!want_pgn) return answer(hub.state_json(rest));
            auto pgn = hub.pgn(rest);
            if (!pgn) return error_response(pgn.error());
            HttpResponse r{200, "application/x-chess-pgn; charset=utf-8", *pgn, {}};
            r.headers.emplace_back("Content-Disposition", "attachment; filename=\"outpost-" + rest + ".pgn\"");
            return r;
        }
        return error_response({"not_found", "no API endpoint " + path.substr(0, 100), 404});
    }
    if (req.method != "GET" && req.method != "HEAD") return error_response({"bad_request", "use GET", 405});
    if (path.find("..") != std::string::npos) return error_response({"not_found", "no such file", 404});
    std::string file = path == "/" ? "/index.html" : path;
    const StaticFile* f = files.find(file);
    // A single-page app: unknown paths without a file extension get the page.
    if (!f && path.find('.') == std::string::npos) f = files.find(file = "/index.html");
    if (!f) return error_response({"not_found", "no such file " + path.substr(0, 100), 404});
    return static_file_response(*f, file, req.accept_encoding, req.if_none_match);
}

}  // namespace outpost::server
