#!/bin/bash
# Outpost — measures the Elo of each playing level (SPEC P3, E2) with `outpost match`:
# levels 4-9 and full strength against Stockfish's UCI_LimitStrength ladder (Debian's
# stockfish, UCI_Elo 1350-2850), levels 3, 2 and 1 each against the level above it
# once that one is measured. Prints one line per level: the opponent, the score,
# the Elo difference with its 95% error and the level's Elo.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: bench/engine/levels.sh [GAMES] [TC] [OUTPOST_BINARY]
#   GAMES  games per level (default 20; each opening twice, colours swapped)
#   TC     time control (default 10+0.1)
# Environment: CONCURRENCY (default 2), LEVELS (default "4 5 6 7 8 9 10 3 2 1"),
#   OUTDIR (PGNs and logs, default /tmp/outpost-levels), STOCKFISH (/usr/games/stockfish),
#   ELO_N (a level's Elo measured in an earlier run, for the levels below it),
#   OPPONENT_ELO_N (the UCI_Elo of Stockfish against level N, instead of its target),
#   SEED (the opening order; default the level, so that a rerun replays the games).
# Caveat: Stockfish calibrates UCI_Elo at longer time controls than 10+0.1, where its
# limited levels are stronger; at 10+0.1 the ladder is softer and the Elos printed
# here lean high.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
games=${1:-20}
tc=${2:-10+0.1}
outpost=${3:-$here/../../build/src/app/outpost}
stockfish=${STOCKFISH:-/usr/games/stockfish}
outdir=${OUTDIR:-/tmp/outpost-levels}
openings=${OPENINGS:-$here/../../tests/data/openings/outpost-balanced.epd}
mkdir -p "$outdir"
declare -A elo
# The Elo the engine gives a level (measured, or its design target), to choose an
# opponent close in strength; full strength meets the top of the ladder.
description=$(echo uci | "$outpost" uci | grep "Playing level" || true)
target() {
  local e
  e=$(echo "$description" | grep -o " $1=~\?[0-9]*" | grep -o "[0-9]*$" || true)
  if [ -z "$e" ] || [ "$1" -eq 10 ]; then e=2850; fi
  echo "$e"
}

run() {  # level opponent-args... -> sets diff, err, score
  local level=$1; shift
  local log="$outdir/level$level.log"
  "$outpost" match \
      -engine cmd="$outpost" arg=uci name="Level$level" option.Level="$level" option.Hash=16 \
      "$@" \
      -each tc="$tc" option.Threads=1 timemargin=200 \
      -openings file="$openings" format=epd order=random \
      -games 2 -repeat -rounds $((games / 2)) -concurrency "${CONCURRENCY:-2}" -seed "${SEED:-$level}" \
      -resign movecount=4 score=1000 -draw movenumber=40 movecount=8 score=10 \
      -pgnout "$outdir/level$level.pgn" >"$log" 2>&1
  score=$(grep "^Score of" "$log" | tail -n 1 | sed 's/^Score of [^:]*: //')
  diff=$(sed -n 's/^Elo difference: \([-0-9.inf]*\) +\/- \([0-9.inf]*\).*/\1/p' "$log" | tail -n 1)
  err=$(sed -n 's/^Elo difference: \([-0-9.inf]*\) +\/- \([0-9.inf]*\).*/\2/p' "$log" | tail -n 1)
}

printf '%-6s %-28s %-26s %-18s %s\n' level opponent "score (W - L - D)" "Elo difference" "level Elo"
for level in ${LEVELS:-4 5 6 7 8 9 10 3 2 1}; do
  if [ "$level" -ge 4 ]; then
    t=$(target "$level")
    sf=$(( t < 1350 ? 1350 : t > 2850 ? 2850 : t ))
    sf=$(eval echo "\${OPPONENT_ELO_$level:-$sf}")  # an opponent chosen by hand
    run "$level" -engine cmd="$stockfish" name="SF$sf" option.UCI_LimitStrength=true option.UCI_Elo="$sf"
    opponent="Stockfish UCI_Elo $sf"
    base=$sf
  else
    above=$((level + 1))
    base=${elo[$above]:-}
    [ -n "$base" ] || base=$(eval echo "\${ELO_$above:-}")  # measured in an earlier run
    if [ -z "$base" ]; then echo "level $level: level $above is not measured yet"; continue; fi
    run "$level" -engine cmd="$outpost" arg=uci name="Level$above" option.Level="$above" option.Hash=16
    opponent="level $above (measured $base)"
  fi
  case "$diff" in
    "") elo[$level]=""; shown="no result (see $outdir/level$level.log)" ;;
    *inf*)
      # All won or all lost: an estimate from the score with half a point moved to the
      # other side ((points + 0.5) / (games + 1)), marked as a bound.
      read -r w l d < <(echo "$score" | sed 's/^\([0-9]*\) - \([0-9]*\) - \([0-9]*\).*/\1 \2 \3/')
      n=$((w + l + d))
      p=$(echo "($w + $d / 2 + 0.5) / ($n + 1)" | bc -l)
      bound=$(printf '%.0f' "$(echo "-400 * l(1 / $p - 1) / l(10)" | bc -l)")
      elo[$level]=$((base + bound))
      if [ "$w" -eq 0 ]; then shown="< ${elo[$level]}"; else shown="> ${elo[$level]}"; fi ;;
    *) elo[$level]=$(printf '%.0f' "$(echo "$base + $diff" | bc -l)"); shown=${elo[$level]} ;;
  esac
  printf '%-6s %-28s %-26s %-18s %s\n' "$level" "$opponent" "$score" "${diff:-?} +/- ${err:-?}" "$shown"
done
