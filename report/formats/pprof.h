/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A pprof profile (profile.proto) built sample by sample: --format pprof
 * writes one per report, and prof agent one per window and per scrape.
 * Samples with the same stack and labels are one Sample. The profile
 * holds the dsos of its samples' frames (not owned): keep their
 * symbolizer alive until pprof_free(), and encode on its thread.
 */
#ifndef PROF_REPORT_PPROF_H
#define PROF_REPORT_PPROF_H

#include <stddef.h>
#include <stdint.h>

#include "session.h"

struct pprof;

/*
 * time_unit: 0, values are counts of event; 1, CPU time ("cpu",
 * nanoseconds: cpu-clock, task-clock); 2, nanoseconds of event (off-cpu).
 * The sample type is "cpu", or event with every character but letters,
 * digits and '_' made '_' (off_cpu).
 */
struct pprof *pprof_new(const char *event, int time_unit);
void pprof_free(struct pprof *p);
/*
 * on: kernel frames by their names alone, with no address and a Mapping
 * of none (what the agent sends off the host: the kernel's addresses
 * say where KASLR put it, which perf_event_paranoid keeps from users).
 */
void pprof_kernel_names_only(struct pprof *p, int on);

/* Add s with its labels: nlabels pairs, key then value, in labels[0 .. 2 * nlabels). */
void pprof_add(struct pprof *p, const struct rsample *s, const char *const *labels, int nlabels);

/* The samples added, and (in *value, when not NULL) the sum of their periods. */
uint64_t pprof_count(const struct pprof *p, uint64_t *value);

/* What the profile says of the time it covers. */
struct pprof_window {
	uint64_t time_ns;	/* its start, ns since the epoch (0: not said) */
	uint64_t duration_ns;
	uint64_t period;	/* of its value type, between samples (0: not said) */
};

/*
 * The profile, gzipped as pprof reads it, into *data (malloc'd) and *len.
 * 0, or -ENOMEM or -EIO.
 */
int pprof_encode(struct pprof *p, const struct pprof_window *win, unsigned char **data,
		 size_t *len);

/*
 * The profile as an OTLP/HTTP ExportProfilesServiceRequest (the same bytes
 * are a ProfilesData), opentelemetry-proto v1.11.0's profiles
 * v1development, gzipped: one Resource with the attribute pairs
 * resource[0 .. 2 * nresource), key then value; two Profiles, the sample
 * counts ("samples"/"count") and their values (as pprof's second value).
 * Sample labels are named as OpenTelemetry's semantic conventions name
 * them (pid is process.pid, thread thread.name, ...). 0, or -ENOMEM or -EIO.
 */
int pprof_encode_otlp(struct pprof *p, const struct pprof_window *win,
		      const char *const *resource, int nresource, unsigned char **data,
		      size_t *len);

#endif
