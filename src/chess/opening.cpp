// Outpost — opening names: the index over the embedded data, built once on first use.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "chess/opening.h"

#include <mutex>
#include <unordered_map>
#include <vector>

#include "chess/game.h"
#include "chess/san.h"

namespace outpost {
namespace opening_data {
extern const std::string_view Files[5];  // a.tsv … e.tsv, generated at build time
}

namespace {

struct Entry {
    Opening opening;
    int plies = 0;
};

struct Index {
    std::unordered_map<Key, Entry> by_key;
    std::vector<std::string> errors;
};

// Splits off the text up to `sep` (or the end) and advances past it.
std::string_view take_until(std::string_view& text, char sep) {
    const size_t at = text.find(sep);
    std::string_view head = text.substr(0, at);
    text = at == std::string_view::npos ? std::string_view{} : text.substr(at + 1);
    return head;
}

// Replays one data line ("1. e4 e5 2. Nf3") from the start position.
Result<Position> replay_line(std::string_view line, int& plies) {
    Position pos = Position::startpos();
    plies = 0;
    while (!line.empty()) {
        std::string_view token = take_until(line, ' ');
        if (token.empty() || token.back() == '.') continue;  // move numbers "1." and "1..."
        auto move = move_from_san(pos, token);
        if (!move) return make_error("'" + std::string(token) + "': " + move.error().message);
        pos.do_move(*move);
        ++plies;
    }
    return pos;
}

Index build_index() {
    Index index;
    index.by_key.reserve(4096);
    for (int volume = 0; volume < 5; ++volume) {
        std::string_view text = opening_data::Files[volume];
        int line_number = 0;
        while (!text.empty()) {
            std::string_view row = take_until(text, '\n');
            ++line_number;
            if (line_number == 1 || row.empty()) continue;  // the header "eco name pgn"
            const std::string where = std::string(1, char('a' + volume)) + ".tsv line " + std::to_string(line_number);
            std::string_view rest = row;
            const std::string_view eco = take_until(rest, '\t');
            const std::string_view name = take_until(rest, '\t');
            const std::string_view line = rest;
            if (eco.empty() || name.empty() || line.empty()) {
                index.errors.push_back(where + ": not three tab-separated fields");
                continue;
            }
            int plies = 0;
            auto pos = replay_line(line, plies);
            if (!pos) {
                index.errors.push_back(where + ": " + pos.error().message);
                continue;
            }
            // A position named twice keeps the name with the shorter line (the data
            // set promises a unique shortest line per name, not per position).
            const Entry entry{{eco, name, line}, plies};
            auto [it, inserted] = index.by_key.try_emplace(pos->repetition_key(), entry);
            if (!inserted && plies < it->second.plies) it->second = entry;
        }
    }
    return index;
}

const Index& index() {
    static const Index built = build_index();  // thread-safe initialisation
    return built;
}

}  // namespace

std::optional<Opening> named_position(const Position& pos) {
    const auto& map = index().by_key;
    auto it = map.find(pos.repetition_key());
    if (it == map.end()) return std::nullopt;
    return it->second.opening;
}

std::optional<Opening> classify_opening(const Position& start, std::span<const Move> moves) {
    if (start.is_chess960() || !same_position_for_repetition(start, Position::startpos())) return std::nullopt;
    // Forwards once, keeping the latest hit: the same answer as walking back from the
    // end, without storing the positions.
    std::optional<Opening> latest = named_position(start);
    Position pos = start;
    for (Move m : moves) {
        pos.do_move(m);
        if (auto named = named_position(pos)) latest = named;
    }
    return latest;
}

std::optional<Opening> classify_opening(const Game& game) {
    const auto& positions = game.positions();
    const Position& start = positions.front();
    if (start.is_chess960() || !same_position_for_repetition(start, Position::startpos())) return std::nullopt;
    for (auto it = positions.rbegin(); it != positions.rend(); ++it)
        if (auto named = named_position(*it)) return named;
    return std::nullopt;
}

std::size_t named_position_count() { return index().by_key.size(); }
std::span<const std::string> opening_data_errors() { return index().errors; }

}  // namespace outpost
