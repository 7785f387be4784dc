// SPDX-License-Identifier: GPL-2.0-or-later
/* Event name table: perf's names for the generalized hardware and software events. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <linux/hw_breakpoint.h>
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
	SW("alignment-faults", ALIGNMENT_FAULTS),
	SW("emulation-faults", EMULATION_FAULTS),
	SW("dummy", DUMMY),
	SW("bpf-output", BPF_OUTPUT),
	SW("cgroup-switches", CGROUP_SWITCHES),
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

const struct evname *evname_table(size_t *n)
{
	*n = sizeof(table) / sizeof(table[0]);
	return table;
}

const char *evname_list(void)
{
	return "cycles, instructions, cache-references, cache-misses, branches, "
	       "branch-misses, bus-cycles, ref-cycles, cpu-clock, task-clock, "
	       "page-faults, context-switches, cpu-migrations, minor-faults, "
	       "major-faults, alignment-faults, emulation-faults, dummy, bpf-output, "
	       "cgroup-switches";
}

/* perf's names of the generalized cache events: CACHE-OP(s|-misses) */
static const char *const cache_names[] = {
	[PERF_COUNT_HW_CACHE_L1D] = "L1-dcache",
	[PERF_COUNT_HW_CACHE_L1I] = "L1-icache",
	[PERF_COUNT_HW_CACHE_LL] = "LLC",
	[PERF_COUNT_HW_CACHE_DTLB] = "dTLB",
	[PERF_COUNT_HW_CACHE_ITLB] = "iTLB",
	[PERF_COUNT_HW_CACHE_BPU] = "branch",
	[PERF_COUNT_HW_CACHE_NODE] = "node",
};
static const char *const cache_ops[] = {
	[PERF_COUNT_HW_CACHE_OP_READ] = "load",
	[PERF_COUNT_HW_CACHE_OP_WRITE] = "store",
	[PERF_COUNT_HW_CACHE_OP_PREFETCH] = "prefetch",
};

int evname_cache(const char *name, uint64_t *config)
{
	for (size_t c = 0; c < sizeof(cache_names) / sizeof(cache_names[0]); c++) {
		size_t n = strlen(cache_names[c]);

		if (strncmp(name, cache_names[c], n) || name[n] != '-')
			continue;
		for (size_t op = 0; op < sizeof(cache_ops) / sizeof(cache_ops[0]); op++) {
			const char *rest = name + n + 1;
			size_t m = strlen(cache_ops[op]);

			if (strncmp(rest, cache_ops[op], m))
				continue;
			rest += m;
			if (!strcmp(rest, op == PERF_COUNT_HW_CACHE_OP_PREFETCH ? "es" : "s")) {
				*config = c | op << 8 | (uint64_t)PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16;
				return 0;
			}
			if (!strcmp(rest, "-misses")) {
				*config = c | op << 8 | (uint64_t)PERF_COUNT_HW_CACHE_RESULT_MISS << 16;
				return 0;
			}
		}
	}
	return -1;
}

/*
 * The ops each cache has, as perf's legacy cache table (evsel.c's
 * evsel__hw_cache_stat): L1-icache and iTLB have no stores, the branch
 * unit only loads.
 */
static const unsigned cache_ops_of[] = {
	[PERF_COUNT_HW_CACHE_L1D] = 7, [PERF_COUNT_HW_CACHE_L1I] = 5, [PERF_COUNT_HW_CACHE_LL] = 7,
	[PERF_COUNT_HW_CACHE_DTLB] = 7, [PERF_COUNT_HW_CACHE_ITLB] = 1, [PERF_COUNT_HW_CACHE_BPU] = 1,
	[PERF_COUNT_HW_CACHE_NODE] = 7,
};

size_t evname_caches(uint64_t *configs, size_t max)
{
	size_t n = 0;

	for (unsigned c = 0; c < sizeof(cache_names) / sizeof(cache_names[0]); c++)
		for (unsigned op = 0; op < sizeof(cache_ops) / sizeof(cache_ops[0]); op++)
			for (unsigned res = 0; res < 2; res++)
				if (c < sizeof(cache_ops_of) / sizeof(cache_ops_of[0]) &&
				    (cache_ops_of[c] >> op & 1) && n < max)
					configs[n++] = c | op << 8 | (uint64_t)res << 16;
	return n;
}

const char *evname_cache_of(uint64_t config, char *buf, size_t size)
{
	uint64_t c = config & 0xff, op = config >> 8 & 0xff, res = config >> 16 & 0xff;

	if (c >= sizeof(cache_names) / sizeof(cache_names[0]) ||
	    op >= sizeof(cache_ops) / sizeof(cache_ops[0]) || res > 1)
		return NULL;
	snprintf(buf, size, "%s-%s%s", cache_names[c], cache_ops[op],
		 res ? "-misses" : op == PERF_COUNT_HW_CACHE_OP_PREFETCH ? "es" : "s");
	return buf;
}

const char *evname_attr(const struct perf_event_attr *a, char *buf, size_t size)
{
	const char *name = evname_of(a->type, a->config);

	if (name)
		return name;
	switch (a->type) {
	case PERF_TYPE_HW_CACHE:
		return evname_cache_of(a->config, buf, size);
	case PERF_TYPE_RAW:
		snprintf(buf, size, "r%llx", (unsigned long long)a->config);
		return buf;
	case PERF_TYPE_BREAKPOINT:
		if (!a->bp_type || (a->bp_type & ~(uint32_t)(HW_BREAKPOINT_RW | HW_BREAKPOINT_X)))
			return NULL;
		snprintf(buf, size, "mem:0x%llx:%s%s%s", (unsigned long long)a->bp_addr,
			 a->bp_type & HW_BREAKPOINT_R ? "r" : "", a->bp_type & HW_BREAKPOINT_W ? "w" : "",
			 a->bp_type & HW_BREAKPOINT_X ? "x" : "");
		return buf;
	}
	return NULL;
}

/*
 * Modifiers after ':', as perf's parser applies them: u, k and h keep
 * only those privilege levels (the first of them excludes all three);
 * u also leaves guests out; G and H count only in the guest or the host;
 * p raises precise_ip; D pins the event (or group) to the PMU; I leaves
 * the idle task out (exclude_idle); e asks for the PMU to itself
 * (exclusive); P for the most precise the PMU takes (precise_ip 3, which
 * opening lowers as the PMU needs: evname_precise_max()).
 */
int evname_apply_mods(struct perf_event_attr *a, const char *m)
{
	int excl = 0, gh = 0;

	for (; *m; m++) {
		switch (*m) {
		case 'u':
		case 'k':
		case 'h':
			if (!excl) {
				a->exclude_user = a->exclude_kernel = a->exclude_hv = 1;
				excl = 1;
			}
			if (*m == 'u') {
				a->exclude_user = 0;
				if (!gh)
					a->exclude_guest = 1;
			} else if (*m == 'k') {
				a->exclude_kernel = 0;
			} else {
				a->exclude_hv = 0;
			}
			break;
		case 'G':
		case 'H':
			if (!gh) {
				a->exclude_guest = a->exclude_host = 1;
				gh = 1;
			}
			if (*m == 'G')
				a->exclude_guest = 0;
			else
				a->exclude_host = 0;
			break;
		case 'p':
			if (a->precise_ip >= 3)
				return -1;
			a->precise_ip++;
			break;
		case 'D':
			a->pinned = 1;
			break;
		case 'I':
			a->exclude_idle = 1;
			break;
		case 'e':
			a->exclusive = 1;
			break;
		case 'P':
			/* the most precise the PMU takes: asked at 3, lowered when opened */
			if (a->precise_ip)
				return -1;
			a->precise_ip = 3;
			break;
		default:
			return -1;
		}
	}
	return 0;
}

int evname_precise_max(const char *mods)
{
	return mods && strchr(mods, 'P') != NULL;
}
