#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Installs what building and testing prof needs on Debian 12, with apt-get.
# Idempotent: packages already there are left alone. Run as root (or it uses sudo).
set -eu

packages="build-essential autoconf automake libtool pkg-config make
libelf-dev libdw-dev libzstd-dev zlib1g-dev linux-libc-dev
linux-perf libxml2-utils man-db groff-base
clang libclang-rt-14-dev
chromium python3-jsonschema golang-go"

missing=
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "install-deps: everything is installed"
	exit 0
fi
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
# shellcheck disable=SC2086
$sudo apt-get install -y -q --no-install-recommends $missing
