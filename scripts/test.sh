#!/usr/bin/env bash
# The README's test command: install what is needed, build, and run every test.
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   0. scripts/layers.sh                             the shape of the tree (docs/architecture.md)
#   1. Release build (build/), unit tests            fast feedback
#   1b. bench signature (scripts/signature.sh)      the Bench: line of the last commit
#   2. web UI build; browser tests (Chromium) and server tests against a real
#      `outpost serve`                               web/test-artifacts/ keeps screenshots
#   2b. the Debian package (scripts/package.sh, tests/package/check.sh)
#   3. ASan+UBSan build (build-asan/), unit tests    memory and UB errors
#   4. TSan build (build-tsan/), threaded tests      data races (hub, robot pool, storage, search threads)
#   5. libFuzzer targets (build-fuzz/, clang)        FUZZ_SECONDS each (default 10)
#   6. the slow tests of the Release build          (its unit tests ran in step 1) printed last
#
# The three sanitizer builds (3, 4, 5) compile in the background, one after the other,
# at nice 19, from the end of the Release build on: they take the CPU that the tests
# of steps 1 and 2 leave idle (the browser tests mostly wait for pages) and give it
# back at once when a test wants it. Each step waits for its build and prints the
# build's log first. They compile with line tables only (-g1: what the sanitizers'
# reports need, at 30% less compile time than -g). The test files stay at -O1: at
# -O0 they compiled in half the time but the ASan tests ran twice as long.
#
# Exits non-zero at the first failure. The last lines printed are ctest's own
# summary of step 6. Environment: FUZZ_SECONDS, FUZZ_SEED (default 1), JOBS.
set -euo pipefail
cd "$(dirname "$0")/.."

JOBS=${JOBS:-$(nproc)}
FUZZ_SECONDS=${FUZZ_SECONDS:-10}
FUZZ_SEED=${FUZZ_SEED:-1}
FUZZ_TARGETS=(fuzz_fen fuzz_uci fuzz_san fuzz_pgn fuzz_time_control fuzz_server)
START=$SECONDS

step() { printf '\n==== [%4ds] %s\n' "$((SECONDS - START))" "$*"; }

step "Dependencies"
bash scripts/install-deps.sh

step "Layers: file sizes and which room may include which (docs/architecture.md)"
bash scripts/layers.sh

step "Release build (build/: portable, the web UI compiled in; the Debian package takes it)"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DOUTPOST_PORTABLE=ON
cmake --build build -j "$JOBS"

# The sanitizer builds, in the background. Each writes its log to build-logs/NAME.log
# and its exit status to build-logs/NAME.rc; await_build NAME waits for it. Job
# control gives the chain a process group of its own in this same session (nice ranks
# processes within a session's scheduling group only), and the trap stops the whole
# group when this script ends early.
asan_build() {
  # -march=native selects PEXT attacks as in the Release build: the magic path searches
  # its magics at start-up, which costs ~0.6 s per test process under ASan at -O1.
  # The magic path is sanitized by the fuzzers (clang, no -march).
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS=-O1 -march=native" \
    -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DOUTPOST_SANITIZE=ON -DOUTPOST_EMBED_WEB=OFF &&
    # Only what the unit tests run (the slow tests and the load generator are not run here).
    cmake --build build-asan -j "$JOBS" --target outpost_tests outpost
}
tsan_build() {
  # Asserts on, -O1: only the threaded tests run in this build.
  cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS=-O1 -march=native" \
    -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DOUTPOST_TSAN=ON -DOUTPOST_EMBED_WEB=OFF &&
    cmake --build build-tsan -j "$JOBS" --target outpost_tests outpost
}
fuzz_build() {
  cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DOUTPOST_FUZZ=ON -DOUTPOST_BUILD_TESTS=OFF -DOUTPOST_EMBED_WEB=OFF \
    -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS=-O1 -DCMAKE_CXX_FLAGS_DEBUG=-g1 &&
    cmake --build build-fuzz -j "$JOBS" --target "${FUZZ_TARGETS[@]}"
}
build_in_background() {
  local name=$1 status=0
  (renice -n 19 -p "$BASHPID" >/dev/null && "${name}_build") >"build-logs/$name.log" 2>&1 || status=$?
  echo "$status" >"build-logs/$name.rc"
}
mkdir -p build-logs
rm -f build-logs/*.rc
set -m
(
  trap - EXIT
  build_in_background asan
  build_in_background tsan
  build_in_background fuzz
) &
background_pid=$!
set +m
trap 'kill -- -"$background_pid" 2>/dev/null || true' EXIT
await_build() {
  local name=$1
  while [ ! -f "build-logs/$name.rc" ]; do
    if ! kill -0 "$background_pid" 2>/dev/null && [ ! -f "build-logs/$name.rc" ]; then
      cat "build-logs/$name.log" 2>/dev/null || true
      echo "FAILED: the background builds stopped before the $name build ended" >&2
      exit 1
    fi
    sleep 2
  done
  cat "build-logs/$name.log"
  if [ "$(cat "build-logs/$name.rc")" != 0 ]; then
    echo "FAILED: the $name build (its log is above and in build-logs/$name.log)" >&2
    exit 1
  fi
}

step "Unit tests, Release"
ctest --test-dir build --output-on-failure -L unit -j "$JOBS"

step "Bench signature (the last commit's Bench: line)"
bash scripts/signature.sh build/src/app/outpost

step "Web UI: build, then browser and server tests against a real outpost serve"
(cd web && npm ci --no-audit --no-fund && npm run build)
web_dir=$(mktemp -d)
# The browser tests open many pages at once from one address: no per-address limits here
# (tests/unit/server_edge_net_test.cpp tests them).
build/src/app/outpost serve --port 0 --no-client-limits --robot-instant --db "$web_dir/test.db" --web web/dist >"$web_dir/serve.log" 2>&1 &
serve_pid=$!
for _ in $(seq 100); do grep -q "serving on" "$web_dir/serve.log" && break; sleep 0.1; done
port=$(sed -n 's|.*http://[^:]*:\([0-9]*\)/.*|\1|p' "$web_dir/serve.log" | head -n 1)
if [ -z "$port" ]; then cat "$web_dir/serve.log"; echo "FAILED: outpost serve did not start" >&2; exit 1; fi
web_status=0
(cd web && OUTPOST_URL="http://127.0.0.1:$port" OUTPOST_BIN="$PWD/../build/src/app/outpost" npm test) || web_status=$?
kill "$serve_pid" 2>/dev/null || true
wait "$serve_pid" 2>/dev/null || true
rm -rf "$web_dir"
if [ "$web_status" -ne 0 ]; then echo "FAILED: web tests (screenshots in web/test-artifacts/)" >&2; exit 1; fi

step "Debian package: built from build/, lintian, installed, a game served as its user, removed"
bash scripts/package.sh build
bash tests/package/check.sh outpost_*_amd64.deb
rm -f outpost_*_amd64.deb

step "Sanitizer build (build-asan/: AddressSanitizer + UndefinedBehaviorSanitizer, asserts on), built in the background"
await_build asan

step "Unit tests, ASan + UBSan"
ASAN_OPTIONS=detect_leaks=1:check_initialization_order=1:strict_init_order=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build-asan --output-on-failure -L unit -j "$JOBS"

step "ThreadSanitizer build (build-tsan/, built in the background), threaded tests"
await_build tsan
# Only the tests whose code runs on several threads: the hub (and its storage), the
# robot pool, the network edge against a real server, the engine's search threads.
TSAN_TESTS='^(Fixture|LobbyFixture|AccountServerP21|Corr|Adjourned\.|Storage|Robot|Edge|SeatTokens|AccountSockets25|SessionSweep25|Issue27Metrics\.|Redis|EngineSearch\.TwoThreads|EngineUci\.(StopEnds|InfiniteSearch|Ponderhit|CommandsWhileSearching|TwoThreads))'
# Two robot-pool tests measure scheduling against wall-clock windows that TSan's
# slowdown breaks; they run in the Release steps. tests/tsan.supp says why the
# transposition table's lock-free sharing is suppressed.
TSAN_TIMING='^RobotPoolP3\.(QuickLevelDoesNotWaitBehindFullStrengthGames|ANewRequestOfAGameReplacesItsOldOne)$'
TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/tests/tsan.supp" \
  ctest --test-dir build-tsan --output-on-failure -R "$TSAN_TESTS" -E "$TSAN_TIMING" -j "$JOBS"

step "Fuzzers (build-fuzz/: clang, libFuzzer, ASan + UBSan, built in the background), ${FUZZ_SECONDS}s each"
await_build fuzz
mkdir -p build-fuzz/artifacts
for target in "${FUZZ_TARGETS[@]}"; do
  # New inputs go to the first (work) directory; the seeds in fuzz/corpus stay as they are.
  work=build-fuzz/corpus/$target
  log=build-fuzz/$target.log
  mkdir -p "$work"
  if ! build-fuzz/fuzz/"$target" -max_total_time="$FUZZ_SECONDS" -seed="$FUZZ_SEED" -print_final_stats=1 \
       -artifact_prefix=build-fuzz/artifacts/"$target"- "$work" fuzz/corpus/"$target" >"$log" 2>&1; then
    tail -n 60 "$log"
    echo "FAILED: $target (log: $log; the input that failed is in build-fuzz/artifacts/)" >&2
    exit 1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
  echo "$target: ${runs:-?} runs in ${FUZZ_SECONDS}s, ${cov:-cov: ?}, no failure"
done

step "Slow tests, Release (the unit tests ran in the first step)"
ctest --test-dir build --output-on-failure -L slow -j "$JOBS" --no-label-summary
