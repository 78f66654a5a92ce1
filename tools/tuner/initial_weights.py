#!/usr/bin/env python3
# Outpost — the hand-set starting point of the evaluation weights, before tuning.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Writes src/engine/eval_weights.h in the same format as the tuner does. The values
# come from simple principles, not from any other program's tables:
#   material       the textbook 1/3/3/5/9, with bishops a little above knights and
#                  rooks gaining in the endgame where open lines appear;
#   piece squares  centralisation for knights (strongly) and bishops/queens (mildly),
#                  kings safe on the back rank in the middlegame and central in the
#                  endgame, pawns rewarded for central advances;
#   mobility       a concave curve (the first free squares matter most), zero near a
#                  typical number of squares for the piece.
import math
import sys

def centre_distance(f, r):
    return max(abs(f - 3.5), abs(r - 3.5))  # 0.5 (centre) .. 3.5 (corner)

def psqt(piece):
    out = []
    for r in range(8):
        for f in range(4):
            cd = centre_distance(f, r)
            if piece == "pawn":
                if r in (0, 7):
                    mg = eg = 0
                else:
                    mg = [0, 4, 8, 14][f] * max(0, min(r, 4) - 1) // 2 - (6 if r == 1 and f == 3 else 0)
                    eg = [0, 0, 2, 6, 12, 20, 30, 0][r]
            elif piece == "knight":
                mg = int(round(-12 * (cd - 1.5))) + (6 if r in (3, 4, 5) else 0) - (8 if r == 0 else 0)
                eg = int(round(-10 * (cd - 1.5)))
            elif piece == "bishop":
                mg = int(round(-5 * (cd - 1.5))) - (6 if r == 0 else 0)
                eg = int(round(-5 * (cd - 1.5)))
            elif piece == "rook":
                mg = [-4, 0, 3, 6][f] // 2 + (8 if r == 6 else 0)
                eg = 4 if r == 6 else 0
            elif piece == "queen":
                mg = int(round(-3 * (cd - 1.5))) - (4 if r == 0 else 0)
                eg = int(round(-8 * (cd - 1.5)))
            else:  # king
                mg = [[20, 28, 8, -6][f], [6, 4, -10, -20][f]][r] if r < 2 else -20 - 8 * (r - 2)
                eg = int(round(-14 * (cd - 1.5)))
            out.append((mg, eg))
    return out

def mobility(n, scale_mg, scale_eg, typical):
    return [(int(round(scale_mg * (math.sqrt(i) - math.sqrt(typical)))),
             int(round(scale_eg * (math.sqrt(i) - math.sqrt(typical))))) for i in range(n)]

groups = [
    ("material", [(90, 115), (330, 330), (350, 355), (470, 610), (1000, 1120)]),
    ("psqt pawn", psqt("pawn")), ("psqt knight", psqt("knight")), ("psqt bishop", psqt("bishop")),
    ("psqt rook", psqt("rook")), ("psqt queen", psqt("queen")), ("psqt king", psqt("king")),
    ("mobility knight", mobility(9, 14, 16, 4)), ("mobility bishop", mobility(14, 14, 16, 6)),
    ("mobility rook", mobility(15, 10, 18, 6)), ("mobility queen", mobility(28, 6, 12, 10)),
    ("pawn doubled", [(-8, -20)]), ("pawn isolated", [(-10, -12)]), ("pawn backward", [(-8, -8)]),
    ("pawn connected", [(0, 0), (4, 2), (6, 4), (10, 8), (18, 16), (30, 30), (50, 50), (0, 0)]),
    ("passed", [(0, 0), (2, 8), (4, 12), (8, 24), (20, 45), (40, 80), (70, 130), (0, 0)]),
    ("passed free", [(0, 0), (0, 2), (0, 4), (2, 8), (6, 16), (10, 30), (20, 50), (0, 0)]),
    ("passed own king", [(0, -3)]), ("passed enemy king", [(0, 6)]),
    ("bishop pair", [(30, 50)]), ("rook open file", [(25, 10)]), ("rook semi-open file", [(12, 6)]),
    ("rook seventh", [(10, 20)]), ("knight outpost", [(20, 10)]), ("bishop outpost", [(10, 5)]),
    ("king attack", [(8, 0), (6, 0), (8, 0), (12, 0)]),
    ("safe check", [(30, 0), (20, 0), (35, 0), (25, 0)]),
    ("king shield", [(12, 0), (6, 0), (-12, 0)]),
    ("king open file", [(-25, 0)]), ("king semi-open file", [(-12, 0)]),
    ("threat by pawn", [(50, 30)]),
    ("threat by minor", [(3, 10), (15, 15), (15, 15), (35, 20), (30, 30), (0, 0)]),
    ("threat by rook", [(3, 12), (15, 15), (15, 15), (0, 0), (30, 30), (0, 0)]),
    ("hanging", [(25, 15)]), ("tempo", [(15, 5)]),
]

def write_header(path, groups, comment):
    with open(path, "w") as f:
        f.write("// Outpost — the evaluation weights, as (middlegame, endgame) pairs in centipawns.\n")
        f.write("// SPDX-License-Identifier: GPL-3.0-or-later\n//\n")
        for line in comment.splitlines():
            f.write("// " + line + "\n" if line else "//\n")
        f.write("// The layout (offsets and group sizes) is eval_terms.h.\n")
        f.write("#pragma once\n\n#include <iterator>\n\n#include \"engine/eval_terms.h\"\n\n")
        f.write("namespace outpost::engine {\n\n// clang-format off\ninline constexpr Score EvalWeights[] = {\n")
        for name, vals in groups:
            f.write(f"    // {name}\n")
            row = []
            for i, (mg, eg) in enumerate(vals):
                row.append(f"S({mg}, {eg})")
                if len(row) == (4 if "psqt" in name else 8):
                    f.write("    " + ", ".join(row) + ",\n")
                    row = []
            if row:
                f.write("    " + ", ".join(row) + ",\n")
        f.write("};\n// clang-format on\nstatic_assert(std::size(EvalWeights) == T_COUNT);\n\n")
        f.write("}  // namespace outpost::engine\n")

if __name__ == "__main__":
    write_header(sys.argv[1] if len(sys.argv) > 1 else "src/engine/eval_weights.h", groups,
                 "Hand-set starting values (tools/tuner/initial_weights.py), not yet tuned.")
