// Outpost — the one rule for every name people read (issue 25 item 10): a player's
// name, an event's, a simul's. Unicode letters, marks and digits, plain spaces and a
// few punctuation marks; no controls, no bidirectional or invisible characters, no
// other separators; its length counted in characters (code points), not bytes.
// docs/protocol.md, "Names", says the rule; every error names the field and, for a
// refused character, its code point and the character's place (1-based).
// The categories come from ICU (Debian's libicu), the Unicode tables the field uses, so
// that an unassigned code point is refused and a script added to Unicode is read right.
// (Header-only: a server library's sources are compiled in unity batches.)
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <unicode/uchar.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "server/common/protocol.h"

namespace outpost::server {

// The punctuation a name may hold besides letters, marks, digits and spaces.
inline constexpr std::string_view NamePunctuation = "'-.,_()&:#!?+/";

namespace names_detail {

// Outside ASCII, the few punctuation marks names are written with: the middle dot
// (Catalan's l·l), the hyphen and non-breaking hyphen, the typographic apostrophes (a
// phone writes O’Brien) and the katakana middle dot (a foreign name in Japanese,
// ジョン・スミス).
inline constexpr char32_t WidePunctuation[] = {0x00B7, 0x2010, 0x2011, 0x2018, 0x2019, 0x30FB};

inline bool ascii_allowed(char c) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == ' ') return true;
    return NamePunctuation.find(c) != std::string_view::npos;
}

// The refused characters that do not show (said so in the error): controls, format
// characters (the bidirectional ones among them), separators but U+0020, and every
// default-ignorable code point (zero-width characters, fillers, variation selectors).
inline bool invisible(char32_t cp) {
    const auto type = UCharCategory(u_charType(UChar32(cp)));
    return type == U_CONTROL_CHAR || type == U_FORMAT_CHAR || type == U_SPACE_SEPARATOR ||
           type == U_LINE_SEPARATOR || type == U_PARAGRAPH_SEPARATOR ||
           u_hasBinaryProperty(UChar32(cp), UCHAR_DEFAULT_IGNORABLE_CODE_POINT);
}

inline std::string code_point(char32_t cp) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "U+%04X", unsigned(cp));
    return hex;
}

}  // namespace names_detail

// Whether one code point outside ASCII may be part of a name, by its Unicode general
// category as ICU's tables give it (issue 25): letters (L*), marks (M*) and decimal
// digits (Nd) of every script, and the punctuation of WidePunctuation. Refused: every
// other category — controls (Cc), format characters (Cf, the bidirectional controls
// among them), unassigned code points (Cn), private use (Co), surrogates (Cs), the
// line and paragraph separators (Zl, Zp), spaces other than U+0020 (Zs), symbols,
// other punctuation and numbers (Roman numerals, superscripts) — and every
// default-ignorable code point, which some letters and marks are (the Hangul fillers,
// the variation selectors, the combining grapheme joiner: invisible).
inline bool name_code_point_allowed(char32_t cp) {
    using namespace names_detail;
    if (cp < 0x80) return ascii_allowed(char(cp));
    if (cp > 0x10FFFF) return false;
    for (char32_t p : WidePunctuation)
        if (cp == p) return true;
    if (u_hasBinaryProperty(UChar32(cp), UCHAR_DEFAULT_IGNORABLE_CODE_POINT)) return false;
    const std::int32_t mask = U_MASK(u_charType(UChar32(cp)));
    return (mask & (U_GC_L_MASK | U_GC_M_MASK | U_GC_ND_MASK)) != 0;
}

// Reads a name: spaces and tabs around it are dropped, then it must be 1 to
// `max_chars` characters of the rule above. Errors: code `bad_name` (HTTP 400).
inline Answer<std::string> read_name(std::string_view text, std::string_view field, std::size_t max_chars) {
    using namespace names_detail;
    const std::string f(field);
    const auto bad_name = [](std::string message) { return ProtocolError{"bad_name", std::move(message), 400}; };
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    if (text.empty()) return bad_name(f + " is empty");
    std::size_t chars = 0;
    for (size_t i = 0; i < text.size();) {
        const auto b = static_cast<unsigned char>(text[i]);
        const int n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
        if (n == 0 || i + size_t(n) > text.size())
            return bad_name(f + " is not valid UTF-8 (byte " + std::to_string(i + 1) + ")");
        char32_t cp = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
        for (int k = 1; k < n; ++k) {
            const auto c = static_cast<unsigned char>(text[i + size_t(k)]);
            if ((c >> 6) != 2) return bad_name(f + " is not valid UTF-8 (byte " + std::to_string(i + size_t(k) + 1) + ")");
            cp = (cp << 6) | (c & 0x3F);
        }
        const char32_t min[] = {0, 0, 0x80, 0x800, 0x10000};
        if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return bad_name(f + " is not valid UTF-8 (byte " + std::to_string(i + 1) + ")");
        ++chars;
        if (!name_code_point_allowed(cp)) {
            if (invisible(cp))
                return bad_name(f + " contains an invisible or control character (" + code_point(cp) + ") at character " +
                                std::to_string(chars));
            return bad_name(f + " may hold only letters, marks, digits, spaces and " + std::string(NamePunctuation) +
                            "; character " + std::to_string(chars) + " (" + code_point(cp) + ") is not one");
        }
        i += size_t(n);
    }
    if (chars > max_chars)
        return bad_name(f + " is longer than " + std::to_string(max_chars) + " characters (" + std::to_string(chars) + ")");
    return std::string(text);
}

}  // namespace outpost::server
