#!/usr/bin/env python3
# Side-by-side check of `outpost pgn analyse --format tsv` against Stockfish at a
# fixed depth: Stockfish evaluates the same positions, the same rules (docs/analysis.md)
# turn its evaluations into marks, and the blunders are compared.
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   stockfish_check.py ANALYSIS.tsv [--stockfish PATH] [--depth D]
import argparse
import math
import subprocess
import sys

MATE_CP = 1000
WIN_SLOPE = 0.00368208
DROPS = [(15.0, "blunder"), (10.0, "mistake"), (5.0, "inaccuracy")]


class Eval:
    """White's point of view: cp, or mate (> 0 White mates), or the winner after mate."""

    def __init__(self, cp=0, mate=0):
        self.cp, self.mate = cp, mate

    def mating_side(self):
        return "w" if self.mate > 0 else "b" if self.mate < 0 else None

    def cp_for(self, side):
        white = MATE_CP if self.mate > 0 else -MATE_CP if self.mate < 0 else max(-MATE_CP, min(MATE_CP, self.cp))
        return white if side == "w" else -white

    def win(self, side):
        return 50 + 50 * (2 / (1 + math.exp(-WIN_SLOPE * self.cp_for(side))) - 1)


def parse_ours(text, side_to_move_after):
    if text == "-":  # after a checkmate: the side to move lost
        return Eval(mate=-1 if side_to_move_after == "w" else 1)
    if text.startswith("#"):
        return Eval(mate=int(text[1:]))
    return Eval(cp=round(float(text) * 100))


def mate_mark(margin):
    return "inaccuracy" if margin >= 1000 else "mistake" if margin >= 700 else "blunder"


def judge(before, after, mover):
    them = "b" if mover == "w" else "w"
    mb, ma = before.mating_side(), after.mating_side()
    if mb == mover:
        if ma == mover:
            return "-"
        if ma == them:
            return "blunder"
        return mate_mark(after.cp_for(mover))
    if ma == them:
        if mb == them:
            return "-"
        return mate_mark(-before.cp_for(mover))
    drop = before.win(mover) - after.win(mover)
    for threshold, mark in DROPS:
        if drop >= threshold:
            return mark
    return "-"


class Stockfish:
    def __init__(self, path, depth):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.depth = depth
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 64")
        self.send("ucinewgame")
        self.send("isready")
        self.wait_for("readyok")
        self.cache = {}

    def send(self, line):
        self.p.stdin.write(line + "\n")

    def wait_for(self, word):
        for line in self.p.stdout:
            if line.split() and line.split()[0] == word:
                return line
        raise RuntimeError("stockfish ended")

    def evaluate(self, fen):
        """(Eval from White's view, best move in UCI or None)."""
        if fen in self.cache:
            return self.cache[fen]
        white_to_move = fen.split()[1] == "w"
        self.send("position fen " + fen)
        self.send("go depth %d" % self.depth)
        score = None
        for line in self.p.stdout:
            t = line.split()
            if t and t[0] == "info" and "score" in t:
                i = t.index("score")
                kind, value = t[i + 1], int(t[i + 2])
                if "lowerbound" in t or "upperbound" in t:
                    continue
                score = (kind, value)
            elif t and t[0] == "bestmove":
                best = None if t[1] == "(none)" else t[1]
                break
        kind, value = score if score else ("cp", 0)
        sign = 1 if white_to_move else -1
        if kind == "mate":
            # mate 0: the side to move is checkmated
            e = Eval(mate=sign * value if value != 0 else -sign)
        else:
            e = Eval(cp=sign * value)
        self.cache[fen] = (e, best)
        return self.cache[fen]

    def close(self):
        self.send("quit")
        self.p.wait(timeout=10)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tsv")
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--depth", type=int, default=12)
    args = ap.parse_args()
    rows = [line.rstrip("\n").split("\t") for line in open(args.tsv) if line.strip()]
    sf = Stockfish(args.stockfish, args.depth)
    moves = 0
    both = ours_only = sf_only = 0
    marked_same = 0
    any_ours = any_sf = any_both = 0
    win_diffs = []
    disagreements = []
    for game, ply, san, uci, fen_before, fen_after, ours_before, ours_after, ours_best, our_mark in rows:
        mover = fen_before.split()[1]
        sf_before, sf_best = sf.evaluate(fen_before)
        sf_after, _ = sf.evaluate(fen_after)
        sf_mark = "-" if sf_best == uci else judge(sf_before, sf_after, mover)
        moves += 1
        ob = our_mark == "blunder"
        sb = sf_mark == "blunder"
        both += ob and sb
        ours_only += ob and not sb
        sf_only += sb and not ob
        marked_same += our_mark == sf_mark
        any_ours += our_mark != "-"
        any_sf += sf_mark != "-"
        any_both += our_mark != "-" and sf_mark != "-"
        ours = parse_ours(ours_after, fen_after.split()[1])
        win_diffs.append(abs(ours.win("w") - sf_after.win("w")))
        if ob != sb:
            disagreements.append("game %s ply %s %s: ours %s (%s -> %s), Stockfish %s" %
                                 (game, ply, san, our_mark, ours_before, ours_after, sf_mark))
    sf.close()
    win_diffs.sort()
    print("moves compared: %d (Stockfish depth %d)" % (moves, args.depth))
    print("blunders: both %d, ours only %d, Stockfish only %d" % (both, ours_only, sf_only))
    print("any mark (inaccuracy/mistake/blunder): ours %d, Stockfish %d, both %d; same mark on %d of %d moves" %
          (any_ours, any_sf, any_both, marked_same, moves))
    if win_diffs:
        print("White's winning chances after each move, |ours - Stockfish|: median %.1f, 90th percentile %.1f points" %
              (win_diffs[len(win_diffs) // 2], win_diffs[int(len(win_diffs) * 0.9)]))
    for d in disagreements:
        print("  disagree: " + d)


if __name__ == "__main__":
    sys.exit(main())
