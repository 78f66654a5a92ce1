// Outpost — opening books for matches.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "match/openings.h"

#include <cctype>
#include <fstream>
#include <sstream>

#include "chess/fen.h"
#include "chess/pgn.h"

namespace outpost::match {

namespace {

Result<std::string> read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return make_error("cannot open opening file '" + path + "'");
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

bool is_number(const std::string& s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

}  // namespace

Result<std::vector<Opening>> parse_epd(const std::string& text, const std::string& name, bool chess960) {
    std::vector<Opening> out;
    std::istringstream in(text);
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const auto first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line[first] == '#') continue;
        // EPD: four FEN fields, then optional operations ("bm e4; id \"x\";"). Some
        // files carry the two FEN counters too; keep them when they are numbers.
        std::istringstream fields(line);
        std::vector<std::string> f;
        std::string w;
        while (f.size() < 6 && fields >> w) f.push_back(w);
        if (f.size() < 4) return make_error(name + ":" + std::to_string(number) + ": not an EPD line: " + line);
        std::string fen = f[0] + " " + f[1] + " " + f[2] + " " + f[3];
        if (f.size() == 6 && is_number(f[4]) && is_number(f[5])) fen += " " + f[4] + " " + f[5];
        auto pos = position_from_fen(fen, chess960);
        if (!pos) return make_error(name + ":" + std::to_string(number) + ": " + pos.error().message);
        if (!pos->has_legal_moves())
            return make_error(name + ":" + std::to_string(number) + ": the position has no legal moves");
        out.push_back({*pos, {}});
    }
    if (out.empty()) return make_error(name + ": no positions found");
    return out;
}

Result<std::vector<Opening>> parse_pgn(const std::string& text, const std::string& name, int plies, bool chess960) {
    std::vector<Opening> out;
    PgnReader reader(text);
    while (auto game = reader.next()) {
        if (!*game) return make_error(name + ": " + game->error().message);
        Opening o{(*game)->start, (*game)->mainline()};
        if (chess960) o.root.set_chess960(true);
        if (plies > 0 && int(o.moves.size()) > plies) o.moves.resize(std::size_t(plies));
        // An opening that ends the game (mate or stalemate) leaves nothing to play.
        Position end_pos = o.root;
        for (Move m : o.moves) end_pos.do_move(m);
        if (end_pos.has_legal_moves()) out.push_back(std::move(o));
    }
    if (out.empty()) return make_error(name + ": no games found");
    return out;
}

Result<std::vector<Opening>> load_epd(const std::string& path, bool chess960) {
    auto text = read_file(path);
    if (!text) return text.error();
    return parse_epd(*text, path, chess960);
}

Result<std::vector<Opening>> load_pgn(const std::string& path, int plies, bool chess960) {
    auto text = read_file(path);
    if (!text) return text.error();
    return parse_pgn(*text, path, plies, chess960);
}

}  // namespace outpost::match
