#!/bin/bash
# Outpost — measures the Elo of every playing level (SPEC P3, E2; issue 10) on one
# scale, with `outpost match` playing the games and bench/engine/fit_elo.py fitting
# all of them at once.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: bench/engine/levels.sh [OUTPOST_BINARY]
#
# Phases (PHASES, default "chain ladder drift anchors"); a match whose PGN is already
# in OUTDIR is not played again, so a run can be resumed or extended:
#   chain    level N against level N+1, N = 1..9 (CHAIN_GAMES each, default 40) at TC:
#            shows that every level beats the one below it, and by how much.
#   ladder   levels LADDER (default "4:1350 5:1350 6:1650 7:1850 8:2150 9:2350")
#            against Stockfish's UCI_LimitStrength (LADDER_GAMES each, default 24) at
#            TC: at the Elo given as N:ELO, or else at the level's design Elo,
#            clamped to 1350-2850.
#   drift    each level of DRIFT (default "4 6 8") against the same Stockfish UCI_Elo as
#            in the ladder, at DRIFT_TC (default 60+0.6), DRIFT_GAMES (default 40).
#   anchors  full strength against Glaurung 2.2, Toga II 3.0 and Ethereal 12
#            (ANCHOR_GAMES each, default 30) at TC: ties the top to engines with
#            published CCRL ratings.
# TC defaults to 10+0.1. Levels 1-9 stop at a node budget well below what a 10+0.1
# clock allows, so they play the same at every time control; that is what lets the
# drift phase measure the Stockfish ladder itself: the level is the same player at
# both speeds, so any change in its score is the ladder's.
#
# The scale: Stockfish documents UCI_Elo as calibrated at 60+0.6 and anchored to CCRL
# 40/4. The fit anchors the Stockfish players of the drift phase at their UCI_Elo,
# and the 10+0.1 Stockfish players at their UCI_Elo plus an offset, the ladder's
# drift, which the fit estimates with everything else: one number, or, with two or
# more drift matches, a line in the UCI_Elo label (fit_elo.py --offset-slope).
# Glaurung, Toga and Ethereal are not anchored: their fitted Elos are set against
# their CCRL ratings as a check (README).
#
# Environment: OUTDIR (default /tmp/outpost-levels), CONCURRENCY (default 2),
#   STOCKFISH (/usr/games/stockfish), GLAURUNG (/usr/games/glaurung),
#   TOGA (/usr/games/toga2), ETHEREAL (/usr/games/ethereal-chess), SEED (default 1).
#   Needs: apt-get install -y stockfish glaurung toga2 ethereal-chess.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
outpost=${1:-$here/../../build/src/app/outpost}
outdir=${OUTDIR:-/tmp/outpost-levels}
tc=${TC:-10+0.1}
drift_tc=${DRIFT_TC:-60+0.6}
stockfish=${STOCKFISH:-/usr/games/stockfish}
# The Stockfish each level meets: near the level's Elo, within Stockfish's 1350-2850.
ladder=${LADDER:-4:1350 5:1350 6:1650 7:1850 8:2150 9:2350}
openings=${OPENINGS:-$here/../../tests/data/openings/outpost-balanced.epd}
mkdir -p "$outdir"

# The design Elo of a level (the `target` of its row in src/engine/skill.cpp), as
# the engine reports it.
description=$(echo uci | "$outpost" uci | grep "Playing level" || true)
target() {
  local e
  e=$(echo "$description" | grep -o "[ (]$1=~\?[0-9]*" | grep -o "[0-9]*$" || true)
  [ -n "$e" ] || e=1500
  echo "$e"
}
# The Stockfish UCI_Elo that level N meets: N:ELO in LADDER, else its design Elo.
ladder_elo() {
  local entry
  for entry in $ladder; do
    if [ "${entry%%:*}" = "$1" ] && [ "${entry#*:}" != "$entry" ]; then echo "${entry#*:}"; return; fi
  done
  target "$1"
}
level() { echo "-engine cmd=$outpost arg=uci name=Level$1 option.Level=$1 option.Hash=16"; }
stockfish_at() {  # elo tc
  local e=$(( $1 < 1350 ? 1350 : $1 > 2850 ? 2850 : $1 ))
  echo "-engine cmd=$stockfish name=SF$e@$2 tc=$2 option.UCI_LimitStrength=true option.UCI_Elo=$e option.Hash=16"
}

play() {  # name games tc engine-args...
  local name=$1 games=$2 t=$3; shift 3
  local pgn="$outdir/$name.pgn"
  if [ -s "$pgn" ]; then echo "$name: already played ($pgn)"; return; fi
  # shellcheck disable=SC2068
  "$outpost" match $@ \
      -each tc="$t" option.Threads=1 timemargin=200 \
      -openings file="$openings" format=epd order=random \
      -games 2 -repeat -rounds $((games / 2)) -concurrency "${CONCURRENCY:-2}" -seed "${SEED:-1}" \
      -resign movecount=4 score=1000 -draw movenumber=40 movecount=8 score=10 \
      -pgnout "$pgn.part" >"$outdir/$name.log" 2>&1
  mv "$pgn.part" "$pgn"
  echo "$name: $(grep '^Score of' "$outdir/$name.log" | tail -n 1)"
}

for phase in ${PHASES:-chain ladder drift anchors}; do
  case $phase in
    chain)
      for n in 1 2 3 4 5 6 7 8 9; do
        play "chain$n" "${CHAIN_GAMES:-40}" "$tc" "$(level "$n") $(level $((n + 1)))"
      done ;;
    ladder)
      for entry in $ladder; do
        n=${entry%%:*}
        play "ladder$n" "${LADDER_GAMES:-24}" "$tc" "$(level "$n") $(stockfish_at "$(ladder_elo "$n")" "$tc")"
      done ;;
    drift)
      for n in ${DRIFT:-4 6 8}; do
        play "drift$n" "${DRIFT_GAMES:-40}" "$drift_tc" "$(level "$n") $(stockfish_at "$(ladder_elo "$n")" "$drift_tc")"
      done ;;
    anchors)
      play anchor-glaurung "${ANCHOR_GAMES:-30}" "$tc" \
        "$(level 10) -engine cmd=${GLAURUNG:-/usr/games/glaurung} name=Glaurung2.2 option.OwnBook=false option.Ponder=false option.Hash=16"
      play anchor-toga "${ANCHOR_GAMES:-30}" "$tc" \
        "$(level 10) -engine cmd=${TOGA:-/usr/games/toga2} name=TogaII3.0 option.OwnBook=false option.Ponder=false option.Hash=16"
      play anchor-ethereal "${ANCHOR_GAMES:-30}" "$tc" \
        "$(level 10) -engine cmd=${ETHEREAL:-/usr/games/ethereal-chess} name=Ethereal12 option.Ponder=false option.Hash=16" ;;
    *) echo "levels.sh: unknown phase $phase (chain, ladder, drift, anchors)" >&2; exit 2 ;;
  esac
done

# One fit of every game played so far.
anchors=()
for pgn in "$outdir"/*.pgn; do
  grep -o '"SF[0-9]*@[^"]*"' "$pgn" || true
done | sort -u | tr -d '"' | while read -r sf; do
  e=${sf#SF}; e=${e%@*}
  if [ "${sf#*@}" = "$drift_tc" ]; then echo "--anchor $sf=$e"; else echo "--offset-anchor $sf=$e"; fi
done >"$outdir/anchors.txt"
mapfile -t anchors < <(tr ' ' '\n' <"$outdir/anchors.txt")
# With the ladder measured at two speeds in more than one place, its drift is fitted
# as a line in the UCI_Elo label (the ladder runs stiffer towards its top at 10+0.1).
slope=()
[ "$(grep -c -- '^--anchor' "$outdir/anchors.txt")" -ge 2 ] && slope=(--offset-slope)
python3 "$here/fit_elo.py" "${slope[@]}" "${anchors[@]}" "$outdir"/*.pgn | tee "$outdir/fit.txt"
