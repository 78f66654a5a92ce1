// Outpost — PGN for a refereed engine game, through the rules core's PGN writer.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "match/pgn_writer.h"

#include <cstdio>

#include "chess/opening.h"
#include "chess/pgn.h"

namespace outpost::match {

std::string write_played_game(const PlayedGame& rec, const PgnContext& ctx) {
    PgnGame game;
    game.set_tag("Event", ctx.event);
    game.set_tag("Site", ctx.site);
    game.set_tag("Date", rec.start_time.substr(0, 10));
    game.set_tag("Round", ctx.round);
    game.set_tag("White", rec.white);
    game.set_tag("Black", rec.black);
    game.set_tag("Result", std::string(result_string(rec.outcome)));
    if (rec.white_tc == rec.black_tc) {
        game.set_tag("TimeControl", rec.white_tc);
    } else {
        game.set_tag("WhiteTimeControl", rec.white_tc);
        game.set_tag("BlackTimeControl", rec.black_tc);
    }
    std::vector<Move> moves;
    for (const auto& m : rec.moves) moves.push_back(m.move);
    const auto opening = classify_opening(rec.start, moves);  // none from an EPD start
    game.set_tag("ECO", opening ? opening->eco : "?");
    game.set_tag("Opening", opening ? opening->name : "?");
    game.set_tag("Termination", termination_tag(rec.termination));
    game.set_tag("PlyCount", std::to_string(rec.moves.size()));
    if (rec.start_time.size() > 11) game.set_tag("GameStartTime", rec.start_time.substr(11));
    char duration[32];
    std::snprintf(duration, sizeof duration, "%.1fs", rec.duration_seconds);
    game.set_tag("GameDuration", duration);

    game.start = rec.start;
    for (const auto& m : rec.moves) {
        PgnNode node;
        node.move = m.move;
        node.san = m.san;
        if (!m.comment.empty()) node.comments_after.push_back(m.comment);
        game.moves.push_back(std::move(node));
    }
    // How the game ended, in words, after the last move (before the first one when
    // an engine failed at once).
    if (!rec.reason.empty()) {
        if (game.moves.empty())
            game.comments.push_back(rec.reason);
        else
            game.moves.back().comments_after.push_back(rec.reason);
    }
    game.result = result_string(rec.outcome);
    return write_pgn(game);
}

}  // namespace outpost::match
