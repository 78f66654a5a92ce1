// Outpost — the cooperative mate search.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Both sides play toward one goal, the mate of the loser's king by the winner. Two
// phases share the caller's budget:
//  1. Short helpmates: depth-first with iterative deepening (1, 3, 5 … plies to the
//     winner's mating move), a transposition table of "no mate within n plies", and
//     at the last ply only the winner's checks (only a check can mate). Most live
//     positions of real games and of the published vectors have a mate within a few
//     plies; this finds it in few positions without keeping them.
//  2. Best first, for long helpmates and for proofs. The positions waiting to be
//     expanded are kept in two queues, ordered by how close each looks to a mate
//     (the loser's king short of flight squares, in check, near a corner; the
//     winner's pieces near it; without a queen, a pawn near promotion, a blocked
//     pawn as further away unless a loser's piece comes to be taken by one; the
//     fewer pieces the loser keeps, the closer: they guard flight squares and take
//     the mating pieces, and most long helpmates give them away first) plus the
//     length of the line: one greedy (the guide counts much more), one balanced; the
//     two take turns. Every position seen is kept, so none is expanded twice, and
//     every position is checked by the static proofs (statically_cannot_mate): one
//     where the winner provably can never mate is not expanded, nor one where the
//     game has ended. That makes the search complete as well as fast to find mates:
//     when nothing is left to expand, every reachable position has been seen without
//     a mate by the winner, which proves that it cannot mate.
//
// Positions are told apart by Position::repetition_key (R9 identity); the move
// counters do not matter to the question.
#include "chess/helpmate.h"

#include <algorithm>
#include <cstdlib>
#include <queue>
#include <unordered_map>
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

int corner_distance(Square s) {
    const int f = file_of(s), r = rank_of(s);
    return std::max(std::min(f, 7 - f), std::min(r, 7 - r));
}

// How much each of the loser's pieces (a queen or rook twice as much as a bishop or
// knight) counts in the guide below. On the published vectors this alone found 23
// of the 68 long helpmates that the search missed within 1,000,000 positions.
constexpr int LoserMaterialWeight = 1;

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
    if (!force || (!queen && wpawns)) {
        // Without a queen a pawn on its way to promotion helps; with only pawns left to
        // mate with, bring one to promotion first. A pawn that is blocked and has
        // nothing to take counts as further away; when every pawn is blocked, the
        // loser's pieces that come within reach of a winner's pawn (to be taken, which
        // unblocks it) bring the promotion closer.
        const Bitboard pawn_targets = winner == WHITE ? pawn_attacks_bb<WHITE>(wpawns) : pawn_attacks_bb<BLACK>(wpawns);
        const Bitboard takeable = p.pieces(loser) & ~p.pieces(loser, KING);
        int best = 12;
        for (Bitboard b = wpawns; b;) {
            const Square s = pop_lsb(b);
            const Square ahead = Square(int(s) + int(pawn_push(winner)));
            const Bitboard attacks = winner == WHITE ? pawn_attacks_bb<WHITE>(square_bb(s)) : pawn_attacks_bb<BLACK>(square_bb(s));
            const bool blocked = (p.pieces() & square_bb(ahead)) && !(attacks & takeable);
            best = std::min(best, 7 - int(relative_rank(winner, rank_of(s))) + (blocked ? 5 : 0));
        }
        if (best >= 5 && pawn_targets) {
            int feed = 8;
            for (Bitboard b = takeable; b;) {
                const Square s = pop_lsb(b);
                for (Bitboard t = pawn_targets; t;) feed = std::min(feed, distance(s, pop_lsb(t)));
            }
            best += feed;
        }
        score += force ? best : 10 + 3 * best;
    }
    if (!p.pieces(winner, QUEEN)) score += distance(p.king_square(winner), k) / 2;
    // The loser's pieces guard flight squares, take the mating pieces and give
    // checks; a helpmate usually gives most of them away first.
    score += LoserMaterialWeight * (2 * popcount(p.pieces(loser, QUEEN) | p.pieces(loser, ROOK)) +
                                    popcount(p.pieces(loser, BISHOP) | p.pieces(loser, KNIGHT)));
    return score + corner_distance(k);
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
        if (MateAnswer a = short_mates(); a.ability != MateAbility::CANNOT_MATE) return a;
        nodes_store_.push_back({root_, -1, Move::none(), 0, false});
        seen_.insert(root_.repetition_key());
        for (auto& q : queues_) q.push({0, 0});
        for (std::uint64_t turn = 0;; ++turn) {
            // The two queues take turns; a position expanded from one is skipped when
            // the other pops it.
            auto& q = queues_[turn & 1].empty() ? queues_[~turn & 1] : queues_[turn & 1];
            while (!q.empty() && nodes_store_[size_t(q.top().second)].expanded) q.pop();
            if (q.empty()) {
                if (queues_[0].empty() && queues_[1].empty()) break;
                continue;
            }
            const int index = q.top().second;
            q.pop();
            nodes_store_[size_t(index)].expanded = true;
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
                const int guide = mate_distance(next, winner_);
                nodes_store_.push_back({std::move(next), index, m, depth, false});
                const int at = int(nodes_store_.size() - 1);
                queues_[0].push({-(GreedyWeight * guide + depth), at});
                queues_[1].push({-(guide + depth), at});
            }
        }
        return {MateAbility::CANNOT_MATE, {}, nodes_};
    }

private:
    // Phase 1. CANNOT_MATE here only means "none found": phase 2 decides.
    MateAnswer short_mates() {
        const std::uint64_t share = budget_.nodes / 4;  // phase 1's part of the budget
        short_limit_ = std::min(budget_.nodes, nodes_ + share);
        const int first = root_.side_to_move() == winner_ ? 1 : 2;
        for (int plies = first; plies <= MaxShortPlies; plies += 2) {
            line_.clear();
            const Outcome o = helpmate_within(root_, plies);
            if (o == Outcome::FOUND) {
                std::reverse(line_.begin(), line_.end());
                return {MateAbility::CAN_MATE, line_, nodes_};
            }
            if (o == Outcome::OUT_OF_BUDGET) {
                if (budget_spent_) return {MateAbility::UNKNOWN, {}, nodes_};
                break;  // phase 1's share spent: on to phase 2
            }
        }
        return {MateAbility::CANNOT_MATE, {}, nodes_};
    }

    enum class Outcome : std::uint8_t { NONE, FOUND, OUT_OF_BUDGET };

    // Is there a helpmate by the winner within `plies` plies of `p`? On FOUND, line_
    // holds the moves in reverse order.
    Outcome helpmate_within(const Position& p, int plies) {
        const Key key = p.key();
        if (auto it = short_table_.find(key); it != short_table_.end() && it->second >= plies) return Outcome::NONE;
        const bool winner_moves = p.side_to_move() == winner_;
        MoveList moves = legal_moves(p);
        // Order: for the winner checks, promotions to a queen or a knight and moves
        // toward the loser's king first; for the loser king moves toward an edge and
        // moves that take nothing of the winner's.
        const Square k = p.king_square(~winner_);
        struct Scored {
            Move m;
            int score;
        };
        std::vector<Scored> order;
        order.reserve(moves.size());
        for (Move m : moves) {
            int score = 0;
            if (winner_moves) {
                const bool check = p.gives_check(m);
                if (plies == 1 && !check) continue;  // only a check can mate
                score += check ? 100 : 0;
                if (m.kind() == Move::PROMOTION) score += m.promotion() == QUEEN ? 60 : m.promotion() == KNIGHT ? 30 : 0;
                score += 4 * (distance(m.from(), k) - distance(m.to(), k));
            } else {
                if (p.is_capture(m)) score -= 50;
                if (m.from() == k) score += 4 * (edge_distance(m.from()) - edge_distance(m.to()));
            }
            order.push_back({m, score});
        }
        std::stable_sort(order.begin(), order.end(), [](const Scored& a, const Scored& b) { return a.score > b.score; });
        for (const Scored& s : order) {
            if (!spend() || nodes_ > short_limit_) return Outcome::OUT_OF_BUDGET;
            const Position next = p.after(s.m);
            const bool mated = next.in_check() && !next.has_legal_moves();
            if (mated) {
                if (winner_moves) {
                    line_.push_back(s.m);
                    return Outcome::FOUND;
                }
                continue;  // the winner mated: not this line
            }
            if (plies <= 1) continue;
            if (statically_cannot_mate(next, winner_)) continue;
            const Outcome o = helpmate_within(next, plies - 1);
            if (o == Outcome::FOUND) line_.push_back(s.m);
            if (o != Outcome::NONE) return o;
        }
        int& stored = short_table_[key];
        stored = std::max(stored, plies);
        return Outcome::NONE;
    }

    // Phase 1 looks this deep at most (the winner's mating move included).
    static constexpr int MaxShortPlies = 9;

    // How much the guide counts against the length of the line in the first queue
    // (the second counts both the same). Greedy finds long helpmates that a balanced
    // order does not reach, and the other way round; on the published vectors each
    // found about 50 mates within the budget that the other did not, so both take turns.
    static constexpr int GreedyWeight = 12;

    struct Node {
        Position pos;
        int parent;
        Move move;
        int depth;
        bool expanded;
    };

    // Counts one position; false once the budget is spent.
    bool spend() {
        ++nodes_;
        if (nodes_ > budget_.nodes) return !(budget_spent_ = true);
        if ((nodes_ & 255) == 0 && budget_.out_of_time && budget_.out_of_time()) return !(budget_spent_ = true);
        return true;
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
    std::priority_queue<std::pair<int, int>> queues_[2];
    bool budget_spent_ = false;
    std::uint64_t short_limit_ = 0;
    std::unordered_map<Key, int> short_table_;
    std::vector<Move> line_;
};

}  // namespace

MateAnswer helpmate_search(const Position& root, Color winner, const MateBudget& budget) {
    return Search(root, winner, budget).run();
}

}  // namespace outpost::detail
