// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `prof stat`: counting mode, the other half of perf_event_open(2). Each
 * event is opened as a counter (no sampling, no ring), in groups where the
 * user writes {a,b}, on the command prof starts (inherited by its children
 * and enabled at its exec), on threads of -p/-t, or on CPUs with -a/-C.
 * Counters are read with PERF_FORMAT_GROUP and the enabled and running
 * times, and scaled by enabled/running where the kernel multiplexed them;
 * the output and its spellings follow perf stat's.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>

#include "clock.h"
#include "cpulist.h"
#include "evlist.h"
#include "evname.h"
#include "evopen.h"
#include "opt.h"
#include "opts.h"
#include "cgroup.h"
#include "parse.h"
#include "probe.h"
#include "stat.h"
#include "target.h"
#include "tracefs.h"
#include "utf8.h"
#include "xalloc.h"

#include "stat-int.h"

/* --- the event list ----------------------------------------------------------- */

/* The events of list (evlist.h) after those there are. */
static int append_events(struct stat_opts *o, const char *list, char *err, size_t len)
{
	struct evlist *l = xcalloc(1, sizeof(*l));
	int ret = evlist_parse(l, list, 0, err, len);

	for (int i = 0; !ret && i < l->n; i++)
		if (o->nev + i >= MAX_EVENTS)
			ret = opt_fail(err, len, "-e: more than %d events", MAX_EVENTS);
	for (int i = 0; !ret && i < l->n; i++) {
		struct sev *e = &o->ev[o->nev + i];

		memset(e, 0, sizeof(*e));
		e->name = l->ev[i].name;
		l->ev[i].name = NULL;
		e->attr = l->ev[i].attr;
		e->leader = o->nev + l->ev[i].leader;
		e->scale = l->ev[i].scale;
		memcpy(e->unit, l->ev[i].unit, sizeof(e->unit));
	}
	if (!ret)
		o->nev += l->n;
	evlist_release(l);
	free(l);
	return ret;
}

/* -e LIST: the events as written, in place of the default ones, after those of an -e before. */
static int parse_events(struct stat_opts *o, const char *arg, char *err, size_t len)
{
	if (o->default_events) {
		for (int i = 0; i < o->nev; i++)
			free(o->ev[i].name);
		o->nev = 0;
		o->default_events = 0;
	}
	return append_events(o, arg, err, len);
}

/* --- options ---------------------------------------------------------------- */

enum { S_EVENT, S_PID, S_TID, S_CPU, S_SEP, S_REPEAT, S_INTERVAL, S_COUNT, S_TIMEOUT, S_FILTER,
       S_CGROUP };

static int stat_cb(struct opt_state *st, const struct opt *opt, const char *arg)
{
	struct stat_opts *o = st->ctx;
	int ret = 0;

	switch (opt->val) {
	case S_EVENT:
		if (parse_events(o, arg, st->err, st->errlen))
			return -1;
		break;
	case S_FILTER:
		/* perf's: the filter of the tracepoint just before it */
		if (o->default_events || !o->nev || o->ev[o->nev - 1].attr.type != PERF_TYPE_TRACEPOINT)
			return opt_error(st, "--filter '%s': a filter is a tracepoint's, given right "
					 "after it: -e SYSTEM:NAME --filter '%s'", arg, arg);
		if (o->ev[o->nev - 1].filter)
			return opt_error(st, "--filter '%s': %s has a filter already ('%s'); join "
					 "them with &&", arg, o->ev[o->nev - 1].name,
					 o->ev[o->nev - 1].filter);
		o->ev[o->nev - 1].filter = arg;
		break;
	case S_CGROUP: {
		char **cg;
		int n = o->default_events ? 0 : o->nev;

		if (!n)
			return opt_error(st, "-G %s: a cgroup is an event's: give -e before -G", arg);
		cg = xcalloc((size_t)n, sizeof(*cg));
		for (int i = 0; i < n; i++)
			cg[i] = o->ev[i].cgroup;
		if (cgroup_assign(arg, (size_t)n, cg, st->err, st->errlen)) {
			for (int i = 0; i < n; i++)
				if (cg[i] != o->ev[i].cgroup)
					free(cg[i]);
			free(cg);
			return -1;
		}
		for (int i = 0; i < n; i++)
			o->ev[i].cgroup = cg[i];
		free(cg);
		break;
	}
	case S_PID:
		if (record_parse_ids('p', arg, &o->pids, &o->nr_pids, st->err, st->errlen))
			return -1;
		break;
	case S_TID:
		if (record_parse_ids('t', arg, &o->tids, &o->nr_tids, st->err, st->errlen))
			return -1;
		break;
	case S_CPU:
		cpulist_release(&o->cpus);
		if (cpulist_parse(&o->cpus, arg) || o->cpus.nr == 0)
			return opt_error(st, "-C: '%s' is not a CPU list such as 0-3,6", arg);
		o->has_cpus = 1;
		break;
	case S_SEP:
		if (!arg[0] || strchr(arg, '\n') || strchr(arg, '"'))
			return opt_error(st, "-x: '%s' cannot separate fields", arg);
		o->sep = arg;
		break;
	case S_REPEAT:
		ret = parse_u64(arg, 1, 100000, &o->repeat);
		if (ret)
			return opt_error(st, "-r: '%s' is not a count from 1 to 100000", arg);
		break;
	case S_INTERVAL:
		ret = parse_u64(arg, 10, 86400000, &o->interval_ms);
		if (ret)
			return opt_error(st, "-I: '%s' is not milliseconds from 10 to 86400000", arg);
		break;
	case S_COUNT:
		ret = parse_u64(arg, 1, UINT32_MAX, &o->interval_count);
		if (ret)
			return opt_error(st, "--interval-count: '%s' is not a count", arg);
		break;
	case S_TIMEOUT:
		ret = parse_u64(arg, 10, 86400000ULL * 365, &o->timeout_ms);
		if (ret)
			return opt_error(st, "--timeout: '%s' is not milliseconds, 10 or more", arg);
		break;
	}
	return 0;
}

#define SO struct stat_opts

static const struct opt stat_options[] = {
	OPT_CALL('e', "event", "LIST", stat_cb, S_EVENT,
		 "events to count (default: task-clock,\n"
		 "context-switches, cpu-migrations, page-faults,\n"
		 "cycles, instructions, branches, branch-misses);\n"
		 "{a,b} counts a and b as a group; modifiers\n"
		 ":u :k :h :G :H :p :P :D :I :e as perf takes them;\n"
		 "calls of a function: uprobe:PATH:FUNCTION,\n"
		 "kprobe:FUNCTION (and uretprobe:, kretprobe:)"),
	OPT_CALL(0, "filter", "FILTER", stat_cb, S_FILTER,
		 "count only the hits of the tracepoint before\n"
		 "it that FILTER keeps: -e sched:sched_switch\n"
		 "--filter 'prev_pid == 0'"),
	OPT_CALL('G', "cgroup", "LIST", stat_cb, S_CGROUP,
		 "count the events before it only in these\n"
		 "cgroups (under /sys/fs/cgroup), in order, one\n"
		 "for all when one is given; with -a or -C"),
	OPT_CALL('p', "pid", "PIDS", stat_cb, S_PID, "count these processes (all their threads)"),
	OPT_CALL('t', "tid", "TIDS", stat_cb, S_TID, "count these threads"),
	OPT_SET('a', "all-cpus", SO, all_cpus, 1, "every process on every CPU"),
	OPT_CALL('C', "cpu", "CPULIST", stat_cb, S_CPU, "only these CPUs, e.g. 0-3,6 (as -a)"),
	OPT_SET('i', "no-inherit", SO, no_inherit, 1,
		"not the threads and processes the command\n"
		"starts: only its first thread"),
	OPT_SET(0, "per-thread", SO, per_thread, 1, "a row per thread (with -p or -t)"),
	OPT_SET('A', "per-cpu", SO, per_cpu, 1, "a row per CPU (with -a or -C)"),
	OPT_CALL('r', "repeat", "N", stat_cb, S_REPEAT,
		 "run the command N times: the mean, and its\n"
		 "spread as +- the standard error in percent"),
	OPT_CALL('I', "interval-print", "MS", stat_cb, S_INTERVAL,
		 "print the counts of each MS milliseconds"),
	OPT_CALL(0, "interval-count", "N", stat_cb, S_COUNT, "stop after N intervals of -I"),
	OPT_CALL(0, "timeout", "MS", stat_cb, S_TIMEOUT,
		 "stop after MS milliseconds (the command is\n"
		 "sent SIGTERM)"),
	OPT_CALL('x', "field-separator", "SEP", stat_cb, S_SEP,
		 "CSV: value, unit, event, run time, % running,\n"
		 "metric, metric unit, separated by SEP"),
	OPT_SET('j', "json", SO, json, 1, "a JSON object per line (perf stat -j's keys)"),
	OPT_STRING('o', "output", "FILE", SO, output, "write to FILE (default standard error)"),
	OPT_SET(0, "append", SO, append, 1, "append to -o FILE"),
	OPT_SET('d', "detailed", SO, detailed, 1, "add L1-dcache and LLC loads and misses"),
	OPT_SET('n', "null", SO, null_run, 1, "count nothing: the elapsed time only"),
	OPT_SET('q', "quiet", SO, quiet, 1, "print nothing: the exit status only"),
	OPT_SET(0, "all-user", SO, all_user, 1, "user space only, every event (as :u)"),
	OPT_SET(0, "all-kernel", SO, all_kernel, 1, "the kernel only, every event (as :k)"),
	OPT_HELP(),
	/* perf stat's spellings */
	OPT_PERF_SET(0, "no-aggr", SO, per_cpu, 1),
	OPT_PERF_NOOP('B', "big-num"),
	OPT_PERF_NOOP(0, "no-big-num"),
	OPT_PERF_NOOP('v', "verbose"),
	OPT_PERF_NOOP('S', "sync"),

	OPT_PERF(0, "per-socket", "prof stat aggregates per thread or per CPU (--per-thread, -A)"),
	OPT_PERF(0, "per-die", "prof stat aggregates per thread or per CPU (--per-thread, -A)"),
	OPT_PERF(0, "per-core", "prof stat aggregates per thread or per CPU (--per-thread, -A)"),
	OPT_PERF(0, "per-node", "prof stat aggregates per thread or per CPU (--per-thread, -A)"),
	OPT_PERF('M', "metrics", "prof stat derives IPC, miss rates, CPUs utilized and rates "
		 "from the events given; no metric groups"),
	OPT_PERF('T', "transaction", "prof stat has no transaction metrics"),
	OPT_PERF(0, "topdown", "prof stat has no topdown metrics"),
	OPT_PERF(0, "bpf-counters", "prof stat counts with perf_event_open only"),
	OPT_END(),
};

static void stat_usage(FILE *out)
{
	fprintf(out, "usage: prof stat [-e EVENTS] [options] [-- command [args]]\n"
		"       prof stat [-e EVENTS] [options] -p PIDS | -t TIDS | -a | -C CPUS\n\n");
	opt_usage(out, stat_options);
}

static const char *const default_events[] = {
	"task-clock", "context-switches", "cpu-migrations", "page-faults",
	"cycles", "instructions", "branches", "branch-misses",
};
static const char *const detailed_events[] = {
	"L1-dcache-loads", "L1-dcache-load-misses", "LLC-loads", "LLC-load-misses",
};

static int check_opts(struct stat_opts *o, int have_cmd, char *err, size_t len)
{
	int targets = (o->nr_pids > 0) + (o->nr_tids > 0) + (o->all_cpus || o->has_cpus);

	if (o->has_cpus)
		o->all_cpus = 1;
	if (targets > 1)
		return opt_fail(err, len, "give one of -p, -t, and -a/-C");
	if (!targets && !have_cmd)
		return opt_fail(err, len, "give a command to count, or -p, -t, -a or -C");
	if (o->sep && o->json)
		return opt_fail(err, len, "-x and --json are two output formats: give one");
	if (o->per_thread && !o->nr_pids && !o->nr_tids)
		return opt_fail(err, len, "--per-thread needs -p or -t: a command's threads and children "
			        "are counted together, through inheritance");
	if (o->per_cpu && !o->all_cpus)
		return opt_fail(err, len, "-A/--per-cpu needs -a or -C: a row per CPU counts whatever ran "
			        "there");
	if (o->per_cpu && o->per_thread)
		return opt_fail(err, len, "--per-thread and -A/--per-cpu: give one");
	if (o->repeat > 1 && !have_cmd)
		return opt_fail(err, len, "-r repeats a command: give one");
	if (o->repeat > 1 && o->interval_ms)
		return opt_fail(err, len, "-r and -I: give one (perf stat refuses both together too)");
	if (o->interval_count && !o->interval_ms)
		return opt_fail(err, len, "--interval-count counts the intervals of -I: give -I");
	if (o->append && !o->output)
		return opt_fail(err, len, "--append appends to the file of -o: give -o");
	if (o->null_run && o->nev && !o->default_events)
		return opt_fail(err, len, "-n counts nothing: give no -e with it");
	if (o->all_user && o->all_kernel)
		return opt_fail(err, len, "--all-user and --all-kernel: give one");
	if (o->null_run) {
		for (int i = 0; i < o->nev; i++)
			free(o->ev[i].name);
		o->nev = 0;
	}
	if (o->detailed)
		for (size_t i = 0; i < sizeof(detailed_events) / sizeof(detailed_events[0]); i++)
			if (append_events(o, detailed_events[i], err, len))
				return -1;
	for (int i = 0; i < o->nev; i++) {
		struct perf_event_attr *a = &o->ev[i].attr;

		if (o->all_user || o->all_kernel) {
			a->exclude_user = o->all_kernel;
			a->exclude_kernel = o->all_user;
			a->exclude_hv = 1;
		}
		/* -a counts the CPU's time: cpu-clock is what perf stat -a shows */
		if (o->default_events && o->all_cpus && a->type == PERF_TYPE_SOFTWARE &&
		    a->config == PERF_COUNT_SW_TASK_CLOCK) {
			a->config = PERF_COUNT_SW_CPU_CLOCK;
			free(o->ev[i].name);
			o->ev[i].name = xstrdup("cpu-clock");
		}
	}
	return 0;
}

/* --- counting --------------------------------------------------------------- */

static long perf_open(const struct sev *e, int pid, int cpu, int group_fd)
{
	/* -G: on each CPU, counting while a task of the cgroup runs there */
	if (e->cgfd >= 0)
		return syscall(SYS_perf_event_open, &e->attr, e->cgfd, cpu, group_fd,
			       PERF_FLAG_FD_CLOEXEC | PERF_FLAG_PID_CGROUP);
	return syscall(SYS_perf_event_open, &e->attr, pid, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
}


static void comm_of(int tid, char *buf, size_t size)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", tid);
	buf[0] = '\0';
	f = fopen(path, "r");
	if (f) {
		if (fgets(buf, (int)size, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
	if (!buf[0])
		snprintf(buf, size, "?");
}

static void add_unit(struct stat_run *r, int pid, int cpu)
{
	struct unit *u;
	int n = r->o->nev;

	r->units = xreallocarray(r->units, r->nunits + 1, sizeof(*r->units));
	u = &r->units[r->nunits++];
	memset(u, 0, sizeof(*u));
	u->pid = pid;
	u->cpu = cpu;
	if (cpu >= 0) {
		snprintf(u->label, sizeof(u->label), "CPU%d", cpu);
	} else if (r->o->per_thread) {
		char comm[17];

		comm_of(pid, comm, sizeof(comm));
		snprintf(u->label, sizeof(u->label), "%s-%d", comm, pid);
	}
	u->c = xcalloc(n + 1, sizeof(*u->c));
	for (int i = 0; i < n; i++)
		u->c[i].fd = -1;
}

static void free_units(struct stat_run *r)
{
	for (int k = 0; k < r->nunits; k++) {
		struct unit *u = &r->units[k];

		for (int i = 0; i < r->o->nev; i++)
			if (u->c[i].fd >= 0)
				close(u->c[i].fd);
		free(u->c);
	}
	free(r->units);
	r->units = NULL;
	r->nunits = 0;
}

static int unsupported_errno(int err, const struct perf_event_attr *a)
{
	if (evopen_no_hardware(err))
		return 1;
	/* a PMU event the CPU's PMU does not know, or a breakpoint on no debug register */
	return err == EINVAL && (a->type == PERF_TYPE_RAW || a->type == PERF_TYPE_HW_CACHE);
}

/* the events of the group leader leads */
static int group_size(const struct stat_opts *o, int leader)
{
	int n = 0;

	for (int i = 0; i < o->nev; i++)
		n += o->ev[i].leader == leader;
	return n;
}

static void open_fail(struct stat_run *r, struct sev *e, struct unit *u, int err)
{
	char why[512];

	if (probe_attr(&e->attr) && err != EMFILE && err != ENFILE)
		fprintf(stderr, "prof: %s\n", probe_refused(e->name, err, why, sizeof(why)));
	else if (err == EACCES || err == EPERM)
		evopen_refused(r->system_wide, err);
	else if (err == EMFILE || err == ENFILE)
		fprintf(stderr, "prof: out of file descriptors opening %d events on %d %s; raise "
			"the limit with 'ulimit -n'\n", r->o->nev, r->nunits,
			r->system_wide ? "CPUs" : "threads");
	else if (err == ENOSPC && e->attr.type == PERF_TYPE_BREAKPOINT)
		fprintf(stderr, "prof: cannot count '%s': no debug register is free for another "
			"breakpoint (x86 has 4 per thread); count fewer mem: events at once\n",
			e->name);
	else if (err == EINVAL && e->attr.type == PERF_TYPE_BREAKPOINT)
		fprintf(stderr, "prof: cannot count '%s': the kernel refused the breakpoint "
			"(an address it may not watch, or a length or alignment it does not take)\n",
			e->name);
	else if (err == EINVAL && e->leader != (int)(e - r->o->ev) && group_size(r->o, e->leader) > 1)
		/* the PMU driver's validate_group(): the group would never fit */
		fprintf(stderr, "prof: cannot count the group led by '%s': its %d events do not fit "
			"on the PMU's counters at once; split it, or drop the braces to count them "
			"in turn\n", r->o->ev[e->leader].name, group_size(r->o, e->leader));
	else if (u->cpu >= 0)
		fprintf(stderr, "prof: cannot count '%s' on cpu %d: %s\n", e->name, u->cpu,
			strerror(err));
	else
		fprintf(stderr, "prof: cannot count '%s' on thread %d: %s\n", e->name, u->pid,
			strerror(err));
}

/*
 * Open every event on every unit. A group's leader is disabled until the
 * command's exec (enable_on_exec) or until enable_all(); its members follow
 * it. An event the kernel or the PMU does not have is marked unsupported
 * (on the first unit) and left out, and the next one of its group leads.
 */
static int open_all(struct stat_run *r, int command)
{
	struct stat_opts *o = r->o;

	for (int k = 0; k < r->nunits; k++) {
		struct unit *u = &r->units[k];

		for (int i = 0; i < o->nev; i++) {
			struct sev *e = &o->ev[i];
			int lead = -1;
			long fd;

			if (e->state == EV_UNSUPPORTED || u->gone)
				continue;
			/* the group's open leader: the first open event of the group before i */
			for (int j = e->leader; j < i; j++)
				if (o->ev[j].leader == e->leader && u->c[j].fd >= 0) {
					lead = j;
					break;
				}
			e->attr.read_format = READ_FORMAT;
			e->attr.disabled = lead < 0;
			e->attr.enable_on_exec = lead < 0 && command && !r->system_wide;
			e->attr.inherit = !o->no_inherit;
again:
			fd = perf_open(e, u->pid, u->cpu, lead < 0 ? -1 : u->c[lead].fd);
			if (fd < 0) {
				int err = errno;

				if (err == ESRCH && u->cpu < 0 && !command) {
					u->gone = 1;	/* exited since we listed it */
					break;
				}
				if ((err == EACCES || err == EPERM) && !r->system_wide &&
				    !e->attr.exclude_kernel && !probe_attr(&e->attr) &&
				    evopen_paranoid() >= 2 &&
				    !evopen_privileged()) {
					/* perf stat's fallback: user space, where the kernel is not allowed */
					e->attr.exclude_kernel = 1;
					e->attr.exclude_hv = 1;
					if (!r->user_only_notice++)
						fprintf(stderr, "prof: counting user space only: "
							"/proc/sys/kernel/perf_event_paranoid is %d\n",
							evopen_paranoid());
					goto again;
				}
				if ((err == EOPNOTSUPP || err == EINVAL) && e->attr.precise_ip) {
					/* a count is the same at any precision: the PMU's most */
					e->attr.precise_ip--;
					goto again;
				}
				if (e->state == EV_UNKNOWN && unsupported_errno(err, &e->attr)) {
					e->state = EV_UNSUPPORTED;
					continue;
				}
				open_fail(r, e, u, err);
				return -1;
			}
			u->c[i].fd = (int)fd;
			u->c[i].lead = lead < 0;
			if (e->filter && tracefs_set_filter(u->c[i].fd, e->filter, e->name))
				return -1;
			if (ioctl(u->c[i].fd, PERF_EVENT_IOC_ID, &u->c[i].id) < 0) {
				fprintf(stderr, "prof: PERF_EVENT_IOC_ID: %s\n", strerror(errno));
				return -1;
			}
			e->state = EV_OPEN;
		}
	}
	return 0;
}

static void ioctl_leaders(struct stat_run *r, unsigned long req)
{
	for (int k = 0; k < r->nunits; k++)
		for (int i = 0; i < r->o->nev; i++) {
			struct unit *u = &r->units[k];

			if (u->c[i].fd >= 0 && u->c[i].lead)
				ioctl(u->c[i].fd, req, 0);
		}
}

/* Read every group of every unit into val/ena/run, keeping the last in pval/pena/prun. */
static void read_all(struct stat_run *r)
{
	struct stat_opts *o = r->o;
	uint64_t buf[3 + 2 * MAX_EVENTS];

	for (int k = 0; k < r->nunits; k++) {
		struct unit *u = &r->units[k];

		for (int i = 0; i < o->nev; i++) {
			u->c[i].pval = u->c[i].val;
			u->c[i].pena = u->c[i].ena;
			u->c[i].prun = u->c[i].run;
		}
		for (int i = 0; i < o->nev; i++) {
			ssize_t n;

			if (u->c[i].fd < 0 || !u->c[i].lead)
				continue;	/* read through its leader */
			n = read(u->c[i].fd, buf, sizeof(buf));
			if (n < (ssize_t)(3 * sizeof(uint64_t)))
				continue;	/* a thread gone: its last counts stay */
			if (buf[0] > MAX_EVENTS || (size_t)n < (3 + 2 * buf[0]) * sizeof(uint64_t))
				continue;
			for (uint64_t m = 0; m < buf[0]; m++) {
				uint64_t value = buf[3 + 2 * m], id = buf[4 + 2 * m];

				for (int j = i; j < o->nev; j++)
					if (u->c[j].fd >= 0 && u->c[j].id == id) {
						u->c[j].val = value;
						u->c[j].ena = buf[1];
						u->c[j].run = buf[2];
						break;
					}
			}
		}
	}
}

/* --- a run ------------------------------------------------------------------- */

static int exit_status_of(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 1;
}

static int targets_alive(struct stat_run *r)
{
	struct stat_opts *o = r->o;

	for (int i = 0; i < o->nr_pids; i++)
		if (target_alive(0, o->pids[i]))
			return 1;
	for (int i = 0; i < o->nr_tids; i++)
		if (target_alive(0, o->tids[i]))
			return 1;
	return 0;
}

/*
 * One run: open, start the command (if any), wait for it (or for a signal,
 * the targets' end, --timeout), printing each -I interval, then read.
 * Returns the exit status to give, or -1 when nothing could be counted.
 */
static int run_once(struct stat_run *r, const char *path)
{
	struct stat_opts *o = r->o;
	struct launch l = { 0 };
	int launched = 0, status = 0, child_st = 0, done = 0, intervals = 0;
	double next, end_at = 0, last;

	if (path) {
		int ret;

		l.ignored = r->ignored;
		ret = launch_start(&l, path, o->argv, 0);
		if (ret) {
			fprintf(stderr, "prof: cannot start '%s': %s\n", o->argv[0], strerror(-ret));
			return 126;
		}
		launched = 1;
	}
	free_units(r);
	if (r->system_wide) {
		for (int i = 0; i < o->cpus.nr; i++)
			add_unit(r, -1, o->cpus.cpus[i]);
	} else if (launched) {
		add_unit(r, l.pid, -1);
	} else if (o->nr_pids) {
		for (int i = 0; i < o->nr_pids; i++) {
			int *tids, nt, ret = target_threads(o->pids[i], &tids, &nt);

			if (ret) {
				fprintf(stderr, "prof: -p %d: %s\n", o->pids[i],
					ret == -ESRCH ? "no such process" : strerror(-ret));
				return -1;
			}
			for (int t = 0; t < nt; t++)
				add_unit(r, tids[t], -1);
			free(tids);
		}
	} else {
		for (int i = 0; i < o->nr_tids; i++) {
			if (!target_alive(0, o->tids[i])) {
				fprintf(stderr, "prof: -t %d: no such thread\n", o->tids[i]);
				return -1;
			}
			add_unit(r, o->tids[i], -1);
		}
	}
	if (open_all(r, launched && !r->system_wide)) {
		if (launched)
			launch_abort(&l);
		return -1;
	}
	if (!launched || r->system_wide)
		ioctl_leaders(r, PERF_EVENT_IOC_ENABLE);
	r->t0 = mono_s();
	if (launched) {
		int e = launch_release(&l);

		if (e) {
			fprintf(stderr, "prof: cannot run '%s': %s\n", o->argv[0], strerror(e));
			waitpid(l.pid, NULL, 0);
			return e == ENOENT ? 127 : 126;
		}
	}
	last = r->t0;
	next = o->interval_ms ? r->t0 + o->interval_ms / 1e3 : 0;
	if (o->timeout_ms)
		end_at = r->t0 + o->timeout_ms / 1e3;
	while (!done) {
		double now = mono_s(), wake = now + 0.2;
		struct timespec ts;
		siginfo_t si;
		int sig;

		if (next && next < wake)
			wake = next;
		if (end_at && end_at < wake)
			wake = end_at;
		if (wake < now)
			wake = now;
		ts.tv_sec = (time_t)(wake - now);
		ts.tv_nsec = (long)((wake - now - (double)ts.tv_sec) * 1e9);
		/* the signals are blocked: they wake this wait, SIGCHLD the moment the command ends */
		sig = sigtimedwait(r->sigs, &si, &ts);
		if (launched) {
			struct rusage ru;
			pid_t w = wait4(l.pid, &child_st, WNOHANG, &ru);

			if (w == l.pid) {
				r->ru = ru;
				r->have_ru = 1;
				status = exit_status_of(child_st);
				done = 1;
			}
		} else if (!r->system_wide && !targets_alive(r)) {
			done = 1;
		}
		if (sig > 0 && sig != SIGCHLD) {
			r->interrupted = 1;
			if (launched && !done) {
				/* the terminal's went to the command's process group already */
				if (si.si_code == SI_USER || si.si_code == SI_QUEUE)
					kill(l.pid, sig);
			} else {
				done = 1;
			}
		}
		now = mono_s();
		if (end_at && now >= end_at && !done) {
			if (launched) {
				kill(l.pid, SIGTERM);
				end_at = 0;
			} else {
				done = 1;
			}
		}
		if (next && (now >= next || done)) {
			read_all(r);
			if (!o->quiet)
				stat_print_interval(r, now - r->t0, now - last, intervals == 0);
			last = now;
			intervals++;
			next += o->interval_ms / 1e3;
			if (next < now)
				next = now + o->interval_ms / 1e3;
			if (o->interval_count && (uint64_t)intervals >= o->interval_count && !done) {
				if (launched) {
					kill(l.pid, SIGTERM);
					next = 0;
				} else {
					done = 1;
				}
			}
		}
	}
	r->elapsed = mono_s() - r->t0;
	if (r->system_wide)
		ioctl_leaders(r, PERF_EVENT_IOC_DISABLE);
	read_all(r);
	return status;
}

static char *describe_target(struct stat_opts *o)
{
	char *s;
	size_t len = 64, n;

	if (o->argv) {
		for (char **a = o->argv; *a; a++)
			len += strlen(*a) + 1;
		s = xmalloc(len);
		n = (size_t)snprintf(s, len, "'");
		for (char **a = o->argv; *a; a++)
			n += (size_t)snprintf(s + n, len - n, "%s%s", a == o->argv ? "" : " ", *a);
		snprintf(s + n, len - n, "'");
	} else if (o->nr_pids || o->nr_tids) {
		int np = o->nr_pids ? o->nr_pids : o->nr_tids, *ids = o->nr_pids ? o->pids : o->tids;

		len += (size_t)np * 12;
		s = xmalloc(len);
		n = (size_t)snprintf(s, len, "%s id '", o->nr_pids ? "process" : "thread");
		for (int i = 0; i < np; i++)
			n += (size_t)snprintf(s + n, len - n, "%s%d", i ? "," : "", ids[i]);
		snprintf(s + n, len - n, "'");
	} else if (o->has_cpus) {
		len += (size_t)o->cpus.nr * 12;
		s = xmalloc(len);
		n = (size_t)snprintf(s, len, "'CPU(s) ");
		for (int i = 0; i < o->cpus.nr; i++)
			n += (size_t)snprintf(s + n, len - n, "%s%d", i ? "," : "", o->cpus.cpus[i]);
		snprintf(s + n, len - n, "'");
	} else {
		s = xstrdup("'system wide'");
	}
	return s;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_opts o;
	struct stat_run r;
	char err[512];
	char *path = NULL;
	FILE *raw = NULL;
	int first, ret, status = 1, runs;
	sigset_t sigs;

	memset(&o, 0, sizeof(o));
	memset(&r, 0, sizeof(r));
	for (size_t i = 0; i < sizeof(default_events) / sizeof(default_events[0]); i++)
		if (append_events(&o, default_events[i], err, sizeof(err)))
			return opt_say("stat", -1, err);
	o.default_events = 1;
	ret = opt_parse(stat_options, &o, OPT_STOP_AT_WORD, argc, argv, &first, err, sizeof(err));
	if (ret == 1) {
		stat_usage(stdout);
		status = 0;
		goto out;
	}
	if (ret) {
		status = opt_say("stat", ret, err);
		goto out;
	}
	if (first < argc)
		o.argv = argv + first;
	for (int i = 0; i < o.nev; i++)
		o.ev[i].cgfd = -1;
	if (check_opts(&o, o.argv != NULL, err, sizeof(err))) {
		status = opt_say("stat", -1, err);
		goto out;
	}
	for (int i = 0; i < o.nev; i++) {
		if (!o.ev[i].cgroup || !*o.ev[i].cgroup)
			continue;
		if (!o.all_cpus && !o.has_cpus) {
			snprintf(err, sizeof(err), "-G %s: a cgroup's events are counted on each CPU: "
				 "give -a (or -C)", o.ev[i].cgroup);
			status = opt_say("stat", -1, err);
			goto out;
		}
		o.ev[i].cgfd = cgroup_open(o.ev[i].cgroup, err, sizeof(err));
		if (o.ev[i].cgfd < 0) {
			fprintf(stderr, "prof: %s\n", err);
			status = 1;
			goto out;
		}
	}
	r.o = &o;
	r.system_wide = o.all_cpus;
	if (r.system_wide && !o.has_cpus) {
		if ((ret = cpulist_online(&o.cpus))) {
			fprintf(stderr, "prof: cannot read the online CPUs: %s\n", strerror(-ret));
			goto out;
		}
	} else if (o.has_cpus && (ret = cpulist_offline(&o.cpus)) >= 0) {
		fprintf(stderr, "prof: -C: cpu %d is not online\n", ret);
		goto out;
	}
	if (o.argv) {
		ret = launch_resolve(o.argv[0], &path);
		if (ret) {
			if (ret == -ENOENT)
				fprintf(stderr, "prof: command not found: '%s'\n", o.argv[0]);
			else
				fprintf(stderr, "prof: cannot run '%s': %s\n", o.argv[0], strerror(-ret));
			status = ret == -ENOENT ? 127 : 126;
			goto out;
		}
	}
	if (o.output) {
		/* 0600, as perf.data is: counts of a program are its owner's to read */
		int fd = open(o.output, O_WRONLY | O_CREAT | O_CLOEXEC | (o.append ? O_APPEND : O_TRUNC),
			      0600);

		raw = fd >= 0 ? fdopen(fd, o.append ? "a" : "w") : NULL;
		if (!raw && fd >= 0)
			close(fd);
		if (!raw) {
			fprintf(stderr, "prof: cannot write '%s': %s\n", o.output, strerror(errno));
			goto out;
		}
	}
	r.out = utf8_filter(raw ? raw : stderr);
	if (!r.out) {
		fprintf(stderr, "prof: cannot set up the output: %s\n", strerror(errno));
		goto out;
	}
	r.header = describe_target(&o);

	/*
	 * As perf stat: SIGINT and friends end the counting, not prof; with a
	 * command, the terminal's signal reaches the command (one from kill(1)
	 * is passed on) and prof prints once it ends. Blocked, and taken by
	 * sigtimedwait(); the command gets the default mask (launch_start).
	 */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	sigaddset(&sigs, SIGQUIT);
	sigaddset(&sigs, SIGCHLD);
	sigprocmask(SIG_BLOCK, &sigs, NULL);
	/*
	 * An ignored signal is dropped when sent, never pending (prof started
	 * with '&' by a script ignores SIGINT): blocked now, its default action
	 * never runs; the command is given back SIG_IGN (launch_start).
	 */
	sigemptyset(&r.ignored);
	for (int sig = 1; sig < NSIG; sig++) {
		struct sigaction old;

		if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN) {
			sigaddset(&r.ignored, sig);
			if (sigismember(&sigs, sig) == 1)
				signal(sig, SIG_DFL);
		}
	}
	r.sigs = &sigs;

	runs = o.repeat ? (int)o.repeat : 1;
	for (int k = 0; k < runs; k++) {
		ret = run_once(&r, path);
		if (ret < 0)
			goto out;
		status = ret;
		if (runs > 1) {
			struct counts c;

			stat_counts_init(&c, o.nev);
			stat_gather(&r, -1, 0, &c);
			for (int i = 0; i < o.nev; i++) {
				o.ev[i].sum += c.v[i];
				o.ev[i].sumsq += c.v[i] * c.v[i];
				o.ev[i].runs++;
				o.ev[i].ena_sum += c.ena[i];
				o.ev[i].run_sum += c.run[i];
			}
			stat_counts_free(&c);
			r.el_sum += r.elapsed;
			r.el_sumsq += r.elapsed * r.elapsed;
		}
		if (r.interrupted) {
			runs = k + 1;	/* interrupted: what ran so far */
			break;
		}
	}
	if (!o.interval_ms && !o.quiet)
		stat_print_final(&r, runs);
out:
	if (r.out && fclose(r.out) && status == 0)
		status = 1;
	if (raw && fclose(raw) && status == 0) {
		fprintf(stderr, "prof: cannot write '%s': %s\n", o.output, strerror(errno));
		status = 1;
	}
	free_units(&r);
	free(r.header);
	free(path);
	for (int i = 0; i < o.nev; i++) {
		free(o.ev[i].name);
		free(o.ev[i].cgroup);
		if (o.ev[i].cgfd > 0)
			close(o.ev[i].cgfd);
	}
	free(o.pids);
	free(o.tids);
	cpulist_release(&o.cpus);
	return status;
}
