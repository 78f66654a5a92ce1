// Outpost — puzzles in the lichess puzzle CSV (puzzle_csv.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "training/puzzle_csv.h"

#include <array>
#include <charconv>

#include "chess/fen.h"
#include "chess/uci.h"

namespace outpost::training {

namespace {

constexpr std::array<std::string_view, 10> Columns = {"PuzzleId", "FEN", "Moves", "Rating", "RatingDeviation",
                                                      "Popularity", "NbPlays", "Themes", "GameUrl", "OpeningTags"};
constexpr std::size_t MaxMoves = 64;   // the longest line lichess ships is under 40 plies
constexpr std::size_t MaxWords = 32;   // themes or opening tags
constexpr std::size_t MaxField = 512;  // any one field, in bytes

std::vector<std::string> split_words(std::string_view s) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && s[i] == ' ') ++i;
        std::size_t j = i;
        while (j < s.size() && s[j] != ' ') ++j;
        if (j > i) out.emplace_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

std::string join_words(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) {
        if (!out.empty()) out += ' ';
        out += w;
    }
    return out;
}

std::string quoted(std::string_view field) {
    if (field.find_first_of(",\"") == std::string_view::npos) return std::string(field);
    std::string out = "\"";
    for (char c : field) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
    return out;
}

// RFC 4180 fields of one line; an error says at which character a quote went wrong.
Result<std::vector<std::string>> split_fields(std::string_view line) {
    std::vector<std::string> fields(1);
    std::size_t i = 0;
    while (i <= line.size()) {
        std::string& f = fields.back();
        if (i < line.size() && line[i] == '"') {
            ++i;
            for (;;) {
                if (i >= line.size()) return make_error("a quoted field is not closed");
                if (line[i] == '"') {
                    if (i + 1 < line.size() && line[i + 1] == '"') {
                        f += '"';
                        i += 2;
                        continue;
                    }
                    ++i;
                    break;
                }
                f += line[i++];
            }
            if (i < line.size() && line[i] != ',')
                return make_error("character " + std::to_string(i + 1) + ": text after a closing quote");
        } else {
            while (i < line.size() && line[i] != ',') {
                if (line[i] == '"') return make_error("character " + std::to_string(i + 1) + ": a quote inside an unquoted field");
                f += line[i++];
            }
        }
        if (f.size() > MaxField) return make_error("field " + std::to_string(fields.size()) + " is longer than 512 bytes");
        if (i >= line.size()) break;
        ++i;  // the comma
        fields.emplace_back();
        if (fields.size() > Columns.size()) break;
    }
    return fields;
}

Result<int> read_int(std::string_view column, std::string_view s, int lo, int hi) {
    int v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || ec != std::errc() || p != s.data() + s.size())
        return make_error("column " + std::string(column) + ": '" + std::string(s) + "' is not a whole number");
    if (v < lo || v > hi)
        return make_error("column " + std::string(column) + ": " + std::to_string(v) + " is outside " +
                          std::to_string(lo) + ".." + std::to_string(hi));
    return v;
}

bool is_word(std::string_view w, bool allow_punct) {
    if (w.empty() || w.size() > 64) return false;
    for (char c : w) {
        const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!alnum && !(allow_punct && (c == '_' || c == '-'))) return false;
    }
    return true;
}

}  // namespace

std::string position_key(std::string_view fen) {
    std::string out;
    int spaces = 0;
    for (char c : fen) {
        if (c == ' ' && ++spaces == 4) break;
        out += c;
    }
    return out;
}

std::string_view puzzle_csv_header() {
    return "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags";
}

std::string to_csv_line(const Puzzle& p) {
    std::string out;
    out += quoted(p.id) + ',' + quoted(p.fen) + ',' + quoted(join_words(p.moves)) + ',';
    out += std::to_string(p.rating) + ',' + std::to_string(p.rating_deviation) + ',';
    out += std::to_string(p.popularity) + ',' + std::to_string(p.nb_plays) + ',';
    out += quoted(join_words(p.themes)) + ',' + quoted(p.game_url) + ',' + quoted(join_words(p.opening_tags));
    return out;
}

Result<bool> check_puzzle(const Puzzle& p) {
    if (p.id.empty() || p.id.size() > 32 || !is_word(p.id, true))
        return make_error("column PuzzleId: '" + p.id + "' is not 1-32 letters, digits, '_' or '-'");
    auto pos = position_from_fen(p.fen, false);
    if (!pos) return make_error("column FEN: " + pos.error().message);
    if (pos->is_chess960()) return make_error("column FEN: a Chess960 position (standard chess only)");
    if (p.moves.size() < 2 || p.moves.size() % 2 != 0)
        return make_error("column Moves: " + std::to_string(p.moves.size()) +
                          " moves; a puzzle is the opponent's move and the solver's answers, an even number of at least 2");
    if (p.moves.size() > MaxMoves) return make_error("column Moves: more than 64 moves");
    Position cur = *pos;
    for (std::size_t i = 0; i < p.moves.size(); ++i) {
        auto m = move_from_uci(cur, p.moves[i]);
        if (!m) return make_error("column Moves: move " + std::to_string(i + 1) + " '" + p.moves[i] + "': " + m.error().message);
        cur.do_move(*m);
    }
    if (p.rating < 0 || p.rating > 4000) return make_error("column Rating: outside 0..4000");
    if (p.rating_deviation < 0 || p.rating_deviation > 1000) return make_error("column RatingDeviation: outside 0..1000");
    if (p.popularity < -100 || p.popularity > 100) return make_error("column Popularity: outside -100..100");
    if (p.nb_plays < 0) return make_error("column NbPlays: negative");
    if (p.themes.size() > MaxWords || p.opening_tags.size() > MaxWords) return make_error("more than 32 themes or tags");
    for (const auto& t : p.themes)
        if (!is_word(t, false)) return make_error("column Themes: '" + t + "' is not a word of letters and digits");
    for (const auto& t : p.opening_tags)
        if (!is_word(t, true)) return make_error("column OpeningTags: '" + t + "' is not a word of letters, digits, '_' or '-'");
    for (char c : p.game_url)
        if (static_cast<unsigned char>(c) < 0x20) return make_error("column GameUrl: a control character");
    return true;
}

Result<std::optional<Puzzle>> parse_puzzle_csv_line(std::string_view line, std::size_t line_no) {
    const std::string where = "line " + std::to_string(line_no) + ": ";
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) return std::optional<Puzzle>{};
    if (line == puzzle_csv_header()) return std::optional<Puzzle>{};
    auto fields = split_fields(line);
    if (!fields) return make_error(where + fields.error().message);
    if (fields->size() < 9 || fields->size() > Columns.size())
        return make_error(where + std::to_string(fields->size()) + " columns, not " + std::to_string(Columns.size()) +
                          " (" + std::string(puzzle_csv_header()) + ")");
    auto& f = *fields;
    f.resize(Columns.size());  // OpeningTags may be left out, as lichess leaves it empty
    Puzzle p;
    p.id = f[0];
    p.fen = f[1];
    p.moves = split_words(f[2]);
    auto num = [&](std::size_t col, int lo, int hi) { return read_int(Columns[col], f[col], lo, hi); };
    auto rating = num(3, 0, 4000);
    if (!rating) return make_error(where + rating.error().message);
    auto rd = num(4, 0, 1000);
    if (!rd) return make_error(where + rd.error().message);
    auto pop = num(5, -100, 100);
    if (!pop) return make_error(where + pop.error().message);
    auto plays = num(6, 0, 2'000'000'000);
    if (!plays) return make_error(where + plays.error().message);
    p.rating = *rating;
    p.rating_deviation = *rd;
    p.popularity = *pop;
    p.nb_plays = *plays;
    p.themes = split_words(f[7]);
    p.game_url = f[8];
    p.opening_tags = split_words(f[9]);
    auto ok = check_puzzle(p);
    if (!ok) return make_error(where + ok.error().message);
    return std::optional<Puzzle>{std::move(p)};
}

Result<std::vector<Puzzle>> read_puzzle_csv(std::string_view text, std::string_view source) {
    std::vector<Puzzle> out;
    std::size_t line_no = 0;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos) end = text.size();
        ++line_no;
        auto row = parse_puzzle_csv_line(text.substr(start, end - start), line_no);
        if (!row) return make_error(std::string(source) + ": " + row.error().message);
        if (*row) out.push_back(std::move(**row));
        start = end + 1;
    }
    return out;
}

}  // namespace outpost::training
