// Outpost — the log's lines.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/observe/log.h"

#include <unistd.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>

namespace outpost::server {
namespace {

std::atomic<LogLevel> g_level{LogLevel::INFO};
std::atomic<LogFormat> g_format{LogFormat::TEXT};

std::string iso_time(std::int64_t unix_ms) {
    const std::time_t secs = std::time_t(unix_ms / 1000);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                  tm.tm_hour, tm.tm_min, tm.tm_sec, int(unix_ms % 1000));
    return buf;
}

// A text value: bare when it is one plain word, else in quotes with C escapes, so
// that a value can never start a line or a field of its own.
void append_text_value(std::string& out, std::string_view v) {
    bool plain = !v.empty();
    for (unsigned char c : v)
        if (c <= ' ' || c == '"' || c == '\\' || c == '=' || c >= 0x7f) plain = false;
    if (plain) {
        out += v;
        return;
    }
    out += '"';
    for (unsigned char c : v) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += char(c);
        } else if (c == '\n') out += "\\n";
        else if (c < ' ' || c == 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else out += char(c);
    }
    out += '"';
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// A parameter's name as the server reads it (percent-decoded: "se%61t" is "seat"),
// in lower case.
std::string decoded_name(std::string_view s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if (c == '%' && i + 2 < s.size() && hex_digit(s[i + 1]) >= 0 && hex_digit(s[i + 2]) >= 0) {
            c = char(hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2]));
            i += 2;
        }
        out += char(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

bool is_secret_parameter(std::string_view raw_name) {
    const std::string name = decoded_name(raw_name);
    // seat: a player's seat token (docs/protocol.md); key: a simul's host key; token,
    // invite, password, session: never sent in a URL by the web UI, redacted in case.
    for (std::string_view s : {"seat", "token", "key", "invite", "password", "session", "secret"})
        if (name == s) return true;
    return false;
}

}  // namespace

std::optional<LogLevel> parse_log_level(std::string_view s) {
    if (s == "debug") return LogLevel::DEBUG;
    if (s == "info") return LogLevel::INFO;
    if (s == "warn") return LogLevel::WARN;
    if (s == "error") return LogLevel::ERROR;
    return std::nullopt;
}

std::optional<LogFormat> parse_log_format(std::string_view s) {
    if (s == "text") return LogFormat::TEXT;
    if (s == "json") return LogFormat::JSON;
    return std::nullopt;
}

std::string_view log_level_name(LogLevel l) {
    switch (l) {
        case LogLevel::DEBUG: return "debug";
        case LogLevel::INFO: return "info";
        case LogLevel::WARN: return "warn";
        case LogLevel::ERROR: return "error";
    }
    return "info";
}

void configure_log(LogLevel level, LogFormat format) {
    g_level = level;
    g_format = format;
}

bool log_enabled(LogLevel level) { return int(level) >= int(g_level.load(std::memory_order_relaxed)); }

std::string format_log_line(LogFormat format, std::int64_t unix_ms, LogLevel level, std::string_view msg,
                            const std::vector<LogField>& fields) {
    if (format == LogFormat::JSON) {
        nlohmann::ordered_json j;
        j["ts"] = iso_time(unix_ms);
        j["level"] = log_level_name(level);
        j["msg"] = msg;
        for (const LogField& f : fields) {
            if (f.key == "ts" || f.key == "level" || f.key == "msg") continue;
            std::visit([&](const auto& v) { j[f.key] = v; }, f.value);
        }
        return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    }
    std::string out = iso_time(unix_ms);
    out += ' ';
    std::string upper(log_level_name(level));
    for (char& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
    out += upper;
    out += ' ';
    append_text_value(out, msg);
    for (const LogField& f : fields) {
        out += ' ';
        out += f.key;
        out += '=';
        if (const auto* s = std::get_if<std::string>(&f.value)) append_text_value(out, *s);
        else if (const auto* i = std::get_if<std::int64_t>(&f.value)) out += std::to_string(*i);
        else {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.3f", std::get<double>(f.value));
            out += buf;
        }
    }
    out += '\n';
    return out;
}

void log_event(LogLevel level, std::string_view msg, const std::vector<LogField>& fields) {
    if (!log_enabled(level)) return;
    const std::int64_t now =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    const std::string line = format_log_line(g_format.load(std::memory_order_relaxed), now, level, msg, fields);
    size_t off = 0;
    while (off < line.size()) {
        const ssize_t n = ::write(STDERR_FILENO, line.data() + off, line.size() - off);
        if (n <= 0) break;  // a closed or full standard error loses the line, not the server
        off += size_t(n);
    }
}

std::string redact_target(std::string_view target) {
    const size_t q = target.find('?');
    if (q == std::string_view::npos) return std::string(target);
    std::string out(target.substr(0, q + 1));
    std::string_view rest = target.substr(q + 1);
    bool first = true;
    while (true) {
        const size_t amp = rest.find('&');
        const std::string_view pair = rest.substr(0, amp);
        const size_t eq = pair.find('=');
        const std::string_view name = pair.substr(0, eq);
        if (!first) out += '&';
        first = false;
        if (eq != std::string_view::npos && is_secret_parameter(name)) out.append(name).append("=REDACTED");
        else out += pair;
        if (amp == std::string_view::npos) break;
        rest = rest.substr(amp + 1);
    }
    return out;
}

}  // namespace outpost::server
