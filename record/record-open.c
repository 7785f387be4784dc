// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recorder's events opened on its target: each event on each thread
 * (a command, -p, -t) or CPU (-a, -C), its first open tried as perf tries
 * it (precise levels, exclude_guest, sample id), the context-switches
 * event --off-cpu adds, the rings they write to, and the same again for
 * --switch-output's next file.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

#include "clock.h"
#include "codemap.h"
#include "decode.h"
#include "drain.h"
#include "evname.h"
#include "evopen.h"
#include "file.h"
#include "fillbid.h"
#include "fold.h"
#include "carry.h"
#include "cgroup.h"
#include "hold.h"
#include "keep.h"
#include "mapfile.h"
#include "mend.h"
#include "opt.h"
#include "opts.h"
#include "pdata.h"
#include "record.h"
#include "ring.h"
#include "synth.h"
#include "target.h"
#include "trim.h"
#include "tracefs.h"
#include "writer.h"
#include "xalloc.h"


#include "probe.h"
#include "record-int.h"

/* e's fd on (thread index t, CPU index c), or -1. */
static int slot_fd(const struct recorder *rc, const struct rec_event *e, int t, size_t c)
{
	size_t k = (size_t)t * (size_t)rc->cpus.nr + c;

	return k < e->nslot ? e->slot[k] : -1;
}

static void set_slot(struct recorder *rc, struct rec_event *e, int t, size_t c, int fd)
{
	size_t k = (size_t)t * (size_t)rc->cpus.nr + c;

	if (k >= e->nslot) {
		size_t n = e->nslot ? e->nslot : 16;

		while (n <= k)
			n *= 2;
		e->slot = xreallocarray(e->slot, n, sizeof(*e->slot));
		for (size_t i = e->nslot; i < n; i++)
			e->slot[i] = -1;
		e->nslot = n;
	}
	e->slot[k] = fd;
}

/*
 * Open event e on (thread index t, cpu index c), in its leader's group
 * there, and wire it to that CPU's ring. 0 or -errno.
 */
static int open_one(struct recorder *rc, struct rec_event *e, int t, size_t c)
{
	int cpu = rc->cpus.cpus[c], tid = rc->threads[t];
	const struct rec_event *lead = &rc->ev[e->leader];
	int group_fd = lead != e ? slot_fd(rc, lead, t, c) : -1;
	int fd;
	uint64_t id;
	struct ring *rings;

	if (lead != e && group_fd < 0)
		return 0;	/* its leader is not on this thread (a -p thread gone): nor is it */
	fd = e->cgroup_fd >= 0 ? evopen_fd(&e->attr, e->cgroup_fd, cpu, group_fd, PERF_FLAG_PID_CGROUP)
			       : evopen_fd(&e->attr, tid, cpu, group_fd, 0);
	if (fd < 0)
		return fd;
	set_slot(rc, e, t, c, fd);
	rc->fds = xreallocarray(rc->fds, rc->nr_fds + 1, sizeof(*rc->fds));
	rc->fds[rc->nr_fds++] = fd;
	if (e->filter && tracefs_set_filter(fd, e->filter, e->name))
		return -ECANCELED;	/* said */
	if (ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0)
		return -errno;
	e->ids = xreallocarray(e->ids, e->nr_ids + 1, sizeof(*e->ids));
	e->ids[e->nr_ids++] = id;
	/* --overwrite: the tracking event's records in a ring of their own, drained */
	rings = rc->o.overwrite && !e->attr.write_backward ? rc->trings : rc->rings;
	if (!rings[c].base) {
		int ret = ring_init(&rings[c], fd, cpu, rc->o.mmap_pages, e->attr.write_backward);

		if (ret)
			return ret == -EPERM || ret == -ENOMEM ? -ENOBUFS : ret;
		return 0;
	}
	/* One ring per CPU: every other event of that CPU writes into it. */
	if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, rings[c].fd) < 0)
		return -errno;
	return 0;
}

/* Explain a failed open in one line. */
static void open_error(struct recorder *rc, struct rec_event *e, int tid, int cpu, int err)
{
	char why[512];

	if (err == -ECANCELED)
		return;		/* said where it happened */
	if (probe_attr(&e->attr) && err != -ESRCH && err != -EMFILE && err != -ENFILE &&
	    err != -ENOBUFS)
		fprintf(stderr, "prof: %s\n", probe_refused(e->name, -err, why, sizeof(why)));
	else if (err == -EACCES || err == -EPERM)
		evopen_refused(rc->system_wide, -err);
	else if (err == -ESRCH)
		fprintf(stderr, "prof: no such process: %d\n", tid);
	else if (err == -EMFILE || err == -ENFILE)
		fprintf(stderr, "prof: out of file descriptors opening %zu events; raise the "
			"limit with 'ulimit -n'\n", rc->nr_fds);
	else if (err == -ENOBUFS)
		fprintf(stderr, "prof: cannot map a ring of %u pages for cpu %d: past "
			"/proc/sys/kernel/perf_event_mlock_kb for this user; use a smaller -m\n",
			rc->o.mmap_pages, cpu);
	else if ((e->attr.sample_type & PERF_SAMPLE_BRANCH_STACK) &&
		 (evopen_no_hardware(-err) || err == -EINVAL))
		fprintf(stderr, "prof: event '%s' cannot record branch stacks here (%s): -b and -j "
			"need a PMU that records branches (Intel LBR, AMD BRS, arm64 BRBE), which this "
			"machine has not (most VMs have none); record without them\n", e->name,
			strerror(-err));
	else if (evopen_no_hardware(-err) && (e->attr.type == PERF_TYPE_HARDWARE ||
					      e->attr.type == PERF_TYPE_HW_CACHE ||
					      e->attr.type == PERF_TYPE_RAW))
		fprintf(stderr, "prof: event '%s' is not supported here (%s): no hardware "
			"PMU, as in most VMs; use a software event such as -e cpu-clock\n",
			e->name, strerror(-err));
	else if (err == -EINVAL && e->attr.type >= PERF_TYPE_MAX)
		fprintf(stderr, "prof: event '%s' cannot be sampled here (%s): its PMU may only "
			"count (prof stat -e '%s')%s\n", e->name, strerror(-err), e->name,
			rc->system_wide ? "" : ", or only system-wide (-a)");
	else
		fprintf(stderr, "prof: cannot open event '%s' on cpu %d: %s\n", e->name, cpu,
			strerror(-err));
}

/*
 * Open event e on the first thread and CPU, falling back while a fallback
 * applies: cycles becomes cpu-clock without a PMU; kernel samples are
 * dropped when the paranoid level forbids them. Either may be what the
 * kernel complains of first, so try until neither helps.
 */
static int open_first(struct recorder *rc, struct rec_event *e)
{
	int ret, dropped_kernel = 0, dropped_idle = 0;
	unsigned asked_precise = e->attr.precise_ip;

	for (;;) {
		ret = open_one(rc, e, 0, 0);
		if (!ret)
			break;
		/*
		 * What a PMU may not do (EOPNOTSUPP): leave out the idle task
		 * (arm64's armv8_pmuv3), or sample at the precision asked (x86
		 * without PEBS at that level). Dropped, and said, as the
		 * header's name of the event then says.
		 */
		if (ret == -EOPNOTSUPP && e->attr.exclude_idle) {
			e->attr.exclude_idle = 0;
			dropped_idle = 1;
			continue;
		}
		if (ret == -EINVAL && e->attr.inherit && (e->attr.sample_type & PERF_SAMPLE_READ)) {
			/*
			 * Linux before 6.12 reads no group in an inherited
			 * event: the command's first process alone, as perf
			 */
			for (size_t i = 0; i < rc->nr_ev; i++)
				rc->ev[i].attr.inherit = 0;
			rec_notice(rc, "this kernel reads a group's counts (:S) only without "
				   "following children (Linux 6.12 and later do both): recording "
				   "the command's first process, not the ones it starts");
			continue;
		}
		if ((ret == -EOPNOTSUPP || ret == -EINVAL) && e->attr.precise_ip > 0) {
			e->attr.precise_ip--;
			continue;
		}
		if (e->attr.type == PERF_TYPE_HARDWARE &&
		    e->attr.config == PERF_COUNT_HW_CPU_CYCLES && evopen_no_hardware(-ret)) {
			/* ENOENT or EOPNOTSUPP: no PMU (a virtual machine); not an error of the user's */
			rec_notice(rc, "this machine has no hardware cycle counter (no PMU, as in most "
			       "virtual machines); sampling cpu-clock instead%s",
			       e->attr.exclude_kernel && !e->attr.exclude_user ? " (user space only, "
			       "as asked)" : "");
			e->attr.type = PERF_TYPE_SOFTWARE;
			e->attr.config = PERF_COUNT_SW_CPU_CLOCK;
			e->name = "cpu-clock";
			/* a timer's samples have no precision to ask for, nor to say was lowered */
			e->attr.precise_ip = 0;
			asked_precise = 0;
			continue;
		}
		if ((ret == -EACCES || ret == -EPERM) && !rc->system_wide &&
		    !e->attr.exclude_kernel && !probe_attr(&e->attr)) {
			e->attr.exclude_kernel = 1;
			e->attr.exclude_hv = 1;
			dropped_kernel = 1;
			continue;
		}
		return ret;
	}
	if (dropped_kernel)
		rec_notice(rc, "kernel samples not allowed (perf_event_paranoid is %d); "
		       "recording user space only", evopen_paranoid());
	if (dropped_idle)
		rec_notice(rc, "'%s': the PMU cannot leave out the idle task (exclude_idle, :I); "
		       "recording it too", e->name);
	if (e->attr.precise_ip != asked_precise && !e->precise_max)
		rec_notice(rc, "'%s': the PMU takes precise_ip %u at most, not %u; recording at %u",
		       e->name, e->attr.precise_ip, asked_precise, e->attr.precise_ip);
	return 0;
}

/* Open event e on every thread from first_thread and every CPU. */
static int open_event(struct recorder *rc, struct rec_event *e, int first_thread)
{
	for (int t = first_thread; t < rc->nr_threads; t++) {
		for (size_t c = 0; c < (size_t)rc->cpus.nr; c++) {
			int ret = t == 0 && c == 0 ? open_first(rc, e) : open_one(rc, e, t, c);

			/* A thread of a -p process may exit while we open: skip it. */
			if (ret == -ESRCH && rc->o.nr_pids && !rc->o.nr_tids && t > 0)
				break;
			if (ret) {
				open_error(rc, e, rc->threads[t], rc->cpus.cpus[c], ret);
				return ret;
			}
		}
	}
	return 0;
}

static int has_thread(const struct recorder *rc, int tid)
{
	for (int i = 0; i < rc->nr_threads; i++)
		if (rc->threads[i] == tid)
			return 1;
	return 0;
}

/* The threads of the -p processes; 1 when new ones were added, -errno. */
static int scan_pids(struct recorder *rc)
{
	int added = 0;

	for (int i = 0; i < rc->o.nr_pids; i++) {
		int *tids, nr, ret = target_threads(rc->o.pids[i], &tids, &nr);

		if (ret) {
			if (rc->nr_threads == 0 || ret != -ESRCH)
				fprintf(stderr, "prof: no such process: %d\n", rc->o.pids[i]);
			return ret;
		}
		for (int j = 0; j < nr; j++) {
			if (has_thread(rc, tids[j]))
				continue;
			rc->threads = xreallocarray(rc->threads, rc->nr_threads + 1, sizeof(int));
			rc->threads[rc->nr_threads++] = tids[j];
			added = 1;
		}
		free(tids);
	}
	return added;
}

/*
 * Whether the kernel samples a task as it switches out: it does for root,
 * CAP_PERFMON (or CAP_SYS_ADMIN), and perf_event_paranoid 1 or less. At 2
 * the context-switches event opens but never fires for a normal user.
 */
static int switch_samples_allowed(void)
{
	char line[256];
	unsigned long long cap = 0;
	FILE *f;

	if (geteuid() == 0 || evopen_paranoid() <= 1)
		return 1;
	f = fopen("/proc/self/status", "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &cap) == 1)
			break;
	if (f)
		fclose(f);
	return (cap >> 38 & 1) || (cap >> 21 & 1);	/* CAP_PERFMON, CAP_SYS_ADMIN */
}

/*
 * --off-cpu: the first event also records every switch of the target
 * threads (PERF_RECORD_SWITCH, or SWITCH_CPU_WIDE with -a), which any
 * user may have of their own tasks; and, where the kernel allows it, a
 * sample of each switch-out with its call chain (context-switches, period
 * 1), so that prof report knows where each wait began.
 */
static void off_cpu_events(struct recorder *rc)
{
	struct rec_event *e = &rc->ev[rc->nr_ev];

	rc->ev[0].attr.context_switch = 1;
	if (!switch_samples_allowed()) {
		rec_notice(rc, "--off-cpu: no stacks at switch-out as a normal user with "
		       "/proc/sys/kernel/perf_event_paranoid at %d; recording the switches only "
		       "(off-CPU time per thread). For stacks: sysctl kernel.perf_event_paranoid=1, "
		       "or setcap cap_perfmon+ep on prof", evopen_paranoid());
		return;
	}
	e->name = "context-switches";
	e->cgroup_fd = -1;
	e->leader = (int)rc->nr_ev;	/* alone, in no group */
	evopen_attr(&e->attr, evname_lookup("context-switches"), &rc->o, 0,
		    rc->launched && rc->profile_command);
	e->attr.freq = 0;
	e->attr.sample_period = 1;
	e->attr.exclude_kernel = rc->ev[0].attr.exclude_kernel;
	rc->nr_ev++;
	rc->cs_event = 1;
}

/*
 * Groups ({a,b}): each member opened in its leader's group, enabled with
 * it; under :S a member samples nothing, its count read at each of its
 * leader's samples (PERF_SAMPLE_READ).
 */
static void group_setup(struct recorder *rc)
{
	for (size_t i = 0; i < rc->nr_ev; i++) {
		const struct event_mods *m = &rc->o.mods[i];
		struct rec_event *e = &rc->ev[i];

		e->leader = m->leader;
		if (m->sample_read)
			rc->sample_read = 1;
		if (m->leader == (int)i)
			continue;
		e->attr.disabled = 0;		/* the leader's enabling is the group's */
		e->attr.enable_on_exec = 0;
		if (m->sample_read) {
			e->attr.freq = 0;
			e->attr.sample_period = 0;
		}
	}
}

/*
 * -D: the events stay off until the delay is over, but the maps, comms and
 * forks of that time must be there for the samples after it: a dummy event,
 * on from the start, takes over the first event's tracking (as perf's).
 * --overwrite: the samples are overwritten, but not the maps: the dummy
 * writes forward into rings of its own, drained as they fill.
 */
static void delay_tracking(struct recorder *rc)
{
	struct rec_event *t = &rc->ev[rc->nr_ev], *e = &rc->ev[0];

	t->name = "dummy";
	t->cgroup_fd = -1;
	t->leader = (int)rc->nr_ev;
	evopen_attr(&t->attr, evname_lookup("dummy"), &rc->o, 1, rc->launched && rc->profile_command);
	t->attr.exclude_kernel = e->attr.exclude_kernel;
	t->attr.write_backward = 0;
	e->attr.mmap = e->attr.mmap2 = e->attr.mmap_data = 0;
	e->attr.comm = e->attr.comm_exec = e->attr.task = 0;
	e->attr.build_id = e->attr.ksymbol = e->attr.bpf_event = e->attr.cgroup = 0;
	e->attr.namespaces = 0;
	rc->nr_ev++;
}

int rec_open_events(struct recorder *rc)
{
	unsigned long max = evopen_max_rate();
	int ret;

	if (rc->o.freq && max && rc->o.freq > max) {
		rec_notice(rc, "-F %llu is above the kernel's limit, "
		       "/proc/sys/kernel/perf_event_max_sample_rate = %lu; using %lu",
		       (unsigned long long)rc->o.freq, max, max);
		rc->o.freq = max;
	}
	rc->nr_ev = rc->o.nr_events;
	rc->ev = xcalloc(rc->nr_ev + 2, sizeof(*rc->ev));	/* --off-cpu's, -D's */
	for (size_t i = 0; i < rc->nr_ev; i++) {
		const struct event_mods *m = &rc->o.mods[i];
		struct evname tp = { rc->o.events[i], PERF_TYPE_TRACEPOINT, 0 };
		/* named, cache, raw or a breakpoint, as the grammar made it (evlist_base()) */
		struct evname ev = { rc->o.events[i], m->attr.type, m->attr.config };
		const struct evname *en = m->tracepoint ? &tp : &ev;

		if (m->tracepoint) {
			char err[512];

			if (tracefs_event_id(rc->o.events[i], &tp.config, err, sizeof(err))) {
				fprintf(stderr, "prof: %s\n", err);
				return -EINVAL;
			}
			rc->tracepoints = 1;
		}
		rc->ev[i].name = en->name;
		rc->ev[i].filter = m->filter;
		rc->ev[i].cgroup_fd = -1;
		if (m->cgroup && *m->cgroup) {
			char err[512];

			rc->ev[i].cgroup_fd = cgroup_open(m->cgroup, err, sizeof(err));
			if (rc->ev[i].cgroup_fd < 0) {
				fprintf(stderr, "prof: %s\n", err);
				return -EINVAL;
			}
		}
		rc->ev[i].precise_max = evname_precise_max(m->text);
		evopen_attr(&rc->ev[i].attr, en, &rc->o, i == 0,
			    rc->launched && rc->profile_command);
		if (!m->tracepoint) {
			/* a PMU's terms in config1 and config2 (a breakpoint's address and length) */
			rc->ev[i].attr.config1 = m->attr.config1;
			rc->ev[i].attr.config2 = m->attr.config2;
			rc->ev[i].attr.bp_type = m->attr.bp_type;
		}
		if (m->attr.sample_period && !rc->o.period) {
			/* a PMU's period= term, unless -c says otherwise */
			rc->ev[i].attr.freq = 0;
			rc->ev[i].attr.sample_period = m->attr.sample_period;
		}
		if (m->tracepoint || (m->attr.type == PERF_TYPE_BREAKPOINT && !rc->o.period)) {
			/* every hit (a breakpoint's unless -c, as perf's parse-events.c), with a tracepoint's raw fields */
			rc->ev[i].attr.freq = 0;
			rc->ev[i].attr.sample_period = 1;
		}
		/* checked when parsed: u, k, h, G, H, p and D as perf applies them */
		(void)evname_apply_mods(&rc->ev[i].attr, m->text);
		/*
		 * perf's --all-user, --all-kernel, on every event but a
		 * tracepoint (evsel.c) or a probe: the kernel counts a probe's
		 * hits as a tracepoint's, and would drop every kprobe's with
		 * exclude_kernel (perf_tp_event_match())
		 */
		if (m->probe) {
			rc->ev[i].attr.exclude_kernel = 0;
			rc->ev[i].attr.exclude_user = 0;
			rc->ev[i].attr.exclude_hv = 0;
		} else if (rc->o.all_user && !m->tracepoint) {
			rc->ev[i].attr.exclude_kernel = 1;
			rc->ev[i].attr.exclude_hv = 1;
		} else if (rc->o.all_kernel && !m->tracepoint) {
			rc->ev[i].attr.exclude_user = 1;
		}
	}
	group_setup(rc);
	if (rc->o.delay_ms)
		/* -D: opened disabled, enabled when the delay is over or --control says */
		for (size_t i = 0; i < rc->nr_ev; i++)
			if (rc->ev[i].leader == (int)i) {
				rc->ev[i].attr.disabled = 1;
				rc->ev[i].attr.enable_on_exec = 0;
			}
	if (rc->o.off_cpu)
		off_cpu_events(rc);
	if (rc->o.delay_ms || rc->o.overwrite)
		delay_tracking(rc);
	if (rc->sample_read)
		/* in every event's samples, so that all stay alike in layout (a group of one elsewhere) */
		for (size_t i = 0; i < rc->nr_ev; i++) {
			rc->ev[i].attr.sample_type |= PERF_SAMPLE_READ;
			rc->ev[i].attr.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
		}
	/*
	 * One event: a reader finds it without an id (as in perf's files of
	 * one event), and the id first in every sample was 5% of a
	 * system-wide -g file at zstd level 3. Set before mend_new() copies
	 * the attr.
	 */
	if (rc->nr_ev == 1)
		rc->ev[0].attr.sample_type &= ~(uint64_t)PERF_SAMPLE_IDENTIFIER;
	/* raw fields: in every event's samples, so that all stay alike in layout */
	for (size_t i = 0; rc->tracepoints && i < rc->nr_ev; i++)
		rc->ev[i].attr.sample_type |= PERF_SAMPLE_RAW;
	rc->rings = xcalloc(rc->cpus.nr, sizeof(*rc->rings));
	if (rc->o.overwrite)
		rc->trings = xcalloc(rc->cpus.nr, sizeof(*rc->trings));
	rc->heads = xcalloc(rc->cpus.nr, sizeof(*rc->heads));
	codemap_init(&rc->code);
	/*
	 * A live reader's stream is not compressed: zeroed words would save
	 * it nothing, and listing every granule of a host's new programs
	 * (ASLR puts each elsewhere) costs its recorder 5% of its CPU. "May
	 * be code" everywhere, as a full map says; the leaf repair looks a
	 * word up in its process's maps all the same.
	 */
	if (rc->o.hold_dir)
		rc->code.full = 1;
	/* -g's few bytes of stack serve the leaf repair alone: no registers */
	/*
	 * --overwrite: the records come newest first, once, at the end: no
	 * maps read ahead of the samples, the stacks kept for the report
	 */
	if ((rc->ev[0].attr.sample_type & PERF_SAMPLE_STACK_USER) &&
	    !(rc->ev[0].attr.sample_type & PERF_SAMPLE_REGS_USER) && !rc->o.overwrite) {
		rc->leaf_code = &rc->code;
		if (!rc->o.keep_leaf_stacks)
			rc->mend = mend_new(&rc->ev[0].attr, NULL, &rc->code);
		rc->gate.m = rc->mend;
		budget_init(&rc->gate.b, rc->o.cpu_budget);
	}
	if (rc->o.nr_pids && (ret = scan_pids(rc)) < 0)
		return ret;
	for (size_t i = 0; i < rc->nr_ev; i++)
		if ((ret = open_event(rc, &rc->ev[i], 0)))
			return ret;
	/* Threads born between the scan and the opens have no inherited events. */
	for (int round = 0; rc->o.nr_pids && round < 16; round++) {
		int first = rc->nr_threads;

		ret = scan_pids(rc);
		if (ret < 0)
			return ret;
		if (!ret)
			break;
		for (size_t i = 0; i < rc->nr_ev; i++)
			if ((ret = open_event(rc, &rc->ev[i], first)))
				return ret;
	}
	return 0;
}

/* The wake rings' pages: 8 KiB, 70-odd execs' MMAP2, FORK and EXIT records. */
#define WAKE_PAGES 2

/* The exec tracepoint id on cpu, its samples written into the ring of fd: its fd, or -1. */
static int open_exec_wake(uint64_t id, int cpu, int fd)
{
	struct perf_event_attr x = { .type = PERF_TYPE_TRACEPOINT, .size = sizeof(x), .config = id,
				     .sample_period = 1, .sample_type = PERF_SAMPLE_TID,
				     .wakeup_events = 1 };
	int xfd = evopen_fd(&x, -1, cpu, -1, 0);

	if (xfd >= 0 && ioctl(xfd, PERF_EVENT_IOC_SET_OUTPUT, fd)) {
		close(xfd);
		xfd = -1;
	}
	return xfd < 0 ? -1 : xfd;
}

/* The wake rings, woken by the exec tracepoint id if id, else by each record. 0 or -1. */
static int open_wakes(struct recorder *rc, const uint64_t *id)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
				     .config = PERF_COUNT_SW_DUMMY, .mmap = 1, .mmap2 = 1,
				     .watermark = 1, .wakeup_watermark = 1 };

	/* with the execs to wake it, the dummy's own records only when half of it is full */
	if (id)
		a.wakeup_watermark = (uint32_t)(WAKE_PAGES * page / 2);
	rc->wake = xcalloc(rc->cpus.nr, sizeof(*rc->wake));
	rc->wake_exec = xcalloc(rc->cpus.nr, sizeof(*rc->wake_exec));
	for (int c = 0; c < rc->cpus.nr; c++) {
		int fd = evopen_fd(&a, -1, rc->cpus.cpus[c], -1, 0);

		if (fd < 0 || ring_init(&rc->wake[c], fd, rc->cpus.cpus[c], WAKE_PAGES, 0)) {
			if (fd >= 0)
				close(fd);
			return -1;
		}
		rc->wake_exec[c] = id ? open_exec_wake(*id, rc->cpus.cpus[c], fd) : -1;
		rc->nwake++;
		if (id && rc->wake_exec[c] < 0)
			return -1;
	}
	return 0;
}

void rec_open_wake(struct recorder *rc)
{
	char err[256];
	uint64_t id;

	if (!rc->hold || rc->nr_threads != 1 || rc->threads[0] != -1)
		return;
	/*
	 * Woken at each exec (sched:sched_process_exec), not at each fork,
	 * thread, exit or library the dummy also records: a thread pool's
	 * churn would wake the recorder 20 times a second. Where the
	 * tracepoint is refused, at each record.
	 */
	if (!tracefs_event_id("sched:sched_process_exec", &id, err, sizeof(err)) &&
	    !open_wakes(rc, &id))
		return;
	rec_close_wake(rc);
	if (open_wakes(rc, NULL))
		rec_close_wake(rc);	/* polled every 50 ms instead */
}

int rec_wake_hold(struct recorder *rc, struct pollfd *wake, void *buf, int *wake_on)
{
	int woke = 0;

	for (int c = 0; c < rc->nwake; c++) {
		if (wake[c].fd >= 0 && (wake[c].revents & POLLIN))
			woke = WAKE_WOKE;
		/* one that cannot be polled (its CPU gone): back to the 50 ms clock */
		if (wake[c].fd >= 0 && (wake[c].revents & (POLLHUP | POLLERR | POLLNVAL)))
			*wake_on = 0;
		wake[c].fd = -1;
	}
	/* every ring at a wake (a program moved between CPUs in its exec); else they wait */
	for (int c = 0; c < rc->nwake && woke; c++) {
		int code;

		if (!*wake_on) {
			ring_skip(&rc->wake[c]);
			woke |= WAKE_PASS;
			continue;
		}
		code = hold_wake(rc->hold, &rc->wake[c], buf);
		woke |= code < 0 ? WAKE_PASS : code ? WAKE_CODE : 0;
	}
	return woke;
}

void rec_close_wake(struct recorder *rc)
{
	for (int c = 0; c < rc->nwake; c++) {
		if (rc->wake_exec[c] >= 0)
			close(rc->wake_exec[c]);
		ring_release(&rc->wake[c]);
		close(rc->wake[c].fd);
	}
	free(rc->wake);
	free(rc->wake_exec);
	rc->wake = NULL;
	rc->wake_exec = NULL;
	rc->nwake = 0;
}

/*
 * --switch-output: the next file, OUTPUT.YYYYMMDDhhmmssSSS (local time,
 * as perf names them), so that a glob lists them in time order.
 */
int rec_open_switched(struct recorder *rc)
{
	int err = EEXIST;

	for (int tries = 0; tries < 1000 && err == EEXIST; tries++) {
		struct timespec ts;
		struct tm tm;
		char stamp[32];

		clock_gettime(CLOCK_REALTIME, &ts);
		localtime_r(&ts.tv_sec, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &tm);
		free(rc->out_path);
		rc->out_path = xmalloc(strlen(rc->o.output) + 40);
		sprintf(rc->out_path, "%s.%s%03ld", rc->o.output, stamp, ts.tv_nsec / 1000000);
		rc->out_fd = file_create(rc->out_path, 0600, NULL, &err);
		if (rc->out_fd >= 0) {
			rc->out_name = rc->out_path;
			rc->file_start = mono_s();
			rc->files = xreallocarray(rc->files, rc->nfiles + 1, sizeof(*rc->files));
			rc->files[rc->nfiles++] = xstrdup(rc->out_path);
			return 0;
		}
		if (err == EEXIST)
			usleep(1000);	/* two files in one millisecond: the next one */
	}
	fprintf(stderr, "prof: cannot write '%s': %s\n", rc->out_path, file_create_strerror(err));
	return -1;
}

