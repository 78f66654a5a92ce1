#!/usr/bin/env bash
# Try Outpost on several nodes with one command (issue 26):
#
#     bash scripts/cluster.sh [--nodes N] [--port 8080]
#
# starts, all on this machine and on loopback, with their files in a fresh temporary
# folder: PostgreSQL 15 (initdb there; run as the unprivileged `postgres` user when the
# script runs as root), Redis, N `outpost serve` nodes (default 3) sharing them, and
# HAProxy with deploy/haproxy.cfg in front of them on http://localhost:PORT. It prints
# where each one is and its log, then waits. Ctrl-C (or a failure while starting)
# stops them all and removes the folder; nothing is left running.
# It builds nothing: it uses build/src/app/outpost (scripts/serve.sh or cmake builds it),
# else `outpost` on the PATH. The servers come from scripts/install-deps.sh.
# Extra arguments after `--` go to every node's `outpost serve`. OUTPOST=FILE names the
# executable; PG_ARGS adds settings to PostgreSQL's command line (bench/cluster-load
# loads pg_stat_statements with it); KEEP=1 keeps the folder after the stop.
# With --no-client-limits among the nodes' arguments, the front does not count requests
# per address either (benchmarks). Each node gets its share of the cores as network
# threads (--io-threads: cores / N, at least 1) unless the arguments give their own.
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
# Job control: each server below in a process group of its own (a Ctrl-C at the
# terminal reaches only this script, which stops them in order), all in this script's
# session. Not `setsid` each: a session is a scheduling group of its own (Linux's
# autogroups), in which a node's nice-19 background threads weigh as much as another
# node's moves; three nodes on one machine then held each other's moves back
# (bench/cluster-load: p99 402 ms, against 116 ms in one session; docs/scaling.md).
set -m
cd "$(dirname "$0")/.."

NODES=3
PORT=8080
EXTRA=()
while [ $# -gt 0 ]; do
  case "$1" in
    --nodes) NODES=${2:?--nodes needs a number}; shift 2 ;;
    --port) PORT=${2:?--port needs a number}; shift 2 ;;
    --) shift; EXTRA=("$@"); break ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "cluster.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
case "$NODES" in ''|*[!0-9]*) echo "cluster.sh: --nodes takes a number from 1 to 16" >&2; exit 2 ;; esac
case "$PORT" in ''|*[!0-9]*) echo "cluster.sh: --port takes a port number" >&2; exit 2 ;; esac
if [ "$NODES" -lt 1 ] || [ "$NODES" -gt 16 ]; then echo "cluster.sh: --nodes takes a number from 1 to 16" >&2; exit 2; fi

# What it needs, all said at once.
OUTPOST=${OUTPOST:-}
for candidate in build/src/app/outpost build/outpost; do
  if [ -z "$OUTPOST" ] && [ -x "$candidate" ]; then OUTPOST=$candidate; fi
done
if [ -z "$OUTPOST" ] && command -v outpost >/dev/null 2>&1; then OUTPOST=$(command -v outpost); fi
PG_BIN=""
for v in 15 16 17; do
  if [ -x "/usr/lib/postgresql/$v/bin/initdb" ]; then PG_BIN=/usr/lib/postgresql/$v/bin; break; fi
done
missing=()
[ -n "$OUTPOST" ] || missing+=("outpost (no build/src/app/outpost and none on the PATH: build it with bash scripts/serve.sh, or cmake)")
[ -n "$PG_BIN" ] || missing+=("PostgreSQL (Debian's postgresql)")
command -v redis-server >/dev/null 2>&1 || missing+=("redis-server")
command -v haproxy >/dev/null 2>&1 || missing+=("haproxy")
if [ ${#missing[@]} -gt 0 ]; then
  echo "cluster.sh: missing:" >&2
  printf '  %s\n' "${missing[@]}" >&2
  echo "(bash scripts/install-deps.sh installs the servers)" >&2
  exit 1
fi
# Several nodes need the bus between them (issue 26: `outpost serve --bus`).
serve_help=$("$OUTPOST" serve --help 2>&1 || true)
HAS_BUS=0
if grep -q -- '--bus' <<<"$serve_help"; then HAS_BUS=1; fi
if [ "$HAS_BUS" = 0 ] && [ "$NODES" -gt 1 ]; then
  echo "cluster.sh: $OUTPOST has no --bus (the nodes' bus is not in this build): run one node, --nodes 1" >&2
  exit 1
fi

# A port nobody listens on (free when asked; the server binds it a moment later), below
# Linux's ephemeral range (32768-60999), so that no outgoing connection holds it.
used_ports=" "
free_port() {
  local p
  for _ in $(seq 200); do
    p=$((20000 + RANDOM % 12000))
    case "$used_ports" in *" $p "*) continue ;; esac
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then used_ports+="$p "; echo "$p"; return 0; fi
  done
  echo "cluster.sh: no free port found" >&2
  return 1
}
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# The status code of GET PATH on 127.0.0.1:PORT ("" when nothing answers).
http_status() {
  (
    exec 3<>"/dev/tcp/127.0.0.1/$1" || exit 0
    printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$2" >&3
    line=""
    read -r -t 5 line <&3 || true
    echo "$line" | cut -d' ' -f2
  ) 2>/dev/null
}

if listening "$PORT"; then echo "cluster.sh: port $PORT is taken (--port another)" >&2; exit 1; fi

DIR=$(mktemp -d "${TMPDIR:-/tmp}/outpost-cluster.XXXXXX")
chmod 755 "$DIR"  # PostgreSQL's user must reach its folder in it
PIDS=()   # every server started, in the order they were started
NAMES=()
stopping=0
stop_all() {
  local status=$?
  [ "$stopping" = 1 ] && return
  stopping=1
  trap '' INT TERM
  echo
  echo "cluster.sh: stopping everything"
  # The front first, then the nodes (SIGTERM: each hands over its games and ends),
  # Redis, and PostgreSQL last (SIGINT: its fast shutdown).
  local i sig
  for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
    sig=TERM
    [ "${NAMES[$i]}" = postgresql ] && sig=INT
    kill -s "$sig" "${PIDS[$i]}" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "${PIDS[$i]}" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "${PIDS[$i]}" 2>/dev/null; then
      echo "  ${NAMES[$i]} (pid ${PIDS[$i]}) did not stop in 10 s: killed"
      kill -KILL "${PIDS[$i]}" 2>/dev/null || true
    fi
    wait "${PIDS[$i]}" 2>/dev/null || true
  done
  local left=()
  for ((i = 0; i < ${#PIDS[@]}; i++)); do
    if kill -0 "${PIDS[$i]}" 2>/dev/null; then left+=("${NAMES[$i]} (pid ${PIDS[$i]})"); fi
  done
  if [ ${#left[@]} -gt 0 ]; then
    echo "cluster.sh: still running: ${left[*]}; their files are kept in $DIR" >&2
    exit 1
  fi
  if [ "${KEEP:-0}" = 1 ]; then echo "  (KEEP=1: the files stay in $DIR)"; else rm -rf "$DIR"; fi
  echo "cluster.sh: stopped, nothing left running"
  exit "$status"
}
trap stop_all EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
fail() {
  echo "cluster.sh: $1" >&2
  if [ -n "${2:-}" ] && [ -f "$2" ]; then echo "--- the end of $2:" >&2; tail -n 20 "$2" >&2; fi
  exit 1
}
# Starts a server in a process group of its own (set -m above): start NAME LOG COMMAND…
# (Out of the shell's job table, so that its end prints no job notice.)
start() {
  local name=$1 log=$2
  shift 2
  "$@" >"$log" 2>&1 </dev/null &
  PIDS+=($!)
  NAMES+=("$name")
  disown "$!"
}

# PostgreSQL: a cluster of its own in the folder, on 127.0.0.1 only, trust for the
# `outpost` role (nothing but this machine reaches it).
PG_PORT=$(free_port)
mkdir -p "$DIR/postgresql"
AS_PG=()
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || fail "running as root and there is no postgres user to run PostgreSQL as"
  chown postgres: "$DIR/postgresql"
  AS_PG=(setpriv --reuid=postgres --regid=postgres --init-groups --)
fi
"${AS_PG[@]}" "$PG_BIN/initdb" -D "$DIR/postgresql/data" -A trust -U outpost -E UTF8 --locale=C --no-instructions \
  >"$DIR/initdb.log" 2>&1 || fail "initdb failed" "$DIR/initdb.log"
# wal_init_zero=off: a fresh database has no old WAL files to reuse, and writing each
# new 16 MB file full of zeros held every node's commits for 100-300 ms, every few
# seconds, under load (docs/scaling.md). Commits stay durable (fsync, synchronous_commit).
start postgresql "$DIR/postgresql.log" "${AS_PG[@]}" "$PG_BIN/postgres" -D "$DIR/postgresql/data" -p "$PG_PORT" \
  -c listen_addresses=127.0.0.1 -c unix_socket_directories="$DIR/postgresql" -c max_connections=200 \
  -c wal_init_zero=off ${PG_ARGS:-}
for _ in $(seq 150); do
  "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" && break
  kill -0 "${PIDS[-1]}" 2>/dev/null || fail "PostgreSQL exited at start" "$DIR/postgresql.log"
  sleep 0.2
done
"$PG_BIN/pg_isready" -q -h 127.0.0.1 -p "$PG_PORT" || fail "PostgreSQL did not answer in 30 s" "$DIR/postgresql.log"
"$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U outpost outpost >>"$DIR/postgresql.log" 2>&1 ||
  fail "createdb failed" "$DIR/postgresql.log"
DATABASE="postgresql://outpost@127.0.0.1:$PG_PORT/outpost"

# Redis: in memory only (the games are in PostgreSQL; Redis holds leases and messages).
REDIS_PORT=$(free_port)
mkdir -p "$DIR/redis"
start redis "$DIR/redis.log" redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --dir "$DIR/redis" --save "" \
  --appendonly no --daemonize no
for _ in $(seq 100); do
  [ "$(redis-cli -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ] && break
  kill -0 "${PIDS[-1]}" 2>/dev/null || fail "Redis exited at start" "$DIR/redis.log"
  sleep 0.1
done
[ "$(redis-cli -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ] || fail "Redis did not answer in 10 s" "$DIR/redis.log"
BUS="redis://127.0.0.1:$REDIS_PORT"

# The nodes, one after the other (the first migrates the empty database). On one
# machine they share its cores: each gets its share of network threads (a node's
# default is one a core, and N nodes' threads then took turns on the same cores:
# docs/scaling.md), unless the arguments after `--` say otherwise.
io_threads=()
if ! printf '%s\n' "${EXTRA[@]}" | grep -q -- '^--io-threads'; then
  cores=$(nproc 2>/dev/null || echo 1)
  io_threads=(--io-threads $(( cores / NODES > 1 ? cores / NODES : 1 )))
fi
NODE_PORTS=()
for i in $(seq "$NODES"); do
  p=$(free_port)
  NODE_PORTS+=("$p")
  args=(serve --host 127.0.0.1 --port "$p" --database "$DATABASE" --trust-proxy 127.0.0.1)
  if [ "$HAS_BUS" = 1 ]; then args+=(--bus "$BUS" --node "node$i"); fi
  start "node$i" "$DIR/node$i.log" "$OUTPOST" "${args[@]}" "${io_threads[@]}" "${EXTRA[@]}"
  for _ in $(seq 300); do
    [ "$(http_status "$p" /readyz)" = 200 ] && break
    kill -0 "${PIDS[-1]}" 2>/dev/null || fail "node$i exited at start" "$DIR/node$i.log"
    sleep 0.1
  done
  [ "$(http_status "$p" /readyz)" = 200 ] || fail "node$i was not ready in 30 s" "$DIR/node$i.log"
done

# HAProxy: deploy/haproxy.cfg from its `defaults` on, after a global of our own; its
# `bind :8080` on loopback and this port, each backend's first server line written once
# a node (the name in it, as in `track outpost_games/node1`, renamed with it).
{
  printf 'global\n    log stdout format raw local0 info\n'
  printf '    stats socket %s mode 600 level admin\n\n' "$DIR/haproxy.sock"
  no_limits=0
  for a in "${EXTRA[@]}"; do [ "$a" = --no-client-limits ] && no_limits=1; done
  sed -n '/^defaults/,$p' deploy/haproxy.cfg | awk -v port="$PORT" -v ports="${NODE_PORTS[*]}" -v no_limits="$no_limits" '
    BEGIN { n = split(ports, p, " ") }
    no_limits && /track-sc[0-9]|sc_http_req_rate/ { next }
    /^[^ \t#]/ { backend = ($1 == "backend"); written = 0 }
    $1 == "bind" && $2 == ":8080" { sub(/:8080/, "127.0.0.1:" port); print; next }
    backend && $1 == "server" {
      if (written) next
      indent = $0; sub(/[^ \t].*/, "", indent)
      name = $2; rest = $0; sub(/^[ \t]*server[ \t]+[^ \t]+[ \t]+[^ \t]+/, "", rest)
      for (i = 1; i <= n; i++) { r = rest; gsub(name, "node" i, r); print indent "server node" i " 127.0.0.1:" p[i] r }
      written = 1; next
    }
    { print }'
} >"$DIR/haproxy.cfg"
haproxy -c -q -f "$DIR/haproxy.cfg" >"$DIR/haproxy.log" 2>&1 || fail "HAProxy refused its configuration" "$DIR/haproxy.log"
start haproxy "$DIR/haproxy.log" haproxy -db -f "$DIR/haproxy.cfg"
for _ in $(seq 100); do
  [ "$(http_status "$PORT" /readyz)" = 200 ] && break
  kill -0 "${PIDS[-1]}" 2>/dev/null || fail "HAProxy exited at start" "$DIR/haproxy.log"
  sleep 0.1
done
[ "$(http_status "$PORT" /readyz)" = 200 ] || fail "nothing answered through HAProxy in 10 s" "$DIR/haproxy.log"

echo
echo "Outpost on $NODES node(s), in $DIR:"
printf '  %-11s %-44s %s\n' "what" "where" "log"
printf '  %-11s %-44s %s\n' postgresql "$DATABASE (pid ${PIDS[0]})" "$DIR/postgresql.log"
printf '  %-11s %-44s %s\n' redis "$BUS (pid ${PIDS[1]})" "$DIR/redis.log"
for i in $(seq "$NODES"); do
  printf '  %-11s %-44s %s\n' "node$i" "http://127.0.0.1:${NODE_PORTS[$((i - 1))]} (pid ${PIDS[$((i + 1))]})" "$DIR/node$i.log"
done
printf '  %-11s %-44s %s\n' haproxy "http://localhost:$PORT (pid ${PIDS[-1]})" "$DIR/haproxy.log"
if [ "$HAS_BUS" = 0 ]; then echo "  (this outpost has no --bus yet: one node, without Redis's bus)"; fi
echo "HAProxy's log names the node of each request; its stats socket: $DIR/haproxy.sock ('show stat')."
echo "Play at http://localhost:$PORT. Ctrl-C stops everything."
# Wait for Ctrl-C. A node that dies (kill -9 it to see a takeover) is left dead; the
# others and the front go on.
while true; do sleep 1; done
