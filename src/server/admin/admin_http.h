// Outpost — the admin room's answers (admin_service.h): never kept by a cache.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "server/common/http_answer.h"

namespace outpost::server::admin_http {

inline HttpResponse no_store(HttpResponse r) {
    r.headers.emplace_back("Cache-Control", "no-store");
    return r;
}
inline HttpResponse refused(const ProtocolError& e) { return no_store(error_answer(e)); }

}  // namespace outpost::server::admin_http
