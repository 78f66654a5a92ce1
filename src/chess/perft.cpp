// Outpost — perft.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "chess/perft.h"

#include "chess/movegen.h"

namespace outpost {

std::uint64_t perft(const Position& pos, int depth) {
    if (depth <= 0) return 1;
    if (depth == 1) return count_legal_moves(pos);
    MoveList list;
    generate(GenType::ALL, pos, list);
    std::uint64_t nodes = 0;
    for (Move m : list) {
        Position child = pos;
        child.do_move(m);
        nodes += perft(child, depth - 1);
    }
    return nodes;
}

std::vector<std::pair<Move, std::uint64_t>> perft_divide(const Position& pos, int depth) {
    std::vector<std::pair<Move, std::uint64_t>> out;
    for (Move m : legal_moves(pos)) out.emplace_back(m, depth <= 1 ? 1 : perft(pos.after(m), depth - 1));
    return out;
}

}  // namespace outpost
