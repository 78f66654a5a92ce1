// Outpost tests — finished games as storage keeps them (random legal moves from the
// start, then a resignation), written straight into a database: for the tests of the
// hub's memory of finished games (issue 28, item 14).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <random>
#include <string>
#include <vector>

#include "chess/fen.h"
#include "chess/game.h"
#include "chess/movegen.h"
#include "chess/uci.h"
#include "server/stores/game_store.h"

namespace outpost::test {

// A 5+3 game between two anonymous players of `plies` random legal moves (fewer if
// the game ends on the board first), over, with clocks on every move.
inline server::StoredGame finished_game(const std::string& id, int plies, std::mt19937& rng) {
    server::StoredGame g;
    g.id = id;
    g.created_ms = g.updated_ms = 1'700'000'000'000;
    g.white_token = g.black_token = id;
    g.white_token.append("w0123456789abcdef");
    g.black_token.append("b0123456789abcdef");
    g.white_kind = g.black_kind = "human";
    g.white_name = g.black_name = "Anonymous";
    g.time_control = "5+3";
    g.variant = "standard";
    g.initial_fen = to_fen(Position::startpos());
    g.casual = true;
    GameOptions options;
    options.auto_claim_draws = g.casual;  // as the server replays a casual game's moves
    Game game(Position::startpos(), options);
    std::int64_t clocks[2] = {300'000, 300'000};
    for (int ply = 1; ply <= plies && !game.is_over(); ++ply) {
        const MoveList legal = legal_moves(game.position());
        const Move m = legal[int(rng() % unsigned(legal.size()))];
        const Color mover = game.side_to_move();
        server::StoredMove sm;
        sm.ply = ply;
        sm.uci = move_to_uci(game.position(), m);
        clocks[mover] += 3'000 - std::int64_t(rng() % 5'000);
        sm.white_ms = clocks[WHITE];
        sm.black_ms = clocks[BLACK];
        sm.clock_after = clocks[mover];
        sm.at_ms = g.created_ms + ply * 2'000;
        (void)game.play(m);
        g.moves.push_back(sm);
    }
    if (game.is_over()) {
        g.status = std::string(status_id(game.outcome().reason));
        g.result = std::string(result_string(game.outcome()));
    } else {
        g.status = "resignation";
        g.result = game.side_to_move() == WHITE ? "0-1" : "1-0";
    }
    g.white_ms = clocks[WHITE];
    g.black_ms = clocks[BLACK];
    return g;
}

}  // namespace outpost::test
