// Outpost — the one small JSON writer of every server message: keys, strings (any
// bytes in, always valid UTF-8 out), numbers and nesting, with no allocation beyond
// the output string. Shared by the protocol's messages (common/protocol.cpp) and the
// game states (play/state_json.cpp).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace outpost::server {

// --- Writing: one small JSON writer for every server message ----------------------

class JsonWriter {
public:
    explicit JsonWriter(size_t reserve = 256) { out_.reserve(reserve); }
    JsonWriter& key(std::string_view k) {
        comma();
        raw_str(k);
        out_ += ':';
        fresh_ = true;
        return *this;
    }
    JsonWriter& str(std::string_view s) {
        comma();
        raw_str(s);
        return *this;
    }
    JsonWriter& num(std::int64_t v) {
        comma();
        out_ += std::to_string(v);
        return *this;
    }
    JsonWriter& boolean(bool b) {
        comma();
        out_ += b ? "true" : "false";
        return *this;
    }
    JsonWriter& null() {
        comma();
        out_ += "null";
        return *this;
    }
    JsonWriter& str_or_null(const std::optional<std::string_view>& s) { return s ? str(*s) : null(); }
    JsonWriter& open(char c) {
        comma();
        out_ += c;
        fresh_ = true;
        return *this;
    }
    JsonWriter& close(char c) {
        out_ += c;
        fresh_ = false;
        return *this;
    }
    std::string take() { return std::move(out_); }

private:
    void comma() {
        if (!fresh_) out_ += ',';
        fresh_ = false;
    }
    // The length of the well-formed UTF-8 sequence at s[i], or 0 where there is none.
    static size_t utf8_length(std::string_view s, size_t i) {
        const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
        const unsigned char c = b(i);
        size_t n = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 0;
        if (n == 0 || i + n > s.size()) return 0;
        for (size_t k = 1; k < n; ++k)
            if ((b(i + k) & 0xC0) != 0x80) return 0;
        // Overlong forms, surrogates and code points above U+10FFFF are not UTF-8.
        if (n == 3 && ((c == 0xE0 && b(i + 1) < 0xA0) || (c == 0xED && b(i + 1) >= 0xA0))) return 0;
        if (n == 4 && ((c == 0xF0 && b(i + 1) < 0x90) || (c == 0xF4 && b(i + 1) >= 0x90))) return 0;
        return n;
    }
    // Messages quote input (a path, a move) that need not be UTF-8: a byte that does not
    // start a well-formed sequence is written as U+FFFD, so the answer is always JSON.
    void raw_str(std::string_view s) {
        out_ += '"';
        for (size_t i = 0; i < s.size(); ++i) {
            const char c = s[i];
            const auto u = static_cast<unsigned char>(c);
            if (u >= 0x80) {
                const size_t n = utf8_length(s, i);
                if (n == 0) {
                    out_ += "\\ufffd";
                } else {
                    out_.append(s.substr(i, n));
                    i += n - 1;
                }
            } else if (c == '"' || c == '\\') {
                out_ += '\\';
                out_ += c;
            } else if (u < 0x20) {
                static constexpr char Hex[] = "0123456789abcdef";
                out_ += "\\u00";
                out_ += Hex[u >> 4];
                out_ += Hex[u & 15];
            } else {
                out_ += c;
            }
        }
        out_ += '"';
    }
    std::string out_;
    bool fresh_ = true;
};

}  // namespace outpost::server
