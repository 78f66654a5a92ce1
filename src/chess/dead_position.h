// Outpost — dead positions (R7) and whether a side can still mate (R11).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Both questions ask whether some sequence of legal moves leads to checkmate. The
// answers here are sound in one direction: "dead" and "cannot mate" are said only
// when proven; when unsure the answer is "not dead" / "can mate", which is the
// answer that never takes a result away from a player who might have earned it.
#pragma once

#include <cstdint>

#include "chess/position.h"

namespace outpost {

// R7: no sequence of legal moves can lead to checkmate for either side. Covers the
// FIDE material cases and positions whose pawns are frozen for good (locked chains
// with only kings behind them, the kings unable to reach any pawn they could take).
bool is_dead_position(const Position& pos);

enum class MateAbility : std::uint8_t {
    CAN_MATE,     // a mate by `side` was found, or the search could not rule one out
    CANNOT_MATE,  // proven: no series of legal moves lets `side` checkmate
};

// R11: can `side` checkmate the opponent by any series of legal moves (both sides
// cooperating)? Static rules first (a lone king, a lone minor piece against a bare
// king, bishops of one colour, frozen pawns; a free pawn, rook or queen can always
// mate), then, for minor pieces only, a cooperative search over the
// positions reachable from here: if every reachable position is visited without
// finding a mate by `side`, it cannot mate; if `node_budget` runs out first, the
// answer is CAN_MATE.
MateAbility can_checkmate(const Position& pos, Color side, std::uint64_t node_budget = 20000);

// US Chess rule 14E: the opponent of the player whose flag fell has "insufficient
// material to win" (a lone king; king and bishop or king and knight; king and two
// knights against a lone king), so the flag fall is a draw.
bool uscf_insufficient_material_to_win(const Position& pos, Color side);

}  // namespace outpost
