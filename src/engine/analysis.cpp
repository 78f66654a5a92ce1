// Outpost — analysing a finished game with our engine.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine/analysis.h"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "chess/game.h"
#include "chess/san.h"
#include "engine/engine.h"

namespace outpost::engine {

Result<bool> AnalysisSettings::validate() const {
    const int limits = (nodes > 0) + (depth > 0) + (movetime_ms > 0);
    if (limits != 1) return make_error("analysis: give exactly one of nodes, depth or movetime");
    if (depth > 64) return make_error("analysis: depth " + std::to_string(depth) + " is outside 1..64");
    if (movetime_ms > 600'000)
        return make_error("analysis: movetime " + std::to_string(movetime_ms) + " ms is outside 1..600000");
    if (nodes > 1'000'000'000ULL) return make_error("analysis: nodes " + std::to_string(nodes) + " is over 10^9");
    if (threads < 1 || threads > MaxAnalysisThreads)
        return make_error("analysis: threads " + std::to_string(threads) + " is outside 1.." +
                          std::to_string(MaxAnalysisThreads));
    if (hash_mb < 1 || hash_mb > 4096)
        return make_error("analysis: hash " + std::to_string(hash_mb) + " MB is outside 1..4096");
    if (line_plies < 1 || line_plies > 64)
        return make_error("analysis: line of " + std::to_string(line_plies) + " plies is outside 1..64");
    return true;
}

std::string AnalysisSettings::describe() const {
    if (nodes > 0) return "nodes " + std::to_string(nodes);
    if (depth > 0) return "depth " + std::to_string(depth);
    return "movetime " + std::to_string(movetime_ms) + " ms";
}

namespace {

std::string move_label(const Position& pos, int ply_index) {
    return "move " + std::to_string(pos.fullmove_number()) + (pos.side_to_move() == WHITE ? " (white)" : " (black)") +
           " [ply " + std::to_string(ply_index + 1) + "]";
}

Result<bool> configure(Engine& engine, const AnalysisSettings& s) {
    for (auto [name, value] : {std::pair<const char*, std::string>{"Threads", std::to_string(s.threads)},
                               {"Hash", std::to_string(s.hash_mb)},
                               {"MultiPV", "1"},
                               {"UCI_LimitStrength", "false"},
                               {"Level", std::to_string(LEVEL_MAX)}}) {
        if (auto r = engine.set_option(name, value); !r) return r.error();
    }
    engine.new_game();
    return true;
}

}  // namespace

Result<GameAnalysis> analyse_game(Engine& engine, const Position& start, std::span<const Move> moves,
                                  const AnalysisSettings& settings, const AnalysisProgress& progress) {
    if (auto ok = settings.validate(); !ok) return ok.error();

    // The game under the Laws: legal moves only, nothing after an automatic ending;
    // which positions ended the game (they are not searched).
    Game game(start);
    std::vector<Status> ended_with;  // per position: ONGOING or the automatic ending there
    ended_with.push_back(game.status());
    for (size_t i = 0; i < moves.size(); ++i) {
        const Position& pos = game.position();
        if (game.is_over())
            return make_error(move_label(pos, int(i)) + ": comes after the game ended (" +
                              std::string(status_id(game.status())) + ")");
        if (!pos.is_legal(moves[i])) return make_error(move_label(pos, int(i)) + ": illegal move");
        if (auto played = game.play(moves[i]); !played)
            return make_error(move_label(pos, int(i)) + ": " + played.error().message);
        ended_with.push_back(game.status());
    }

    if (auto ok = configure(engine, settings); !ok) return ok.error();

    // The last completed line of the search (the info handler runs on the search thread;
    // search_sync joins it before we read).
    std::vector<Move> last_line;
    engine.set_info_handler([&last_line](const SearchInfo& info) {
        if (info.multipv == 1 && info.bound == BOUND_EXACT) last_line = info.pv;
    });
    struct ClearHandler {
        Engine& e;
        ~ClearHandler() { e.set_info_handler(nullptr); }
    } clear_handler{engine};

    Limits limits;
    limits.nodes = settings.nodes;
    limits.depth = settings.depth;
    limits.movetime = settings.movetime_ms;

    const auto started = std::chrono::steady_clock::now();
    const std::vector<Position>& positions = game.positions();
    const int total = int(positions.size());
    GameAnalysis result;
    result.positions.resize(positions.size());
    std::vector<Move> prefix(moves.begin(), moves.end());
    int done = 0;
    // Backwards: see analysis.h for why.
    for (int i = total - 1; i >= 0; --i) {
        prefix.resize(size_t(i));
        const Position& pos = positions[size_t(i)];
        PositionAnalysis& pa = result.positions[size_t(i)];
        const Status ended = ended_with[size_t(i)];
        if (ended == Status::CHECKMATE) {
            pa.eval = Eval::mated(pos.side_to_move());
        } else if (ended != Status::ONGOING) {
            pa.eval = Eval::centipawns(0);  // stalemate, dead position, fivefold, 75 moves
        } else {
            if (auto set = engine.set_position(start, prefix); !set) return set.error();
            last_line.clear();
            const SearchResult sr = engine.search_sync(limits);
            // A limit so small that not even the first iteration finished leaves no
            // score (±VALUE_INFINITE): say so rather than print a made-up 0.00.
            if (!sr.best || sr.score > VALUE_MATE || sr.score < -VALUE_MATE) {
                return make_error("analysis: the position after ply " + std::to_string(i) + " (move " +
                                  std::to_string(pos.fullmove_number()) +
                                  (pos.side_to_move() == WHITE ? ", white" : ", black") +
                                  " to move): the search ended before its first iteration; raise the limit (" +
                                  settings.describe() + ")");
            }
            pa.eval = Eval::from_search(sr.score, pos.side_to_move());
            pa.best = sr.best;
            pa.depth = sr.depth;
            pa.nodes = sr.nodes;
            result.nodes += sr.nodes;
            if (!last_line.empty() && last_line.front() == sr.best)
                pa.line = last_line;
            else if (sr.best)
                pa.line = {sr.best};
            if (pa.line.size() > size_t(settings.line_plies)) pa.line.resize(size_t(settings.line_plies));
        }
        ++done;
        if (progress && !progress(done, total)) return make_error("analysis: cancelled");
    }

    std::vector<Eval> evals;
    for (const PositionAnalysis& pa : result.positions) evals.push_back(pa.eval);
    for (size_t ply = 0; ply < moves.size(); ++ply) {
        MoveAnalysis ma;
        ma.move = moves[ply];
        ma.mover = positions[ply].side_to_move();
        ma.eval_before = evals[ply];
        ma.eval_after = evals[ply + 1];
        ma.best = result.positions[ply].best;
        ma.was_best = ma.best == ma.move;
        // The engine's own move is never marked: a difference between the two
        // searches is the search's noise, not the player's error.
        ma.mark = ma.was_best ? Mark::NONE : judge_move(ma.eval_before, ma.eval_after, ma.mover);
        ma.accuracy = move_accuracy(win_percent(ma.eval_before, ma.mover), win_percent(ma.eval_after, ma.mover));
        ++result.marks[ma.mover][int(ma.mark)];
        result.moves.push_back(ma);
    }
    result.accuracy = game_accuracy(evals, start.side_to_move());
    result.opening = classify_opening(start, moves);
    result.time_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
    return result;
}

namespace {

// Removes every "[%eval …]" command from a comment (a re-analysed file gets fresh
// ones); the rest of the comment, such as [%clk …], stays.
std::string without_eval(const std::string& comment) {
    std::string out = comment;
    for (size_t at; (at = out.find("[%eval")) != std::string::npos;) {
        const size_t end = out.find(']', at);
        out.erase(at, end == std::string::npos ? std::string::npos : end + 1 - at);
    }
    const size_t first = out.find_first_not_of(' ');
    if (first == std::string::npos) return {};
    const size_t last = out.find_last_not_of(' ');
    return out.substr(first, last + 1 - first);
}

}  // namespace

std::string format_accuracy(double a) {
    if (std::isnan(a)) return "-";
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.1f", a);
    return buf;
}

namespace {

std::string side_summary(const GameAnalysis& a, Color c) {
    const auto& m = a.marks[c];
    const std::string side = c == WHITE ? "White" : "Black";
    if (std::isnan(a.accuracy[c])) return side + ": no moves";
    return side + ": accuracy " + format_accuracy(a.accuracy[c]) + "%, inaccuracies " +
           std::to_string(m[int(Mark::INACCURACY)]) + ", mistakes " + std::to_string(m[int(Mark::MISTAKE)]) +
           ", blunders " + std::to_string(m[int(Mark::BLUNDER)]);
}

}  // namespace

Result<bool> annotate_pgn(PgnGame& pgn, const GameAnalysis& analysis, const AnalysisSettings& settings) {
    const std::vector<Move> mainline = pgn.mainline();
    if (mainline.size() != analysis.moves.size() || analysis.positions.size() != mainline.size() + 1)
        return make_error("annotate: the analysis has " + std::to_string(analysis.moves.size()) + " moves, the game " +
                          std::to_string(mainline.size()));
    for (size_t i = 0; i < mainline.size(); ++i)
        if (mainline[i] != analysis.moves[i].move)
            return make_error("annotate: move " + std::to_string(i + 1) + " differs from the analysis");

    pgn.set_tag("ECO", analysis.opening ? analysis.opening->eco : "?");
    pgn.set_tag("Opening", analysis.opening ? analysis.opening->name : "?");
    pgn.set_tag("WhiteAccuracy", format_accuracy(analysis.accuracy[WHITE]));
    pgn.set_tag("BlackAccuracy", format_accuracy(analysis.accuracy[BLACK]));
    pgn.set_tag("Annotator", "Outpost analysis, " + settings.describe() + " per position");

    Position pos = pgn.start;
    for (size_t i = 0; i < pgn.moves.size(); ++i) {
        PgnNode& node = pgn.moves[i];
        const MoveAnalysis& ma = analysis.moves[i];
        std::vector<std::string> comments;
        for (const std::string& c : node.comments_after)
            if (std::string kept = without_eval(c); !kept.empty()) comments.push_back(kept);
        // The evaluation joins the commands already there ("[%eval 0.35] [%clk 0:04:58]",
        // as lichess writes them), or stands in a comment of its own first.
        if (auto e = eval_to_pgn(ma.eval_after)) {
            const std::string eval = "[%eval " + *e + "]";
            if (!comments.empty() && comments.front().starts_with("[%"))
                comments.front() = eval + " " + comments.front();
            else
                comments.insert(comments.begin(), eval);
        }
        std::erase_if(node.nags, [](int nag) { return nag >= 1 && nag <= 6; });
        if (ma.mark != Mark::NONE) {
            node.nags.insert(node.nags.begin(), mark_nag(ma.mark));
            const PositionAnalysis& before = analysis.positions[i];
            if (before.best) {
                std::string better = std::string(mark_name(ma.mark)) + ". Better: " + move_to_san(pos, before.best);
                if (auto e = eval_to_pgn(before.eval)) better += " (" + *e + ")";
                comments.push_back(better);
                // The engine's line as a variation, the last node with its evaluation.
                std::vector<PgnNode> line;
                Position p = pos;
                for (Move m : before.line) {
                    if (!p.is_legal(m)) break;
                    PgnNode v;
                    v.move = m;
                    v.san = move_to_san(p, m);
                    line.push_back(std::move(v));
                    p.do_move(m);
                }
                if (!line.empty()) node.variations.insert(node.variations.begin(), std::move(line));
            }
        }
        node.comments_after = std::move(comments);
        pos.do_move(node.move);
    }
    // The summary before the moves, replacing the one of an earlier analysis.
    const std::string summary = side_summary(analysis, WHITE) + "; " + side_summary(analysis, BLACK) + ".";
    std::vector<std::string>& before = pgn.moves.empty() ? pgn.comments : pgn.moves.front().comments_before;
    std::erase_if(before, [](const std::string& c) { return c.starts_with("White: "); });
    before.insert(before.begin(), summary);
    return true;
}

}  // namespace outpost::engine
