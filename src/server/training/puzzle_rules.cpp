// Outpost — the rules of solving a puzzle on the server (puzzle_rules.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "server/training/puzzle_rules.h"

#include <cmath>

#include "chess/fen.h"
#include "chess/uci.h"
#include "club/glicko2.h"
#include "server/accounts/ratings.h"

namespace outpost::server {
namespace {

constexpr double PzVolatility = 0.09;

// The position after the opponent's move: where the solver starts.
Answer<Position> pz_solver_start(const training::Puzzle& p) {
    auto pos = position_from_fen(p.fen);
    if (!pos || p.moves.size() < 2) return ProtocolError{"internal", "a stored puzzle that is not one: " + p.id, 500};
    auto m = move_from_uci(*pos, p.moves[0]);
    if (!m) return ProtocolError{"internal", "a stored puzzle that is not one: " + p.id, 500};
    pos->do_move(*m);
    return *pos;
}

// One tried move, read in pos: too long a text is bad_request, one not legal illegal_move.
Answer<Move> pz_read_tried(const Position& pos, const std::string& text, std::size_t i) {
    const auto file = [&](std::size_t k) { return text[k] >= 'a' && text[k] <= 'h'; };
    const auto rank = [&](std::size_t k) { return text[k] >= '1' && text[k] <= '8'; };
    if (text.size() < 4 || text.size() > 5 || !file(0) || !rank(1) || !file(2) || !rank(3) ||
        (text.size() == 5 && std::string_view("qrbn").find(text[4]) == std::string_view::npos))
        return bad_request("moves[" + std::to_string(i) + "] is not a UCI move such as e2e4 or e7e8q");
    auto m = move_from_uci(pos, text);
    if (!m) return ProtocolError{"illegal_move", "moves[" + std::to_string(i) + "]: illegal move '" + text + "' here", 400};
    return *m;
}

club::Glicko2Rating pz_glicko2(const PuzzleGlicko& g) { return {g.rating, g.deviation, g.volatility}; }
PuzzleGlicko pz_stored_glicko(const club::Glicko2Rating& g) { return {g.rating, g.deviation, g.volatility}; }

}  // namespace

PuzzleRecord to_record(const training::Puzzle& p) {
    PuzzleRecord r;
    r.id = p.id;
    r.fen = p.fen;
    r.moves = p.moves;
    r.themes = p.themes;
    r.game_url = p.game_url;
    r.opening_tags = p.opening_tags;
    r.position_key = training::position_key(p.fen);
    r.glicko = PuzzleGlicko{double(p.rating), double(p.rating_deviation), PzVolatility};
    r.popularity = p.popularity;
    r.plays = p.nb_plays;
    return r;
}

training::Puzzle from_record(const PuzzleRecord& r) {
    training::Puzzle p;
    p.id = r.id;
    p.fen = r.fen;
    p.moves = r.moves;
    p.rating = int(std::lround(r.glicko.rating));
    p.rating_deviation = int(std::lround(r.glicko.deviation));
    p.popularity = r.popularity;
    p.nb_plays = r.plays;
    p.themes = r.themes;
    p.game_url = r.game_url;
    p.opening_tags = r.opening_tags;
    return p;
}

std::string solver_color(const training::Puzzle& p) {
    auto pos = pz_solver_start(p);
    if (!pos) return "white";
    return pos->side_to_move() == WHITE ? "white" : "black";
}

Answer<AttemptCheck> check_attempt(const training::Puzzle& p, const std::vector<std::string>& tried) {
    if (tried.empty()) return bad_request("moves: at least one move");
    const std::size_t steps = std::size_t(training::solver_moves(p));
    if (tried.size() > steps)
        return bad_request("moves: this puzzle has " + std::to_string(steps) + " moves to find, not " +
                           std::to_string(tried.size()));
    auto start = pz_solver_start(p);
    if (!start) return start.error();
    Position pos = *start;
    AttemptCheck out;
    for (std::size_t i = 0; i < tried.size(); ++i) {
        auto m = pz_read_tried(pos, tried[i], i);
        if (!m) return m.error();
        const std::string& solution = p.moves[1 + 2 * i];
        const bool last = i + 1 == steps;
        bool right = move_to_uci(pos, *m) == solution;
        Position after = pos;
        after.do_move(*m);
        if (!right && last && after.is_checkmate()) right = true;
        if (!right) {
            out.status = AttemptCheck::FAILED;
            out.wrong_step = int(i);
            return out;
        }
        if (last) {
            out.status = AttemptCheck::SOLVED;
            return out;
        }
        // The opponent's reply, as the solution has it.
        auto reply = move_from_uci(after, p.moves[2 + 2 * i]);
        if (!reply) return ProtocolError{"internal", "a stored puzzle that is not one: " + p.id, 500};
        out.reply = p.moves[2 + 2 * i];
        after.do_move(*reply);
        pos = after;
    }
    return out;
}

Answer<PuzzleHint> hint(const training::Puzzle& p, const std::vector<std::string>& tried) {
    const std::size_t steps = std::size_t(training::solver_moves(p));
    if (tried.size() >= steps) return bad_request("moves: the puzzle is solved by these moves already");
    if (!tried.empty()) {
        auto c = check_attempt(p, tried);
        if (!c) return c.error();
        if (c->status != AttemptCheck::CONTINUE) return not_allowed("no hint after a wrong move or the last one");
    }
    const std::string& next = p.moves[1 + 2 * tried.size()];
    return PuzzleHint{next.substr(0, 2), next.substr(2, 2)};
}

StoredPuzzleRating initial_puzzle_rating() {
    const club::Glicko2Rating& i = rating_config().initial;
    return StoredPuzzleRating{PuzzleGlicko{i.rating, i.deviation, i.volatility}, 0, 0};
}

PuzzleRatingChange rate_attempt(const StoredPuzzleRating& player, const PuzzleGlicko& puzzle, bool solved,
                                std::int64_t now_ms) {
    club::Glicko2Rating pre = pz_glicko2(player.glicko);
    if (player.last_ms > 0 && now_ms > player.last_ms) {
        const double days = double(now_ms - player.last_ms) / 86'400'000.0;
        pre = club::glicko2_widen(pre, days * RatingPeriodsPerDay, rating_config());
    }
    const club::Glicko2Rating puzzle_pre = pz_glicko2(puzzle);
    const club::Glicko2Game as_player{puzzle_pre, solved ? 1.0 : 0.0};
    const club::Glicko2Game as_puzzle{pre, solved ? 0.0 : 1.0};
    PuzzleRatingChange out;
    out.account.glicko = pz_stored_glicko(club::glicko2_update(pre, {&as_player, 1}, rating_config()));
    out.account.last_ms = now_ms;
    out.account.attempts = player.attempts + 1;
    out.puzzle = pz_stored_glicko(club::glicko2_update(puzzle_pre, {&as_puzzle, 1}, rating_config()));
    return out;
}

}  // namespace outpost::server
