// Outpost — Zobrist keys in the Polyglot layout, so that a Position's key is the
// key Polyglot opening books are indexed by.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Polyglot's table has 781 constants:
//   [64 * kind + square]  piece on square; kind is 2 * type + (colour == WHITE),
//                         types ordered pawn, knight, bishop, rook, queen, king
//   [768 + 0..3]          castling: white short, white long, black short, black long
//   [772 + file]          en passant file, only when a pawn of the side to move
//                         stands beside the pawn that has just made a double step
//   [780]                 XORed in when WHITE is to move
#pragma once

#include "chess/types.h"

namespace outpost::zobrist {

extern const Key Polyglot[781];

inline Key piece_square(Piece p, Square s) {
    return Polyglot[64 * (2 * type_of(p) + (color_of(p) == WHITE)) + s];
}
inline Key castling(Color c, CastlingSide side) { return Polyglot[768 + 2 * c + side]; }
inline Key en_passant(File f) { return Polyglot[772 + f]; }
inline Key white_to_move() { return Polyglot[780]; }

}  // namespace outpost::zobrist
