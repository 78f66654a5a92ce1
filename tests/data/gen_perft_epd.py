#!/usr/bin/env python3
"""Generate the perft test suites tests/data/standard.epd and tests/data/fischer.epd.

What it does
------------
* standard.epd -- standard chess:
    - the 7 positions of the Chess Programming Wiki "Perft Results" page
      (start position, Kiwipete, positions 3, 4, 4 mirrored, 5, 6);
    - well-known tricky positions (Martin Sedlak's "TalkChess PERFT Tests"
      list, en-passant pins / en passant evading or giving check, castling
      into / through check, promotions and under-promotions, stalemate);
    - RANDOM_STANDARD positions reached by random playouts (10..80 random
      legal plies) from the start position.
* fischer.epd -- Chess960 (all FENs use Shredder-FEN castling, e.g. "HAha"):
    - ~40 start positions chosen across Scharnagl numbers 0..959 (always
      including 0, 518, 959 and several with the king on the b or g file);
    - RANDOM_960 positions reached by random playouts from random 960 starts,
      chosen so that many of them still allow a *legal* castling move at the
      root (king on the g/b file, rook adjacent to the king, king or rook
      already on its destination square, both wings, both colours).

Line format: ``FEN ;D1 n1 ;D2 n2 ... ;Dk nk`` with full 6-field FENs.
Depths D1..D4 are always written; deeper depths (up to D6 for standard, D5
for Chess960) are added while the count stays within the node cap (200 M for
standard, 50 M for Chess960).

Where the numbers come from
---------------------------
EVERY node count is produced by Stockfish (default /usr/games/stockfish,
single thread): the script sends ``position fen <FEN>`` and ``go perft N``
and reads the ``Nodes searched: N`` line.  For Chess960 it first sends
``setoption name UCI_Chess960 value true``.  The legal moves used for the
random playouts are also taken from Stockfish's ``go perft 1`` output, and
the FEN after each move is read back from Stockfish's ``d`` command.  The
en-passant field of a written FEN is "-" unless a pawn of the side to move
stands beside the double-pushed pawn.  Published reference counts (CPW,
TalkChess) are only used as a cross-check and reported as warnings on
mismatch; they are never written to the files.

The random choices use a fixed seed, so re-running reproduces the files.

Usage: python3 gen_perft_epd.py [--stockfish PATH] [--outdir DIR] [--seed N]
"""
import argparse
import os
import random
import re
import subprocess
import sys
import time

STANDARD_CAP = 200_000_000
STANDARD_MAXD = 6
FISCHER_CAP = 50_000_000
FISCHER_MAXD = 5
MIN_DEPTH = 4
RANDOM_STANDARD = 60
START_960_COUNT = 40
RANDOM_960 = 40

STARTPOS = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# (FEN, {depth: published count}) -- published counts are only a cross-check.
CPW_POSITIONS = [
    (STARTPOS, {1: 20, 2: 400, 3: 8902, 4: 197281, 5: 4865609, 6: 119060324}),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
     {1: 48, 2: 2039, 3: 97862, 4: 4085603, 5: 193690690}),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
     {1: 14, 2: 191, 3: 2812, 4: 43238, 5: 674624, 6: 11030083}),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
     {1: 6, 2: 264, 3: 9467, 4: 422333, 5: 15833292}),
    ("r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
     {1: 6, 2: 264, 3: 9467, 4: 422333, 5: 15833292}),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
     {1: 44, 2: 1486, 3: 62379, 4: 2103487, 5: 89941194}),
    ("r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
     {1: 46, 2: 2079, 3: 89890, 4: 3894594, 5: 164075551}),
]

# Martin Sedlak's "TalkChess PERFT Tests".
SEDLAK_POSITIONS = [
    ("3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", {6: 1134888}),        # illegal ep #1
    ("8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1", {6: 1015133}),       # illegal ep #2
    ("8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", {6: 1440467}),      # ep captures checks opponent
    ("5k2/8/8/8/8/8/8/4K2R w K - 0 1", {6: 661072}),            # short castling gives check
    ("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", {6: 803711}),            # long castling gives check
    ("r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", {4: 1274206}),  # castle rights
    ("r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", {4: 1720476}),   # castling prevented
    ("2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", {6: 3821001}),        # promote out of check
    ("8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1", {5: 1004658}),      # discovered check
    ("4k3/1P6/8/8/8/8/K7/8 w - - 0 1", {6: 217342}),            # promote to give check
    ("8/P1k5/K7/8/8/8/8/8 w - - 0 1", {6: 92683}),              # under-promote to give check
    ("K1k5/8/P7/8/8/8/8/8 w - - 0 1", {6: 2217}),               # self stalemate
    ("8/k1P5/8/1K6/8/8/8/8 w - - 0 1", {}),                     # stalemate & checkmate
    ("8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1", {4: 23527}),          # stalemate & checkmate
]

# Further hand-picked tricky positions (counts from Stockfish only).
EXTRA_POSITIONS = [
    # en passant: horizontal pin through both pawns (illegal ep)
    "8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1",
    "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1",
    # en passant: diagonal pin of the capturing pawn (illegal ep)
    "8/1k6/8/8/3Pp3/8/8/4K2B b - d3 0 1",
    # en passant: capturing the checking pawn (legal ep evasion)
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
    # en passant: two pawns able to capture en passant
    "4k3/8/8/2PpP3/8/8/8/3RK3 w - d6 0 1",
    "4k3/8/8/8/1b2pPp1/8/8/5K2 b - f3 0 1",
    # en passant in an opening-like position (white to capture)
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    # castling: through / into / out of check, blocked squares
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",
    "r3k2r/8/8/8/8/8/8/4K3 b kq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
    "1r2k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1",      # b1 attacked: O-O-O still legal
    "3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1",         # d1 attacked: O-O-O illegal
    "4k3/8/8/8/2b5/8/8/R3K2R w KQ - 0 1",        # f1 attacked: O-O illegal
    "4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1",         # b1 blocked
    "4k3/8/8/8/8/8/6q1/R3K2R w KQ - 0 1",        # g2 queen covers f1/g1
    "4k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K1R1 w Qkq - 0 1",
    "r3k2r/8/8/8/8/8/8/1R2K2R w Kkq - 0 1",
    "r3k2r/8/8/8/4Q3/8/8/R3K2R b KQkq - 0 1",    # black in check: no castling
    # promotions and under-promotions, captures with promotion
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
    "8/PPPk4/8/8/8/8/4Kppp/8 w - - 0 1",
    "n1n5/1Pk5/8/8/8/8/5Kp1/5N1N w - - 0 1",
    "8/Pk6/8/8/8/8/6Kp/8 b - - 0 1",
    # discovered checks, double checks, knights
    "8/1n4N1/2k5/8/8/5K2/1N4n1/8 w - - 0 1",
    "4k3/8/8/8/8/8/4N3/4R1K1 w - - 0 1",         # knight moves give discovered check
    "4k3/8/5N2/8/8/8/8/4R1K1 b - - 0 1",         # double check: only king moves
    "r1bqkbnr/pppp1Qpp/2n5/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4",   # checkmated: D1 = 0
    "4k3/8/8/8/1b6/8/3R4/4K3 w - - 0 1",         # rook pinned on a diagonal: cannot move
    "4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1",         # rook pinned on a file: slides along it
    "8/8/8/8/8/8/6k1/4K2R w K - 0 1",
    "8/8/8/8/8/8/1k6/R3K3 w Q - 0 1",
]


# ------------------------------------------------------------------ Stockfish
class Stockfish:
    MOVE_RE = re.compile(r"^([a-h][1-8][a-h][1-8][qrbn]?): (\d+)$")

    def __init__(self, path, chess960):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name Threads value 1")
        self.send("setoption name Hash value 16")
        self.send("setoption name UCI_Chess960 value %s" % ("true" if chess960 else "false"))
        self.send("isready")
        self.wait_for("readyok")
        self.nodes_total = 0

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def readline(self):
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("stockfish terminated unexpectedly")
        return line.rstrip("\n")

    def wait_for(self, token):
        lines = []
        while True:
            line = self.readline()
            lines.append(line)
            if line.startswith(token):
                return lines

    def perft(self, fen, depth):
        """Return (nodes, {move: count}) from `go perft depth`."""
        self.send("position fen " + fen)
        self.send("go perft %d" % depth)
        moves = {}
        for line in self.wait_for("Nodes searched:"):
            m = self.MOVE_RE.match(line)
            if m:
                moves[m.group(1)] = int(m.group(2))
        nodes = int(line.split(":")[1])
        assert sum(moves.values()) == nodes, (fen, depth)
        self.nodes_total += nodes
        return nodes, moves

    def legal_moves(self, fen):
        return sorted(self.perft(fen, 1)[1])

    def fen_after(self, fen, move):
        self.send("position fen %s moves %s" % (fen, move))
        self.send("d")
        out = None
        for line in self.wait_for("Checkers:"):
            if line.startswith("Fen: "):
                out = line[5:].strip()
        return out

    def close(self):
        self.send("quit")
        self.proc.wait()


# ------------------------------------------------------------------ FEN utils
def parse_board(fen):
    """Return {(file, rank): piece_char} for the FEN's placement field."""
    board = {}
    for i, row in enumerate(fen.split()[0].split("/")):
        rank, f = 7 - i, 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(f, rank)] = ch
                f += 1
    return board


def sanitize_ep(fen):
    """Set the ep field to '-' unless a side-to-move pawn stands beside the
    double-pushed pawn (i.e. an ep capture is pseudo-legally possible)."""
    fields = fen.split()
    assert len(fields) == 6, fen
    if fields[3] != "-":
        board = parse_board(fen)
        f, r = "abcdefgh".index(fields[3][0]), int(fields[3][1]) - 1
        white = fields[1] == "w"
        pawn_rank = r - 1 if white else r + 1      # rank of the pushed pawn / capturers
        pushed = "p" if white else "P"
        own = "P" if white else "p"
        ok = (r == (5 if white else 2) and board.get((f, pawn_rank)) == pushed and
              any(board.get((f + d, pawn_rank)) == own for d in (-1, 1)))
        if not ok:
            fields[3] = "-"
    return " ".join(fields)


def scharnagl(n):
    """Chess960 back rank (white, uppercase) for Scharnagl number n (0..959)."""
    assert 0 <= n < 960
    rank = [None] * 8
    n, b1 = divmod(n, 4)
    rank[2 * b1 + 1] = "B"                    # light-squared bishop: b, d, f, h
    n, b2 = divmod(n, 4)
    rank[2 * b2] = "B"                        # dark-squared bishop: a, c, e, g
    n, q = divmod(n, 6)
    empty = [i for i in range(8) if rank[i] is None]
    rank[empty[q]] = "Q"
    knights = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2),
               (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)][n]
    empty = [i for i in range(8) if rank[i] is None]
    for k in knights:
        rank[empty[k]] = "N"
    empty = [i for i in range(8) if rank[i] is None]
    for i, p in zip(empty, "RKR"):
        rank[i] = p
    return "".join(rank)


def start960_fen(n):
    rank = scharnagl(n)
    rooks = [i for i, p in enumerate(rank) if p == "R"]
    files = "ABCDEFGH"
    castle = files[rooks[1]] + files[rooks[0]]          # h-side rook first, like Stockfish
    return "%s/pppppppp/8/8/8/8/PPPPPPPP/%s w %s%s - 0 1" % (
        rank.lower(), rank, castle, castle.lower())


# ------------------------------------------------------------------ counting
def depth_counts(sf, fen, cap, maxd, mind=MIN_DEPTH):
    """Perft counts for D1..Dk: D1..D`mind` always, deeper ones while the
    count stays <= cap (next depth is skipped when its estimate is > 2*cap)."""
    res = []
    for d in range(1, maxd + 1):
        if d > mind and len(res) >= 2 and res[-2] > 0:
            est = res[-1] * res[-1] / res[-2]
            if est > 2 * cap:
                break
        n, _ = sf.perft(fen, d)
        if d > mind and n > cap:
            break
        res.append(n)
    return res


def epd_line(fen, counts):
    return fen + "".join(" ;D%d %d" % (i + 1, n) for i, n in enumerate(counts))


def crosscheck(fen, counts, published, warnings):
    for d, want in published.items():
        if d <= len(counts) and counts[d - 1] != want:
            warnings.append("%s D%d: stockfish %d, published %d" % (fen, d, counts[d - 1], want))


# ------------------------------------------------------------------ playouts
def random_playout(sf, rng, start_fen, plies):
    """Play `plies` random legal moves; return the final FEN, or None if the
    game ended (no legal moves) on the way or at the end."""
    fen = start_fen
    for _ in range(plies):
        moves = sf.legal_moves(fen)
        if not moves:
            return None
        fen = sf.fen_after(fen, rng.choice(moves))
    if not sf.legal_moves(fen):
        return None
    return sanitize_ep(fen)


def castling_features(sf, fen):
    """Features of the legal castling moves at the root of a 960 FEN
    (Stockfish's 960 notation: king moves onto its own rook)."""
    board = parse_board(fen)
    white = fen.split()[1] == "w"
    king, rook = ("K", "R") if white else ("k", "r")
    feats = set()
    for mv in sf.legal_moves(fen):
        fr = ("abcdefgh".index(mv[0]), int(mv[1]) - 1)
        to = ("abcdefgh".index(mv[2]), int(mv[3]) - 1)
        if board.get(fr) != king or board.get(to) != rook:
            continue
        short = to[0] > fr[0]
        feats.add("castle")
        feats.add("short" if short else "long")
        feats.add("white" if white else "black")
        kdest, rdest = (6, 5) if short else (2, 3)
        if abs(to[0] - fr[0]) == 1:
            feats.add("adjacent")
        if fr[0] == kdest:
            feats.add("king_stays")
        if to[0] == rdest:
            feats.add("rook_stays")
        if fr[0] == 6:
            feats.add("king_g")
        if fr[0] == 1:
            feats.add("king_b")
    return feats


# ------------------------------------------------------------------ suites
def build_standard(sf_path, rng, warnings):
    sf = Stockfish(sf_path, chess960=False)
    lines, seen = [], set()

    def add(fen, published=None):
        fen = sanitize_ep(fen)
        key = " ".join(fen.split()[:4])
        if key in seen:
            return
        seen.add(key)
        counts = depth_counts(sf, fen, STANDARD_CAP, STANDARD_MAXD)
        if published:
            crosscheck(fen, counts, published, warnings)
        lines.append(epd_line(fen, counts))

    for fen, pub in CPW_POSITIONS + SEDLAK_POSITIONS:
        add(fen, pub)
    for fen in EXTRA_POSITIONS:
        add(fen)
    fixed = len(lines)
    made = 0
    while made < RANDOM_STANDARD:
        fen = random_playout(sf, rng, STARTPOS, rng.randint(10, 80))
        if fen is None:
            continue
        before = len(lines)
        add(fen)
        made += len(lines) - before
    total = sf.nodes_total
    sf.close()
    return lines, fixed, total


def pick_start_numbers():
    kings = {n: scharnagl(n).index("K") for n in range(960)}
    chosen = {0, 518, 959}
    king_b = [n for n in range(960) if kings[n] == 1]
    king_g = [n for n in range(960) if kings[n] == 6]
    for group in (king_b, king_g):
        step = len(group) / 6
        chosen.update(group[int(i * step)] for i in range(6))
    k = 0
    while len(chosen) < START_960_COUNT:
        chosen.add((k * 37 + 11) % 960)        # evenly spread, coprime stride
        k += 1
    return sorted(chosen)


def build_fischer(sf_path, rng, warnings):
    assert scharnagl(518) == "RNBQKBNR"
    assert scharnagl(0) == "BBQNNRKR"
    assert scharnagl(959) == "RKRNNQBB"
    sf = Stockfish(sf_path, chess960=True)
    lines, seen = [], set()

    def add(fen, published=None):
        key = " ".join(fen.split()[:4])
        if key in seen:
            return False
        castle = fen.split()[2]
        assert castle == "-" or re.fullmatch(r"[A-H]{0,2}[a-h]{0,2}", castle), fen
        seen.add(key)
        counts = depth_counts(sf, fen, FISCHER_CAP, FISCHER_MAXD)
        if published:
            crosscheck(fen, counts, published, warnings)
        lines.append(epd_line(fen, counts))
        return True

    for n in pick_start_numbers():
        pub = {1: 20, 2: 400, 3: 8902, 4: 197281, 5: 4865609} if n == 518 else None
        add(start960_fen(n), pub)
    n_starts = len(lines)

    # Random playouts.  First collect positions with a legal castling move,
    # greedily covering the interesting castling features, then fill up with
    # unconstrained (longer) playouts.
    wanted = ["king_g", "king_b", "adjacent", "king_stays", "rook_stays",
              "short", "long", "white", "black"]
    cover = {f: 0 for f in wanted}
    castling_target = RANDOM_960 // 2
    made_castle = 0
    attempts = 0
    while made_castle < castling_target and attempts < 4000:
        attempts += 1
        start = start960_fen(rng.randrange(960))
        fen = random_playout(sf, rng, start, rng.randint(6, 24))
        if fen is None:
            continue
        feats = castling_features(sf, fen)
        if "castle" not in feats:
            continue
        # prefer positions adding a rarely covered feature
        gain = sum(1 for f in feats if f in cover and cover[f] < 3)
        if gain == 0 and attempts < 3000:
            continue
        if add(fen):
            made_castle += 1
            for f in feats:
                if f in cover:
                    cover[f] += 1
    made = 0
    while made < RANDOM_960 - made_castle:
        start = start960_fen(rng.randrange(960))
        fen = random_playout(sf, rng, start, rng.randint(10, 80))
        if fen is not None and add(fen):
            made += 1
    total = sf.nodes_total
    sf.close()
    return lines, n_starts, made_castle, cover, total


def deepest_total(lines):
    """Sum of the counts at each line's deepest depth."""
    return sum(int(l.rsplit(" ", 1)[1]) for l in lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--outdir", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--seed", type=int, default=20240601)
    args = ap.parse_args()
    warnings = []
    t0 = time.time()

    std, fixed, nodes = build_standard(args.stockfish, random.Random(args.seed), warnings)
    with open(os.path.join(args.outdir, "standard.epd"), "w") as fh:
        fh.write("\n".join(std) + "\n")
    print("standard.epd: %d lines (%d fixed, %d random), deepest-depth total %d, "
          "%d nodes searched, %.1fs" % (len(std), fixed, len(std) - fixed,
                                        deepest_total(std), nodes, time.time() - t0))

    t1 = time.time()
    fis, starts, castle, cover, nodes = build_fischer(
        args.stockfish, random.Random(args.seed + 960), warnings)
    with open(os.path.join(args.outdir, "fischer.epd"), "w") as fh:
        fh.write("\n".join(fis) + "\n")
    print("fischer.epd: %d lines (%d starts, %d random with legal castling, %d other random), "
          "deepest-depth total %d, %d nodes searched, %.1fs" % (
              len(fis), starts, castle, len(fis) - starts - castle,
              deepest_total(fis), nodes, time.time() - t1))
    print("castling feature coverage:", cover)
    for w in warnings:
        print("WARNING (published count differs):", w, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
