// Outpost — the free text of the admin room (SPEC D9): a report's reason, an arbiter's
// reason. Valid UTF-8 of 1 to `max_chars` characters, without control, bidirectional
// or invisible characters (U+0000-001F, U+007F-009F, U+200B-200F, U+2028-202E,
// U+2066-2069, U+FEFF): what an admin reads is what was written. Braces become
// parentheses, so that the text can stand in a PGN comment.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "chess/result.h"

namespace outpost::server::admin_text {

// The text as it is kept, or an error that says what is wrong with it.
inline Result<std::string> clean(std::string_view text, std::size_t max_chars, const std::string& what) {
    std::string out;
    std::size_t chars = 0;
    for (std::size_t i = 0; i < text.size();) {
        const auto b = static_cast<unsigned char>(text[i]);
        const int len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xe ? 3 : (b >> 3) == 0x1e ? 4 : 0;
        if (len == 0 || i + std::size_t(len) > text.size()) return make_error(what + ": not valid UTF-8");
        std::uint32_t cp = len == 1 ? b : len == 2 ? (b & 0x1f) : len == 3 ? (b & 0x0f) : (b & 0x07);
        for (int k = 1; k < len; ++k) {
            const auto c = static_cast<unsigned char>(text[i + std::size_t(k)]);
            if ((c >> 6) != 0x2) return make_error(what + ": not valid UTF-8");
            cp = (cp << 6) | (c & 0x3f);
        }
        const bool invisible = cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || (cp >= 0x200b && cp <= 0x200f) ||
                               (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfeff;
        if (invisible) return make_error(what + ": control, bidirectional and invisible characters are not allowed");
        if (cp == '{') out += '(';
        else if (cp == '}') out += ')';
        else out.append(text.substr(i, std::size_t(len)));
        ++chars;
        i += std::size_t(len);
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    while (!out.empty() && out.front() == ' ') out.erase(out.begin());
    if (out.empty()) return make_error(what + ": write a few words");
    if (chars > max_chars) return make_error(what + ": at most " + std::to_string(max_chars) + " characters");
    return out;
}

}  // namespace outpost::server::admin_text
