#!/usr/bin/env bash
# Installs the Debian 12 packages that Outpost needs to build, test and benchmark.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Idempotent and fast when everything is there: it asks dpkg first and calls apt
# only for what is missing. Runs as root (CI) or through sudo.
# To add a dependency, add its Debian package name to PACKAGES below.
set -euo pipefail

PACKAGES=(
  # Toolchain and build
  build-essential g++ cmake ninja-build
  # Tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev
  # Libraries
  libcli11-dev          # command line of the outpost executable
  nlohmann-json3-dev    # JSON protocol (server)
  libboost-dev          # Asio/Beast (server)
  libsqlite3-dev        # storage (server)
  libpq-dev             # PostgreSQL storage, `outpost serve --database postgresql://…` (server)
  libsodium-dev pkg-config  # accounts: Argon2id password hashes (server)
  libjemalloc-dev       # the outpost executable's allocator (server CPU per move)
  libtomlplusplus-dev   # `outpost serve --config FILE` (TOML)
  libssl-dev openssl    # `outpost serve --tls-cert`: OpenSSL (server); test certificates
  libhiredis-dev        # the bus between nodes and the games' leases in Redis (server/bus/redis)
  libicu-dev            # Unicode general categories for the rule for names (server)
  # Fuzzing: clang with libFuzzer and the sanitizer runtimes
  clang libclang-rt-14-dev
  # Scripts, test data generation, and the reference engine for bench/
  python3 stockfish
  # Browser tests: Debian's Chromium, driven by playwright-core (no browser download)
  chromium
  # The Debian package (scripts/package.sh) and its install test (tests/package/check.sh)
  dpkg-dev lintian systemd man-db
)
# Servers that only the tests (and scripts/cluster.sh) run, each started by its test on loopback with its own
# files: not installed by `--serve` (scripts/serve.sh), and never started as services
# by the install (below).
SERVERS_FOR_TESTS=(
  nginx        # a reverse proxy in front of the server (tests/slow/tls_proxy_test.cpp)
  prometheus   # `promtool check metrics` on /metrics (tests/slow/serve_observe_test.cpp)
  redis-server # a Redis of each test's own on a Unix socket (tests/support/redis_server.h)
  postgresql   # the stores on PostgreSQL (tests/support/postgres_server.h: initdb in a temporary folder)
  haproxy      # the front of several nodes (deploy/haproxy.cfg): tests/slow/haproxy_front_test.cpp,
               # scripts/cluster.sh and bench/cluster-load, each with a configuration of its own
)
if [ "${1:-}" != "--serve" ]; then PACKAGES+=("${SERVERS_FOR_TESTS[@]}"); fi
# The web UI is built with Node.js 20 and npm (Vite 8). The machines we run on have
# them; a bare Debian 12 gets Debian's own packages.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  PACKAGES+=(nodejs npm)
fi

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}\n' "$pkg" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$pkg")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages are installed"
  exit 0
fi

SUDO=()
if [ "$(id -u)" -ne 0 ]; then SUDO=(sudo); fi
export DEBIAN_FRONTEND=noninteractive

echo "install-deps: installing ${missing[*]}"
# Debian starts a packaged server as a service when it is installed (nginx on port 80,
# Prometheus on 9090, PostgreSQL's cluster "main" on 5432): a policy-rc.d that says no
# keeps them stopped, unless the machine has a policy of its own; and those this run
# installs are not enabled for the next boot either (a server that was there before is
# left as it was). The tests run PostgreSQL from a temporary folder of their own,
# never that cluster.
policy=/usr/sbin/policy-rc.d
own_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\n# scripts/install-deps.sh: no service starts while it installs\nexit 101\n' | "${SUDO[@]}" tee "$policy" >/dev/null
  "${SUDO[@]}" chmod 755 "$policy"
  own_policy=1
fi
done_installing() {
  if [ "$own_policy" = 1 ]; then "${SUDO[@]}" rm -f "$policy"; fi
  if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
    for unit in "${SERVERS_FOR_TESTS[@]}"; do
      case " ${missing[*]} " in *" $unit "*) "${SUDO[@]}" systemctl disable --now "$unit" >/dev/null 2>&1 || true ;; esac
    done
  fi
}
trap done_installing EXIT
for attempt in 1 2 3; do
  if "${SUDO[@]}" apt-get update -q &&
     "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"; then
    exit 0
  fi
  echo "install-deps: apt-get failed (attempt $attempt of 3)" >&2
  sleep $((attempt * 10))
done
exit 1
