#!/usr/bin/env bash
# The bench signature check (as Stockfish's tests/signature.sh): the node count of
# `outpost bench` must equal the "Bench: N" line of the last commit that carries one.
# A commit that changes the search or the evaluation says its new count that way
# in its message; any other commit keeps the count, so a difference here means a
# functional change that did not say so, or a build that is not deterministic.
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   scripts/signature.sh [path/to/outpost]     (default build/src/app/outpost)
#
# Skipped, with a message, outside a git checkout or when no commit in the history
# carries a Bench: line (a shallow clone, an exported tarball).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/src/app/outpost}

if ! git rev-parse --git-dir >/dev/null 2>&1; then
    echo "signature: not a git checkout, no Bench: line to compare with; check skipped"
    exit 0
fi
expected=$(git log --grep '^Bench: [0-9]' -1 --format=%B | sed -n 's/^Bench: *\([0-9][0-9]*\).*/\1/p' | tail -n 1)
if [ -z "$expected" ]; then
    echo "signature: no commit in this history carries a Bench: line; check skipped"
    exit 0
fi
actual=$("$bin" bench 2>/dev/null | sed -n 's/^Nodes searched: *//p')
if [ "$actual" != "$expected" ]; then
    echo "FAILED: outpost bench searched ${actual:-nothing} nodes; the last commit with a Bench: line says $expected" >&2
    exit 1
fi
echo "signature: bench $actual nodes, as the last Bench: line says"
