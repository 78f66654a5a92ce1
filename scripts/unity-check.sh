#!/usr/bin/env bash
# Checks that the sources of each target compile as ONE translation unit, which is the
# worst case of the unity build (CMakeLists.txt, OUTPOST_UNITY): two files that define
# the same name in an anonymous namespace, or a file that leans on a `using` of another,
# fail here whichever batches CMake forms as files come and go. Syntax only (~1 min).
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for dir in src/chess src/engine src/club src/match src/server src/app tests/unit tests/slow fuzz; do
  [ -d "$dir" ] || continue
  all="$tmp/$(echo "$dir" | tr / _).cpp"
  : >"$all"
  for f in "$dir"/*.cpp; do
    case "$f" in fuzz/*) continue ;; esac  # each fuzzer is a program of its own
    echo "#include \"$PWD/$f\"" >>"$all"
  done
  [ -s "$all" ] || continue
  pch=""
  case "$dir" in tests/*) pch="-include gtest/gtest.h" ;; src/app) pch="-include CLI/CLI.hpp" ;; esac
  if g++ -std=c++20 -fsyntax-only -Wall -Wextra -Wshadow -Wno-restrict -Isrc -DOUTPOST_BINARY='"x"' \
       -DOUTPOST_TEST_DATA='"x"' $pch "$all" 2>"$all.log"; then
    echo "ok   $dir"
  else
    echo "FAIL $dir"; grep -m 20 'error' "$all.log" || true; status=1
  fi
done
exit $status
