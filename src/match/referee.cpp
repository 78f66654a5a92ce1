// Outpost — one refereed engine game.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "match/referee.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "chess/fen.h"
#include "chess/game.h"
#include "chess/san.h"
#include "chess/uci.h"

namespace outpost::match {

namespace {

std::string seconds(Millis ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, ms < 100 ? "%.3fs" : "%.2fs", double(ms) / 1000.0);
    return buf;
}

std::string now_text() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    localtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y.%m.%d %H:%M:%S", &tm);
    return buf;
}

std::string go_command(const EngineTimeControl& wtc, const EngineTimeControl& btc, const EngineClock& wclock,
                       const EngineClock& bclock, Color side) {
    const EngineTimeControl& tc = side == WHITE ? wtc : btc;
    const EngineClock& clock = side == WHITE ? wclock : bclock;
    std::string go = "go";
    if (tc.per_move > 0) {
        go += " movetime " + std::to_string(tc.per_move);
    } else if (tc.has_clock()) {
        // Each side's clock as its own time control runs it; the opponent's time is
        // shown as the opponent's clock, so engines that look at it see the truth.
        auto side_fields = [&](const char* t, const char* i, const EngineTimeControl& stc, const EngineClock& c) {
            if (!stc.has_clock()) return;
            go += std::string(" ") + t + " " + std::to_string(std::max<Millis>(c.remaining(), 0));
            if (stc.increment > 0) go += std::string(" ") + i + " " + std::to_string(stc.increment);
        };
        side_fields("wtime", "winc", wtc, wclock);
        side_fields("btime", "binc", btc, bclock);
        if (clock.moves_to_go() > 0) go += " movestogo " + std::to_string(clock.moves_to_go());
    }
    if (tc.depth > 0) go += " depth " + std::to_string(tc.depth);
    if (tc.nodes > 0) go += " nodes " + std::to_string(tc.nodes);
    if (go == "go") go += " infinite";  // unreachable: configurations are checked for a bound
    return go;
}

}  // namespace

std::string termination_tag(Termination t) {
    switch (t) {
        case Termination::NORMAL: return "normal";
        case Termination::ADJUDICATION: return "adjudication";
        case Termination::TIME_FORFEIT: return "time forfeit";
        case Termination::ILLEGAL_MOVE: return "rules infraction";
        case Termination::CRASH: return "abandoned";
        case Termination::UNTERMINATED: return "unterminated";
    }
    return "unterminated";
}

std::string score_text(const Score& score) {
    char buf[32];
    if (score.mate)
        std::snprintf(buf, sizeof buf, "%sM%d", score.value > 0 ? "+" : "-", std::abs(score.value));
    else
        std::snprintf(buf, sizeof buf, "%+.2f", score.value / 100.0);
    return buf;
}

std::string move_comment(const std::optional<Score>& score, int depth, Millis elapsed) {
    std::string text;
    if (score) {
        text = score_text(*score);
        if (depth > 0) text += "/" + std::to_string(depth);
        text += " ";
    }
    return text + seconds(elapsed);
}

PlayedGame play_game(UciEngine& white, UciEngine& black, const GameSpec& spec, const Adjudication& adj,
                     const std::atomic<bool>* abort) {
    const auto started = std::chrono::steady_clock::now();
    PlayedGame rec;
    UciEngine* engines[2] = {&white, &black};
    rec.white = white.config().name;
    rec.black = black.config().name;
    rec.white_tc = white.config().tc.to_pgn();
    rec.black_tc = black.config().tc.to_pgn();
    rec.start = spec.root;
    rec.standard_start = !spec.root.is_chess960() && to_fen(spec.root) == StartFen;
    rec.start_time = now_text();

    auto finish = [&](Outcome outcome, Termination t, std::string reason) {
        rec.outcome = outcome;
        rec.termination = t;
        rec.reason = std::move(reason);
        rec.duration_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        return rec;
    };
    auto lose = [&](Color loser, Termination t, const std::string& why) {
        const Status status = t == Termination::TIME_FORFEIT ? Status::TIMEOUT : Status::RESIGNATION;
        return finish(Outcome{~loser, status}, t, std::string(color_name(~loser, Capital::YES)) + " wins: " + why);
    };

    for (Color c : {WHITE, BLACK}) {
        if (auto ready = engines[c]->new_game(); !ready) {
            rec.needs_restart[c] = true;
            return lose(c, Termination::CRASH,
                        std::string(color_name(c, Capital::YES)) + "'s engine is not responding (" +
                            ready.error().message + ")");
        }
    }

    GameOptions options;
    options.auto_claim_draws = true;  // engines would claim; cutting the game short saves time
    // R11 asks whether the opponent could still mate after a flag fall. The search
    // that proves "cannot" is costly in open positions (seconds at the default
    // budget, on a core the other games need); a small budget still settles the
    // endgames where the question is real, and an unsettled answer means a loss.
    options.mate_search_budget = 2000;
    Game game(spec.root, options);
    std::string position_cmd = rec.standard_start ? "position startpos" : "position fen " + to_fen(spec.root);
    std::string moves_text;
    auto record_move = [&](Move m, std::string comment) {
        const Position& pos = game.position();
        rec.moves.push_back({m, move_to_san(pos, m), std::move(comment)});
        moves_text += (moves_text.empty() ? " moves " : " ") + move_to_uci(pos, m);
        auto played = game.play(m);
        return played.ok();
    };
    for (Move m : spec.book_moves)
        if (!record_move(m, "book"))
            return finish(Outcome{std::nullopt, Status::ABORTED}, Termination::UNTERMINATED, "bad opening move");

    EngineClock clocks[2] = {EngineClock(white.config().tc), EngineClock(black.config().tc)};
    int resign_count[2] = {0, 0};
    int draw_count = 0;
    std::optional<Score> last_score[2];

    while (!game.is_over()) {
        const Color side = game.side_to_move();
        UciEngine& engine = *engines[side];
        const std::string go = go_command(white.config().tc, black.config().tc, clocks[WHITE], clocks[BLACK], side);
        const SearchOutcome out = engine.search(position_cmd + moves_text, go, clocks[side].deadline(), abort);
        switch (out.status) {
            case SearchOutcome::Status::ABORTED:
                return finish(Outcome{std::nullopt, Status::ABORTED}, Termination::UNTERMINATED, "Game aborted");
            case SearchOutcome::Status::CRASH:
                rec.needs_restart[side] = true;
                return lose(side, Termination::CRASH,
                            std::string(color_name(side, Capital::YES)) + "'s engine crashed (" + out.exit_text + ")");
            case SearchOutcome::Status::TIMEOUT:
            case SearchOutcome::Status::MOVE: break;
        }
        const bool on_time = out.status == SearchOutcome::Status::MOVE && clocks[side].spend(out.elapsed);
        if (!on_time) {
            if (!engine.alive()) rec.needs_restart[side] = true;
            const std::string why = std::string(color_name(side, Capital::YES)) + " loses on time (" +
                                    (out.status == SearchOutcome::Status::TIMEOUT ? "no move after " : "moved after ") +
                                    seconds(out.elapsed) + ")";
            auto flagged = game.flag_fell(side);
            if (flagged && !flagged->winner)
                return finish(Outcome{std::nullopt, Status::TIMEOUT_DRAW}, Termination::TIME_FORFEIT,
                              "Draw: " + why + ", but " + color_name(~side, Capital::YES) + " cannot mate");
            return lose(side, Termination::TIME_FORFEIT, why);
        }
        auto move = move_from_uci(game.position(), out.bestmove);
        if (!move) {
            const std::string shown = out.bestmove.empty() ? "(empty)" : out.bestmove;
            return lose(side, Termination::ILLEGAL_MOVE,
                        std::string(color_name(side, Capital::YES)) + " played the illegal move " + shown);
        }
        record_move(*move, move_comment(out.score, out.depth, out.elapsed));
        if (game.is_over()) break;

        // Adjudication by the engines' own scores (from the mover's point of view).
        last_score[side] = out.score;
        if (adj.resign_move_count > 0) {
            const bool hopeless = out.score && out.score->centipawns() <= -adj.resign_score;
            const bool agreed =
                !adj.resign_two_sided || (last_score[~side] && last_score[~side]->centipawns() >= adj.resign_score);
            resign_count[side] = hopeless && agreed ? resign_count[side] + 1 : 0;
            if (resign_count[side] >= adj.resign_move_count)
                return lose(side, Termination::ADJUDICATION,
                            std::string(color_name(side, Capital::YES)) + " resigns (its score " +
                                score_text(*out.score) + ")");
        }
        if (adj.draw_move_count > 0) {
            const bool quiet = out.score && std::abs(out.score->centipawns()) <= adj.draw_score;
            // Counting begins once the game (not the opening book) reaches the move number.
            const int full_moves = game.position().fullmove_number() - 1;
            draw_count = quiet && full_moves >= adj.draw_move_number ? draw_count + 1 : 0;
            if (draw_count >= 2 * adj.draw_move_count)
                return finish(Outcome{std::nullopt, Status::AGREEMENT}, Termination::ADJUDICATION,
                              "Draw by adjudication");
        }
        if (adj.max_moves > 0 && game.position().fullmove_number() > adj.max_moves && side == BLACK)
            return finish(Outcome{std::nullopt, Status::AGREEMENT}, Termination::ADJUDICATION,
                          "Draw by adjudication: maximum moves reached");
    }
    return finish(game.outcome(), Termination::NORMAL, describe(game.outcome()));
}

}  // namespace outpost::match
