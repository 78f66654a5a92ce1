// Outpost fuzzing: the positions the move-notation fuzzers (UCI, SAN) read their
// moves in — one of each hard case (castling in both rule sets, en passant,
// promotions, disambiguation). The input's first byte picks one.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <utility>
#include <vector>

#include "chess/fen.h"
#include "chess/position.h"

namespace outpost::fuzz {

inline const std::vector<Position>& positions() {
    static const std::vector<Position> all = [] {
        std::vector<Position> v;
        const std::pair<const char*, bool> fens[] = {
            {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
            {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},  // Kiwipete
            {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", true},   // as Chess960
            {"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false},                              // promotions
            {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false},        // en passant
            {"r5kr/8/8/8/8/8/8/RK5R w HAha - 0 1", true},                                     // 960 castling
            {"4k3/8/8/8/8/8/8/5K1R w H - 0 1", true},                                         // king step vs castle
            {"1k6/8/8/8/3N1N2/8/3N1N2/1K6 w - - 0 1", false},                                 // disambiguation
            {"6k1/8/8/8/Q2Q4/8/8/Q2Q3K w - - 0 1", false},                                     // file+rank needed
            {"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", true},
        };
        for (auto [fen, c960] : fens) v.push_back(position_from_fen(fen, c960).value());
        return v;
    }();
    return all;
}

}  // namespace outpost::fuzz
