#!/usr/bin/env bash
# Builds the Debian package outpost_VERSION_amd64.deb (SPEC D5) in the source folder:
# /usr/bin/outpost (a portable build: no -march=native, the web UI compiled in), the
# systemd unit outpost.service (a static system user `outpost` made by postinst,
# hardened), /etc/outpost/outpost.toml as a conffile, the man page outpost(1), and a
# copyright file naming Outpost's licence and that of everything compiled into the
# executable (packaging/deb/copyright.py). Checks it with lintian: an error fails.
#
#   bash scripts/package.sh [BUILD_DIR]     (default build-package)
#
# BUILD_DIR is configured as a portable Release build when it does not exist; an
# existing one must be portable (CI's Release build is, so the package costs no second
# compilation). SPDX-License-Identifier: GPL-3.0-or-later
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build-package}

PACKAGES=(dpkg-dev lintian)  # dpkg-shlibdeps; lintian
missing=()
for p in "${PACKAGES[@]}"; do dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=(); [ "$(id -u)" -ne 0 ] && SUDO=(sudo)
  "${SUDO[@]}" apt-get update -q && DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOUTPOST_PORTABLE=ON -DOUTPOST_BUILD_TESTS=OFF
fi
for setting in OUTPOST_PORTABLE:BOOL=ON OUTPOST_EMBED_WEB:BOOL=ON CMAKE_BUILD_TYPE:STRING=Release; do
  if ! grep -q "^$setting\$" "$BUILD/CMakeCache.txt"; then
    echo "package: $BUILD is not a portable Release build with the web UI (needs $setting)" >&2
    exit 1
  fi
done
cmake --build "$BUILD" --target outpost

version=$(sed -n 's/^project(outpost VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
deb="outpost_${version}_amd64.deb"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root="$stage/root"

install -D -m 0755 "$BUILD/src/app/outpost" "$root/usr/bin/outpost"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/outpost"
install -D -m 0644 packaging/deb/outpost.service "$root/lib/systemd/system/outpost.service"
install -D -m 0644 packaging/deb/outpost.toml "$root/etc/outpost/outpost.toml"
# Issue 29: the starter puzzles, loaded by a server whose database has none
# (`outpost serve --starter-puzzles`, whose default is this path).
if [ -f data/puzzles.csv ]; then install -D -m 0644 data/puzzles.csv "$root/usr/share/outpost/puzzles.csv"; fi
install -d -m 0755 "$root/usr/share/man/man1" "$root/usr/share/doc/outpost"
gzip -9n -c packaging/deb/outpost.1 >"$root/usr/share/man/man1/outpost.1.gz"
python3 packaging/deb/copyright.py . >"$root/usr/share/doc/outpost/copyright"
chmod 0644 "$root/usr/share/doc/outpost/copyright"
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
cat >"$stage/changelog" <<EOF
outpost ($version) unstable; urgency=medium

  * Built from the Outpost source, commit $commit.

 -- Outpost developers <outpost@example.org>  $(date -R -d @"${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}")
EOF
gzip -9n -c "$stage/changelog" >"$root/usr/share/doc/outpost/changelog.gz"
chmod 0644 "$root/usr/share/doc/outpost/changelog.gz"

# The shared libraries the executable needs, as package dependencies.
mkdir -p "$stage/src/debian"
printf 'Source: outpost\n\nPackage: outpost\nArchitecture: amd64\n' >"$stage/src/debian/control"
shlibs=$(cd "$stage/src" && dpkg-shlibdeps -O "$root/usr/bin/outpost" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
install -d -m 0755 "$root/DEBIAN"
install -m 0755 packaging/deb/postinst packaging/deb/postrm "$root/DEBIAN/"
install -m 0644 packaging/deb/conffiles "$root/DEBIAN/conffiles"
cat >"$root/DEBIAN/control" <<EOF
Package: outpost
Version: $version
Architecture: amd64
Maintainer: Outpost developers <outpost@example.org>
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: ${shlibs}, adduser
Section: net
Priority: optional
Description: self-hosted chess server with web UI, robot and tournaments
 Outpost plays chess under the FIDE Laws of Chess in the browser: against its
 own robot at a chosen level, against a person at the same screen, or against
 a person anywhere on the network, with real clocks, Chess960, notation,
 adjournment, a lobby, accounts with ratings, Swiss and round-robin events,
 simuls and game analysis, in six languages and with a screen-reader mode.
 .
 This package runs it as the systemd service outpost.service; its settings are
 in /etc/outpost/outpost.toml and its games in /var/lib/outpost. The same
 executable is a UCI engine for chess GUIs.
EOF
(cd "$root" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/md5sums"
dpkg-deb --build --root-owner-group -Zxz "$root" "$deb" >/dev/null
echo "package: $deb ($(du -h "$deb" | cut -f1))"
# Errors fail the build; warnings are printed. No override of an error is shipped.
lintian --allow-root --fail-on error --tag-display-limit 0 "$deb"
echo "package: lintian reports no error"
