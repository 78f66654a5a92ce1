// Outpost — PGN's game record and its writing (N4): tags in order, the main line,
// and the export format (PGN standard 8: seven-tag roster first, 79-column lines).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "chess/pgn.h"

#include <algorithm>

#include "chess/fen.h"
#include "chess/pgn_text.h"
#include "chess/san.h"
#include "chess/uci.h"

namespace outpost {

using pgn_text::collapse_space;
using pgn_text::is_chess960_variant;
using pgn_text::is_result;
using pgn_text::MaxLineLength;

// ---------------------------------------------------------------------------------
// The game

std::optional<std::string_view> PgnGame::tag(std::string_view name) const {
    for (const auto& [key, value] : tags)
        if (key == name) return std::string_view(value);
    return std::nullopt;
}

void PgnGame::set_tag(std::string_view name, std::string_view value) {
    for (auto& [key, v] : tags) {
        if (key == name) {
            v = value;
            return;
        }
    }
    tags.emplace_back(std::string(name), std::string(value));
}

void PgnGame::remove_tag(std::string_view name) {
    std::erase_if(tags, [&](const auto& tag) { return tag.first == name; });
}

std::vector<Move> PgnGame::mainline() const {
    std::vector<Move> out;
    out.reserve(moves.size());
    for (const PgnNode& node : moves) out.push_back(node.move);
    return out;
}

Position PgnGame::final_position() const {
    Position pos = start;
    for (const PgnNode& node : moves) {
        if (!pos.is_legal(node.move)) break;  // a hand-built game with a bad move
        pos.do_move(node.move);
    }
    return pos;
}

Result<PgnGame> make_pgn_game(const Position& start, std::span<const Move> moves, std::string_view result) {
    PgnGame game;
    game.start = start;
    game.result = std::string(result);
    Position pos = start;
    for (Move m : moves) {
        if (!pos.is_legal(m)) {
            return make_error("move " + std::to_string(pos.fullmove_number()) + " (" +
                              color_name(pos.side_to_move(), Capital::NO) + "): illegal move '" + move_to_uci(pos, m) +
                              "' in this position");
        }
        PgnNode node;
        node.move = m;
        node.san = move_to_san(pos, m);
        game.moves.push_back(std::move(node));
        pos.do_move(m);
    }
    return game;
}

// ---------------------------------------------------------------------------------
// Writing

namespace {

// Movetext as a list of tokens that may be broken between; "(" and ")" are glued to
// the first and last token of their variation.
class MovetextWriter {
public:
    void add(std::string token) {
        tokens_.push_back(pending_open_ + std::move(token));
        pending_open_.clear();
    }
    void comment(std::string_view text) {
        // '}' cannot appear inside a comment; it is written as ')'.
        std::string clean = collapse_space(text);
        std::replace(clean.begin(), clean.end(), '}', ')');
        if (clean.empty()) {
            add("{}");
            return;
        }
        size_t start = 0;
        bool first = true;
        while (start <= clean.size()) {
            size_t end = clean.find(' ', start);
            if (end == std::string::npos) end = clean.size();
            std::string word = std::string(first ? "{" : "") + clean.substr(start, end - start);
            if (end == clean.size()) word += '}';
            add(std::move(word));
            first = false;
            start = end + 1;
        }
    }

    void line(const std::vector<PgnNode>& nodes, Position pos, bool need_number) {
        for (const PgnNode& node : nodes) {
            if (!pos.is_legal(node.move)) return;  // a hand-built game with a bad move
            for (const auto& c : node.comments_before) {
                comment(c);
                need_number = true;
            }
            const std::string number = std::to_string(pos.fullmove_number());
            if (pos.side_to_move() == WHITE) add(number + ".");
            else if (need_number) add(number + "...");
            add(move_to_san(pos, node.move));
            need_number = false;
            for (int nag : node.nags) add("$" + std::to_string(nag));
            if (node.draw_offer) {
                comment("(=)");
                need_number = true;
            }
            for (const auto& c : node.comments_after) {
                comment(c);
                need_number = true;
            }
            for (const auto& variation : node.variations) {
                const size_t before = tokens_.size();
                pending_open_ += '(';
                line(variation, pos, true);
                if (tokens_.size() == before) {
                    pending_open_.pop_back();
                    continue;
                }
                tokens_.back() += ')';
                need_number = true;
            }
            pos.do_move(node.move);
        }
    }

    // The tokens joined by spaces, broken into lines of at most width characters
    // (0: one line).
    std::string text(size_t width) const {
        std::string out;
        size_t column = 0;
        for (const auto& token : tokens_) {
            if (column > 0 && width > 0 && column + 1 + token.size() > width) {
                out += '\n';
                column = 0;
            } else if (column > 0) {
                out += ' ';
                ++column;
            }
            out += token;
            column += token.size();
        }
        return out;
    }

private:
    std::vector<std::string> tokens_;
    std::string pending_open_;
};

std::string escape_tag_value(std::string_view value) {
    std::string out;
    for (char c : value) {
        if (c == '\\' || c == '"') out += '\\';
        out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
    }
    return out;
}

bool is_seven_tag(std::string_view name) {
    for (std::string_view s : {"Event", "Site", "Date", "Round", "White", "Black", "Result"})
        if (name == s) return true;
    return false;
}

}  // namespace

std::string write_pgn(const PgnGame& game) {
    std::string out;
    const auto write_tag = [&](std::string_view name, std::string_view value) {
        out += '[';
        out += name;
        out += " \"";
        out += escape_tag_value(value);
        out += "\"]\n";
    };
    const std::string result = is_result(game.result) ? game.result : "*";

    // 1. The Seven Tag Roster, in its order.
    for (std::string_view name : {"Event", "Site", "Date", "Round", "White", "Black"})
        write_tag(name, game.tag(name).value_or(name == "Date" ? "????.??.??" : "?"));
    write_tag("Result", result);

    // 2. The other tags in their order. SetUp and FEN describe the game's own start
    // position, whatever the FEN tag said; they are written where they stood, or at the
    // end, whenever the start is not the standard one.
    std::vector<std::pair<std::string, std::string>> others;
    size_t setup_at = std::string::npos;
    for (const auto& [name, value] : game.tags) {
        if (is_seven_tag(name)) continue;
        if (name == "SetUp" || name == "FEN") {
            if (setup_at == std::string::npos) setup_at = others.size();
            continue;
        }
        others.emplace_back(name, value);
    }
    if (setup_at == std::string::npos) setup_at = others.size();
    const bool chess960 = game.start.is_chess960();
    if (chess960) {
        auto variant = std::find_if(others.begin(), others.end(), [](const auto& t) { return t.first == "Variant"; });
        if (variant == others.end()) {
            others.emplace(others.begin() + std::ptrdiff_t(setup_at++), "Variant", "Chess960");
        } else if (!is_chess960_variant(variant->second)) {
            variant->second = "Chess960";
        }
    }
    if (chess960 || !(game.start == Position::startpos()) || game.tag("FEN") || game.tag("SetUp")) {
        others.emplace(others.begin() + std::ptrdiff_t(setup_at), "FEN", to_fen(game.start));
        others.emplace(others.begin() + std::ptrdiff_t(setup_at), "SetUp", "1");
    }
    for (const auto& [name, value] : others) write_tag(name, value);
    out += '\n';

    // 3. Movetext and result.
    MovetextWriter w;
    for (const auto& c : game.comments) w.comment(c);
    w.line(game.moves, game.start, true);
    w.add(result);
    out += w.text(MaxLineLength);
    out += "\n\n";
    return out;
}

std::string write_movetext(const PgnGame& game) {
    MovetextWriter w;
    for (const auto& c : game.comments) w.comment(c);
    w.line(game.moves, game.start, true);
    return w.text(0);
}

}  // namespace outpost
