// SPDX-License-Identifier: GPL-2.0-or-later
/* Event name table: perf's names for the generalized hardware and software events. */
#include "config.h"

#include <string.h>
#include <linux/perf_event.h>

#include "evname.h"

#define HW(n, c) { n, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c }
#define SW(n, c) { n, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c }

/* Canonical names first: evname_of() returns the first match. */
static const struct evname table[] = {
	HW("cycles", CPU_CYCLES),
	HW("instructions", INSTRUCTIONS),
	HW("cache-references", CACHE_REFERENCES),
	HW("cache-misses", CACHE_MISSES),
	HW("branches", BRANCH_INSTRUCTIONS),
	HW("branch-misses", BRANCH_MISSES),
	HW("bus-cycles", BUS_CYCLES),
	HW("ref-cycles", REF_CPU_CYCLES),
	SW("cpu-clock", CPU_CLOCK),
	SW("task-clock", TASK_CLOCK),
	SW("page-faults", PAGE_FAULTS),
	SW("context-switches", CONTEXT_SWITCHES),
	SW("cpu-migrations", CPU_MIGRATIONS),
	SW("minor-faults", PAGE_FAULTS_MIN),
	SW("major-faults", PAGE_FAULTS_MAJ),
	/* aliases */
	HW("cpu-cycles", CPU_CYCLES),
	HW("branch-instructions", BRANCH_INSTRUCTIONS),
	SW("faults", PAGE_FAULTS),
	SW("cs", CONTEXT_SWITCHES),
	SW("migrations", CPU_MIGRATIONS),
};

const struct evname *evname_lookup(const char *name)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

const char *evname_of(uint32_t type, uint64_t config)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (table[i].type == type && table[i].config == config)
			return table[i].name;
	return NULL;
}

const char *evname_list(void)
{
	return "cycles, instructions, cache-references, cache-misses, branches, "
	       "branch-misses, bus-cycles, ref-cycles, cpu-clock, task-clock, "
	       "page-faults, context-switches, cpu-migrations, minor-faults, "
	       "major-faults";
}
