#!/usr/bin/env python3
# Outpost — one Elo scale for every player in a set of PGN files (issue 10, P3, E2).
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The maximum-likelihood ratings of the logistic Elo model (a draw is half a win),
# with some players' ratings fixed (anchors), found by the minorisation-maximisation
# iteration for the Bradley-Terry model. Each pair of players that met gets one
# virtual draw, so that a player who won or lost every game still has a finite
# rating (a mild pull towards its opponents). The 95% intervals come from a
# bootstrap: the games are drawn again with replacement 300 times and the ratings
# fitted again; the interval is the 2.5th to 97.5th percentile.
#
# Usage: fit_elo.py [--anchor NAME=ELO]... [--offset-anchor NAME=ELO]... [--offset-slope]
#                   [--seed N] [--samples N] FILE.pgn...
# Prints a line per player: name, games, points, rating, 95% interval, and then
# every pair that met: the score and the Elo difference it implies, with its
# likelihood of superiority (LOS).
import argparse
import math
import random
import re
import sys
from collections import defaultdict

TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')


def read_games(paths):
    games = []  # (white, black, white's points)
    for path in paths:
        tags = {}
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = TAG.match(line)
                if m:
                    tags[m.group(1)] = m.group(2)
                    continue
                if line.strip() == "" and "Result" in tags and "White" in tags:
                    r = tags["Result"]
                    points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(r)
                    if points is not None:
                        games.append((tags["White"], tags["Black"], points))
                    tags = {}
        if "Result" in tags and "White" in tags:
            points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(tags["Result"])
            if points is not None:
                games.append((tags["White"], tags["Black"], points))
    # A game is counted at the blank line after its tags, once.
    return games


def fit(games, anchors, offset_anchors=None, iterations=4000, slope=False):
    """Ratings by maximum likelihood. anchors: fixed ratings. offset_anchors: ratings
    fixed up to a shared offset, which is fitted too: one number, or with slope=True
    a straight line in the label (offset + slope * (label - mean label)), for a ladder
    whose drift grows along it. Returns (ratings, offset, slope)."""
    offset_anchors = offset_anchors or {}
    ref = sum(offset_anchors.values()) / len(offset_anchors) if offset_anchors else 0.0
    line = 0.0
    players = sorted({g[0] for g in games} | {g[1] for g in games})
    n = defaultdict(float)  # games between a pair (both orders)
    pair_points = defaultdict(float)  # points of the first of the pair against the second
    for w, b, p in games:
        n[(w, b)] += 1
        n[(b, w)] += 1
        pair_points[(w, b)] += p
        pair_points[(b, w)] += 1 - p
    # One virtual draw per pair that met.
    for pair in list(n):
        n[pair] += 1
        pair_points[pair] += 0.5
    points = defaultdict(float)
    opponents = defaultdict(list)
    for (a, b), c in n.items():
        opponents[a].append((b, c))
        points[a] += pair_points[(a, b)]
    offset = 0.0
    rating = {p: anchors.get(p, offset_anchors.get(p, 1500)) for p in players}
    free = [p for p in players if p not in anchors and p not in offset_anchors]
    k = math.log(10) / 400
    for _ in range(iterations):
        change = 0.0
        for a in free:
            ga = 10 ** (rating[a] / 400)
            denom = sum(c / (ga + 10 ** (rating[b] / 400)) for b, c in opponents[a])
            new = 400 * math.log10(points[a] / denom)
            change = max(change, abs(new - rating[a]))
            rating[a] = new
        if offset_anchors:
            # One Newton step for the offset (and the slope): the gradient and the
            # Hessian of the log-likelihood in (offset, slope); x is the label's
            # distance from the mean label, the slope's weight.
            g0 = g1 = h00 = h01 = h11 = 0.0
            for a in offset_anchors:
                if a not in rating:
                    continue
                x = offset_anchors[a] - ref
                for b, c in opponents[a]:
                    if b in offset_anchors:
                        continue
                    e = 1 / (1 + 10 ** ((rating[b] - rating[a]) / 400))
                    r = pair_points[(a, b)] - c * e
                    w = c * e * (1 - e) * k
                    g0 += r
                    g1 += r * x
                    h00 += w
                    h01 += w * x
                    h11 += w * x * x
            det = h00 * h11 - h01 * h01
            if slope and det > 1e-12 * max(h00 * h11, 1e-300):
                step0 = (h11 * g0 - h01 * g1) / det
                step1 = (h00 * g1 - h01 * g0) / det
            elif h00 > 0:
                step0, step1 = g0 / h00, 0.0
            else:
                step0 = step1 = 0.0
            # Damped: the free players move with the ladder, so a full step can
            # overshoot.
            step0 = max(-50.0, min(50.0, step0))
            step1 = max(-0.05, min(0.05, step1))
            offset += step0
            line += step1
            change = max(change, abs(step0), abs(step1) * 1000)
            for a in offset_anchors:
                if a in rating:
                    rating[a] = offset_anchors[a] + offset + line * (offset_anchors[a] - ref)
        if not anchors and not offset_anchors:  # without an anchor the mean is 1500
            mean = sum(rating.values()) / len(rating)
            for a in players:
                rating[a] += 1500 - mean
        if change < 1e-7:
            break
    return rating, offset, line


def los(wins, losses):
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * (wins + losses))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--anchor", action="append", default=[])
    ap.add_argument("--offset-anchor", action="append", default=[])
    ap.add_argument("--offset-slope", action="store_true",
                    help="the --offset-anchor players' offset is a line in their label")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--samples", type=int, default=300)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    def parse(values, flag):
        out = {}
        for a in values:
            name, _, elo = a.rpartition("=")
            try:
                out[name] = float(elo)
            except ValueError:
                name = ""
            if not name:
                sys.exit(f"fit_elo: {flag} {a!r}: expected NAME=ELO")
        return out
    anchors = parse(args.anchor, "--anchor")
    offset_anchors = parse(args.offset_anchor, "--offset-anchor")
    games = read_games(args.files)
    if not games:
        sys.exit("fit_elo: no finished games in " + " ".join(args.files))
    for name in list(anchors) + list(offset_anchors):
        if not any(name in (w, b) for w, b, _ in games):
            sys.exit(f"fit_elo: anchor {name} played no game")
    ratings, offset, line = fit(games, anchors, offset_anchors, slope=args.offset_slope)
    rng = random.Random(args.seed)
    samples = defaultdict(list)
    offsets = []
    lines = []
    for _ in range(args.samples):
        drawn = [games[rng.randrange(len(games))] for _ in games]
        present = {w for w, _, _ in drawn} | {b for _, b, _ in drawn}
        r, o, sl = fit(drawn, {k: v for k, v in anchors.items() if k in present},
                       {k: v for k, v in offset_anchors.items() if k in present}, 1500,
                       args.offset_slope)
        offsets.append(o)
        lines.append(sl)
        for p, v in r.items():
            samples[p].append(v)
    count = defaultdict(int)
    score = defaultdict(float)
    for w, b, p in games:
        count[w] += 1
        count[b] += 1
        score[w] += p
        score[b] += 1 - p
    print(f"{'player':<22} {'games':>5} {'points':>7} {'Elo':>6} {'95% interval':>15} {'±':>5}")
    for p in sorted(ratings, key=lambda x: -ratings[x]):
        s = sorted(samples[p]) if samples[p] else [ratings[p]]
        lo = s[int(0.025 * (len(s) - 1))]
        hi = s[int(0.975 * (len(s) - 1))]
        fixed = " (anchor)" if p in anchors else " (anchor + offset)" if p in offset_anchors else ""
        print(f"{p:<22} {count[p]:>5} {score[p]:>7.1f} {ratings[p]:>6.0f} {lo:>7.0f}..{hi:<7.0f} {max(hi - ratings[p], ratings[p] - lo):>5.0f}{fixed}")
    if offset_anchors:
        o = sorted(offsets)
        ref = sum(offset_anchors.values()) / len(offset_anchors)
        where = f" at label {ref:.0f}" if args.offset_slope else ""
        print(f"\noffset of the --offset-anchor players{where}: {offset:+.0f} "
              f"(95% interval {o[int(0.025 * (len(o) - 1))]:+.0f}..{o[int(0.975 * (len(o) - 1))]:+.0f})")
        if args.offset_slope:
            sl = sorted(lines)
            print(f"slope of the offset: {line:+.3f} Elo per Elo of label "
                  f"(95% interval {sl[int(0.025 * (len(sl) - 1))]:+.3f}..{sl[int(0.975 * (len(sl) - 1))]:+.3f})")
            for a in sorted(offset_anchors, key=offset_anchors.get):
                print(f"  {a}: label {offset_anchors[a]:.0f}, offset {offset + line * (offset_anchors[a] - ref):+.0f}")
    print()
    print("head to head (first player's wins - losses - draws, Elo from the score, LOS)")
    h2h = defaultdict(lambda: [0, 0, 0])
    for w, b, p in games:
        a, c = sorted((w, b))
        pa = p if a == w else 1 - p
        h2h[(a, c)][0 if pa == 1 else 1 if pa == 0 else 2] += 1
    for (a, c), (wi, lo_, dr) in sorted(h2h.items()):
        n = wi + lo_ + dr
        s = (wi + dr / 2) / n
        s = min(max(s, 0.5 / n), 1 - 0.5 / n)
        elo = -400 * math.log10(1 / s - 1)
        print(f"  {a} v {c}: {wi} - {lo_} - {dr}  ({n} games)  {elo:+.0f}  LOS {100 * los(wi, lo_):.1f}%")


if __name__ == "__main__":
    main()
