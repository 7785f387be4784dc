#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs what building and testing prof needs on Debian 12, with apt-get.
# Idempotent: packages already there are left alone. Run as root (or it uses sudo).
#   ./install-deps.sh [--aarch64]
# --aarch64 also installs what `make check-aarch64` and `make check-guest`
# need: a cross compiler, arm64 libraries (it adds arm64 to dpkg's
# architectures), qemu-user, and qemu-system-arm and cpio for the arm64
# guest (whose kernel and busybox check-guest.sh downloads from Debian's
# archive itself, installing nothing).
set -eu

packages="build-essential autoconf automake libtool pkg-config make
libelf-dev libdw-dev libzstd-dev zlib1g-dev linux-libc-dev libiberty-dev
libdebuginfod-dev debuginfod libcurl4-openssl-dev binutils-dev binutils-aarch64-linux-gnu python3-protobuf
linux-perf libxml2-utils man-db groff-base
clang libclang-rt-14-dev lld rustc
chromium python3-jsonschema golang-go libc6-dbg libtraceevent1
nodejs openjdk-17-jdk-headless
jq time tmux less strace"

sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
case ${1:-} in
--aarch64)
	dpkg --print-foreign-architectures | grep -qx arm64 || $sudo dpkg --add-architecture arm64
	packages="$packages gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user qemu-system-arm cpio
libdw-dev:arm64 libelf-dev:arm64 libzstd-dev:arm64 zlib1g-dev:arm64 libiberty-dev:arm64
libcurl4-openssl-dev:arm64"
	;;
"") ;;
*)
	echo "install-deps: unknown option '$1'; the only one is --aarch64" >&2
	exit 64
	;;
esac

missing=
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
# npm: Debian's package, unless a node of elsewhere brought its own
command -v npm > /dev/null 2>&1 || missing="$missing npm"
if [ -z "$missing" ]; then
	echo "install-deps: every package is installed"
else
	echo "install-deps: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -q
	# shellcheck disable=SC2086
	$sudo apt-get install -y -q --no-install-recommends $missing
fi

# The browser tests' npm packages (tests/browser/package-lock.json):
# puppeteer-core drives Debian's chromium, speedscope is the app they load
# its files into, profiler-cli the Firefox Profiler's loader and upgraders.
# No browser is downloaded. Without them those tests skip.
browser=$(dirname "$0")/tests/browser
if [ -f "$browser/package-lock.json" ] && { [ ! -d "$browser/node_modules/speedscope" ] ||
	[ ! -d "$browser/node_modules/@firefox-devtools/profiler-cli" ]; }; then
	if (cd "$browser" && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error); then
		echo "install-deps: installed the npm packages of tests/browser"
	else
		echo "install-deps: warning: npm ci in tests/browser failed; the tests in a browser will skip" >&2
	fi
fi

# perf 6.12, a second oracle beside Debian 12's perf 6.1 (its files carry
# what 6.1's do not): bookworm-backports' linux-perf, fetched with a
# private apt configuration (the system's sources are left alone) and
# unpacked with dpkg -x under $PERF612_DIR; nothing is installed but its
# libraries (libtraceevent1, above). tests/test-subr.sh finds it there;
# without it those comparisons skip, saying so.
PERF612_DIR=${PERF612_DIR:-/usr/local/lib/prof-deps/perf-6.12}
if [ ! -x "$PERF612_DIR/usr/bin/perf" ]; then
	bpo=$(mktemp -d)
	mkdir -p "$bpo/lists/partial" "$bpo/cache/archives/partial"
	echo "deb http://deb.debian.org/debian bookworm-backports main" > "$bpo/sources.list"
	apt_bpo="-o Dir::Etc::sourcelist=$bpo/sources.list -o Dir::Etc::sourceparts=- \
-o Dir::State::Lists=$bpo/lists -o Dir::Cache=$bpo/cache -o Debug::NoLocking=1"
	# shellcheck disable=SC2086  # apt_bpo is a word list
	if apt-get -q $apt_bpo update > "$bpo/log" 2>&1 &&
		(cd "$bpo" && apt-get -q $apt_bpo download linux-perf >> "$bpo/log" 2>&1) &&
		deb=$(ls "$bpo"/linux-perf_6.12*.deb 2> /dev/null) && [ -n "$deb" ] &&
		$sudo mkdir -p "$PERF612_DIR" && $sudo dpkg -x "$deb" "$PERF612_DIR" &&
		"$PERF612_DIR/usr/bin/perf" --version > /dev/null 2>&1; then
		echo "install-deps: perf 6.12 from bookworm-backports in $PERF612_DIR"
	else
		echo "install-deps: warning: no perf 6.12 from bookworm-backports ($(tail -n 1 "$bpo/log")); its comparisons will skip" >&2
	fi
	rm -rf "$bpo"
fi
