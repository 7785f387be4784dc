#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The vDSO's code ([vdso]: clock_gettime, time, getcpu, which the kernel
# maps into every process) named as perf names it, from the image its
# build id names:
#   - a recorded file (tests/data/vdso/clocks.data, the clocks workload, its
#     [vdso] map with the build id prof record gives it) and the vDSO prof
#     kept in the build-id cache: the [vdso] rows as perf report shows them
#     from the same cache, names nm -D gives the kept image;
#   - the cache gone: named from this kernel's own vDSO when its build id is
#     the recorded one, else one unnamed row, "?? ([vdso])", never another
#     kernel's names;
#   - prof archive packs it as perf's cache lays it out, .build-id/ab/cdef.../vdso;
# and where perf_event_open works:
#   - prof record gives [vdso] maps this kernel's vDSO's build id (a command's
#     from the kernel's MMAP2, an attached process's from /proc/PID/maps) and
#     keeps the image, byte for byte this process's vDSO, in the cache, not
#     counted among the binaries at risk it copied; -N keeps nothing, and
#     the report still names it from the kernel's own;
#   - prof top names it live.
# shellcheck source=tests/test-subr.sh
. "$srcdir/tests/test-subr.sh"

fix=$srcdir/tests/data/vdso
fixbid=c00c1cc96491047c8970ae5895283b58abf134c2
fiximg=$fix/cache/.build-id/c0/${fixbid#c0}/vdso
[ -f "$fiximg" ] || fail "no $fiximg"

# vdso_rows FILE: "symbol pct" of each [vdso] row of a --sort dso,sym table (prof's or perf's)
vdso_rows() {
	awk '$1 ~ /%$/ { for (i = 2; i < NF; i++) if ($i == "[vdso]" && $(i + 1) == "[.]") {
		s = $(i + 2); for (j = i + 3; j <= NF; j++) s = s " " $j; print s, $1 } }' "$1" | sort
}

# the vDSO of this kernel, as a process maps it ("" when there is none to read)
own=
if command -v python3 > /dev/null 2>&1; then
	python3 - > own.vdso <<'EOF' || fail "cannot read this process's vDSO"
import sys
for line in open("/proc/self/maps"):
    if line.rstrip().endswith("[vdso]"):
        lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
        with open("/proc/self/mem", "rb") as mem:
            mem.seek(lo)
            sys.stdout.buffer.write(mem.read(hi - lo))
        break
EOF
	[ -s own.vdso ] && own=$(readelf -n own.vdso | awk '/Build ID:/ { print $3 }')
else
	note "no python3: this kernel's vDSO is not read; its part is not checked"
fi
note "this kernel's vDSO: build id ${own:-unknown}; the recorded one's $fixbid"

# --- the recorded file, its vDSO from the cache -----------------------------
cp -R "$fix/cache" fixcache && chmod -R u+w fixcache
nm -D --defined-only "$fiximg" | awk '{ sub(/@.*/, "", $3); print $3 }' | sort -u > fix.names
grep -qx __vdso_clock_gettime fix.names || fail "nm -D of the kept vDSO: no __vdso_clock_gettime: $(cat fix.names)"
PERF_BUILDID_DIR=$PWD/fixcache run_prof report -i "$fix/clocks.data" --sort dso,sym --no-inline
expect_rc 0 "prof report of clocks.data with the kept vDSO"
vdso_rows out > cache.rows
note "from the cache: $(tr '\n' ';' < cache.rows)"
grep -q '^__vdso_clock_gettime ' cache.rows || fail "no __vdso_clock_gettime row: $(cat out)"
grep -q '^__vdso_time ' cache.rows || fail "no __vdso_time row: $(cat out)"
awk '{ print $1 }' cache.rows | grep -vxF -f fix.names | grep -v '^??$' > strange &&
	fail "[vdso] rows named what the vDSO does not define: $(cat strange)"
# (the workload the file names is not here, or is another build: its warning is not the vDSO's)
grep -i vdso err && fail "a warning of the vDSO: $(cat err)"
if command -v perf > /dev/null 2>&1; then
	PERF_BUILDID_DIR=$PWD/fixcache command perf report -i "$fix/clocks.data" --stdio \
		--sort dso,sym > perf.out 2> perf.err || fail "perf report: $(tail -n 3 perf.err)"
	# perf shows each unnamed address on a row of its own: only the named rows compare
	vdso_rows perf.out | grep -v '^0x' > perf.rows
	grep -v '^?? ' cache.rows > prof.rows
	cmp -s prof.rows perf.rows || fail "[vdso] rows differ from perf report's: $(diff prof.rows perf.rows | tr '\n' ' ')"
fi

# the cache gone: this kernel's own vDSO when it is that build, else unnamed
mkdir -p nocache
PERF_BUILDID_DIR=$PWD/nocache run_prof report -i "$fix/clocks.data" --sort dso,sym --no-inline
expect_rc 0 "prof report of clocks.data, no cache"
vdso_rows out > nocache.rows
if [ "$own" = "$fixbid" ]; then
	cmp -s cache.rows nocache.rows ||
		fail "no cache, this kernel's vDSO: rows differ: $(diff cache.rows nocache.rows | tr '\n' ' ')"
elif [ -n "$own" ]; then
	[ "$(awk '{ print $1 }' nocache.rows | sort -u)" = "??" ] ||
		fail "another kernel's vDSO gave names: $(cat nocache.rows)"
	total=$(awk '{ sub(/%/, "", $2); t += $2 } END { printf "%.1f", t }' cache.rows)
	got=$(awk '{ sub(/%/, "", $2); t += $2 } END { printf "%.1f", t }' nocache.rows)
	[ "$total" = "$got" ] || fail "no cache: [vdso] has $got%, with it $total%"
fi

# prof archive: the kept vDSO, where perf's cache has it
PERF_BUILDID_DIR=$PWD/fixcache run_prof archive -i "$fix/clocks.data" -o v.tar
expect_rc 0 "prof archive"
tar tf v.tar > v.list || fail "tar tf v.tar"
grep -qx ".build-id/c0/${fixbid#c0}/vdso" v.list || fail "archive: no .build-id/c0/.../vdso: $(cat v.list)"
mkdir -p x && tar xf v.tar -C x .build-id/c0/"${fixbid#c0}"/vdso || fail "tar xf"
cmp -s "$fiximg" x/.build-id/c0/"${fixbid#c0}"/vdso || fail "archive: the vDSO is not the kept one"

# --- recorded here ------------------------------------------------------------
perf_event_usable || finish
[ -n "$own" ] || finish
ownimg=$PERF_BUILDID_DIR/.build-id/$(echo "$own" | cut -c1-2)/$(echo "$own" | cut -c3-)/vdso
clocks=$WORKLOADS/clocks
run_prof record -o c.data -- "$clocks" -s 0.5
expect_rc 0 "prof record of clocks"
grep -q 'binaries .* copied' err && fail "the vDSO counted among the binaries at risk: $(cat err)"
[ -f "$ownimg" ] || fail "prof record kept no vDSO at $ownimg"
cmp -s own.vdso "$ownimg" || fail "the kept vDSO is not this kernel's"
script_of c.data c.txt
grep -q "^MMAP2 .*buildid=$own .*file=\[vdso\]\$" c.txt ||
	fail "no [vdso] MMAP2 with build id $own: $(grep 'vdso' c.txt | head -n 3)"
run_prof report -i c.data --sort dso,sym --no-inline
expect_rc 0 "prof report of c.data"
vdso_rows out > c.rows
grep -q '^__vdso_clock_gettime ' c.rows || fail "recorded here: no __vdso_clock_gettime row: $(head -n 20 out)"
if command -v perf > /dev/null 2>&1; then
	command perf report -i c.data --stdio --sort dso,sym > perf.out 2> perf.err ||
		fail "perf report of c.data: $(tail -n 3 perf.err)"
	vdso_rows perf.out | grep -v '^0x' > perf.rows
	grep -v '^?? ' c.rows > prof.rows
	cmp -s prof.rows perf.rows || fail "c.data: [vdso] rows differ from perf's: $(diff prof.rows perf.rows | tr '\n' ' ')"
fi
rm -f "$ownimg"
run_prof report -i c.data --sort dso,sym --no-inline
cmp -s c.rows "$(vdso_rows out > c2.rows; echo c2.rows)" ||
	fail "the kept vDSO gone: rows differ from this kernel's own: $(diff c.rows c2.rows | tr '\n' ' ')"

# -N: nothing kept; named from this kernel's own
mkdir -p ncache
PERF_BUILDID_DIR=$PWD/ncache run_prof record -N -o n.data -- "$clocks" -s 0.3
expect_rc 0 "prof record -N"
[ -z "$(find ncache -type f)" ] || fail "-N kept files: $(find ncache -type f)"
PERF_BUILDID_DIR=$PWD/ncache run_prof report -i n.data --sort dso,sym --no-inline
vdso_rows out | grep -q '^__vdso_clock_gettime ' || fail "-N: no __vdso_clock_gettime row: $(head -n 20 out)"

# an attached process: its maps from /proc/PID/maps
"$clocks" -s 600 &
wpid=$!
bg_add $wpid
wait_until "clocks running" grep -q '^clocks$' /proc/$wpid/comm
run_prof record -p $wpid --duration 0.5 -o p.data
expect_rc 0 "prof record -p"
script_of p.data p.txt
grep -q "^MMAP2 .*pid=$wpid .*buildid=$own .*file=\[vdso\]\$" p.txt ||
	fail "-p: no [vdso] MMAP2 with build id $own: $(grep 'vdso' p.txt | head -n 3)"
run_prof report -i p.data --sort dso,sym --no-inline
vdso_rows out | grep -q '^__vdso_clock_gettime ' || fail "-p: no __vdso_clock_gettime row: $(head -n 20 out)"

# live: prof top asks the kernel for no build ids; a 64-bit process's vDSO is this kernel's
run_prof top --stdio -d 0.3 -p $wpid --duration 1
expect_rc 0 "prof top -p"
grep -q '\[vdso\] *\[\.\] __vdso_clock_gettime$' out || fail "prof top: no __vdso_clock_gettime: $(head -n 20 out)"
finish
