#!/usr/bin/env bash
# The shape of the tree, checked (docs/architecture.md): no source file passes
# MAX_LINES lines (a file that passes ~600 is asking to be split by what it owns), and
# no file includes a header of a room it may not use. Exits non-zero and names every
# file and include that breaks a rule.
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
cd "$(dirname "$0")/.."
MAX_LINES=${MAX_LINES:-800}
status=0

# 1. Sizes.
while read -r n f; do
  [ "$f" = total ] && continue
  if [ "$n" -gt "$MAX_LINES" ]; then
    echo "layers: $f has $n lines (at most $MAX_LINES): split it by what it owns"; status=1
  fi
done < <(find src -name '*.cpp' -o -name '*.h' | sort | xargs wc -l)

# 1b. Each file's opening comment says what it owns (issue 24): its first line is
# "// Outpost — ...".
while IFS= read -r f; do
  if ! head -1 "$f" | grep -q '^// Outpost — '; then
    echo "layers: $f does not open with '// Outpost — what it owns'"; status=1
  fi
done < <(find src -name '*.cpp' -o -name '*.h' | sort)

# 2. Which room may include which. A room is a folder below src/ (and below
# src/server/). Each line: a room, then the rooms it may include (besides itself).
# The libraries: chess < engine < club, match < server < app.
# server/observe (metrics and the log) is below every server room and uses none: every
# server room may include it (added below, not written on each line).
declare -A MAY=(
  [chess]=""
  [engine]="chess"
  [club]="chess"
  [match]="chess engine"
  [training]="chess engine"
  [server/observe]=""
  [server/common]="chess server/stores"
  [server/stores]="chess"
  [server/stores/sqlite]="chess server/common server/stores server/accounts"
  [server/stores/postgres]="chess server/common server/stores server/accounts"
  [server/accounts]="chess club server/common server/stores"
  [server/bus]="chess server/common server/stores server/accounts"
  [server/bus/redis]="chess server/common server/stores server/accounts server/bus"
  [server/play]="chess engine club server/common server/stores server/accounts server/bus"
  [server/players]="chess club server/common server/stores server/accounts server/bus server/play"
  [server/events]="chess club server/common server/stores server/accounts server/bus server/play"
  [server/analysis]="chess engine server/common server/stores server/accounts server/bus server/play"
  [server/training]="chess engine club training server/common server/stores server/accounts server/bus server/play"
  [server/admin]="chess club server/common server/stores server/accounts server/bus server/play server/players server/events server/analysis"
  [server/edge]="chess engine club server/common server/stores server/accounts server/bus server/play server/players server/events server/analysis server/training server/admin"
  [app]="*"
)
room_of() {  # src/server/play/hub.cpp -> server/play; src/chess/fen.h -> chess
  local d=${1#src/}; d=${d%/*}
  while [ -n "$d" ] && [ -z "${MAY[$d]+x}" ]; do
    case $d in */*) d=${d%/*} ;; *) d="" ;; esac
  done
  echo "$d"
}
while IFS= read -r f; do
  from=$(room_of "$f")
  if [ -z "$from" ]; then echo "layers: $f is in no room of docs/architecture.md"; status=1; continue; fi
  allowed=" $from ${MAY[$from]} "
  [[ $from == server/* ]] && allowed+="server/observe "
  [ "${MAY[$from]}" = "*" ] && continue
  while IFS= read -r inc; do
    to=$(room_of "src/$inc")
    [ -z "$to" ] && continue
    if [[ "$allowed" != *" $to "* ]]; then
      echo "layers: $f includes $inc: room $from may not use room $to"; status=1
    fi
  done < <(sed -n 's/^#include "\([a-z_0-9/]*\.h\)".*/\1/p' "$f")
done < <(find src -name '*.cpp' -o -name '*.h' | sort)

[ $status -eq 0 ] && echo "layers: ok ($(find src -name '*.cpp' -o -name '*.h' | wc -l) files, none over $MAX_LINES lines, every include allowed)"
exit $status
