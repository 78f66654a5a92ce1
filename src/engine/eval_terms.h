// Outpost — the layout of the evaluation's weights.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Every weight of the evaluation is one (mg, eg) Score in a flat table, addressed by
// the named offsets below. The values live in eval_weights.h, which the tuner
// (tools/tuner) rewrites; the evaluation can also record, per position, how many
// times each weight was added for white minus black (an EvalTrace), which makes the
// evaluation a linear function of the weights that the tuner can fit directly.
#pragma once

#include "engine/score.h"

namespace outpost::engine {

enum EvalTerm : int {
    T_MATERIAL = 0,                          // [pawn..queen]
    T_PSQT = T_MATERIAL + 5,                 // [piece type][relative rank * 4 + folded file]
    T_MOB_KNIGHT = T_PSQT + 6 * 32,          // [squares reached 0..8]
    T_MOB_BISHOP = T_MOB_KNIGHT + 9,         // [0..13]
    T_MOB_ROOK = T_MOB_BISHOP + 14,          // [0..14]
    T_MOB_QUEEN = T_MOB_ROOK + 15,           // [0..27]
    T_PAWN_DOUBLED = T_MOB_QUEEN + 28,       // pawn with a friendly pawn in front of it
    T_PAWN_ISOLATED,                         // no friendly pawn on an adjacent file
    T_PAWN_BACKWARD,                         // cannot be supported and its stop square is held by enemy pawns
    T_PAWN_CONNECTED,                        // [relative rank] defended by a pawn or beside one
    T_PASSED = T_PAWN_CONNECTED + 8,         // [relative rank]
    T_PASSED_FREE = T_PASSED + 8,            // [relative rank] nothing stands on the way to promotion
    T_PASSED_OWN_KING = T_PASSED_FREE + 8,   // per square of distance to the stop square, times rank weight
    T_PASSED_ENEMY_KING,                     // the same for the enemy king
    T_BISHOP_PAIR,
    T_ROOK_OPEN,                             // rook on a file without pawns
    T_ROOK_SEMI_OPEN,                        // rook on a file without own pawns
    T_ROOK_SEVENTH,                          // rook on the relative seventh rank
    T_KNIGHT_OUTPOST,                        // knight on ranks 4-6, pawn-defended, out of enemy pawns' reach
    T_BISHOP_OUTPOST,
    T_KING_ATTACK,                           // [knight..queen] per king-zone square attacked, scaled by attackers
    T_SAFE_CHECK = T_KING_ATTACK + 4,        // [knight..queen] squares giving a check the defender cannot cover
    T_KING_SHIELD = T_SAFE_CHECK + 4,        // [pawn on rank 2, on rank 3, none] per file around the king
    T_KING_OPEN_FILE = T_KING_SHIELD + 3,    // file at or next to the king without pawns
    T_KING_SEMI_OPEN,                        // ... without own pawns
    T_THREAT_BY_PAWN,                        // enemy piece attacked by a pawn
    T_THREAT_BY_MINOR,                       // [victim type]
    T_THREAT_BY_ROOK = T_THREAT_BY_MINOR + 6,  // [victim type]
    T_HANGING = T_THREAT_BY_ROOK + 6,        // enemy piece attacked and not defended
    T_TEMPO,                                 // side to move
    T_COUNT
};

struct EvalTermGroup {
    const char* name;
    int offset;
    int size;
};

// The groups in table order; the tuner writes eval_weights.h one group per block.
inline constexpr EvalTermGroup EvalTermGroups[] = {
    {"material", T_MATERIAL, 5},
    {"psqt pawn", T_PSQT + 0 * 32, 32},
    {"psqt knight", T_PSQT + 1 * 32, 32},
    {"psqt bishop", T_PSQT + 2 * 32, 32},
    {"psqt rook", T_PSQT + 3 * 32, 32},
    {"psqt queen", T_PSQT + 4 * 32, 32},
    {"psqt king", T_PSQT + 5 * 32, 32},
    {"mobility knight", T_MOB_KNIGHT, 9},
    {"mobility bishop", T_MOB_BISHOP, 14},
    {"mobility rook", T_MOB_ROOK, 15},
    {"mobility queen", T_MOB_QUEEN, 28},
    {"pawn doubled", T_PAWN_DOUBLED, 1},
    {"pawn isolated", T_PAWN_ISOLATED, 1},
    {"pawn backward", T_PAWN_BACKWARD, 1},
    {"pawn connected", T_PAWN_CONNECTED, 8},
    {"passed", T_PASSED, 8},
    {"passed free", T_PASSED_FREE, 8},
    {"passed own king", T_PASSED_OWN_KING, 1},
    {"passed enemy king", T_PASSED_ENEMY_KING, 1},
    {"bishop pair", T_BISHOP_PAIR, 1},
    {"rook open file", T_ROOK_OPEN, 1},
    {"rook semi-open file", T_ROOK_SEMI_OPEN, 1},
    {"rook seventh", T_ROOK_SEVENTH, 1},
    {"knight outpost", T_KNIGHT_OUTPOST, 1},
    {"bishop outpost", T_BISHOP_OUTPOST, 1},
    {"king attack", T_KING_ATTACK, 4},
    {"safe check", T_SAFE_CHECK, 4},
    {"king shield", T_KING_SHIELD, 3},
    {"king open file", T_KING_OPEN_FILE, 1},
    {"king semi-open file", T_KING_SEMI_OPEN, 1},
    {"threat by pawn", T_THREAT_BY_PAWN, 1},
    {"threat by minor", T_THREAT_BY_MINOR, 6},
    {"threat by rook", T_THREAT_BY_ROOK, 6},
    {"hanging", T_HANGING, 1},
    {"tempo", T_TEMPO, 1},
};

}  // namespace outpost::engine
