#!/usr/bin/env python3
# Outpost — builds the opening sets of this folder from lines.txt.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: make_openings.py OUTPOST STOCKFISH [DEPTH]
# For every line: `outpost pgn from-uci` checks the moves and gives SAN; Stockfish's
# `d` command gives the FEN and a search to DEPTH gives the score. Lines whose score
# is outside +/-MAX_CP are left out, so that both colours have a fair game.
import subprocess
import sys

MAX_CP = 80


def stockfish(sf, moves, depth):
    cmds = f"uci\nposition startpos moves {moves}\nd\ngo depth {depth}\n"
    p = subprocess.Popen([sf], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    p.stdin.write(cmds)
    p.stdin.flush()
    fen, score = None, None
    for line in p.stdout:
        if line.startswith("Fen: "):
            fen = line[5:].strip()
        if line.startswith("info") and " score cp " in line:
            score = int(line.split(" score cp ")[1].split()[0])
        if line.startswith("bestmove"):
            break
    p.stdin.write("quit\n")
    p.stdin.close()
    p.wait()
    return fen, score


def main():
    outpost, sf = sys.argv[1], sys.argv[2]
    depth = int(sys.argv[3]) if len(sys.argv) > 3 else 16
    epd, pgn = [], []
    for raw in open("lines.txt"):
        if raw.startswith("#") or not raw.strip():
            continue
        name, moves = (s.strip() for s in raw.split("|"))
        san = subprocess.run([outpost, "pgn", "from-uci", *moves.split()], check=True,
                             capture_output=True, text=True).stdout.strip()
        fen, score = stockfish(sf, moves, depth)
        # Stockfish scores for the side to move; the files say it from White's side.
        white_cp = score if fen.split()[1] == "w" else -score
        if abs(white_cp) > MAX_CP:
            print(f"left out ({white_cp:+d} cp): {name}", file=sys.stderr)
            continue
        epd.append(f'{" ".join(fen.split()[:4])} id "{name}"; c0 "{white_cp:+d} cp at depth {depth}";')
        pgn.append(f'[Event "{name}"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n'
                   f'[White "?"]\n[Black "?"]\n[Result "*"]\n\n{san} *\n')
    with open("outpost-balanced.epd", "w") as f:
        f.write("\n".join(epd) + "\n")
    with open("outpost-balanced.pgn", "w") as f:
        f.write("\n".join(pgn))
    print(f"{len(epd)} openings", file=sys.stderr)


main()
