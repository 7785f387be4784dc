// SPDX-License-Identifier: GPL-2.0-or-later
/* Option parsing for `prof record`: a table (opt.h), every value checked in full. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "cgroup.h"
#include "evlist.h"
#include "evname.h"
#include "opt.h"
#include "opts.h"
#include "parse.h"
#include "regs.h"
#include "xalloc.h"

static int bad(char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	opt_one_line(err);
	return -EINVAL;
}

/*
 * -e LIST: perf's grammar (evlist.h): named, cache (L1-dcache-load-misses),
 * raw (rNNN), a breakpoint (mem:ADDR[/LEN][:rwx]), a PMU's
 * (PMU/term=value,.../), a dynamic probe (uprobe:PATH:FUNCTION,
 * kprobe:FUNCTION, probe.h) or a tracepoint (SYSTEM:NAME, looked up when
 * opened), each with its modifiers; and groups, {a,b}[:modifiers], their
 * events scheduled on the PMU together, with S: the leader alone samples,
 * each of its samples reading the others' counts (PERF_SAMPLE_READ).
 */
static int parse_events(struct record_opts *o, const char *arg, char *err, size_t len)
{
	struct evlist *l = xcalloc(1, sizeof(*l));
	int ret = evlist_parse(l, arg, EVLIST_LATE_TRACEPOINTS, err, len) ? -EINVAL : 0;

	for (int i = 0; !ret && i < l->n; i++) {
		const struct evspec *e = &l->ev[i];
		struct event_mods mods;
		char *name = xmalloc(e->name_len + 1);

		memcpy(name, e->name, e->name_len);
		name[e->name_len] = '\0';
		memset(&mods, 0, sizeof(mods));
		mods.attr = e->attr;
		mods.tracepoint = e->kind == EVLIST_TRACEPOINT;
		mods.probe = e->kind == EVLIST_PROBE;
		snprintf(mods.text, sizeof(mods.text), "%s", e->mods);
		mods.leader = (int)o->nr_events + (e->leader - i);
		mods.sample_read = e->sample_read;
		o->events = xreallocarray(o->events, o->nr_events + 1, sizeof(*o->events));
		o->mods = xreallocarray(o->mods, o->nr_events + 1, sizeof(*o->mods));
		o->mods[o->nr_events] = mods;
		o->events[o->nr_events++] = name;
	}
	evlist_release(l);
	free(l);
	return ret;
}

/* -G LIST on the events so far (cgroup_assign()): 0, or -EINVAL with a reason, none changed. */
static int assign_cgroups(struct record_opts *o, const char *list, char *err, size_t len)
{
	char **cg = xcalloc(o->nr_events ? o->nr_events : 1, sizeof(*cg));
	int ret;

	for (size_t i = 0; i < o->nr_events; i++)
		cg[i] = o->mods[i].cgroup;
	ret = cgroup_assign(list, o->nr_events, cg, err, len);
	for (size_t i = 0; i < o->nr_events; i++)
		if (ret && cg[i] != o->mods[i].cgroup)
			free(cg[i]);	/* the new ones go, the old stay */
		else
			o->mods[i].cgroup = cg[i];
	free(cg);
	return ret ? -EINVAL : 0;
}

int record_parse_ids(char which, const char *arg, int **ids, int *nr, char *err, size_t len)
{
	const char *bad_item;

	free(*ids);
	*ids = NULL;
	*nr = 0;
	if (parse_id_list(arg, ids, nr, &bad_item))
		return bad(err, len, "-%c: '%s' is not a list of %s ids", which, arg,
			   which == 'p' ? "process" : "thread");
	return 0;
}

static int number(const char *opt, const char *arg, uint64_t min, uint64_t max,
		  uint64_t *out, char *err, size_t len)
{
	int ret = parse_u64(arg, min, max, out);

	if (ret == -EINVAL)
		return bad(err, len, "%s: '%s' is not a number", opt, arg);
	if (ret)
		return bad(err, len, "%s: %s is out of range (%llu to %llu)", opt, arg,
			   (unsigned long long)min, (unsigned long long)max);
	return 0;
}

/* --- the table ------------------------------------------------------------ */

enum {
	R_EVENT, R_FREQ, R_COUNT, R_CALL_GRAPH, R_PID, R_TID, R_CPU, R_PAGES, R_OUTPUT, R_LEVEL,
	R_DURATION, R_BUDGET, R_CLOCKID, R_SWITCH, R_SWITCH_MAX, R_DATA, R_WEIGHT, R_DATA_SRC, R_PHYS,
	R_DATA_PAGE, R_CODE_PAGE, R_TRANSACTION, R_FILTER, R_CGROUP, R_DELAY, R_CONTROL, R_INTR, R_BRANCH_ANY,
	R_BRANCH,
};

/*
 * -j LIST: perf's branch filter names into branch_sample_type bits; only
 * privilege levels (u, k, hv) mean every branch there, as perf's. 0, or
 * -EINVAL with a reason.
 */
static int parse_branches(const char *arg, uint64_t *out, char *err, size_t len)
{
	static const struct { const char *name; uint64_t bit; } names[] = {
		{ "u", PERF_SAMPLE_BRANCH_USER }, { "k", PERF_SAMPLE_BRANCH_KERNEL },
		{ "hv", PERF_SAMPLE_BRANCH_HV }, { "any", PERF_SAMPLE_BRANCH_ANY },
		{ "any_call", PERF_SAMPLE_BRANCH_ANY_CALL },
		{ "any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN },
		{ "ind_call", PERF_SAMPLE_BRANCH_IND_CALL }, { "call", PERF_SAMPLE_BRANCH_CALL },
		{ "ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP }, { "cond", PERF_SAMPLE_BRANCH_COND },
		{ "in_tx", PERF_SAMPLE_BRANCH_IN_TX }, { "no_tx", PERF_SAMPLE_BRANCH_NO_TX },
		{ "abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX },
		{ "save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE },
		{ "stack", PERF_SAMPLE_BRANCH_CALL_STACK }, { "hw_index", PERF_SAMPLE_BRANCH_HW_INDEX },
		{ "no_flags", PERF_SAMPLE_BRANCH_NO_FLAGS },
		{ "no_cycles", PERF_SAMPLE_BRANCH_NO_CYCLES },
	};
	const uint64_t plm = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL |
			     PERF_SAMPLE_BRANCH_HV;
	uint64_t v = 0;

	for (const char *p = arg; *p;) {
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strlen(names[i].name) == n && !strncmp(p, names[i].name, n))
				break;
		if (i == sizeof(names) / sizeof(names[0]))
			return bad(err, len, "-j: unknown branch filter '%.*s'; filters are any, "
				   "any_call, any_ret, ind_call, ind_jmp, call, cond, in_tx, no_tx, "
				   "abort_tx, save_type, stack, hw_index, no_flags, no_cycles, and the "
				   "levels u, k, hv", (int)n, p);
		v |= names[i].bit;
		p += n + (p[n] == ',');
	}
	if (!(v & ~plm))
		v |= PERF_SAMPLE_BRANCH_ANY;
	*out = v;
	return 0;
}

/* --switch-output's value: signal, or a time (s, m, h, d) or size (B, K, M, G) with its unit. */
static int switch_peek(const char *word)
{
	return !strcmp(word, "signal") || (word[0] >= '0' && word[0] <= '9');
}

static int parse_switch(struct record_opts *o, const char *arg, char *err, size_t len)
{
	char *end;
	double v;

	if (!arg || !strcmp(arg, "signal")) {
		o->switch_output = SWITCH_SIGNAL;
		return 0;
	}
	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || v <= 0 || !end[0] || end[1] || !strchr("smhdBKMGbkg", end[0]))
		return bad(err, len, "--switch-output: '%s' is not signal, a time (30s, 5m, 1h, 1d) "
			   "or a size (100M, 2G)", arg);
	switch (end[0]) {
	case 's': case 'm': case 'h': case 'd':
		o->switch_output = SWITCH_TIME;
		o->switch_secs = v * (end[0] == 's' ? 1 : end[0] == 'm' ? 60 : end[0] == 'h' ? 3600
										  : 86400);
		if (o->switch_secs < 1)
			return bad(err, len, "--switch-output: %s is under a second", arg);
		break;
	default: {
		int sh = strchr("Bb", end[0]) ? 0 : strchr("Kk", end[0]) ? 10
			 : strchr("Mm", end[0]) ? 20 : 30;
		double bytes = v * (double)(1ULL << sh);

		o->switch_output = SWITCH_SIZE;
		if (bytes < 65536 || bytes > 1e18)
			return bad(err, len, "--switch-output: %s: give 64K to a million terabytes", arg);
		o->switch_bytes = (uint64_t)bytes;
	}
	}
	return 0;
}

/* The highest -F the kernel allows: perf's -F max. */
static int max_freq(uint64_t *out)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	unsigned long long v = 0;
	int ok = f && fscanf(f, "%llu", &v) == 1 && v > 0;

	if (f)
		fclose(f);
	*out = v;
	return ok ? 0 : -1;
}

/*
 * -m: pages, a power of two; or, as perf takes it, a size with its unit
 * (B, K, M, G), rounded up to a power of two of pages.
 */
static int mmap_pages(struct opt_state *st, const char *arg, unsigned *out)
{
	size_t n = strlen(arg);
	char unit = n ? arg[n - 1] : 0, num[32];
	uint64_t v, page = (uint64_t)sysconf(_SC_PAGESIZE), shift;
	int ret;

	switch (unit) {
	case 'B': case 'b': shift = 0; break;
	case 'K': case 'k': shift = 10; break;
	case 'M': case 'm': shift = 20; break;
	case 'G': case 'g': shift = 30; break;
	default:
		ret = number("-m", arg, 1, RECORD_MAX_PAGES, &v, st->err, st->errlen);
		if (!ret && (v & (v - 1)))
			ret = bad(st->err, st->errlen, "-m: %s is not a power of two", arg);
		*out = (unsigned)v;
		return ret ? -1 : 0;
	}
	if (n < 2 || n > sizeof(num))
		return opt_error(st, "-m: '%s' is not a number of pages or a size (512K, 4M)", arg);
	memcpy(num, arg, n - 1);
	num[n - 1] = '\0';
	if (parse_u64(num, 1, (RECORD_MAX_PAGES * page) >> shift, &v))
		return opt_error(st, "-m: '%s' is not a size from one page to %u pages", arg,
				 RECORD_MAX_PAGES);
	v = ((v << shift) + page - 1) / page;
	for (shift = 1; shift < v; shift <<= 1)
		;
	*out = (unsigned)shift;
	return 0;
}

/* -k, perf's --clockid: prof's clock is CLOCK_MONOTONIC, and only that one. */
static int clockid_ok(const char *arg)
{
	static const char *const names[] = { "mono", "monotonic", "clock_monotonic", "1", NULL };

	for (int i = 0; names[i]; i++)
		if (!strcasecmp(arg, names[i]))
			return 1;
	return 0;
}

static int record_cb(struct opt_state *st, const struct opt *opt, const char *arg)
{
	struct record_opts *o = st->ctx;
	char *err = st->err;
	size_t len = st->errlen;
	uint64_t v;
	int ret = 0;

	switch (opt->val) {
	case R_EVENT:
		ret = parse_events(o, arg, err, len);
		break;
	case R_FREQ:
		if (!strcmp(arg, "max")) {
			if (max_freq(&o->freq))
				ret = bad(err, len, "-F max: cannot read the kernel's limit, "
					  "/proc/sys/kernel/perf_event_max_sample_rate");
		} else {
			ret = number("-F", arg, 1, 1000000000, &o->freq, err, len);
		}
		o->freq_given = 1;
		break;
	case R_COUNT:
		ret = number("-c", arg, 1, UINT64_MAX >> 1, &o->period, err, len);
		break;
	case R_CALL_GRAPH:
		if (!strcmp(arg, "fp")) {
			o->callchain = CALLCHAIN_FP;
		} else if (!strcmp(arg, "dwarf")) {
			o->callchain = CALLCHAIN_DWARF;
		} else if (!strncmp(arg, "dwarf,", 6)) {
			o->callchain = CALLCHAIN_DWARF;
			ret = number("--call-graph dwarf,SIZE", arg + 6, 8, RECORD_MAX_STACK, &v, err,
				     len);
			if (!ret && v % 8)
				ret = bad(err, len, "--call-graph dwarf,SIZE: %s is not a multiple of 8",
					  arg + 6);
			o->stack_size = (uint32_t)v;
		} else if (!strcmp(arg, "lbr")) {
			ret = bad(err, len, "--call-graph lbr: last branch records need a hardware "
				  "PMU's; give fp or dwarf");
		} else {
			ret = bad(err, len, "--call-graph: '%s' is not fp, dwarf or dwarf,SIZE", arg);
		}
		break;
	case R_PID:
		ret = record_parse_ids('p', arg, &o->pids, &o->nr_pids, err, len);
		break;
	case R_TID:
		ret = record_parse_ids('t', arg, &o->tids, &o->nr_tids, err, len);
		break;
	case R_CPU:
		cpulist_release(&o->cpus);
		if (cpulist_parse(&o->cpus, arg) || o->cpus.nr == 0)
			ret = bad(err, len, "-C: '%s' is not a CPU list such as 0-3,6", arg);
		o->has_cpus = 1;
		break;
	case R_PAGES:
		ret = mmap_pages(st, arg, &o->mmap_pages);
		o->pages_given = 1;
		break;
	case R_OUTPUT:
		if (!*arg)
			ret = bad(err, len, "-o: the file name is empty");
		o->output = arg;
		break;
	case R_LEVEL:
		/* perf's -z: the level optional (1) */
		if (arg)
			ret = number("-z", arg, 1, 22, &v, err, len);
		else
			v = RECORD_DEFAULT_LEVEL;
		o->level = (int)v;
		o->level_given = 1;
		break;
	case R_CGROUP:
		ret = record_opts_cgroup(o, arg, err, len);
		break;
	case R_DELAY:
		if (!strcmp(arg, "-1")) {
			o->delay_ms = -1;
		} else {
			ret = number("-D", arg, 1, 86400000, &v, err, len);
			o->delay_ms = (int64_t)v;
		}
		break;
	case R_CONTROL:
		if (strncmp(arg, "fifo:", 5) || !arg[5] || arg[5] == ',')
			ret = bad(err, len, "--control %s: give fifo:CONTROL[,ACK], FIFOs made with "
				  "mkfifo, as perf takes them", arg);
		else
			o->control = arg + 5;
		break;
	case R_FILTER:
		/* perf's: the filter of the tracepoint just before it */
		if (!o->nr_events || !o->mods[o->nr_events - 1].tracepoint)
			ret = bad(err, len, "--filter '%s': a filter is a tracepoint's, given right "
				  "after it: -e SYSTEM:NAME --filter '%s'", arg, arg);
		else if (o->mods[o->nr_events - 1].filter)
			ret = bad(err, len, "--filter '%s': %s has a filter already ('%s'); join them "
				  "with &&", arg, o->events[o->nr_events - 1],
				  o->mods[o->nr_events - 1].filter);
		else
			o->mods[o->nr_events - 1].filter = arg;
		break;
	case R_DURATION:
		if (parse_seconds(arg, &o->duration) || o->duration <= 0)
			ret = bad(err, len, "--duration: '%s' is not a positive number of seconds", arg);
		break;
	case R_BUDGET: {
		double pct;

		if (parse_seconds(arg, &pct) || pct > 100)
			ret = bad(err, len, "--cpu-budget: '%s' is not a share of one CPU in %%, 0 to 100",
				  arg);
		else
			o->cpu_budget = (unsigned)(pct * 10000 + 0.5);
		break;
	}
	case R_SWITCH:
		ret = parse_switch(o, arg, err, len);
		break;
	case R_SWITCH_MAX:
		ret = number("--switch-max-files", arg, 1, 1000000, &v, err, len);
		o->switch_max_files = (unsigned)v;
		break;
	case R_BRANCH_ANY:
		o->branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
		break;
	case R_BRANCH:
		ret = parse_branches(arg, &o->branch_sample_type, err, len);
		break;
	case R_INTR:
		if (!regs_user_mask())
			ret = bad(err, len, "-I: prof knows this machine's registers not");
		o->sample_extra |= PERF_SAMPLE_REGS_INTR;
		break;
	case R_DATA:
	case R_WEIGHT:
	case R_DATA_SRC:
	case R_PHYS:
	case R_DATA_PAGE:
	case R_CODE_PAGE:
	case R_TRANSACTION: {
		static const uint64_t bits[] = {
			PERF_SAMPLE_ADDR, PERF_SAMPLE_WEIGHT, PERF_SAMPLE_DATA_SRC,
			PERF_SAMPLE_PHYS_ADDR, PERF_SAMPLE_DATA_PAGE_SIZE, PERF_SAMPLE_CODE_PAGE_SIZE,
			PERF_SAMPLE_TRANSACTION,
		};

		o->sample_extra |= bits[opt->val - R_DATA];
		break;
	}
	case R_CLOCKID:
		if (!clockid_ok(arg))
			ret = bad(err, len, "%s %s: prof records on CLOCK_MONOTONIC, the clock JIT "
				  "runtimes stamp their jitdump files with; give -k mono, or leave it out",
				  st->name, arg);
		break;
	}
	return ret ? -1 : 0;
}

#define RO struct record_opts

/* What to sample and where: record's, and prof agent's too. */
const struct opt record_target_options[] = {
	OPT_CALL('e', "event", "LIST", record_cb, R_EVENT,
		 "events to sample (default cycles; cpu-clock\n"
		 "where there is no hardware PMU), each with\n"
		 ":u, :k, :p, :pp or :ppp as perf takes them;\n"
		 "tracepoints as SYSTEM:NAME (sched:sched_switch),\n"
		 "cache events (L1-dcache-load-misses), raw\n"
		 "(r1a8), PMUs (msr/tsc/, cpu/event=0x3c/),\n"
		 "breakpoints (mem:ADDR[/LEN][:rwx]), probes\n"
		 "(uprobe:PATH:FUNCTION[+OFF], uretprobe:...,\n"
		 "kprobe:FUNCTION[+OFF], kretprobe:...,\n"
		 "usdt:PATH:PROVIDER:NAME); groups\n"
		 "{a,b}, with :S the leader's samples reading the\n"
		 "others' counts; prof list"),
	OPT_CALL(0, "filter", "FILTER", record_cb, R_FILTER,
		 "only the hits of the tracepoint before it\n"
		 "(-e SYSTEM:NAME) that FILTER keeps, in the\n"
		 "kernel's syntax: 'prev_pid == 0 && next_prio < 100'"),
	OPT_CALL('F', "freq", "HZ", record_cb, R_FREQ,
		 "samples per second (default 4000; max: the\n"
		 "kernel's limit)"),
	OPT_CALL('c', "count", "PERIOD", record_cb, R_COUNT,
		 "a sample every PERIOD events instead of -F"),
	OPT_SET('g', NULL, RO, callchain, CALLCHAIN_FP,
		"frame-pointer call chains (--call-graph fp)"),
	OPT_CALL(0, "call-graph", "MODE", record_cb, R_CALL_GRAPH,
		 "fp, or dwarf[,SIZE]: copy SIZE bytes of each\n"
		 "sample's user stack (default 32768) for DWARF\n"
		 "unwinding by prof report"),
	OPT_CALL('p', "pid", "PIDS", record_cb, R_PID, "attach to processes and their threads"),
	OPT_CALL('t', "tid", "TIDS", record_cb, R_TID, "attach to single threads"),
	OPT_SET('a', "all-cpus", RO, all_cpus, 1, "every process on every CPU"),
	OPT_CALL('C', "cpu", "CPULIST", record_cb, R_CPU, "only these CPUs, e.g. 0-3,6"),
	OPT_SET(0, "no-inherit", RO, no_inherit, 1,
		"not the threads and processes the command\n"
		"starts: only its first thread"),
	OPT_SET(0, "all-user", RO, all_user, 1, "user space only, every event (as :u)"),
	OPT_SET(0, "all-kernel", RO, all_kernel, 1, "the kernel only, every event (as :k)"),
	OPT_CALL('m', "mmap-pages", "N", record_cb, R_PAGES,
		 "ring pages per CPU, a power of two (default 128),\n"
		 "or a size: 512K, 4M"),
	OPT_SET(0, "off-cpu", RO, off_cpu, 1,
		"also record when threads switch out and back\n"
		"in, and their stacks at switch-out where the\n"
		"kernel allows it: prof report --event off-cpu\n"
		"and --wall show where they waited"),
	/* perf record's spellings */
	OPT_PERF_CALL_V('k', "clockid", record_cb, R_CLOCKID),
	OPT_PERF_NOOP('T', "timestamp"),
	OPT_PERF_NOOP(0, "sample-cpu"),
	OPT_PERF_NOOP('P', "period"),
	OPT_PERF_NOOP('R', "raw-samples"),
	OPT_PERF_NOOP('B', "no-buildid"),
	OPT_PERF_NOOP(0, "buildid-all"),
	OPT_PERF_SET(0, "no-bpf-event", RO, no_bpf_event, 1),
	OPT_PERF(0, "switch-events", "--off-cpu records the context switches"),
	OPT_END(),
};

int record_opts_cgroup(struct record_opts *o, const char *list, char *err, size_t len)
{
	if (o->nr_events)
		return assign_cgroups(o, list, err, len);
	o->cgroup_default = list;	/* before any -e: the default event's, once made */
	return 0;
}

static const struct opt record_options[] = {
	OPT_JOIN(record_target_options),
	OPT_CALL('G', "cgroup", "LIST", record_cb, R_CGROUP,
		 "sample the events before it only in these\n"
		 "cgroups (under /sys/fs/cgroup), in order, one\n"
		 "for all when one is given; with -a or -C"),
	OPT_CALL('D', "delay", "MSECS", record_cb, R_DELAY,
		 "record from MSECS after the start, or (-1)\n"
		 "from an enable on --control's FIFO"),
	OPT_CALL(0, "control", "fifo:CTL[,ACK]", record_cb, R_CONTROL,
		 "take enable, disable, ping and stop from the\n"
		 "FIFO CTL, each answered ack on the FIFO ACK"),
	OPT_CALL_FLAG('b', "branch-any", record_cb, R_BRANCH_ANY,
		      "each sample's branch stack, of every kind of\n"
		      "branch (a PMU's branch records: Intel LBR, AMD\n"
		      "BRS, arm64 BRBE): prof report -b"),
	OPT_CALL('j', "branch-filter", "LIST", record_cb, R_BRANCH,
		 "a branch stack of the branches LIST names: any,\n"
		 "any_call, any_ret, ind_call, ind_jmp, call,\n"
		 "cond, in_tx, no_tx, abort_tx, save_type, stack,\n"
		 "hw_index, no_flags, no_cycles; levels u, k, hv"),
	OPT_SET(0, "overwrite", RO, overwrite, 1,
		"a flight recorder: the kernel writes each CPU's\n"
		"newest records over its oldest, and the file\n"
		"holds the last -m of each ring at the end (and\n"
		"at each --switch-output), as perf's"),
	OPT_SET('s', "stat", RO, inherit_stat, 1,
		"each thread's counts at its exit, as the kernel\n"
		"keeps them for the events the command's threads\n"
		"inherit (READ records): prof report -T"),
	OPT_SET(0, "namespaces", RO, namespaces, 1,
		"each thread's namespaces (NAMESPACES records):\n"
		"prof report --sort cgroup_id, prof script"),
	OPT_SET(0, "all-cgroups", RO, all_cgroups, 1,
		"each sample's cgroup (PERF_SAMPLE_CGROUP),\n"
		"with the cgroups' paths: prof report --sort\n"
		"cgroup"),
	OPT_SET(0, "user-callchains", RO, user_callchains, 1,
		"-g, --call-graph: the user-space part of\n"
		"each chain alone (exclude_callchain_kernel)"),
	OPT_SET(0, "kernel-callchains", RO, kernel_callchains, 1,
		"-g: the kernel's part of each chain alone\n"
		"(exclude_callchain_user)"),
	OPT_CALL_FLAG('d', "data", record_cb, R_DATA,
		      "each sample's data address (page-faults: the\n"
		      "address that faulted; a PMU's memory events:\n"
		      "the one accessed), and the data mappings:\n"
		      "prof report --sort dso_daddr,symbol_daddr"),
	OPT_CALL_FLAG('I', "intr-regs", record_cb, R_INTR,
		      "each sample's registers where it was taken\n"
		      "(the general ones), as perf's -I: prof script"),
	OPT_CALL_FLAG('W', "weight", record_cb, R_WEIGHT,
		      "each sample's weight (a PMU's load latency)"),
	OPT_CALL_FLAG(0, "data-src", record_cb, R_DATA_SRC,
		      "where each sample's data came from (a PMU's\n"
		      "memory level, TLB, snoop: perf mem's)"),
	OPT_CALL_FLAG(0, "phys-data", record_cb, R_PHYS, "each sample's physical data address"),
	OPT_CALL_FLAG(0, "data-page-size", record_cb, R_DATA_PAGE,
		      "the size of the page of each data address"),
	OPT_CALL_FLAG(0, "code-page-size", record_cb, R_CODE_PAGE,
		      "the size of the page of each sample's ip"),
	OPT_CALL_FLAG(0, "transaction", record_cb, R_TRANSACTION,
		      "each sample's transaction flags (Intel TSX's\n"
		      "aborts): prof report --sort transaction"),
	OPT_CALL('o', "output", "FILE", record_cb, R_OUTPUT,
		 "output file (default prof.data, - for stdout)"),
	OPT_CALL_OPT('z', "compression-level", "N", record_cb, R_LEVEL, opt_peek_number,
		     "zstd level 1-22 (default 1)"),
	OPT_SET(0, "no-compress", RO, no_compress, 1, "write records uncompressed"),
	OPT_CALL(0, "duration", "SECONDS", record_cb, R_DURATION, "stop after SECONDS"),
	OPT_SET(0, "no-buildid-mmap", RO, no_buildid_mmap, 1,
		"do not ask the kernel for build ids in MMAP2\n"
		"records (a perf recording the same processes\n"
		"alongside stays readable: see prof-record(1))"),
	OPT_SET(0, "keep-leaf-stacks", RO, keep_leaf_stacks, 1,
		"-g: store each sample's 64 bytes of stack for\n"
		"prof report to put frameless functions'\n"
		"callers back, instead of doing it here"),
	OPT_CALL(0, "cpu-budget", "PCT", record_cb, R_BUDGET,
		 "share of one CPU compressing, and -g's leaf\n"
		 "repair, may each take (default 3); past it,\n"
		 "records as they come, stacks kept for prof\n"
		 "report's repair; 0: no limit"),
	OPT_SET('N', "no-buildid-cache", RO, no_buildid_cache, 1,
		"do not copy deleted, replaced or containers'\n"
		"binaries into the build-id cache (~/.debug)"),
	OPT_CALL_OPT(0, "switch-output", "WHEN", record_cb, R_SWITCH, switch_peek,
		     "a new file, each a whole profile named\n"
		     "OUTPUT.YYYYMMDDhhmmssSSS, at SIGUSR2 (signal,\n"
		     "the default), every TIME (30s, 5m, 1h) or\n"
		     "SIZE bytes written (100M, 2G)"),
	OPT_CALL(0, "switch-max-files", "N", record_cb, R_SWITCH_MAX,
		 "keep the newest N files of --switch-output"),
	OPT_SET('q', "quiet", RO, quiet, 1, "no notices and no summary"),
	OPT_HELP(),
	/* perf record's spellings */
	OPT_PERF('u', "uid", "-a records every process; prof report --pid or --comm keeps a "
		 "user's"),
	OPT_END(),
};

#undef RO

void record_usage(FILE *out)
{
	fputs("usage: prof record [options] [--] command [args...]\n"
	      "       prof record -p PID[,PID...] [options] [-- command]\n"
	      "       prof record -t TID[,TID...] [options] [-- command]\n"
	      "       prof record -a [options] [[--] command [args...]]\n"
	      "\n", out);
	opt_usage(out, record_options);
}

void record_opts_init(struct record_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->freq = RECORD_DEFAULT_FREQ;
	o->mmap_pages = RECORD_DEFAULT_PAGES;
	o->output = "prof.data";
	o->level = RECORD_DEFAULT_LEVEL;
	o->cpu_budget = RECORD_CPU_BUDGET;
}

int record_opts_parse(struct record_opts *o, int argc, char **argv,
		      char *err, size_t len)
{
	int first, ret;

	record_opts_init(o);
	/* the first word is the command, whose own options are its business */
	ret = opt_parse(record_options, o, OPT_STOP_AT_WORD, argc, argv, &first, err, len);
	if (ret)
		return ret < 0 ? -EINVAL : 1;
	if (first < argc) {
		o->argv = argv + first;
		o->argc = argc - first;
	}
	return record_opts_check(o, "cycles", err, len);
}

int record_opts_check(struct record_opts *o, const char *default_event, char *err, size_t len)
{
	if (o->callchain == CALLCHAIN_DWARF && !regs_user_mask())
		return bad(err, len, "--call-graph dwarf: prof does not unwind on this machine's "
			   "architecture; use -g");
	if (o->callchain == CALLCHAIN_DWARF && !o->stack_size)
		o->stack_size = RECORD_DEFAULT_STACK;
	/* Each dwarf sample carries its stack: a default ring would overflow. */
	if (o->callchain == CALLCHAIN_DWARF && !o->pages_given)
		o->mmap_pages = RECORD_DWARF_PAGES;
	if (o->period && o->freq_given)
		return bad(err, len, "-F and -c conflict: give one of them");
	if (o->period)
		o->freq = 0;
	if (o->no_compress && o->level_given)
		return bad(err, len, "-z and --no-compress conflict: give one of them");
	if (o->no_compress)
		o->level = 0;
	else if (!o->level_given)
		o->level = o->callchain == CALLCHAIN_DWARF || o->off_cpu ? RECORD_DEFAULT_LEVEL
									 : RECORD_SMALL_LEVEL;
	if (o->all_user && o->all_kernel)
		return bad(err, len, "--all-user and --all-kernel conflict: give one of them");
	if (o->user_callchains && o->kernel_callchains)
		return bad(err, len, "--user-callchains and --kernel-callchains conflict: give one "
			   "of them, or neither for whole chains");
	if ((o->user_callchains || o->kernel_callchains) && !o->callchain)
		return bad(err, len, "--%s-callchains: there are no chains without -g or "
			   "--call-graph", o->user_callchains ? "user" : "kernel");
	if (o->kernel_callchains && o->callchain == CALLCHAIN_DWARF)
		return bad(err, len, "--kernel-callchains and --call-graph dwarf conflict: dwarf "
			   "unwinds user space; give -g");
	if (!o->nr_events) {
		int ret = parse_events(o, default_event, err, len);

		if (ret)
			return ret;
		o->default_event = 1;
	}
	if (o->cgroup_default) {
		/* -G before any -e: every event's that has none */
		const char *list = o->cgroup_default;

		o->cgroup_default = NULL;
		if (assign_cgroups(o, list, err, len))
			return -EINVAL;
	}
	for (size_t i = 0; i < o->nr_events; i++)
		if (o->mods[i].cgroup && *o->mods[i].cgroup && !o->all_cpus && !o->has_cpus)
			return bad(err, len, "-G %s: a cgroup's events are opened on each CPU: give "
				   "-a (or -C)", o->mods[i].cgroup);
	if (!o->argv && !o->nr_pids && !o->nr_tids && !o->all_cpus && !o->has_cpus)
		return bad(err, len, "no command to run: give one, or -p PID, -t TID or -a");
	if (o->all_cpus && (o->nr_pids || o->nr_tids))
		return bad(err, len, "-a and -p/-t conflict: -a already samples every process");
	if (o->switch_output && o->output && !strcmp(o->output, "-"))
		return bad(err, len, "--switch-output writes files: give -o FILE, not -o -");
	if (o->switch_max_files && !o->switch_output)
		return bad(err, len, "--switch-max-files bounds the files of --switch-output: give "
			   "it too");
	return 0;
}

void record_opts_release(struct record_opts *o)
{
	for (size_t i = 0; i < o->nr_events; i++) {
		free(o->events[i]);
		free(o->mods[i].cgroup);
	}
	free(o->events);
	free(o->mods);
	free(o->pids);
	free(o->tids);
	cpulist_release(&o->cpus);
	memset(o, 0, sizeof(*o));
}
