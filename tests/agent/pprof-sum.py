#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Read gzipped pprof files by profile.proto's field numbers, and print
per file: FILE SAMPLES VALUE TIME_NANOS DURATION_NANOS LABELS, where
SAMPLES sums the first value of every Sample, VALUE the second, and
LABELS is key=value,... of the label keys seen (sorted, distinct values
joined by |). Exits 1 on anything that is not a well-formed profile,
on a location whose address lies outside its mapping, and on one with
address 0 (pprof's "not available": prof agent's kernel frames) that
names no function. --no-kernel-addresses: exit 1 on any address or
mapping bound in the kernel's half of the address space as well."""
import gzip
import os
import sys


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pbwire  # noqa: E402


def fields(b):
    return ((f, v) for f, _, v in pbwire.fields(b))


def packed(v):
    return pbwire.ints(0 if isinstance(v, int) else 2, v)


# --named-in SUBSTR: instead, for each file: FILE NAMED UNNAMED, the samples
# whose leaf lies in a mapping whose file name has SUBSTR, with a function
# name and without
named_in = None
if sys.argv[1:2] == ["--named-in"]:
    named_in = sys.argv[2]
    del sys.argv[1:3]
no_kernel = False
if sys.argv[1:2] == ["--no-kernel-addresses"]:
    no_kernel = True
    del sys.argv[1:2]
KERNEL = 0xffff800000000000

for path in sys.argv[1:]:
    b = gzip.open(path).read()
    strings, samples, maps, locs, funcs, mapfile = [], [], {}, [], {}, {}
    t = d = 0
    for f, v in fields(b):
        if f == 6:
            strings.append(v.decode("utf-8"))
        elif f == 2:
            samples.append(v)
        elif f == 3:
            m = dict(fields(v))
            maps[m.get(1, 0)] = (m.get(2, 0), m.get(3, 0))
            mapfile[m.get(1, 0)] = m.get(5, 0)
        elif f == 4:
            loc = dict((lf, lv) for lf, lv in fields(v) if lf in (1, 2, 3))
            loc["lines"] = [dict(fields(lv)).get(1, 0) for lf, lv in fields(v) if lf == 4]
            locs.append(loc)
        elif f == 5:
            fn = dict(fields(v))
            funcs[fn.get(1, 0)] = fn.get(2, 0)
        elif f == 9:
            t = v
        elif f == 10:
            d = v
    # every location in its mapping, so that its file offset is
    # address - memory_start + file_offset, as pprof and the backends take it
    if no_kernel:
        for m, (lo, hi) in maps.items():
            if lo >= KERNEL or hi >= KERNEL:
                sys.exit("%s: mapping %d [0x%x, 0x%x) says where the kernel is" % (path, m, lo, hi))
        for loc in locs:
            if loc.get(3, 0) >= KERNEL:
                sys.exit("%s: location %d at 0x%x: a kernel address" % (path, loc.get(1, 0), loc[3]))
    for loc in locs:
        if loc.get(2) and not loc.get(3, 0):
            if not loc["lines"]:
                sys.exit("%s: location %d has neither an address nor a function" % (path, loc.get(1, 0)))
        elif loc.get(2):
            lo, hi = maps.get(loc[2], (0, 0))
            a = loc.get(3, 0)
            if not lo <= a < hi:
                sys.exit("%s: location %d at 0x%x lies outside its mapping %d [0x%x, 0x%x)"
                         % (path, loc.get(1, 0), a, loc[2], lo, hi))
    if named_in is not None:
        byid = {loc.get(1, 0): loc for loc in locs}
        named = unnamed = 0
        for smp in samples:
            ids, vals = [], []
            for f, v in fields(smp):
                if f == 1:
                    ids += packed(v)
                elif f == 2:
                    vals += packed(v)
            leaf = byid.get(ids[0]) if ids else None
            if leaf is None or named_in not in strings[mapfile.get(leaf.get(2, 0), 0)]:
                continue
            if any(strings[funcs.get(fid, 0)] for fid in leaf["lines"]):
                named += vals[0]
            else:
                unnamed += vals[0]
        print(path, named, unnamed)
        continue
    n = val = 0
    labels = {}
    for s in samples:
        vals = []
        for f, v in fields(s):
            if f == 2:
                vals += packed(v)
            elif f == 3:
                k = sv = 0
                for lf, lv in fields(v):
                    if lf == 1:
                        k = lv
                    elif lf == 2:
                        sv = lv
                labels.setdefault(strings[k], set()).add(strings[sv])
        n += vals[0]
        val += vals[1] if len(vals) > 1 else 0
    lab = ",".join("%s=%s" % (k, "|".join(sorted(labels[k]))) for k in sorted(labels))
    print(path, n, val, t, d, lab or "-")
