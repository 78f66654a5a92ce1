// Outpost — TRF reader and writer. Column numbers below are the format's, 1-based.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "club/trf.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace outpost::club {

namespace {

// The round blocks: round 1 at columns 92-99, then every 10 columns.
constexpr int FirstRoundColumn = 92;
constexpr int RoundStride = 10;
constexpr int MaxRounds = 99;

std::string field(std::string_view line, int column, int length) {
    std::size_t start = static_cast<std::size_t>(column - 1);
    if (start >= line.size()) return std::string(static_cast<std::size_t>(length), ' ');
    std::string s(line.substr(start, static_cast<std::size_t>(length)));
    s.resize(static_cast<std::size_t>(length), ' ');
    return s;
}

std::string trim(std::string_view s) {
    std::size_t b = s.find_first_not_of(" \t");
    if (b == std::string_view::npos) return "";
    std::size_t e = s.find_last_not_of(" \t");
    return std::string(s.substr(b, e - b + 1));
}

Error where(int line, std::string_view what, int column, int length, std::string_view message) {
    std::string cols = length > 1 ? "columns " + std::to_string(column) + "-" + std::to_string(column + length - 1)
                                  : "column " + std::to_string(column);
    return make_error("line " + std::to_string(line) + ", " + std::string(what) + " (" + cols + "): " +
                      std::string(message));
}

// A non-negative integer field; blank gives `blank`.
std::optional<int> parse_int(const std::string& text, int blank) {
    std::string t = trim(text);
    if (t.empty()) return blank;
    if (t.size() > 9 || !std::all_of(t.begin(), t.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
        return std::nullopt;
    return std::stoi(t);
}

// Points like "11.5", "4", "3.0" (a comma is accepted as the decimal mark).
std::optional<double> parse_points(const std::string& text) {
    std::string t = trim(text);
    if (t.empty()) return 0.0;
    int whole = 0, tenths = 0;
    std::size_t i = 0;
    bool digits = false;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) whole = whole * 10 + (t[i++] - '0'), digits = true;
    if (i < t.size() && (t[i] == '.' || t[i] == ',')) {
        ++i;
        if (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) tenths = t[i++] - '0', digits = true;
        while (i < t.size() && t[i] == '0') ++i;
    }
    if (!digits || i != t.size()) return std::nullopt;
    return whole + tenths / 10.0;
}

Error player_line_error(int line, int round, std::string_view part, int column, int length, std::string_view msg) {
    return where(line, "round " + std::to_string(round) + " " + std::string(part), column, length, msg);
}

Result<Player> read_player(std::string_view line, int n) {
    Player p;
    auto rank = parse_int(field(line, 5, 4), -1);
    if (!rank || *rank <= 0)
        return where(n, "starting rank", 5, 4, "'" + trim(field(line, 5, 4)) + "' is not a number from 1 to 9999");
    p.start_rank = *rank;
    p.sex = field(line, 10, 1)[0];
    p.title = trim(field(line, 11, 3));
    p.name = trim(field(line, 15, 33));
    auto rating = parse_int(field(line, 49, 4), 0);
    if (!rating) return where(n, "rating", 49, 4, "'" + trim(field(line, 49, 4)) + "' is not a number");
    p.rating = *rating;
    p.federation = trim(field(line, 54, 3));
    p.fide_id = trim(field(line, 58, 11));
    p.birth_date = trim(field(line, 70, 10));
    auto points = parse_points(field(line, 81, 4));
    if (!points) return where(n, "points", 81, 4, "'" + trim(field(line, 81, 4)) + "' is not a score like 4.5");
    p.points = *points;
    auto place = parse_int(field(line, 86, 4), 0);
    if (!place) return where(n, "rank", 86, 4, "'" + trim(field(line, 86, 4)) + "' is not a number");
    p.rank = *place;

    for (int r = 1; FirstRoundColumn - 1 + (r - 1) * RoundStride < static_cast<int>(line.size()); ++r) {
        int col = FirstRoundColumn + (r - 1) * RoundStride;
        if (r > MaxRounds) return where(n, "rounds", col, 1, "more than 99 rounds");
        RoundEntry e;
        std::string opp = field(line, col, 4);
        auto o = parse_int(opp, 0);
        if (!o) return player_line_error(n, r, "opponent", col, 4, "'" + trim(opp) + "' is not a starting rank");
        e.opponent = *o;
        char colour = field(line, col + 5, 1)[0];
        switch (std::tolower(static_cast<unsigned char>(colour))) {
            case 'w': e.colour = Colour::WHITE; break;
            case 'b': e.colour = Colour::BLACK; break;
            case '-':
            case ' ': e.colour = Colour::NONE; break;
            default:
                return player_line_error(n, r, "colour", col + 5, 1, std::string("'") + colour + "' is not w, b or -");
        }
        char code = field(line, col + 7, 1)[0];
        auto rc = result_code_from_char(code);
        if (!rc)
            return player_line_error(n, r, "result", col + 7, 1,
                                     std::string("'") + code + "' is not a result code (1 = 0 + - W D L H F U Z)");
        e.result = *rc;
        std::string gaps = field(line, col + 4, 1) + field(line, col + 6, 1);
        if (gaps != "  ")
            return player_line_error(n, r, "field", col, 8,
                                     "'" + field(line, col, 8) + "' is not 'OOOO C R' (opponent, colour, result)");
        if (e.opponent != 0 && e.colour == Colour::NONE)
            return player_line_error(n, r, "colour", col + 5, 1, "a game against " + std::to_string(e.opponent) + " needs w or b");
        if (e.opponent == 0 && e.colour != Colour::NONE)
            return player_line_error(n, r, "colour", col + 5, 1, "a round without an opponent has colour -");
        if (e.opponent == 0) {
            switch (e.result) {
                case ResultCode::WIN: case ResultCode::DRAW: case ResultCode::LOSS:
                case ResultCode::WIN_UNRATED: case ResultCode::DRAW_UNRATED: case ResultCode::LOSS_UNRATED:
                    return player_line_error(n, r, "result", col + 7, 1,
                                             std::string("'") + code + "' needs an opponent (0000 is none)");
                default: break;
            }
        } else {
            switch (e.result) {
                case ResultCode::HALF_BYE: case ResultCode::FULL_BYE: case ResultCode::PAIRING_BYE:
                case ResultCode::ZERO_BYE:
                    return player_line_error(n, r, "result", col + 7, 1,
                                             std::string("'") + code + "' is a bye but the opponent is " +
                                                 std::to_string(e.opponent));
                default: break;
            }
        }
        p.rounds.push_back(e);
    }
    // Trailing empty rounds carry nothing.
    while (!p.rounds.empty() && p.rounds.back() == RoundEntry{}) p.rounds.pop_back();
    return p;
}

bool results_agree(ResultCode a, ResultCode b) {
    using R = ResultCode;
    switch (a) {
        case R::NONE: return b == R::NONE;
        case R::WIN: return b == R::LOSS;
        case R::LOSS: return b == R::WIN;
        case R::DRAW: return b == R::DRAW;
        case R::WIN_UNRATED: return b == R::LOSS_UNRATED;
        case R::LOSS_UNRATED: return b == R::WIN_UNRATED;
        case R::DRAW_UNRATED: return b == R::DRAW_UNRATED;
        case R::FORFEIT_WIN: return b == R::FORFEIT_LOSS;
        case R::FORFEIT_LOSS: return b == R::FORFEIT_WIN || b == R::FORFEIT_LOSS;
        default: return false;
    }
}

// Tag 162: a result letter at column 6, its points at 7-10, the next at 15, ...
Result<Scoring> read_scoring(std::string_view line, int n, Scoring s) {
    for (int col = 6; col <= static_cast<int>(line.size()); col += 9) {
        char code = field(line, col, 1)[0];
        if (code == ' ') continue;
        auto pts = parse_points(field(line, col + 1, 4));
        if (!pts) return where(n, "points of result " + std::string(1, code), col + 1, 4, "not a score like 1.0");
        switch (code) {
            case 'W': s.win = *pts; break;
            case 'D': s.draw = *pts; break;
            case 'L': s.loss = *pts; break;
            case 'A': s.absence = *pts; break;
            case 'P': s.pairing_bye = *pts; break;
            case 'X': break;  // unknown results: not used for pairing
            default: return where(n, "result code", col, 1, std::string("'") + code + "' is not W, D, L, A, P or X");
        }
    }
    return s;
}

std::string format_points(double p) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%4.1f", p);
    return buf;
}

}  // namespace

Result<Tournament> read_trf(std::string_view text) {
    Tournament t;
    std::map<int, int> line_of;  // starting rank -> line number
    int n = 0;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        // A line ends with CR (the FIDE TRF description; bbpPairings writes so),
        // CR LF or LF.
        std::size_t end = text.find_first_of("\r\n", pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        if (end + 1 < text.size() && text[end] == '\r' && text[end + 1] == '\n') ++pos;
        ++n;
        if (trim(line).empty()) {
            if (pos > text.size()) break;
            continue;
        }
        std::string tag(line.substr(0, std::min<std::size_t>(3, line.size())));
        if (tag == "001") {
            auto p = read_player(line, n);
            if (!p.ok()) return p.error();
            if (line_of.count(p->start_rank))
                return where(n, "starting rank", 5, 4,
                             std::to_string(p->start_rank) + " is already used on line " +
                                 std::to_string(line_of[p->start_rank]));
            line_of[p->start_rank] = n;
            t.players.push_back(std::move(*p));
        } else if (tag == "012") {
            t.name = trim(line.size() > 4 ? line.substr(4) : std::string_view{});
        } else if (tag == "XXR" || tag == "142") {
            std::string v = trim(line.substr(3));
            auto r = parse_int(v, -1);
            if (!r || *r <= 0 || *r > MaxRounds)
                return where(n, tag == "XXR" ? "XXR number of rounds" : "142 number of rounds", 5,
                             static_cast<int>(std::max<std::size_t>(1, line.size() >= 5 ? line.size() - 4 : 1)),
                             "'" + v + "' is not a number of rounds from 1 to 99");
            t.total_rounds = *r;
        } else if (tag == "XXC") {
            std::string v = trim(line.substr(3));
            std::string lower;
            for (char c : v) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            if (lower.rfind("white1", 0) == 0) t.initial_colour = Colour::WHITE;
            else if (lower.rfind("black1", 0) == 0) t.initial_colour = Colour::BLACK;
            else if (lower.rfind("rank", 0) != 0)
                return where(n, "XXC initial colour", 5, 6, "'" + v + "' is not white1 or black1");
        } else if (tag == "152") {
            std::string v = trim(line.substr(3));
            if (v == "W" || v == "w") t.initial_colour = Colour::WHITE;
            else if (v == "B" || v == "b") t.initial_colour = Colour::BLACK;
            else return where(n, "152 initial colour", 5, 1, "'" + v + "' is not W or B");
        } else if (tag == "162") {
            auto s = read_scoring(line, n, t.scoring);
            if (!s.ok()) return s.error();
            t.scoring = *s;
            t.other_lines.emplace_back(line);
        } else {
            t.other_lines.emplace_back(line);
        }
        if (pos > text.size()) break;
    }
    if (t.players.empty()) return make_error("no player lines (001) in the file");

    // Both entries of every pairing agree.
    for (const Player& p : t.players) {
        int ln = line_of[p.start_rank];
        for (std::size_t i = 0; i < p.rounds.size(); ++i) {
            const RoundEntry& e = p.rounds[i];
            int r = static_cast<int>(i) + 1;
            int col = FirstRoundColumn + static_cast<int>(i) * RoundStride;
            if (e.opponent == 0) continue;
            if (e.opponent == p.start_rank)
                return player_line_error(ln, r, "opponent", col, 4, "a player cannot meet themself");
            const Player* o = t.find(e.opponent);
            if (!o)
                return player_line_error(ln, r, "opponent", col, 4,
                                         "no player has starting rank " + std::to_string(e.opponent));
            RoundEntry back = o->round(r);
            if (back.opponent != p.start_rank)
                return player_line_error(ln, r, "opponent", col, 4,
                                         "player " + std::to_string(o->start_rank) + " (line " +
                                             std::to_string(line_of[o->start_rank]) + ") has " +
                                             (back.opponent ? "opponent " + std::to_string(back.opponent)
                                                            : std::string("no opponent")) +
                                             " in that round");
            if (back.colour == e.colour)
                return player_line_error(ln, r, "colour", col + 5, 1,
                                         "player " + std::to_string(o->start_rank) + " has the same colour");
            if (!results_agree(e.result, back.result))
                return player_line_error(ln, r, "result", col + 7, 1,
                                         std::string("'") + result_code_char(e.result) + "' against '" +
                                             result_code_char(back.result) + "' of player " +
                                             std::to_string(o->start_rank) + " do not agree");
        }
    }
    return t;
}

std::string write_trf(const Tournament& t, TrfFlavour flavour) {
    std::string out;
    if (!t.name.empty()) out += "012 " + t.name + "\n";
    for (const std::string& line : t.other_lines) out += line + "\n";
    if (flavour == TrfFlavour::TRF26) {
        if (t.total_rounds > 0) out += "142 " + std::to_string(t.total_rounds) + "\n";
        if (t.initial_colour != Colour::NONE) out += std::string("152 ") + (t.initial_colour == Colour::WHITE ? "W" : "B") + "\n";
    }
    for (const Player& p : t.players) {
        char buf[128];
        std::snprintf(buf, sizeof buf, "001 %4d %c%-3.3s %-33.33s %4d %-3.3s %11.11s %-10.10s %4s %4d", p.start_rank,
                      p.sex == 0 ? ' ' : p.sex, p.title.c_str(), p.name.c_str(), p.rating, p.federation.c_str(),
                      p.fide_id.c_str(), p.birth_date.c_str(), format_points(p.points).c_str(), p.rank);
        std::string line = buf;
        for (const RoundEntry& e : p.rounds) {
            char c = e.colour == Colour::WHITE ? 'w' : e.colour == Colour::BLACK ? 'b' : '-';
            char r[16];
            if (e.opponent == 0) std::snprintf(r, sizeof r, "  0000 %c %c", c, result_code_char(e.result));
            else std::snprintf(r, sizeof r, "  %4d %c %c", e.opponent, c, result_code_char(e.result));
            line += r;
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line + "\n";
    }
    if (flavour == TrfFlavour::TRFX) {
        if (t.total_rounds > 0) out += "XXR " + std::to_string(t.total_rounds) + "\n";
        if (t.initial_colour != Colour::NONE) out += std::string("XXC ") + (t.initial_colour == Colour::WHITE ? "white1" : "black1") + "\n";
    }
    return out;
}

}  // namespace outpost::club
