// SPDX-License-Identifier: GPL-2.0-or-later
/* prof record's last lines on stderr: what it wrote, and what it left to the report. */
#include "config.h"

#include <stdio.h>
#include <time.h>

#include "record-int.h"

void record_summary(const struct recorder *rc)
{
	struct timespec t;
	double secs, pct;
	uint64_t in = rc->done_in + (rc->w ? writer_bytes_in(rc->w) : 0);
	uint64_t out = rc->done_out + (rc->w ? writer_bytes_out(rc->w) : 0);
	uint64_t samples = rc->done_samples + (rc->w ? writer_samples_out(rc->w) : 0);
	char ratio[48], where[4200], advice[200];

	if (rc->o.quiet)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t);
	secs = (double)(t.tv_sec - rc->start.tv_sec) + (t.tv_nsec - rc->start.tv_nsec) / 1e9;
	pct = rc->drain.samples + rc->drain.lost ?
	      100.0 * (double)rc->drain.lost / (double)(rc->drain.samples + rc->drain.lost) : 0;
	if (rc->o.level && out)
		snprintf(ratio, sizeof(ratio), "%.1fx compressed", (double)in / (double)out);
	else
		snprintf(ratio, sizeof(ratio), "uncompressed");
	if (rc->o.switch_output)
		snprintf(where, sizeof(where), "in %zu files%s, the last '%s'", rc->nfiles,
			 rc->o.switch_max_files ? " kept" : "", rc->out_name);
	else
		snprintf(where, sizeof(where), "to '%s'", rc->out_name);
	/*
	 * What to change: the rings, when they filled between passes; the
	 * work behind them, when the worker was behind by all its buffers.
	 */
	if (pct > 1.0 && rc->behind)
		snprintf(advice, sizeof(advice), "; the recorder fell behind writing the file (%llu "
			 "waits, %.0f ms): use a lower -F, -z 1 or --no-compress, or a faster disk "
			 "or reader",
			 (unsigned long long)rc->behind, (double)rc->behind_ns / 1e6);
	else if (pct > 1.0)
		snprintf(advice, sizeof(advice), "; use a bigger -m or a lower -F");
	else
		advice[0] = 0;
	/* After a failed write (a full disk), only what reached the file counts. */
	fprintf(stderr, "prof: %llu samples, %llu lost records (%.2f%%), %llu bytes %s "
		"(%s), %.3f s%s\n", (unsigned long long)samples,
		(unsigned long long)rc->drain.lost, pct, (unsigned long long)out, where, ratio,
		secs, advice);
	{
		uint64_t bytes, procs, n = carry_files(rc->carry, &bytes, &procs);

		if (n)
			fprintf(stderr, "prof: %llu JIT symbol file%s (perf maps, jitdumps) of %llu "
				"process%s carried in the profile (%llu KiB)\n",
				(unsigned long long)n, n == 1 ? "" : "s", (unsigned long long)procs,
				procs == 1 ? "" : "es", (unsigned long long)(bytes + 1023) / 1024);
	}
	{
		uint64_t stores = 0;
		uint64_t stored = rc->done_stored + (rc->w ? writer_stored(rc->w, &stores) : 0);

		stores += rc->done_stores;
		if (stored)
			fprintf(stderr, "prof: compressing took over %g%% of a CPU (%llu time%s): "
				"%.1f MB of records written uncompressed meanwhile (-z 1 compresses "
				"always; --cpu-budget sets the share)\n", rc->o.cpu_budget / 1e4,
				(unsigned long long)stores, stores == 1 ? "" : "s", (double)stored / 1e6);
	}
	if (rc->gate.b.left)
		fprintf(stderr, "prof: the leaf repair took over %g%% of a CPU (%llu time%s): "
			"%llu samples keep their stacks for prof report's repair (--cpu-budget sets "
			"the share)\n", rc->o.cpu_budget / 1e4, (unsigned long long)rc->gate.b.times,
			rc->gate.b.times == 1 ? "" : "s", (unsigned long long)rc->gate.b.left);
	if (rc->hurried)
		fprintf(stderr, "prof: the recorder fell behind the rings %llu time%s and left the "
			"leaf repair of the samples meanwhile to prof report (their stacks kept)\n",
			(unsigned long long)rc->hurried, rc->hurried == 1 ? "" : "s");
	if (keep_count(rc->keep))
		fprintf(stderr, "prof: %llu binaries that are deleted, replaced or in another mount "
			"namespace copied to %s/.build-id, where prof report finds them by build id\n",
			(unsigned long long)keep_count(rc->keep), keep_dir(rc->keep));
}
