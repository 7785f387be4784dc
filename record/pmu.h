/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's PMUs as sysfs lists them: each a directory of
 * /sys/bus/event_source/devices with its type, format/ (the fields of its
 * config words) and events/ (its named events). For the event grammar
 * (evlist.c), dynamic probes (probe.c) and prof list.
 */
#ifndef PROF_RECORD_PMU_H
#define PROF_RECORD_PMU_H

#include <stddef.h>

/* The directory of the kernel's PMUs; PROF_EVENT_SOURCE names another (tests). */
const char *pmu_source(void);

/* The first line of PMU pmu's file rel ("type", "format/event") into buf: 0, or -1. */
int pmu_read(const char *pmu, const char *rel, char *buf, size_t size);

/*
 * For an event PMU/alias,.../ (spec as written), the scale and unit its
 * alias's events/ALIAS.scale and .unit give its counts (RAPL's energy in
 * Joules), as perf stat applies them: 1 and "" where there are none.
 */
void pmu_alias_scale(const char *spec, double *scale, char *unit, size_t ulen);

#endif
