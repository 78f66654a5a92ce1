// Outpost — the cooperative mate search.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Both sides play toward one goal, the mate of the loser's king by the winner. The
// search is best first: the positions waiting to be expanded are kept in order of how
// close each looks to a mate (the loser's king short of flight squares, in check,
// near an edge; the winner's pieces near it; failing pieces, a pawn near promotion),
// plus the length of the line, so that it finds a mate in few positions on real game
// positions. Every position seen is kept, so none is expanded twice, and every
// position is checked by the static proofs (statically_cannot_mate): one where the
// winner provably can never mate is not expanded, nor one where the game has ended.
// That makes the search complete as well as fast to find mates: when nothing is left
// to expand, every reachable position has been seen without a mate by the winner,
// which proves that it cannot mate.
//
// Positions are told apart by Position::repetition_key (R9 identity); the move
// counters do not matter to the question.
#include "chess/helpmate.h"

#include <algorithm>
#include <cstdlib>
#include <queue>
#include <unordered_set>

#include "chess/movegen.h"

namespace outpost::detail {
namespace {

int distance(Square a, Square b) {
    return std::max(std::abs(int(file_of(a)) - int(file_of(b))), std::abs(int(rank_of(a)) - int(rank_of(b))));
}

int edge_distance(Square s) {
    const int f = file_of(s), r = rank_of(s);
    return std::min(std::min(f, 7 - f), std::min(r, 7 - r));
}

// How far a position looks from the loser's mate; lower is closer. A guide for
// move ordering only: nothing depends on it being right.
int mate_distance(const Position& p, Color winner) {
    const Color loser = ~winner;
    const Square k = p.king_square(loser);
    const Bitboard occupied = p.pieces() ^ square_bb(k);  // lines through the king count
    const Bitboard wpawns = p.pieces(winner, PAWN);
    Bitboard attacked = (winner == WHITE ? pawn_attacks_bb<WHITE>(wpawns) : pawn_attacks_bb<BLACK>(wpawns)) |
                        king_attacks(p.king_square(winner));
    Bitboard force = p.pieces(winner) & ~wpawns & ~p.pieces(winner, KING);
    int closest = 8, queen = 0;
    for (Bitboard b = force; b; ) {
        const Square s = pop_lsb(b);
        const PieceType pt = type_of(p.piece_on(s));
        attacked |= attacks_bb(pt, s, occupied);
        closest = std::min(closest, distance(s, k));
        if (pt == QUEEN && !queen) queen = distance(s, k);
    }
    int score = force ? closest + queen : 0;
    score -= std::min(4, popcount(attacked & king_attacks(k)));
    const Bitboard flight = king_attacks(k) & ~p.pieces(loser) & ~attacked;
    score += 4 * popcount(flight);
    if (!(attacked & square_bb(k))) score += 3;
    if (!force) {
        // Only pawns left to mate with: bring one to promotion first.
        int best = 7;
        for (Bitboard b = wpawns; b; ) best = std::min(best, 7 - int(relative_rank(winner, rank_of(pop_lsb(b)))));
        score += 10 + 3 * best;
    }
    if (!p.pieces(winner, QUEEN)) score += distance(p.king_square(winner), k) / 2;
    return score + edge_distance(k);
}

class Search {
public:
    Search(const Position& root, Color winner, const MateBudget& budget)
        : root_(root), winner_(winner), budget_(budget) {}

    // Best first over the positions reachable from the root. Each popped position
    // has all its legal moves generated; a new position is dropped when it has been
    // seen, when the game ends there (mate of the winner, stalemate), or when the
    // static proofs say the winner can never mate from it. An empty queue means every
    // reachable position has been seen without a mate: CANNOT_MATE.
    MateAnswer run() {
        nodes_store_.push_back({root_, -1, Move::none(), 0});
        seen_.insert(root_.repetition_key());
        queue_.push({0, 0});
        while (!queue_.empty()) {
            const int index = queue_.top().second;
            queue_.pop();
            const Position p = nodes_store_[size_t(index)].pos;
            const int depth = nodes_store_[size_t(index)].depth + 1;
            for (Move m : legal_moves(p)) {
                if (!spend()) return {MateAbility::UNKNOWN, {}, nodes_};
                Position next = p.after(m);
                if (!seen_.insert(next.repetition_key()).second) continue;
                // Only a check can be mate; a stalemate is simply found to have no
                // moves when its turn comes.
                if (next.in_check() && !next.has_legal_moves()) {
                    if (next.side_to_move() == ~winner_) return found(index, m);
                    continue;  // the winner mated
                }
                if (statically_cannot_mate(next, winner_)) continue;
                const int priority = GuideWeight * mate_distance(next, winner_) + depth;
                nodes_store_.push_back({std::move(next), index, m, depth});
                queue_.push({-priority, int(nodes_store_.size() - 1)});
            }
        }
        return {MateAbility::CANNOT_MATE, {}, nodes_};
    }

private:
    // How much the guide counts against the length of the line: higher finds mates
    // in fewer positions, lower finds shorter mates.
    static constexpr int GuideWeight = 1;

    struct Node {
        Position pos;
        int parent;
        Move move;
        int depth;
    };

    // Counts one position; false once the budget is spent.
    bool spend() {
        ++nodes_;
        if (nodes_ > budget_.nodes) return false;
        return (nodes_ & 255) != 0 || !budget_.out_of_time || !budget_.out_of_time();
    }

    MateAnswer found(int index, Move last) const {
        std::vector<Move> line{last};
        for (int i = index; nodes_store_[size_t(i)].parent >= 0; i = nodes_store_[size_t(i)].parent)
            line.push_back(nodes_store_[size_t(i)].move);
        std::reverse(line.begin(), line.end());
        return {MateAbility::CAN_MATE, line, nodes_};
    }

    const Position& root_;
    const Color winner_;
    const MateBudget& budget_;
    std::uint64_t nodes_ = 0;
    std::vector<Node> nodes_store_;
    std::unordered_set<Key> seen_;
    std::priority_queue<std::pair<int, int>> queue_;
};

}  // namespace

MateAnswer helpmate_search(const Position& root, Color winner, const MateBudget& budget) {
    return Search(root, winner, budget).run();
}

}  // namespace outpost::detail
