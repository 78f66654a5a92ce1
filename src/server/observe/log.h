// Outpost — the server's log (issue 27 item 4): one line per event on standard error,
// as text for a person or as JSON for a log collector (`--log-format text|json`), from
// a level on (`--log-level debug|info|warn|error`).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Secrets never reach a line: callers log no body, cookie or header, and a request's
// target goes through redact_target(), which blanks the values of the query parameters
// that carry a seat's token or a key (seat=, token=, key=, and a few more).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace outpost::server {

enum class LogLevel { DEBUG, INFO, WARN, ERROR };
enum class LogFormat { TEXT, JSON };

std::optional<LogLevel> parse_log_level(std::string_view s);
std::optional<LogFormat> parse_log_format(std::string_view s);
std::string_view log_level_name(LogLevel l);

// Set once at start, before the server's threads (the default: text, from info on).
void configure_log(LogLevel level, LogFormat format);
bool log_enabled(LogLevel level);

struct LogField {
    std::string key;
    std::variant<std::string, std::int64_t, double> value;
    LogField(std::string k, std::string v) : key(std::move(k)), value(std::move(v)) {}
    LogField(std::string k, const char* v) : key(std::move(k)), value(std::string(v)) {}
    LogField(std::string k, std::string_view v) : key(std::move(k)), value(std::string(v)) {}
    LogField(std::string k, std::int64_t v) : key(std::move(k)), value(v) {}
    LogField(std::string k, int v) : key(std::move(k)), value(std::int64_t(v)) {}
    LogField(std::string k, double v) : key(std::move(k)), value(v) {}
};

// One line: ts (UTC, milliseconds), level, msg, then the fields in their order. The
// line is written with one write(2), so lines of several threads never mix.
void log_event(LogLevel level, std::string_view msg, const std::vector<LogField>& fields = {});

// The line log_event writes (for tests), at a given time in ms since the epoch.
std::string format_log_line(LogFormat format, std::int64_t unix_ms, LogLevel level, std::string_view msg,
                            const std::vector<LogField>& fields);

// A request target fit for a log: the values of secret query parameters replaced by
// "REDACTED" (the parameter's name stays, to show what the request was).
std::string redact_target(std::string_view target);

}  // namespace outpost::server
