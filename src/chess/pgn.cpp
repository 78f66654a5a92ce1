// Outpost — PGN reading (N4): the tokenizer, tag pairs, movetext with comments,
// NAGs and variations, and the reader that goes on after a bad game.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "chess/pgn.h"

#include <algorithm>

#include "chess/fen.h"
#include "chess/san.h"
#include "chess/pgn_text.h"
#include "chess/uci.h"

namespace outpost {

namespace {

using namespace pgn_text;

// Deeper nesting than this is not chess analysis but an attack on the writer's
// recursion; the reader refuses it.
constexpr size_t MaxVariationDepth = 100;

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alnum(char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
// Characters of a movetext symbol: SAN, move numbers ("12." and "12...") and results.
bool is_symbol_char(char c) {
    return is_alnum(c) || c == '+' || c == '#' || c == '=' || c == ':' || c == '/' || c == '-' || c == '.' || c == '_';
}


// Suffix annotations and their NAGs (PGN standard 10).
int suffix_nag(std::string_view s) {
    if (s == "!") return 1;
    if (s == "?") return 2;
    if (s == "!!") return 3;
    if (s == "??") return 4;
    if (s == "!?") return 5;
    if (s == "?!") return 6;
    return -1;
}

}  // namespace

// ---------------------------------------------------------------------------------
// Reading

struct PgnToken {
    enum Kind { END, SYMBOL, COMMENT, NAG, OPEN, CLOSE, RESULT, DRAW_OFFER, NEXT_GAME, BAD };
    Kind kind = END;
    std::string text;  // the symbol, the comment, the result, or the error for BAD
    int line = 0;
    int nag = 0;
};

// One pass over one game, sharing the cursor (pos_, line_) with its reader.
class PgnParser {
public:
    explicit PgnParser(PgnReader& reader) : r_(reader) {}

    // Skips whitespace and '%' escape lines; returns the number of newlines crossed.
    int skip_space();
    bool at_end() const { return r_.pos_ >= r_.text_.size(); }
    Result<PgnGame> parse_game();
    // After an error: move on to the next game.
    void resync();
    // True when the error was found at the game's own end, so no resync is needed.
    bool game_ended() const { return game_ended_; }
    // Comments before a game's first tag pair (pgn-extract's ECO file opens with one)
    // or after the last game belong to no game: skipped. Comments followed by
    // movetext stay, for they belong to the game that follows.
    void skip_comments_outside_games();

private:
    struct Frame {
        std::vector<PgnNode>* line;
        Position before;  // the position before line->back()
        Position current;
        std::vector<std::string> pending;  // comments for the next move
        int open_line;
    };

    char peek(size_t ahead = 0) const {
        return r_.pos_ + ahead < r_.text_.size() ? r_.text_[r_.pos_ + ahead] : '\0';
    }
    char get() {
        const char c = r_.text_[r_.pos_++];
        if (c == '\n') ++r_.line_;
        return c;
    }
    void skip_line() {
        while (!at_end() && peek() != '\n') get();
    }
    bool first_on_line() const;
    PgnToken next_token();
    Error error(int line, const std::string& what) const {
        return make_error("game " + std::to_string(r_.game_number_) + " (line " + std::to_string(line) + "): " + what);
    }
    Result<bool> read_tag(PgnGame& game);
    Result<bool> set_up_start(PgnGame& game, const std::vector<int>& tag_lines);

    PgnReader& r_;
    bool in_tags_ = false;
    bool game_ended_ = false;
};

int PgnParser::skip_space() {
    int newlines = 0;
    if (r_.pos_ == 0 && r_.text_.substr(0, 3) == "\xEF\xBB\xBF") r_.pos_ = 3;  // UTF-8 byte order mark
    while (!at_end()) {
        const char c = peek();
        if (c == '%' && (r_.pos_ == 0 || r_.text_[r_.pos_ - 1] == '\n')) {
            // The escape line goes with its newline, so that it does not look like a
            // blank line ending the tags.
            skip_line();
            if (!at_end()) get();
        } else if (is_space(c)) {
            if (get() == '\n') ++newlines;
        } else {
            break;
        }
    }
    return newlines;
}

void PgnParser::skip_comments_outside_games() {
    const size_t start_pos = r_.pos_;
    const int start_line = r_.line_;
    for (;;) {
        if (peek() == '{') {
            const size_t close = r_.text_.find('}', r_.pos_);
            if (close == std::string_view::npos) break;  // the parser reports it
            while (r_.pos_ <= close) get();
        } else if (peek() == ';') {
            skip_line();
        } else {
            break;
        }
        skip_space();
    }
    if (at_end() || (peek() == '[' && first_on_line())) return;
    r_.pos_ = start_pos;
    r_.line_ = start_line;
}

bool PgnParser::first_on_line() const {
    for (size_t i = r_.pos_; i > 0; --i) {
        const char c = r_.text_[i - 1];
        if (c == '\n') return true;
        if (c != ' ' && c != '\t' && c != '\r') return false;
    }
    return true;
}

PgnToken PgnParser::next_token() {
    skip_space();
    PgnToken t;
    t.line = r_.line_;
    if (at_end()) return t;
    const char c = peek();
    if (c == '[') {
        if (first_on_line()) {
            t.kind = PgnToken::NEXT_GAME;
        } else {
            get();
            t.kind = PgnToken::BAD;
            t.text = "unexpected '[' in the moves";
        }
    } else if (c == '{') {
        const size_t close = r_.text_.find('}', r_.pos_);
        get();
        if (close == std::string_view::npos) {
            t.kind = PgnToken::BAD;
            t.text = "comment '{' is not closed";
        } else {
            t.kind = PgnToken::COMMENT;
            t.text = collapse_space(r_.text_.substr(r_.pos_, close - r_.pos_));
            while (r_.pos_ <= close) get();
        }
    } else if (c == ';') {
        get();
        const size_t start = r_.pos_;
        skip_line();
        t.kind = PgnToken::COMMENT;
        t.text = collapse_space(r_.text_.substr(start, r_.pos_ - start));
    } else if (c == '(') {
        if (peek(1) == '=' && peek(2) == ')') {
            for (int i = 0; i < 3; ++i) get();
            t.kind = PgnToken::DRAW_OFFER;
        } else {
            get();
            t.kind = PgnToken::OPEN;
        }
    } else if (c == ')') {
        get();
        t.kind = PgnToken::CLOSE;
    } else if (c == '$') {
        get();
        int n = 0, digits = 0;
        while (is_digit(peek()) && digits < 4) {
            n = n * 10 + (get() - '0');
            ++digits;
        }
        if (digits == 0 || n > 255 || is_digit(peek())) {
            t.kind = PgnToken::BAD;
            t.text = "NAG '$' must be followed by a number from 0 to 255";
        } else {
            t.kind = PgnToken::NAG;
            t.nag = n;
        }
    } else if (c == '!' || c == '?') {
        std::string s;
        while (peek() == '!' || peek() == '?') s += get();
        t.nag = suffix_nag(s);
        t.kind = t.nag < 0 ? PgnToken::BAD : PgnToken::NAG;
        if (t.nag < 0) t.text = "unknown annotation '" + s + "'";
    } else if (c == '*') {
        get();
        t.kind = PgnToken::RESULT;
        t.text = "*";
    } else if (is_symbol_char(c)) {
        while (is_symbol_char(peek())) t.text += get();
        // A promotion written e8(Q) would otherwise start a variation.
        if (peek() == '(' && std::string_view("QRBNqrbn").find(peek(1)) != std::string_view::npos && peek(2) == ')')
            for (int i = 0; i < 3; ++i) t.text += get();
        t.kind = is_result(t.text) ? PgnToken::RESULT : PgnToken::SYMBOL;
    } else {
        // One whole UTF-8 sequence, so that the message shows a character.
        std::string s(1, get());
        while (!at_end() && (static_cast<unsigned char>(peek()) & 0xC0) == 0x80) s += get();
        t.kind = PgnToken::BAD;
        t.text = "unexpected character '" + s + "' in the moves";
    }
    return t;
}

Result<bool> PgnParser::read_tag(PgnGame& game) {
    const int line = r_.line_;
    get();  // '['
    while (peek() == ' ' || peek() == '\t') get();
    std::string name;
    while (is_alnum(peek()) || peek() == '_') name += get();
    if (name.empty()) return error(line, "tag: a tag name must follow '['");
    while (peek() == ' ' || peek() == '\t') get();
    if (peek() != '"') return error(line, "tag " + name + ": the value must be in double quotes");
    get();
    std::string value;
    for (;;) {
        if (at_end() || peek() == '\n') return error(line, "tag " + name + ": the value is not closed with '\"'");
        const char c = get();
        if (c == '"') break;
        if (c == '\\' && (peek() == '"' || peek() == '\\')) {
            value += get();
        } else {
            value += c;
        }
    }
    while (peek() == ' ' || peek() == '\t') get();
    if (peek() != ']') return error(line, "tag " + name + ": ']' expected after the value");
    get();
    game.tags.emplace_back(std::move(name), std::move(value));
    return true;
}

// The start position from the Variant and FEN tags; errors give the tag's line.
Result<bool> PgnParser::set_up_start(PgnGame& game, const std::vector<int>& tag_lines) {
    const auto line_of = [&](std::string_view name) {
        for (size_t i = 0; i < game.tags.size(); ++i)
            if (game.tags[i].first == name) return tag_lines[i];
        return r_.line_;
    };
    bool chess960 = false;
    if (auto variant = game.tag("Variant")) {
        chess960 = is_chess960_variant(*variant);
        if (!chess960 && !is_standard_variant(*variant))
            return error(line_of("Variant"),
                         "variant '" + std::string(*variant) + "' is not supported (only standard and Chess960)");
    }
    if (auto fen = game.tag("FEN")) {
        auto pos = position_from_fen(*fen, chess960);
        if (!pos) return error(line_of("FEN"), "FEN tag: " + pos.error().message);
        game.start = *pos;
    } else {
        game.start = Position::startpos();
        game.start.set_chess960(chess960);
    }
    return true;
}

Result<PgnGame> PgnParser::parse_game() {
    PgnGame game;

    // 1. Tag pairs. A blank line after them ends the section even when no movetext
    // follows, so that a game without moves does not swallow the next game's tags.
    in_tags_ = true;
    std::vector<int> tag_lines;
    for (bool any = false;; any = true) {
        const int newlines = skip_space();
        if ((any && newlines >= 2) || peek() != '[') break;
        tag_lines.push_back(r_.line_);
        auto tag = read_tag(game);
        if (!tag) return tag.error();
    }
    in_tags_ = false;
    if (auto ok = set_up_start(game, tag_lines); !ok) return ok.error();

    // 2. Movetext. Each open variation is a frame; only the innermost line grows,
    // so the pointers into the enclosing lines stay valid.
    std::vector<Frame> stack;
    stack.push_back(Frame{&game.moves, game.start, game.start, {}, r_.line_});
    const auto where = [&](const PgnToken& t) {
        const Frame& f = stack.back();
        return "game " + std::to_string(r_.game_number_) + " (line " + std::to_string(t.line) + "), move " +
               std::to_string(f.current.fullmove_number()) + " (" + color_name(f.current.side_to_move(), Capital::NO) +
               ")" + (stack.size() > 1 ? " in a variation" : "");
    };
    const auto finish = [&](std::string result) -> Result<PgnGame> {
        game.result = std::move(result);
        game.comments = std::move(stack.front().pending);
        return std::move(game);
    };

    for (;;) {
        PgnToken t = next_token();
        Frame& f = stack.back();
        switch (t.kind) {
        case PgnToken::END:
        case PgnToken::NEXT_GAME: {
            game_ended_ = true;
            if (stack.size() > 1)
                return error(t.line, "the variation opened on line " + std::to_string(f.open_line) + " is not closed");
            // No termination marker: the Result tag says how the game ended.
            auto tag = game.tag("Result");
            return finish(tag && is_result(*tag) ? std::string(*tag) : "*");
        }
        case PgnToken::RESULT:
            game_ended_ = true;
            if (stack.size() > 1)
                return error(t.line, "the result " + t.text + " comes inside the variation opened on line " +
                                         std::to_string(f.open_line));
            return finish(t.text);
        case PgnToken::COMMENT:
            if (f.line->empty()) {
                f.pending.push_back(std::move(t.text));
            } else if (t.text == "(=)") {
                f.line->back().draw_offer = true;
            } else {
                f.line->back().comments_after.push_back(std::move(t.text));
            }
            break;
        case PgnToken::NAG:
            // A NAG before any move has nothing to annotate; it is dropped.
            if (!f.line->empty()) f.line->back().nags.push_back(t.nag);
            break;
        case PgnToken::DRAW_OFFER:
            if (!f.line->empty()) f.line->back().draw_offer = true;
            break;
        case PgnToken::OPEN: {
            if (f.line->empty()) return error(t.line, "a variation '(' must follow the move it replaces");
            if (stack.size() > MaxVariationDepth)
                return error(t.line, "variations are nested more than " + std::to_string(MaxVariationDepth) + " deep");
            std::vector<PgnNode>* line = &f.line->back().variations.emplace_back();
            const Position start = f.before;
            stack.push_back(Frame{line, start, start, {}, t.line});
            break;
        }
        case PgnToken::CLOSE: {
            if (stack.size() == 1) return error(t.line, "')' without a variation to close");
            const bool empty = f.line->empty();
            stack.pop_back();
            if (empty) stack.back().line->back().variations.pop_back();
            break;
        }
        case PgnToken::SYMBOL: {
            // Move numbers: "12.", "12...", glued "1.e4", or lone "..." after a comment.
            std::string_view s = t.text;
            size_t i = 0;
            while (i < s.size() && is_digit(s[i])) ++i;
            if (i < s.size() && s[i] == '.') s.remove_prefix(i);
            else if (i > 0 && i == s.size()) return make_error(where(t) + ": unreadable move '" + t.text + "'");
            while (!s.empty() && s.front() == '.') s.remove_prefix(1);
            if (s.empty() || s == "e.p." || s == "ep" || s == "e.p") break;
            auto move = move_from_san(f.current, s);
            if (!move) return make_error(where(t) + ": " + move.error().message);
            PgnNode node;
            node.move = *move;
            node.san = std::string(s);
            node.comments_before = std::move(f.pending);
            f.pending.clear();
            f.before = f.current;
            f.current.do_move(*move);
            f.line->push_back(std::move(node));
            break;
        }
        case PgnToken::BAD: return make_error(where(t) + ": " + t.text);
        }
    }
}

void PgnParser::resync() {
    if (in_tags_) {
        // The rest of a broken tag section: tag lines with no blank line between.
        skip_line();
        while (skip_space() < 2 && peek() == '[') skip_line();
    }
    for (;;) {
        skip_space();
        if (at_end()) return;
        const char c = peek();
        if (c == '[' && first_on_line()) return;
        if (c == '{') {
            const size_t close = r_.text_.find('}', r_.pos_);
            if (close == std::string_view::npos) {
                get();
            } else {
                while (r_.pos_ <= close) get();
            }
            continue;
        }
        if (c == ';') {
            skip_line();
            continue;
        }
        std::string word;
        while (!at_end() && !is_space(peek()) && peek() != '{' && peek() != ';') word += get();
        if (is_result(word)) return;
    }
}

std::optional<Result<PgnGame>> PgnReader::next() {
    PgnParser parser(*this);
    parser.skip_space();
    parser.skip_comments_outside_games();
    if (parser.at_end()) return std::nullopt;
    ++game_number_;
    auto game = parser.parse_game();
    if (!game && !parser.game_ended()) parser.resync();
    return game;
}

Result<PgnGame> read_pgn_game(std::string_view text) {
    PgnReader reader(text);
    auto game = reader.next();
    if (!game) return make_error("no game found");
    return std::move(*game);
}

}  // namespace outpost
