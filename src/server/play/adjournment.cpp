// Outpost — adjourned games on the server (SPEC R18, P19).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/play/adjournment.h"

#include <ctime>
#include <nlohmann/json.hpp>

namespace outpost::server {

using nlohmann::json;

namespace {

std::optional<Color> color_of(const json& j) {
    if (!j.is_string()) return std::nullopt;
    if (j == "white") return WHITE;
    if (j == "black") return BLACK;
    return std::nullopt;
}

json color_json(std::optional<Color> c) {
    if (!c) return nullptr;
    return *c == WHITE ? "white" : "black";
}

std::string clock_text(std::int64_t ms) {
    if (ms < 0) ms = 0;
    const std::int64_t s = ms / 1000;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", (long long)(s / 3600), (long long)(s / 60 % 60), (long long)(s % 60));
    return buf;
}

}  // namespace

std::string adjournment_to_json(const AdjournState& a) {
    const Adjournment& e = a.envelope;
    json j = {{"white", e.white},
              {"black", e.black},
              {"fen", e.fen_before_sealed_move},
              {"white_ms", e.white_ms},
              {"black_ms", e.black_ms},
              {"sealed_by", color_json(e.sealed_by)},
              {"move_number", e.move_number},
              {"sealed_move", e.sealed_move},
              {"draw_offer", color_json(e.standing_draw_offer)},
              {"ply", a.ply},
              {"sealed_at", a.sealed_at_ms},
              {"resume_at", a.resume_at_ms},
              {"proposal_by", color_json(a.proposal_by)},
              {"proposal_at", a.proposal_at_ms},
              {"resumed_at", a.resumed_at_ms},
              {"played", a.sealed_move_played}};
    return j.dump();
}

Result<AdjournState> adjournment_from_json(std::string_view text) {
    json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return make_error("adjournment record: not a JSON object");
    try {
        AdjournState a;
        Adjournment& e = a.envelope;
        e.white = j.at("white").get<std::string>();
        e.black = j.at("black").get<std::string>();
        e.fen_before_sealed_move = j.at("fen").get<std::string>();
        e.white_ms = j.at("white_ms").get<std::int64_t>();
        e.black_ms = j.at("black_ms").get<std::int64_t>();
        auto by = color_of(j.at("sealed_by"));
        if (!by) return make_error("adjournment record: sealed_by must be white or black");
        e.sealed_by = *by;
        e.move_number = j.at("move_number").get<int>();
        e.sealed_move = j.at("sealed_move").get<std::string>();
        e.standing_draw_offer = color_of(j.at("draw_offer"));
        a.ply = j.at("ply").get<int>();
        a.sealed_at_ms = j.at("sealed_at").get<std::int64_t>();
        a.resume_at_ms = j.at("resume_at").get<std::int64_t>();
        a.proposal_by = color_of(j.at("proposal_by"));
        a.proposal_at_ms = j.at("proposal_at").get<std::int64_t>();
        a.resumed_at_ms = j.at("resumed_at").get<std::int64_t>();
        a.sealed_move_played = j.at("played").get<bool>();
        return a;
    } catch (const json::exception& ex) {
        return make_error(std::string("adjournment record: ") + ex.what());
    }
}

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

std::string envelope_comment(const AdjournState& a) {
    const Adjournment& e = a.envelope;
    const char* by = e.sealed_by == WHITE ? "White" : "Black";
    std::string s = "Adjourned at move " + std::to_string(e.move_number) + ": " + by + " (" +
                    (e.sealed_by == WHITE ? e.white : e.black) + ") sealed " + e.sealed_move + " at " +
                    format_iso_time(a.sealed_at_ms) + ". Position: " + e.fen_before_sealed_move + ". Clocks: White " +
                    clock_text(e.white_ms) + ", Black " + clock_text(e.black_ms) + ".";
    if (e.standing_draw_offer) s += std::string(" Draw offer standing by ") + (*e.standing_draw_offer == WHITE ? "White" : "Black") + ".";
    s += " Resumed at " + format_iso_time(a.resumed_at_ms) + (a.sealed_move_played ? "." : ": the sealed move was illegal or ambiguous.");
    // A PGN comment ends at '}': the envelope's text never closes it early.
    for (char& c : s)
        if (c == '}' || c == '{') c = ' ';
    return s;
}

}  // namespace outpost::server
