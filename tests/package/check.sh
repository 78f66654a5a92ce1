#!/usr/bin/env bash
# The Debian package as an operator meets it (SPEC D5): `apt-get install ./outpost_….deb`
# (which brings the shared libraries it needs), the unit checked by
# `systemd-analyze verify`, the service's user and state folder, the server started as
# that user with the package's configuration, a game played over HTTP and WebSocket,
# then `dpkg -r` (configuration and games kept) and `dpkg -P` (configuration gone,
# games kept). Leaves the machine as it found it, also when a step fails.
#
#   bash tests/package/check.sh outpost_VERSION_amd64.deb
# SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
cd "$(dirname "$0")/../.."
deb=$(realpath "$1")

if [ "$(id -u)" -ne 0 ]; then
  echo "package check: installing a package needs root; skipped"
  exit 0
fi
if dpkg-query -W -f='${Status}' outpost 2>/dev/null | grep -q 'ok installed'; then
  echo "package check: an outpost package is installed on this machine already; not touching it" >&2
  exit 1
fi
had_user=0
getent passwd outpost >/dev/null && had_user=1
# systemd-analyze verify, and man for the unit's Documentation=man:outpost(1).
for p in systemd man-db; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$p" >/dev/null
done

work=$(mktemp -d)
server=0
cleanup() {
  [ "$server" -gt 0 ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  dpkg -P outpost >/dev/null 2>&1 || true
  rm -rf /var/lib/outpost /etc/outpost "$work"
  [ "$had_user" -eq 0 ] && { userdel outpost 2>/dev/null || true; groupdel outpost 2>/dev/null || true; }
  return 0
}
trap cleanup EXIT
fail() { echo "FAILED: package check: $*" >&2; exit 1; }

DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$deb" >"$work/apt.log" 2>&1 ||
  { cat "$work/apt.log"; fail "apt-get install $deb"; }
systemd-analyze verify /lib/systemd/system/outpost.service || fail "systemd-analyze verify outpost.service"
getent passwd outpost >/dev/null || fail "no user outpost"
[ "$(stat -c %U /var/lib/outpost)" = outpost ] || fail "/var/lib/outpost is not the outpost user's"
/usr/bin/outpost --version | grep -Eq '^outpost [0-9.]+ \(' || fail "outpost --version"

# As the service would run it (ExecStart: its user, its folder, its settings), on a free
# port instead of 8080. setpriv executes the server itself, so $! is the server's pid.
(cd /var/lib/outpost && exec setpriv --reuid=outpost --regid=outpost --init-groups --reset-env \
  /usr/bin/outpost serve --config /etc/outpost/outpost.toml --port 0) >"$work/serve.log" 2>&1 &
server=$!
port=""
for _ in $(seq 200); do
  port=$(sed -n 's|.*http://[^:]*:\([0-9]*\)/.*|\1|p' "$work/serve.log" | head -n 1)
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { cat "$work/serve.log"; fail "the packaged server did not start"; }
node web/scripts/play-game.mjs "http://127.0.0.1:$port" || fail "playing a game on the packaged server"
curl_like() { node -e "fetch(process.argv[1]).then(async r => { console.log(r.status); console.log(await r.text()) })" "$1"; }
curl_like "http://127.0.0.1:$port/" | grep -q 'assets/index-' || fail "the packaged server does not serve the web UI"
curl_like "http://127.0.0.1:$port/readyz" | head -n 1 | grep -qx 200 || fail "/readyz is not 200"
kill "$server"; wait "$server" 2>/dev/null || true; server=0
[ -s /var/lib/outpost/outpost.db ] || fail "no games in /var/lib/outpost/outpost.db"
[ "$(stat -c %U /var/lib/outpost/outpost.db)" = outpost ] || fail "the database is not the outpost user's"

dpkg -r outpost >/dev/null
[ -f /etc/outpost/outpost.toml ] || fail "dpkg -r removed the configuration"
[ -s /var/lib/outpost/outpost.db ] || fail "dpkg -r removed the games"
dpkg -P outpost >/dev/null
[ ! -e /etc/outpost/outpost.toml ] || fail "dpkg -P kept the configuration"
[ -s /var/lib/outpost/outpost.db ] || fail "dpkg -P removed the games (they stay until removed by hand)"
echo "package check: installed, verified, served a game as user outpost, removed and purged"
