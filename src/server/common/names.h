// Outpost — the one rule for every name people read (issue 25 item 10): a player's
// name, an event's, a simul's. Unicode letters, marks and digits, plain spaces and a
// few punctuation marks; no controls, no bidirectional or invisible characters, no
// other separators; its length counted in characters (code points), not bytes.
// docs/protocol.md, "Names", says the rule; every error names the field and, for a
// refused character, its code point and the character's place (1-based).
// (Header-only: a server library's sources are compiled in unity batches.)
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

#include "server/common/protocol.h"

namespace outpost::server {

// The punctuation a name may hold besides letters, marks, digits and spaces.
inline constexpr std::string_view NamePunctuation = "'-.,_()&:#!?+/";

namespace names_detail {

struct Range {
    char32_t from, to;
};

// Refused outside ASCII. Without the Unicode database we refuse by block: what a
// name cannot need (symbols, pictographs, box drawing) and every character that is
// invisible or changes how the text around it is shown (the bidirectional
// embeddings, overrides and isolates, zero-width characters, byte-order marks,
// fillers, tags, variation selectors), every space but U+0020, and private use.
inline constexpr Range Refused[] = {
    {0x0080, 0x009F},   // C1 controls
    {0x00A0, 0x00B6},   // no-break space, Latin-1 punctuation and symbols (¡ © « …); the middle dot is Catalan's
    {0x00B8, 0x00BF},
    {0x00D7, 0x00D7},   // ×
    {0x00F7, 0x00F7},   // ÷
    {0x034F, 0x034F},   // combining grapheme joiner (invisible)
    {0x0600, 0x0605},   // Arabic number signs (format)
    {0x061C, 0x061C},   // Arabic letter mark (bidi)
    {0x06DD, 0x06DD},   // Arabic end of ayah (format)
    {0x070F, 0x070F},   // Syriac abbreviation mark (format)
    {0x0890, 0x0891},   // Arabic pound and piastre marks above (format)
    {0x08E2, 0x08E2},   // Arabic disputed end of ayah (format)
    {0x115F, 0x1160},   // Hangul fillers (invisible)
    {0x1680, 0x1680},   // Ogham space mark
    {0x17B4, 0x17B5},   // Khmer inherent vowels (invisible)
    {0x180B, 0x180F},   // Mongolian variation selectors and vowel separator
    // General Punctuation: spaces, zero-width characters, bidi controls, the line and
    // paragraph separators, invisible operators; only the hyphens and the typographic
    // apostrophes (a phone writes O’Brien) pass.
    {0x2000, 0x200F},
    {0x2012, 0x2017},
    {0x201A, 0x206F},
    {0x2070, 0x209F},   // super- and subscripts
    {0x20A0, 0x20CF},   // currency symbols
    {0x20D0, 0x20FF},   // combining marks for symbols
    {0x2100, 0x214F},   // letterlike symbols
    {0x2150, 0x218F},   // number forms
    {0x2190, 0x2BFF},   // arrows, mathematical and technical symbols, boxes, shapes, dingbats
    {0x2E00, 0x2E7F},   // supplemental punctuation
    {0x3000, 0x3000},   // ideographic space
    {0x3164, 0x3164},   // Hangul filler
    {0xD800, 0xDFFF},   // surrogates (never valid UTF-8 anyway)
    {0xE000, 0xF8FF},   // private use
    {0xFDD0, 0xFDEF},   // noncharacters
    {0xFE00, 0xFE0F},   // variation selectors
    {0xFE10, 0xFE1F},   // vertical forms
    {0xFE30, 0xFE6F},   // compatibility and small forms (punctuation)
    {0xFEFF, 0xFEFF},   // byte-order mark / zero-width no-break space
    {0xFFA0, 0xFFA0},   // halfwidth Hangul filler
    {0xFFF0, 0xFFFF},   // specials (interlinear annotation, replacement character, noncharacters)
    {0x1D000, 0x1D24F}, // musical symbols (with their invisible format characters)
    {0x1F000, 0x1FAFF}, // mahjong, domino, playing cards, emoji, pictographs
    {0xE0000, 0xE0FFF}, // tags and variation selectors supplement
    {0xF0000, 0x10FFFF},  // supplementary private use
};

inline bool ascii_allowed(char c) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == ' ') return true;
    return NamePunctuation.find(c) != std::string_view::npos;
}

// The refused characters that do not show (said so in the error): controls, the
// bidirectional controls, zero-width and format characters, separators but the space.
inline bool invisible(char32_t cp) {
    return cp < 0x20 || (cp >= 0x7F && cp <= 0xA0) || cp == 0x00AD || cp == 0x034F || cp == 0x061C || cp == 0x115F ||
           cp == 0x1160 || cp == 0x1680 || (cp >= 0x180B && cp <= 0x180F) || (cp >= 0x2000 && cp <= 0x200F) ||
           (cp >= 0x2028 && cp <= 0x202F) || (cp >= 0x205F && cp <= 0x206F) || cp == 0x3000 || cp == 0x3164 ||
           (cp >= 0xFE00 && cp <= 0xFE0F) || cp == 0xFEFF || cp == 0xFFA0 || (cp >= 0xFFF9 && cp <= 0xFFFB) ||
           (cp >= 0xE0000 && cp <= 0xE0FFF);
}

inline std::string code_point(char32_t cp) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "U+%04X", unsigned(cp));
    return hex;
}

}  // namespace names_detail

// Whether one code point outside ASCII may be part of a name (the rule without
// Unicode tables: every invisible, format, separator, private-use and symbol block
// refused; what remains is letters, marks and digits of the world's scripts).
inline bool name_code_point_allowed(char32_t cp) {
    using namespace names_detail;
    if (cp < 0x80) return ascii_allowed(char(cp));
    if ((cp & 0xFFFE) == 0xFFFE) return false;  // the noncharacters at the end of every plane
    for (const Range& r : Refused)
        if (cp >= r.from && cp <= r.to) return false;
    return true;
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
