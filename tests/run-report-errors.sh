#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# prof report on bad options and bad files: usage errors exit 64 with one
# "prof: " line; a missing or foreign file exits 1; a truncated profile is
# reported with a warning; a profile with a byte flipped gives a report or
# one error naming the offset, never a crash or a hang.
. "$srcdir/tests/test-subr.sh"
need_recordings

shape=$WORKLOADS/shape

record_or_replay errors-raw prof record -q -g --no-compress -e cpu-clock -o raw.data -- "$shape" -s 1
expect_rc 0 "prof record -g --no-compress -- shape -s 1"
record_or_replay errors-z prof record -q -g -e cpu-clock -o z.data -- "$shape" -s 1
expect_rc 0 "prof record -g -- shape -s 1"

# An event the file has not, or --wall without switches, is said when the
# events are declared, before a sample is read, not after the whole input:
# here a pipe whose writer has more to come (a typo once cost a full load,
# and on a live pipe, forever).
i=0
for how in "--event nosuch" "--wall"; do
	i=$((i + 1))
	mkfifo in$i.fifo || fail "mkfifo"
	{ cat raw.data; exec sleep 100; } > in$i.fifo &
	bg_add $!
	# shellcheck disable=SC2086
	timeout -k 2 300 "$PROF" report -i - $how < in$i.fifo > out 2> err
	rc=$?
	[ "$rc" = 124 ] && fail "prof report $how of a pipe that has more to come read it all before saying no"
	expect_rc 1 "prof report $how of a pipe"
	one_error_line "prof report $how of a pipe"
	case $how in
	--wall) grep -q "^prof: '-' has no context switches for --wall" err ;;
	*) grep -q "^prof: --event: '-' has no event 'nosuch'; it has cpu-clock$" err ;;
	esac || fail "prof report $how: $(cat err)"
done

# usage ARGS...: `prof report -i raw.data ARGS` is a usage error.
usage() {
	run_prof report -i raw.data "$@"
	expect_rc 64 "prof report $*"
	one_error_line "prof report $*"
	[ -s out ] && fail "prof report $*: a usage error printed a report"
	note "prof report $*: $(cat err)"
}
usage --sort bogus
usage --sort comm,bogus
usage --sort ''
usage -g sideways
usage --call-graph=sideways
usage --tree=left
usage --percent-limit abc
usage --percent-limit 10x
usage --percent-limit -1
usage --max-depth 0
usage --max-depth abc
usage --time 5,1
usage --time abc
usage --symbol '('
usage --cpu x
usage --pid abc
usage --bogus

# A missing file.
run_prof report -i nosuch.data
expect_rc 1 "prof report -i nosuch.data"
expect_err "prof report -i nosuch.data" <<'EOF'
prof: cannot open 'nosuch.data': No such file or directory
EOF
# The default input is prof.data.
run_prof report
expect_rc 1 "prof report without prof.data"
expect_err "prof report without prof.data" <<'EOF'
prof: cannot open 'prof.data': No such file or directory
EOF

# Not a perf.data file: text, an empty file, a short file.
cp "$srcdir/tests/test-subr.sh" text.data
: > empty.data
printf 'PERF' > short.data
for f in text.data empty.data short.data; do
	run_prof report -i $f
	note "prof report -i $f: exit $rc: $(cat err)"
	[ "$rc" = 1 ] || check_later "prof report -i $f (not a perf.data file): exit status $rc, expected 1"
	[ "$(wc -l < err)" = 1 ] && grep -q "^prof: .*'$f'" err ||
		check_later "prof report -i $f: stderr is not one 'prof: ' line naming the file: $(cat err)"
	[ $f = text.data ] && { grep -q 'not a perf.data file' err ||
		check_later "prof report -i text.data: stderr does not say 'not a perf.data file': $(cat err)"; }
done

# A profile cut in its middle: what is there is reported, with a warning.
for f in raw.data z.data; do
	run_prof report -i $f --sort sym
	expect_rc 0 "prof report -i $f"
	full=$(awk '!/^#/ && $1 ~ /%$/ && $2 ~ /^[0-9]+$/ { n += $2 } END { print n + 0 }' out)
	size=$(wc -c < $f)
	# Kernel records are multiples of 8 bytes long, so 5 bytes past a
	# multiple of 8 is inside one; compressed records are not padded, so
	# such a cut may fall between two (a shorter, whole file): then one
	# byte further is inside one.
	cut=$((size / 2 - size / 2 % 8 + 5))
	head -c $cut $f > cut-$f
	run_prof report -i cut-$f --sort sym
	if [ "$rc" = 0 ] && ! grep -q truncated err; then
		cut=$((cut + 1))
		head -c $cut $f > cut-$f
		run_prof report -i cut-$f --sort sym
	fi
	n=$(awk '!/^#/ && $1 ~ /%$/ && $2 ~ /^[0-9]+$/ { n += $2 } END { print n + 0 }' out)
	note "$f cut at $cut of $size bytes: exit $rc, $n samples (whole file: $full), stderr: $(cat err)"
	expect_rc 0 "prof report -i cut-$f (cut at $cut of $size bytes)"
	grep -q 'truncated' err || fail "prof report -i cut-$f: no warning with 'truncated' on stderr: $(cat err)"
	grep -v '^prof: ' err > other.err
	[ -s other.err ] && check_later "prof report -i cut-$f: a stderr line not starting 'prof: ': $(cat other.err)"
	# What is reported is every record before the one the cut is in: the
	# file ended at the offset the warning names reads whole, and the same.
	# A compressed record holds what one flush of the rings gave, so on a
	# loaded machine (a few hundred samples) one record can hold them all.
	at=$(sed -n "s/.*is truncated at offset \([0-9]*\);.*/\1/p" err)
	[ -n "$at" ] || fail "prof report -i cut-$f: the warning names no offset: $(cat err)"
	head -c "$at" $f > upto-$f
	run_prof report -i upto-$f --sort sym
	expect_rc 0 "prof report -i upto-$f (the records before offset $at)"
	grep -q truncated err && fail "prof report -i upto-$f: the records before $at are not whole: $(cat err)"
	m=$(awk '!/^#/ && $1 ~ /%$/ && $2 ~ /^[0-9]+$/ { n += $2 } END { print n + 0 }' out)
	[ "$m" = "$n" ] || fail "prof report -i cut-$f: $n samples, but the records before the cut hold $m"
	if [ "$n" -gt 0 ]; then
		grep -q '\[\.\] leaf_a' out || fail "prof report -i upto-$f: no leaf_a in the report"
	fi
	if [ "$f" = raw.data ]; then
		# records of tens of bytes: the cut leaves about half
		expect_range "prof report -i cut-$f: samples in half the file (whole: $full)" "$n" \
			$((full / 5)) $((full * 4 / 5))
	fi
done

# perf's file-mode header says how long the data section is: one that
# runs past the end of the file is a truncated file (exit 0, a warning) or
# a corrupt one (exit 1, one line naming the offset), nothing else.
if command -v perf > /dev/null 2>&1; then
	record_or_replay errors-perf perf record -q -e cpu-clock -o perf.data -- "$shape" -s 0.3
	[ "$rc" = 0 ] || fail "perf record -- shape -s 0.3 exited $rc: $(sed -n 1,5p perf.err)"
	# data.size is the u64 at offset 40; its top byte is at 47.
	cp perf.data long.data
	printf '\247' | dd of=long.data bs=1 seek=47 conv=notrunc 2> /dev/null
	run_prof report -i long.data
	note "perf file with data.size past the end: exit $rc: $(cat err)"
	case $rc in
	0) grep -q truncated err || check_later "prof report -i long.data (data.size past the end): exit 0 without a 'truncated' warning: $(cat err)" ;;
	1) [ "$(wc -l < err)" = 1 ] && grep -q "^prof: 'long.data' is corrupt at offset [0-9]" err ||
		check_later "prof report -i long.data (data.size past the end): exit 1 without one \"prof: 'long.data' is corrupt at offset N\" line: $(cat err)" ;;
	*) fail "prof report -i long.data (data.size past the end): exit status $rc: $(cat err)" ;;
	esac
fi

# 100 random bytes replaced, 70 in the plain profile and 30 in the
# compressed one: exit 0 (a report, warnings allowed) or 1 (one error line
# naming the offset, or saying it is not a perf.data file); never a signal
# or a hang. The offsets are the same from run to run (the profiles are
# not); PROF_TEST_SEED=N tries others.
seed=${PROF_TEST_SEED:-20251122}
note "flips: seed $seed"
prof_timeout=180
crashes=0
for f in raw.data z.data; do
	case $f in raw.data) nflips=70 ;; *) nflips=30 ;; esac
	size=$(wc -c < $f)
	awk -v size="$size" -v n="$nflips" -v seed="$seed$nflips" 'BEGIN {
		srand(seed)
		for (i = 0; i < n; i++) {
			# Half of them in the first 4 KiB, where the headers are.
			o = (i % 2 && size > 4096) ? int(rand() * 4096) : int(rand() * size)
			print o, 1 + int(rand() * 255)
		}
	}' > flips.$f
	while read -r off x; do
		cp $f flip.data
		old=$(od -An -tu1 -j "$off" -N1 $f | tr -d ' ')
		new=$(awk -v a="$old" -v b="$x" 'BEGIN {
			r = 0; p = 1
			for (i = 0; i < 8; i++) {
				if ((int(a / p) % 2) != (int(b / p) % 2)) r += p
				p *= 2
			}
			print r }')
		printf "$(printf '\\%03o' "$new")" |
			dd of=flip.data bs=1 seek="$off" conv=notrunc 2> /dev/null
		timeout -k 2 "$prof_timeout" "$PROF" report -i flip.data < /dev/null > out 2> err
		rc=$?
		what="$f with byte $off changed from $old to $new"
		case $rc in
		0) ;;
		1)
			if [ "$(wc -l < err)" != 1 ] || ! grep -q '^prof: ' err ||
				! grep -q -e 'offset [0-9]' -e 'not a perf.data file' err; then
				echo "FAIL: $what: exit 1 without one 'prof: ' line naming the offset: $(sed -n 1,3p err)"
				crashes=$((crashes + 1))
			fi
			;;
		*)
			echo "FAIL: $what: exit status $rc$( [ "$rc" = 124 ] && echo ' (hung)'): $(sed -n 1,3p err)"
			crashes=$((crashes + 1))
			;;
		esac
		echo "$rc" >> flip.rcs
	done < flips.$f
done
note "flips: $(grep -c '^0$' flip.rcs) reports, $(grep -c '^1$' flip.rcs) errors, $crashes bad outcomes"
[ "$crashes" = 0 ] || fail "$crashes flipped profiles crashed, hung or gave a bad error (seed $seed)"
# prof help COMMAND: the manual, from the tree's doc/ when prof is not installed.
if command -v man > /dev/null 2>&1; then
	MANPAGER=cat MANWIDTH=80 run_prof help report
	expect_rc 0 "prof help report"
	grep -q 'PROF-REPORT(1)' out || check_later "prof help report shows no manual: $(head -3 out) $(head -3 err)"
else
	note "man is not installed: prof help not checked"
fi
# ... and the tree it was built in is not where the binary looks for its
# pages (an installed prof would look there): no doc/ path of the build's
# in it (the sanitizers' own source paths, of .c files, are no matter).
if command -v objcopy > /dev/null 2>&1; then
	objcopy -O binary --only-section=.rodata "$PROF" rodata || fail "objcopy of prof's .rodata"
	if grep -a -q -F "$srcdir/doc" rodata || grep -a -q -F "$builddir/doc" rodata; then
		check_later "prof's .rodata holds the build's doc path ($srcdir/doc or $builddir/doc)"
	fi
fi
finish
