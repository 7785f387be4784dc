#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# How prof-golden/golden was built (once; the binary is committed, so that
# the golden outputs' addresses, offsets and source lines never change).
# Run from this directory: sh make-golden.sh
set -e
g++ -O1 -g -fno-omit-frame-pointer -fno-inline-small-functions -no-pie \
	-fdebug-prefix-map="$(pwd)"=/prof-golden -Wl,--build-id=sha1 \
	-o prof-golden/golden src/golden.cc
readelf -n prof-golden/golden | sed -n 's/.*Build ID: //p'
