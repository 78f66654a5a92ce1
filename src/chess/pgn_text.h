// Outpost — the small text rules that PGN's reader and writer share (pgn.cpp,
// pgn_write.cpp): whitespace, collapsed comments, the names of variants. Internal to
// src/chess; not part of the library's interface.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace outpost::pgn_text {

// Export format: lines of at most 79 characters (PGN standard 8.2.6), so that a
// line and its newline fit in 80 columns.
inline constexpr std::size_t MaxLineLength = 79;

inline bool is_result(std::string_view s) { return s == "1-0" || s == "0-1" || s == "1/2-1/2" || s == "*"; }
inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Comments are stored with their whitespace collapsed, so that re-wrapping them on
// export does not change them on the next read.
inline std::string collapse_space(std::string_view s) {
    std::string out;
    bool gap = false;
    for (char c : s) {
        if (is_space(c)) {
            gap = !out.empty();
        } else {
            if (gap) out += ' ';
            gap = false;
            out += c;
        }
    }
    return out;
}

inline std::string lowercase_without_separators(std::string_view s) {
    std::string out;
    for (char c : s) {
        if (c == ' ' || c == '-' || c == '_') continue;
        out += (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
    }
    return out;
}

inline bool is_chess960_variant(std::string_view name) {
    const std::string v = lowercase_without_separators(name);
    return v == "chess960" || v == "fischerandom" || v == "fischerrandom" || v == "960";
}

inline bool is_standard_variant(std::string_view name) {
    const std::string v = lowercase_without_separators(name);
    return v.empty() || v == "standard" || v == "chess" || v == "normal" || v == "fromposition";
}

}  // namespace outpost::pgn_text
