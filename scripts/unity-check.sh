#!/usr/bin/env bash
# Checks that the sources of each library compile as ONE translation unit, the worst
# case of the unity build (CMakeLists.txt, OUTPOST_UNITY): two files that define the
# same name in an anonymous namespace, or a file that leans on a `using` of another,
# fail here whichever batches CMake forms as files come and go. Syntax only (~1 min).
# (The tests are not built in batches; server.cpp is a library of its own, outpost_net.)
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for dir in src/chess src/engine src/club src/match src/server src/app; do
  [ -d "$dir" ] || continue
  all="$tmp/$(echo "$dir" | tr / _).cpp"
  : >"$all"
  for f in $(find "$dir" -name "*.cpp" | sort); do
    [ "$f" = src/server/edge/server.cpp ] && continue
    echo "#include \"$PWD/$f\"" >>"$all"
  done
  [ -s "$all" ] || continue
  pch=""
  if [ "$dir" = src/app ]; then
    # The executable's generated header (src/app/CMakeLists.txt) and its precompiled one.
    cmake -DSOURCE_DIR="$PWD" -DVERSION=0 -DOUT="$tmp/outpost_version.h" -P cmake/version.cmake
    pch="-include CLI/CLI.hpp -I$tmp"
  fi
  if g++ -std=c++20 -fsyntax-only -Wall -Wextra -Wshadow -Wno-restrict -Isrc $pch "$all" 2>"$all.log"; then
    echo "ok   $dir"
  else
    echo "FAIL $dir"; grep -m 20 'error' "$all.log" || true; status=1
  fi
done
exit $status
