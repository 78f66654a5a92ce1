// Outpost — PGN export of a Game.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "chess/game_pgn.h"

#include <cstdio>

#include "chess/opening.h"

namespace outpost {

std::string format_clk(Millis ms) {
    if (ms < 0) ms = 0;
    const long long total = ms / 1000;
    char buf[32];
    if (ms < 10'000 && ms % 1000 != 0)
        std::snprintf(buf, sizeof buf, "0:00:%02lld.%lld", total, (long long)(ms % 1000) / 100);
    else
        std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", total / 3600, (total / 60) % 60, total % 60);
    return buf;
}

std::string_view pgn_termination(Status s) {
    switch (s) {
    case Status::ONGOING: return "unterminated";
    case Status::TIMEOUT:
    case Status::TIMEOUT_DRAW:
    case Status::BOTH_FLAGS_FELL: return "time forfeit";
    case Status::ABORTED:
    case Status::FORFEIT: return "abandoned";
    case Status::SEALED_MOVE_ILLEGAL: return "rules infraction";
    case Status::ARBITER_DECISION: return "adjudication";
    default: return "normal";
    }
}

PgnGame game_to_pgn(const Game& game, const GameRecord& record) {
    auto made = make_pgn_game(game.start_position(), game.moves(), result_string(game.outcome()));
    // The Game only ever holds legal moves, so this cannot fail.
    PgnGame pgn = made.ok() ? std::move(made).value() : PgnGame{};
    pgn.tags.clear();
    pgn.set_tag("Event", record.event);
    pgn.set_tag("Site", record.site);
    pgn.set_tag("Date", record.date);
    pgn.set_tag("Round", record.round);
    pgn.set_tag("White", record.white);
    pgn.set_tag("Black", record.black);
    pgn.set_tag("Result", result_string(game.outcome()));
    pgn.set_tag("Termination", pgn_termination(game.status()));
    pgn.set_tag("TimeControl", record.time_control ? record.time_control->to_pgn() : "-");
    // The opening (data/openings): "?" when the game has none (a FEN or Chess960 start,
    // or no named position reached), as lichess writes it.
    const auto opening = classify_opening(game);
    pgn.set_tag("ECO", opening ? opening->eco : "?");
    pgn.set_tag("Opening", opening ? opening->name : "?");
    pgn.result = std::string(result_string(game.outcome()));

    for (size_t i = 0; i < pgn.moves.size() && i < record.clock_after_ply.size(); ++i)
        pgn.moves[i].comments_after.push_back("[%clk " + format_clk(record.clock_after_ply[i]) + "]");
    for (int ply : game.draw_offer_plies()) {
        if (ply > 0 && size_t(ply) <= pgn.moves.size()) pgn.moves[size_t(ply) - 1].draw_offer = true;
        else pgn.comments.push_back("(=)");
    }
    if (game.is_over()) {
        if (pgn.moves.empty()) pgn.comments.push_back(describe(game.outcome()));
        else pgn.moves.back().comments_after.push_back(describe(game.outcome()));
    }
    return pgn;
}

}  // namespace outpost
