#!/bin/sh
# Outpost — a short strength match of the engine against another UCI engine
# (Debian's glaurung by default), played by `outpost match`.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: bench/engine/match.sh [ROUNDS] [TC] [OPPONENT] [OUTPOST_BINARY]
#   ROUNDS   openings played twice each, colours swapped (default 20 -> 40 games)
#   TC       time control (default 10+0.1)
# Environment: OPENINGS (EPD file, default tests/data/openings/outpost-balanced.epd),
#   START (the first opening, default 1), CONCURRENCY (default 1),
#   PGNOUT (default /tmp/outpost-match.pgn),
#   OPPONENT_OPTIONS (extra `option.Name=Value` words for the opponent).
# One thread and one game at a time, so that the two engines share the machine
# fairly. Install the opponent with `apt-get install -y glaurung`.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:-20}
tc=${2:-10+0.1}
opponent=${3:-/usr/games/glaurung}
outpost=${4:-$here/../../build/src/app/outpost}
"$outpost" match \
    -engine cmd="$outpost" arg=uci name=Outpost option.Hash=64 \
    -engine cmd="$opponent" name="$(basename "$opponent")" ${OPPONENT_OPTIONS:-} \
    -each tc="$tc" option.Threads=1 timemargin=200 \
    -openings file="${OPENINGS:-$here/../../tests/data/openings/outpost-balanced.epd}" format=epd order=sequential start="${START:-1}" \
    -games 2 -repeat -rounds "$rounds" -concurrency "${CONCURRENCY:-1}" \
    -resign movecount=4 score=1000 -draw movenumber=40 movecount=8 score=10 \
    -pgnout "${PGNOUT:-/tmp/outpost-match.pgn}"
