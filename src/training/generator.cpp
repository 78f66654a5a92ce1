// Outpost — the puzzle generator (generator.h; the rules and why in docs/puzzles.md).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "training/generator.h"

#include <algorithm>
#include <array>
#include <set>

#include "chess/fen.h"
#include "chess/movegen.h"
#include "chess/uci.h"
#include "engine/analysis.h"
#include "engine/engine.h"
#include "training/step_rule.h"
#include "training/themes.h"

namespace outpost::training {

using engine::Engine;
using engine::SearchInfo;

Result<bool> GeneratorSettings::validate() const {
    if (scan_nodes < 1'000 || scan_nodes > 100'000'000)
        return make_error("puzzles: scan nodes " + std::to_string(scan_nodes) + " is outside 1000..10^8");
    if (nodes < 1'000 || nodes > 1'000'000'000)
        return make_error("puzzles: nodes " + std::to_string(nodes) + " is outside 1000..10^9");
    if (hash_mb < 1 || hash_mb > 4096)
        return make_error("puzzles: hash " + std::to_string(hash_mb) + " MB is outside 1..4096");
    if (max_solver_moves < 1 || max_solver_moves > 20)
        return make_error("puzzles: max solver moves " + std::to_string(max_solver_moves) + " is outside 1..20");
    if (margin_cp < 0 || margin_cp > 500)
        return make_error("puzzles: margin " + std::to_string(margin_cp) + " cp is outside 0..500");
    return true;
}

GeneratorStats& GeneratorStats::operator+=(const GeneratorStats& o) {
    games += o.games;
    games_skipped += o.games_skipped;
    positions += o.positions;
    candidates += o.candidates;
    puzzles += o.puzzles;
    nodes += o.nodes;
    return *this;
}

std::string puzzle_id(std::string_view fen) {
    // FNV-1a, 64 bits, then mixed (splitmix64's finaliser) so that near keys differ
    // in every character.
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (char c : position_key(fen)) {
        h ^= static_cast<unsigned char>(c);
        h *= 0x100000001b3ULL;
    }
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebULL;
    h ^= h >> 31;
    static constexpr char Digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    std::string id;
    for (int i = 0; i < 8; ++i) {
        id += Digits[h % 62];
        h /= 62;
    }
    return id;
}

void drop_duplicates(std::vector<Puzzle>& puzzles) {
    std::set<std::string> seen;
    std::erase_if(puzzles, [&seen](const Puzzle& p) { return !seen.insert(position_key(p.fen)).second; });
}

namespace {

// The best two lines of one MultiPV 2 search (the second absent with one legal move).
struct TwoLines {
    std::array<SearchInfo, 2> line;
    int count = 0;
};

class DeepSearch {
public:
    DeepSearch(Engine& engine, const GeneratorSettings& settings, GeneratorStats& stats)
        : engine_(engine), settings_(settings), stats_(stats) {}

    // Searches the position after `moves` from `start` with MultiPV 2; nullopt when
    // not even the first iteration finished.
    std::optional<TwoLines> run(const Position& start, const std::vector<Move>& moves, std::uint64_t nodes = 0) {
        if (auto set = engine_.set_position(start, moves); !set) return std::nullopt;
        const Position& pos = engine_.position();
        const MoveList legal = legal_moves(pos);
        const int wanted = std::min<int>(2, int(legal.size()));
        if (wanted == 0) return std::nullopt;
        TwoLines current, complete;
        engine_.set_info_handler([&](const SearchInfo& info) {
            if (info.bound != engine::BOUND_EXACT || info.pv.empty() || info.multipv < 1 || info.multipv > 2) return;
            current.line[size_t(info.multipv - 1)] = info;
            if (info.multipv == wanted && current.line[0].depth == info.depth) {
                complete = current;
                complete.count = wanted;
            }
        });
        engine::Limits limits;
        limits.nodes = nodes ? nodes : settings_.nodes;
        const engine::SearchResult sr = engine_.search_sync(limits);
        engine_.set_info_handler(nullptr);
        stats_.nodes += sr.nodes;
        if (complete.count == 0) return std::nullopt;
        return complete;
    }

private:
    Engine& engine_;
    const GeneratorSettings& settings_;
    GeneratorStats& stats_;
};

LineScore to_line_score(const SearchInfo& info) {
    LineScore s;
    if (engine::is_mate_score(info.score)) {
        const int plies = info.score > 0 ? engine::VALUE_MATE - info.score : engine::VALUE_MATE + info.score;
        const int moves = (plies + 1) / 2;
        s.mate = info.score > 0 ? moves : -moves;
    } else {
        s.cp = info.score;
    }
    return s;
}

// The line from the position after the opponent's mistake (game[0..ply] played), or
// empty when that position is not a puzzle. The first entry is the mistake.
std::vector<Move> cut_line(DeepSearch& deep, const Position& start, std::span<const Move> game, int ply,
                           const Position& before, const GeneratorSettings& settings) {
    std::vector<Move> played(game.begin(), game.begin() + ply + 1);
    std::vector<Move> line{game[size_t(ply)]};
    Position pos = before.after(game[size_t(ply)]);
    const Color solver = pos.side_to_move();
    const int start_balance = balance(before, solver);
    int first_mate = 0;  // the mate announced at the first step, in solver moves
    // Ends the line on the last solver move (dropping the opponent's reply after it).
    auto ended = [&line]() {
        line.pop_back();
        return line;
    };
    // A first look at a quarter of the budget throws out most candidates (two moves
    // win) before the full search. It applies the rule without the margin, so only a
    // position that the full budget would judge very differently is lost.
    if (const auto quick = deep.run(start, played, std::max<std::uint64_t>(settings.nodes / 4, 1000)); quick) {
        const LineScore best = to_line_score(quick->line[0]);
        if (quick->count < 2 || best.mate < 0 || (best.mate == 0 && best.cp < WinningCp / 2)) return {};
        if (!step_is_unique(best, to_line_score(quick->line[1]), 0)) return {};
    }
    for (int step = 0;; ++step) {
        const auto lines = deep.run(start, played);
        if (!lines) return step == 0 || first_mate ? std::vector<Move>{} : ended();
        const LineScore best = to_line_score(lines->line[0]);
        const std::optional<LineScore> second =
            lines->count > 1 ? std::optional<LineScore>(to_line_score(lines->line[1])) : std::nullopt;
        const Move m = lines->line[0].pv[0];
        if (step == 0) {
            // A forced move is no puzzle; the solver must be winning.
            if (!second) return {};
            if (best.mate > 0) first_mate = best.mate;
            else if (best.mate < 0 || best.cp < WinningCp) return {};
        } else if (!first_mate && (best.mate < 0 || (best.mate == 0 && best.cp < WinningCp))) {
            return ended();  // the advantage went away: the line stops before it
        }
        if (!step_is_unique(best, second, settings.margin_cp)) {
            if (step == 0 || first_mate) return {};  // a mate line must run to the mate
            return ended();
        }
        line.push_back(m);
        played.push_back(m);
        pos = pos.after(m);
        if (pos.is_checkmate()) {
            // mateInN: the line's length must be the mate the search announced.
            if (first_mate && first_mate != int(line.size() / 2)) return {};
            return line;
        }
        if (!pos.has_legal_moves()) return {};  // stalemate: not a win
        if (int(line.size() / 2) >= settings.max_solver_moves) return first_mate ? std::vector<Move>{} : line;
        // The opponent's best reply: the second move of the solver's line, else a search.
        Move reply = lines->line[0].pv.size() > 1 ? lines->line[0].pv[1] : Move{};
        if (!reply || !pos.is_legal(reply)) {
            const auto replies = deep.run(start, played);
            if (!replies) return first_mate ? std::vector<Move>{} : line;
            reply = replies->line[0].pv[0];
        }
        // The win is clear: a decisive gain of material that the opponent's reply (not
        // a capture, not out of check) does not take back.
        if (!first_mate && balance(pos, solver) - start_balance >= DecisiveGain && !pos.is_capture(reply) &&
            !pos.in_check())
            return line;
        line.push_back(reply);
        played.push_back(reply);
        pos = pos.after(reply);
    }
}

// The opponent's move game[ply] is a mistake worth a deep look: the solver's
// evaluation (mates at MateCp) rose to a win, by at least UniqueGapCp, or a mate
// appeared.
bool is_candidate(const engine::Eval& before, const engine::Eval& after, Color solver) {
    if (after.checkmated) return false;
    const auto mater_after = after.mating_side();
    const auto mater_before = before.mating_side();
    if (mater_after == solver) return mater_before != solver;
    const int a = after.cp_for(solver), b = before.cp_for(solver);
    return a >= WinningCp && a - b >= UniqueGapCp;
}

}  // namespace

Result<std::vector<Puzzle>> find_puzzles(Engine& engine, const Position& start, std::span<const Move> moves,
                                         const GeneratorSettings& settings, const std::string& game_url_prefix,
                                         GeneratorStats* stats) {
    if (auto ok = settings.validate(); !ok) return ok.error();
    GeneratorStats local;
    GeneratorStats& st = stats ? *stats : local;
    ++st.games;
    if (start.is_chess960() || moves.empty()) {
        ++st.games_skipped;
        return std::vector<Puzzle>{};
    }
    engine::AnalysisSettings scan;
    scan.nodes = settings.scan_nodes;
    scan.hash_mb = settings.hash_mb;
    scan.line_plies = 2;
    auto analysis = engine::analyse_game(engine, start, moves, scan);
    if (!analysis) return analysis.error();
    st.positions += int(analysis->positions.size());
    st.nodes += analysis->nodes;
    if (auto r = engine.set_option("MultiPV", "2"); !r) return r.error();

    std::vector<Position> positions{start};
    for (Move m : moves) positions.push_back(positions.back().after(m));

    DeepSearch deep(engine, settings, st);
    std::vector<Puzzle> puzzles;
    std::set<std::string> seen;
    for (std::size_t ply = 0; ply + 1 < positions.size(); ++ply) {
        const Color solver = ~positions[ply].side_to_move();
        if (!is_candidate(analysis->positions[ply].eval, analysis->positions[ply + 1].eval, solver)) continue;
        const std::string fen = to_fen(positions[ply]);
        if (seen.contains(position_key(fen))) continue;
        ++st.candidates;
        const std::vector<Move> line = cut_line(deep, start, moves, int(ply), positions[ply], settings);
        if (line.size() < 2) continue;
        Puzzle p;
        p.fen = fen;
        for (Move m : line) p.moves.push_back(move_to_uci(m, false));
        p.id = puzzle_id(fen);
        p.game_url = game_url_prefix + std::to_string(ply + 1);
        p.themes = puzzle_themes(p);
        p.rating = estimate_rating(p);
        p.rating_deviation = 500;
        seen.insert(position_key(fen));
        puzzles.push_back(std::move(p));
        ++st.puzzles;
        // The next candidate comes after this puzzle's line.
        ply += line.size() - 1;
    }
    (void)engine.set_option("MultiPV", "1");
    return puzzles;
}

}  // namespace outpost::training
