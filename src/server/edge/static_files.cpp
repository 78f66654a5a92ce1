// Outpost — the web UI's files: loading them (compiled in, or from a folder), their
// types, and the answer with its encoding and caching headers.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/edge/static_files.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

namespace outpost::server {

// The generated table of the executable replaces this one (src/app/CMakeLists.txt).
__attribute__((weak)) std::span<const EmbeddedWebFile> embedded_web_files() { return {}; }

namespace {

std::string read_file(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream buf;
    buf << in.rdbuf();
    return buf.str();
}

// A strong ETag of the bytes (not a secret: any stable 64-bit hash will do).
std::string etag_of(std::string_view body) {
    char text[24];
    std::snprintf(text, sizeof text, "\"%016zx\"", std::hash<std::string_view>{}(body));
    return text;
}

std::string_view trim_blanks(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// Whether an Accept-Encoding header takes gzip ("gzip, br"; not "gzip;q=0").
bool accepts_gzip(std::string_view header) {
    while (!header.empty()) {
        const size_t comma = header.find(',');
        std::string_view item = trim_blanks(header.substr(0, comma));
        header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
        const size_t semi = item.find(';');
        const std::string_view coding = trim_blanks(item.substr(0, semi));
        if (coding != "gzip" && coding != "x-gzip" && coding != "*") continue;
        if (semi != std::string_view::npos) {
            std::string_view q = trim_blanks(item.substr(semi + 1));
            if (q.rfind("q=", 0) == 0 && q.substr(2).find_first_not_of("0.") == std::string_view::npos) continue;
        }
        return true;
    }
    return false;
}

}  // namespace

std::string mime_for(std::string_view path) {
    static const std::pair<const char*, const char*> Types[] = {
        {".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},   {".svg", "image/svg+xml"},
        {".png", "image/png"},                 {".ico", "image/x-icon"},
        {".json", "application/json"},         {".ogg", "audio/ogg"},
        {".mp3", "audio/mpeg"},                {".wav", "audio/wav"},
        {".woff2", "font/woff2"},              {".webmanifest", "application/manifest+json"},
        {".txt", "text/plain; charset=utf-8"}, {".map", "application/json"}};
    for (const auto& [ext, type] : Types)
        if (path.ends_with(ext)) return type;
    return "application/octet-stream";
}

void StaticFiles::add(std::string path, std::string body, std::string gzip) {
    StaticFile f;
    f.content_type = mime_for(path);
    f.etag = etag_of(body);
    f.body = std::move(body);
    f.gzip = std::move(gzip);
    files_[std::move(path)] = std::move(f);
}

StaticFiles StaticFiles::load(const std::string& dir) {
    StaticFiles s;
    if (dir.empty()) {
        for (const EmbeddedWebFile& e : embedded_web_files())
            s.add(e.path, std::string(reinterpret_cast<const char*>(e.data), e.size),
                  e.gzip ? std::string(reinterpret_cast<const char*>(e.gzip), e.gzip_size) : std::string());
    } else {
        namespace fs = std::filesystem;
        std::error_code ec;
        if (fs::is_directory(dir, ec)) {
            for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
                 it.increment(ec)) {
                if (!it->is_regular_file(ec) || it->path().extension() == ".gz") continue;
                fs::path gz = it->path();
                gz += ".gz";
                s.add("/" + fs::relative(it->path(), dir, ec).generic_string(), read_file(it->path()),
                      fs::is_regular_file(gz, ec) ? read_file(gz) : std::string());
            }
        }
    }
    s.has_ui_ = s.files_.count("/index.html") > 0;
    if (!s.has_ui_) {
        s.add("/index.html",
              "<!doctype html><meta charset=utf-8><title>Outpost</title><h1>Outpost</h1>"
              "<p>This executable was built without its web UI (npm was missing when it was built). Run "
              "<code>bash scripts/serve.sh</code>, which builds it and starts the server, or serve a built UI "
              "with <code>--web web/dist</code>.</p><p>The API answers at <a href=/api/v1/levels>/api/v1/levels</a>.</p>",
              "");
    }
    return s;
}

const StaticFile* StaticFiles::find(const std::string& path) const {
    auto it = files_.find(path);
    return it == files_.end() ? nullptr : &it->second;
}

HttpResponse static_file_response(const StaticFile& f, std::string_view path, std::string_view accept_encoding,
                                  std::string_view if_none_match) {
    const bool gzip = !f.gzip.empty() && accepts_gzip(accept_encoding);
    // The gzip bytes are another representation of the file: another ETag (RFC 9110 8.8.3).
    const std::string etag = gzip ? f.etag.substr(0, f.etag.size() - 1) + "-gz\"" : f.etag;
    HttpResponse r{200, f.content_type, {}, {}};
    r.headers.emplace_back("Cache-Control",
                           path.rfind("/assets/", 0) == 0 ? "public, max-age=31536000, immutable" : "no-cache");
    r.headers.emplace_back("ETag", etag);
    if (!f.gzip.empty()) r.headers.emplace_back("Vary", "Accept-Encoding");
    if (!if_none_match.empty() && (if_none_match.find(etag) != std::string_view::npos || trim_blanks(if_none_match) == "*")) {
        r.status = 304;
        return r;
    }
    if (gzip) r.headers.emplace_back("Content-Encoding", "gzip");
    r.body = gzip ? f.gzip : f.body;
    return r;
}

}  // namespace outpost::server
