// Outpost — the web UI's files as the server sends them (SPEC D5): compiled into the
// `outpost` executable at build time (src/app/CMakeLists.txt, embedded_web_files()),
// or read from a folder at start (`outpost serve --web DIR`, for development). Each
// file keeps a gzip variant when it has one, and an ETag; the answer says how long a
// browser may keep it: the content-hashed files under /assets/ a year and
// `immutable`, everything else (the page itself) revalidated each time.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <map>
#include <span>
#include <string>
#include <string_view>

#include "server/common/http.h"

namespace outpost::server {

struct StaticFile {
    std::string body;
    std::string gzip;  // the same bytes gzip-compressed; "" when not worth it
    std::string content_type;
    std::string etag;  // a strong ETag of the body ("\"…\"")
};

// One file of the UI compiled into the executable (a generated table; see
// cmake/embed_web.cmake).
struct EmbeddedWebFile {
    const char* path;  // "/index.html", "/assets/index-Ab12.js"
    const unsigned char* data;
    std::size_t size;
    const unsigned char* gzip;  // nullptr: none
    std::size_t gzip_size;
};
// The files compiled into this executable; none in a program that does not link the
// generated table (the tests, the fuzzers): a weak definition answers then.
std::span<const EmbeddedWebFile> embedded_web_files();

class StaticFiles {
public:
    // dir "": the UI compiled into the executable. Otherwise every file below dir, with
    // FILE.gz beside a file taken as its gzip variant. Without any UI, a page that says
    // how to build it.
    static StaticFiles load(const std::string& dir);
    const StaticFile* find(const std::string& path) const;
    size_t size() const { return files_.size(); }
    bool has_ui() const { return has_ui_; }

private:
    void add(std::string path, std::string body, std::string gzip);
    std::map<std::string, StaticFile> files_;
    bool has_ui_ = false;
};

// The type a file's name says ("text/javascript; charset=utf-8").
std::string mime_for(std::string_view path);

// The answer for a file: gzip when the browser accepts it, 304 when its ETag matches,
// and the caching rules above.
HttpResponse static_file_response(const StaticFile& f, std::string_view path, std::string_view accept_encoding,
                                  std::string_view if_none_match);

}  // namespace outpost::server
