// Outpost — ISO 8601 times and the sealed move's text (wire_text.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/common/wire_text.h"

#include <ctime>

namespace outpost::server {

bool sealed_move_text_ok(std::string_view text) {
    if (text.empty() || text.size() > 16) return false;
    for (char c : text)
        if (c < 0x21 || c > 0x7e) return false;
    return true;
}

std::optional<std::int64_t> parse_iso_time(std::string_view t) {
    // YYYY-MM-DDTHH:MM[:SS[.fff]](Z|+00:00)
    auto digits = [&](size_t at, size_t n) -> std::optional<int> {
        if (at + n > t.size()) return std::nullopt;
        int v = 0;
        for (size_t i = at; i < at + n; ++i) {
            if (t[i] < '0' || t[i] > '9') return std::nullopt;
            v = v * 10 + (t[i] - '0');
        }
        return v;
    };
    auto y = digits(0, 4), mo = digits(5, 2), d = digits(8, 2), h = digits(11, 2), mi = digits(14, 2);
    if (!y || !mo || !d || !h || !mi || t.size() < 17 || t[4] != '-' || t[7] != '-' || (t[10] != 'T' && t[10] != ' ') ||
        t[13] != ':')
        return std::nullopt;
    size_t i = 16;
    int sec = 0;
    if (i < t.size() && t[i] == ':') {
        auto s = digits(i + 1, 2);
        if (!s) return std::nullopt;
        sec = *s;
        i += 3;
        if (i < t.size() && t[i] == '.') {
            ++i;
            while (i < t.size() && t[i] >= '0' && t[i] <= '9') ++i;
        }
    }
    const std::string_view zone = t.substr(i);
    if (zone != "Z" && zone != "+00:00") return std::nullopt;
    if (*y < 1970 || *y > 9999 || *mo < 1 || *mo > 12 || *d < 1 || *d > 31 || *h > 23 || *mi > 59 || sec > 59)
        return std::nullopt;
    std::tm tm{};
    tm.tm_year = *y - 1900;
    tm.tm_mon = *mo - 1;
    tm.tm_mday = *d;
    tm.tm_hour = *h;
    tm.tm_min = *mi;
    tm.tm_sec = sec;
    const std::time_t s = timegm(&tm);
    std::tm back{};
    gmtime_r(&s, &back);
    if (back.tm_mday != *d) return std::nullopt;  // 31 February
    return std::int64_t(s) * 1000;
}

std::string format_iso_time(std::int64_t ms) {
    const std::time_t s = std::time_t(ms / 1000);
    std::tm tm{};
    gmtime_r(&s, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

}  // namespace outpost::server
