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
