// Outpost — the HTTP router.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/edge/router.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "server/analysis/analysis_service.h"

namespace outpost::server {
namespace {

std::string mime_for(const std::string& path) {
    static const std::pair<const char*, const char*> Types[] = {
        {".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},   {".svg", "image/svg+xml"},
        {".png", "image/png"},                 {".ico", "image/x-icon"},
        {".json", "application/json"},         {".ogg", "audio/ogg"},
        {".mp3", "audio/mpeg"},                {".wav", "audio/wav"},
        {".woff2", "font/woff2"},              {".webmanifest", "application/manifest+json"},
        {".txt", "text/plain; charset=utf-8"}, {".map", "application/json"}};
    for (const auto& [ext, type] : Types)
        if (path.size() >= std::string_view(ext).size() && path.ends_with(ext)) return type;
    return "application/octet-stream";
}

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

StaticFiles StaticFiles::load(const std::string& dir) {
    StaticFiles s;
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(dir, ec)) {
        for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            if (!it->is_regular_file(ec)) continue;
            std::ifstream in(it->path(), std::ios::binary);
            std::stringstream buf;
            buf << in.rdbuf();
            std::string rel = "/" + fs::relative(it->path(), dir, ec).generic_string();
            s.files_[rel] = {buf.str(), mime_for(rel)};
        }
    }
    if (!s.files_.count("/index.html")) {
        s.files_["/index.html"] = {
            "<!doctype html><meta charset=utf-8><title>Outpost</title><h1>Outpost</h1>"
            "<p>The web UI has not been built. Run <code>bash scripts/serve.sh</code>, which builds it "
            "(web/dist) and starts the server.</p><p>The API answers at <a href=/api/v1/levels>/api/v1/levels</a>.</p>",
            "text/html; charset=utf-8"};
    }
    return s;
}

const std::pair<std::string, std::string>* StaticFiles::find(const std::string& path) const {
    auto it = files_.find(path);
    return it == files_.end() ? nullptr : &it->second;
}

HttpResponse route(const HttpRequest& req, Hub& hub, const StaticFiles& files, AnalysisService* analysis) {
    const auto [path, query] = split_target(req.target);
    if (path.rfind("/api/", 0) == 0) {
        if (path == "/api/v1/levels") {
            if (req.method != "GET") return error_response({"bad_request", "use GET", 405});
            return json_response(200, hub.levels_json());
        }
        if (path == "/api/v1/games") {
            if (req.method != "POST") return error_response({"bad_request", "use POST to create a game", 405});
            return answer(hub.create_game(req.body, req.client, req.account ? &*req.account : nullptr), 201);
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
                auto [status, a] = analysis->request(rest, req.body, req.client);
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
    const auto* f = files.find(path == "/" ? "/index.html" : path);
    // A single-page app: unknown paths without a file extension get the page.
    if (!f && path.find('.') == std::string::npos) f = files.find("/index.html");
    if (!f) return error_response({"not_found", "no such file " + path.substr(0, 100), 404});
    HttpResponse r{200, f->second, f->first, {}};
    r.headers.emplace_back("Cache-Control", path.rfind("/assets/", 0) == 0 ? "public, max-age=31536000, immutable" : "no-cache");
    return r;
}

}  // namespace outpost::server
