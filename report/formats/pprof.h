/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pprof output: the samples as a gzip-compressed profile.proto (the
 * format of github.com/google/pprof, read by `go tool pprof`, Grafana
 * Pyroscope and Parca).
 */
#ifndef PROF_REPORT_PPROF_H
#define PROF_REPORT_PPROF_H

#include <stdint.h>
#include <stdio.h>

#include "session.h"

struct pprof;

/*
 * A profile of one event. time_unit: its period counts nanoseconds of CPU
 * (cpu-clock, task-clock), so the second value is "cpu"/"nanoseconds";
 * otherwise it is the event's name, in "count".
 */
struct pprof *pprof_new(const char *event, int time_unit);
void pprof_free(struct pprof *p);
/*
 * Add a sample: one Location per address (inlined frames are Lines of
 * it, innermost first), one Function per name and file, one Mapping per
 * object with its build id; samples with the same stack and command are
 * one Sample with a "comm" label.
 */
void pprof_add(struct pprof *p, const struct rsample *s);
/* Write it, gzip-compressed. duration_ns: first to last sample. 0 or -errno. */
int pprof_write(struct pprof *p, uint64_t duration_ns, FILE *out);

#endif
