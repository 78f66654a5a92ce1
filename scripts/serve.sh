#!/usr/bin/env bash
# The README's first command: install what is needed, build Outpost (Release, in
# build/), and run the main job.
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
cd "$(dirname "$0")/.."

# The main job: the game server with its web UI on http://localhost:8080 and the
# games in outpost.db (SQLite). Extra arguments go to `outpost serve`
# (for example --host 0.0.0.0 to let other devices on the network in). The build
# compiles the web UI into the executable (npm runs inside it).
# A new database gets the repository's starter puzzles (issue 29), as a packaged server
# gets the installed copy.
MAIN_JOB=(serve --port 8080 --db outpost.db --starter-puzzles data/puzzles.csv)

bash scripts/install-deps.sh --serve
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build
echo "+ outpost ${MAIN_JOB[*]} $*"
exec build/src/app/outpost "${MAIN_JOB[@]}" "$@"
