// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `prof record`: opens the events on the target, one ring per CPU, then
 * loops: poll, drain every ring into the writer, end the pass with
 * FINISHED_ROUND, flush. Messages are made here, where the context is.
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
#include "pump.h"
#include "evname.h"
#include "evopen.h"
#include "file.h"
#include "fillbid.h"
#include "fold.h"
#include "carry.h"
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


#include "record-int.h"


static int open_output(struct recorder *rc)
{
	struct stat st;
	int err;

	if (rc->o.switch_output)
		return rec_open_switched(rc);
	rc->out_name = rc->o.output;
	if (!strcmp(rc->o.output, "-")) {
		rc->out_fd = dup(STDOUT_FILENO);
		rc->out_name = "standard output";
		if (rc->out_fd < 0)
			goto fail;
		return 0;
	}
	/* An old profile is kept as FILE.old, as perf keeps perf.data.old. */
	if (lstat(rc->o.output, &st) == 0 && S_ISREG(st.st_mode)) {
		char *old = xmalloc(strlen(rc->o.output) + 5);

		sprintf(old, "%s.old", rc->o.output);
		if (rename(rc->o.output, old)) {
			fprintf(stderr, "prof: cannot rename '%s' to '%s': %s\n", rc->o.output,
				old, strerror(errno));
			free(old);
			return -1;
		}
		free(old);
	}
	/* O_EXCL, no link followed but ours or root's: see file_create() */
	rc->out_fd = file_create(rc->o.output, 0600, NULL, &err);
	if (rc->out_fd >= 0)
		return 0;
	fprintf(stderr, "prof: cannot write '%s': %s\n", rc->o.output, file_create_strerror(err));
	return -1;
fail:
	fprintf(stderr, "prof: cannot open '%s': %s\n", rc->o.output, strerror(errno));
	return -1;
}

/*
 * Whether an event's name is more than its attr says: a tracepoint's, a
 * cache, raw or breakpoint event's as written, a PMU's of sysfs or a
 * probe's (whose path or function the attr holds only as a pointer).
 */
static int named_only(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_TRACEPOINT || a->type == PERF_TYPE_HW_CACHE ||
	       a->type == PERF_TYPE_RAW || a->type == PERF_TYPE_BREAKPOINT ||
	       a->type >= PERF_TYPE_MAX;
}

/*
 * The events' names (EVENT_DESC, as perf writes it) when one is more than
 * its attr says (named_only()), and for tracepoints the tracing data with
 * their formats, which a reader needs to decode their raw fields. Both
 * come before anything compressed: perf reads the tracing data that
 * follows its record straight from the stream.
 */
static int write_names(struct recorder *rc)
{
	const char **tps = xcalloc(rc->nr_ev, sizeof(*tps));
	size_t ntp = 0, len = 0, dlen = 8;
	unsigned char *data = NULL, *desc;
	char err[512];
	uint32_t v;
	int ret, any = 0;

	for (size_t i = 0; i < rc->nr_ev; i++) {
		if (rc->ev[i].attr.type == PERF_TYPE_TRACEPOINT)
			tps[ntp++] = rc->ev[i].name;
		any |= named_only(&rc->ev[i].attr);
		dlen += PDATA_ATTR_SIZE + 4 + 4 + ((strlen(rc->ev[i].name) + 1 + 63) & ~(size_t)63) +
			8 * rc->ev[i].nr_ids;
	}
	if (!any) {
		free(tps);
		return 0;
	}
	if (ntp && !(data = tracefs_tracing_data(tps, ntp, &len, err, sizeof(err)))) {
		free(tps);
		fprintf(stderr, "prof: tracepoints: %s\n", err);
		return -EINVAL;
	}
	free(tps);
	desc = xcalloc(1, dlen);
	v = (uint32_t)rc->nr_ev;
	memcpy(desc, &v, 4);
	v = PDATA_ATTR_SIZE;
	memcpy(desc + 4, &v, 4);
	{
		size_t off = 8;

		for (size_t i = 0; i < rc->nr_ev; i++) {
			struct perf_event_attr a = rc->ev[i].attr;
			uint32_t nl = (uint32_t)((strlen(rc->ev[i].name) + 1 + 63) & ~(size_t)63);

			a.size = PDATA_ATTR_SIZE;
			memcpy(desc + off, &a, sizeof(a) < PDATA_ATTR_SIZE ? sizeof(a) : PDATA_ATTR_SIZE);
			off += PDATA_ATTR_SIZE;
			v = (uint32_t)rc->ev[i].nr_ids;
			memcpy(desc + off, &v, 4);
			memcpy(desc + off + 4, &nl, 4);
			memcpy(desc + off + 8, rc->ev[i].name, strlen(rc->ev[i].name));
			off += 8 + nl;
			memcpy(desc + off, rc->ev[i].ids, 8 * rc->ev[i].nr_ids);
			off += 8 * rc->ev[i].nr_ids;
		}
	}
	ret = dlen + 16 <= PDATA_RECORD_MAX ? writer_feature(rc->w, PDATA_FEAT_EVENT_DESC, desc, dlen)
					     : 0;	/* too many ids to name them: perf reads on */
	free(desc);
	if (!ret && data)
		ret = writer_tracing_data(rc->w, data, len);
	free(data);
	return ret;
}

/*
 * The groups of more than one event (perf's GROUP_DESC: how many, then
 * each one's name, its leader's index and its size), so that perf report
 * --group shows them side by side, as prof report --group does.
 */
static int write_groups(struct recorder *rc)
{
	static const char name[] = "{anon_group}";
	uint32_t ngroups = 0, v;
	unsigned char *d;
	size_t off = 4, each = 4 + PDATA_STRING_ALIGN + 8;
	int ret;

	for (size_t i = 0; i < rc->nr_ev; i++)
		if (rc->ev[i].leader == (int)i && i + 1 < rc->nr_ev && rc->ev[i + 1].leader == (int)i)
			ngroups++;
	if (!ngroups)
		return 0;
	d = xcalloc(1, 4 + ngroups * each);
	memcpy(d, &ngroups, 4);
	for (size_t i = 0; i < rc->nr_ev; i++) {
		uint32_t n = 0;

		for (size_t j = i; j < rc->nr_ev && rc->ev[j].leader == (int)i; j++)
			n++;
		if (rc->ev[i].leader != (int)i || n < 2)
			continue;
		v = PDATA_STRING_ALIGN;		/* the string's padded length, then it */
		memcpy(d + off, &v, 4);
		memcpy(d + off + 4, name, sizeof(name));
		off += 4 + PDATA_STRING_ALIGN;
		v = (uint32_t)i;
		memcpy(d + off, &v, 4);
		memcpy(d + off + 4, &n, 4);
		off += 8;
	}
	ret = writer_feature(rc->w, PDATA_FEAT_GROUP_DESC, d, off);
	free(d);
	return ret;
}

static int write_head(struct recorder *rc)
{
	struct utsname u;
	char version[64];
	uint32_t nrcpus[2];
	const char **cmd;
	int ret;

	ret = writer_header(rc->w);
	for (size_t i = 0; !ret && i < rc->nr_ev; i++) {
		ret = writer_attr(rc->w, &rc->ev[i].attr, rc->ev[i].ids, rc->ev[i].nr_ids);
		if (ret == -E2BIG) {
			fprintf(stderr, "prof: event '%s' has %zu sample ids (threads x CPUs), more "
				"than one attr record holds; attach to fewer threads or sample fewer "
				"CPUs with -C\n", rc->ev[i].name, rc->ev[i].nr_ids);
			return -1;
		}
	}
	if (!ret && uname(&u) == 0) {
		ret = writer_feature_string(rc->w, PDATA_FEAT_HOSTNAME, u.nodename);
		if (!ret)
			ret = writer_feature_string(rc->w, PDATA_FEAT_OSRELEASE, u.release);
		if (!ret)
			ret = writer_feature_string(rc->w, PDATA_FEAT_ARCH, u.machine);
	}
	snprintf(version, sizeof(version), "prof %s", PACKAGE_VERSION);
	if (!ret)
		ret = writer_feature_string(rc->w, PDATA_FEAT_VERSION, version);
	/* the records' clock beside the wall clock, as perf -k writes it: when the profile began */
	if (!ret && rc->ev[0].attr.use_clockid) {
		struct timespec tod, clk;
		unsigned char cd[24];
		uint32_t cd_version = 1, clockid = (uint32_t)rc->ev[0].attr.clockid;
		uint64_t tod_ns, clk_ns, res_ns;

		clock_gettime(CLOCK_REALTIME, &tod);
		clock_gettime((clockid_t)clockid, &clk);
		tod_ns = (uint64_t)tod.tv_sec * 1000000000u + (uint64_t)tod.tv_nsec;
		clk_ns = (uint64_t)clk.tv_sec * 1000000000u + (uint64_t)clk.tv_nsec;
		memcpy(cd, &cd_version, 4);
		memcpy(cd + 4, &clockid, 4);
		memcpy(cd + 8, &tod_ns, 8);
		memcpy(cd + 16, &clk_ns, 8);
		ret = writer_feature(rc->w, PDATA_FEAT_CLOCK_DATA, cd, sizeof(cd));
		if (!ret && !clock_getres((clockid_t)clockid, &clk)) {
			res_ns = (uint64_t)clk.tv_sec * 1000000000u + (uint64_t)clk.tv_nsec;
			ret = writer_feature(rc->w, PDATA_FEAT_CLOCKID, &res_ns, sizeof(res_ns));
		}
	}
	nrcpus[0] = (uint32_t)sysconf(_SC_NPROCESSORS_CONF);
	nrcpus[1] = (uint32_t)sysconf(_SC_NPROCESSORS_ONLN);
	if (!ret)
		ret = writer_feature(rc->w, PDATA_FEAT_NRCPUS, nrcpus, sizeof(nrcpus));
	cmd = xcalloc(rc->argc + 1, sizeof(*cmd));
	cmd[0] = "prof";
	for (int i = 0; i < rc->argc; i++)
		cmd[i + 1] = rc->argv[i];
	if (!ret)
		ret = writer_feature_strings(rc->w, PDATA_FEAT_CMDLINE, cmd, rc->argc + 1);
	free(cmd);
	if (!ret)
		ret = write_names(rc);
	if (!ret)
		ret = write_groups(rc);
	if (!ret && rc->o.branch_sample_type)	/* perf's: no data, the samples have them */
		ret = writer_feature(rc->w, PDATA_FEAT_BRANCH_STACK, NULL, 0);
	if (ret == -EINVAL)
		return -1;
	if (!ret)
		ret = writer_end_features(rc->w);
	return ret ? rec_write_error(rc, ret) : 0;
}

/*
 * The processes and maps a file starts with. again: a file after the
 * first (--switch-output), which states what the targets are now: the
 * command as it runs, and the processes the targets started.
 */
static int synthesize(struct recorder *rc, int again)
{
	struct synth s = { .w = rc->w, .attr = &rc->ev[0].attr,
			   .id = rc->ev[0].ids ? rc->ev[0].ids[0] : 0, .keep = rc->keep,
			   .bids = &rc->bids, .code = rc->leaf_code, .mend = rc->mend,
			   .data = (rc->o.sample_extra & PERF_SAMPLE_ADDR) != 0,
			   .namespaces = rc->o.namespaces, .tick = pump_tick, .tick_ctx = rc };
	int ret = 0;

	if (!rc->ev[0].attr.exclude_kernel)
		ret = synth_kernel(&s);
	if (!ret && rc->o.all_cgroups)
		ret = synth_cgroups(&s);
	if (!ret && rc->system_wide)
		ret = synth_all(&s);
	if (!ret && rc->launched && rc->profile_command && !again)
		ret = synth_comm_as(&s, rc->launch.pid, rc->launch_comm);
	if (!ret && again && !rc->system_wide) {
		int roots[1024], n = 0;

		if (rc->launched && rc->profile_command)
			roots[n++] = rc->launch.pid;
		for (int i = 0; i < rc->o.nr_pids && n < 1024; i++)
			roots[n++] = rc->o.pids[i];
		if (rc->launched && rc->profile_command)
			ret = synth_process(&s, rc->launch.pid, 0);
		if (!ret && !rc->o.no_inherit)
			ret = synth_descendants(&s, roots, n);
	}
	for (int i = 0; !ret && i < rc->o.nr_pids; i++)
		ret = synth_process(&s, rc->o.pids[i], 0);
	for (int i = 0; !ret && i < rc->o.nr_tids; i++) {
		/* A thread's process is its Tgid in /proc/TID/status. */
		char path[64], line[128];
		int tgid = rc->o.tids[i];
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/status", rc->o.tids[i]);
		f = fopen(path, "re");
		while (f && fgets(line, sizeof(line), f))
			if (sscanf(line, "Tgid: %d", &tgid) == 1)
				break;
		if (f)
			fclose(f);
		ret = synth_process(&s, tgid, rc->o.tids[i]);
	}
	if (!ret)
		ret = writer_flush(rc->w);
	return ret ? rec_write_error(rc, ret) : 0;
}

/*
 * The record filters the drained records go through (drain.h), in order:
 * a switch-out folded into its sample first (it drops records, and must
 * see every one), then a sample's leaf repair and its stack copy cut, an
 * MMAP2's build id put in, and what the maps and processes tell the
 * files kept, held and carried.
 */
static void drain_setup(struct recorder *rc)
{
	const struct perf_event_attr *attr = &rc->ev[0].attr;	/* all alike in layout */
	struct drain *d = &rc->drain;

	drain_init(d, attr);
	if (rc->cs_event) {
		const struct rec_event *e = &rc->ev[rc->nr_ev - 1];

		fold_init(&rc->fold, e->ids, e->nr_ids);
		drain_add(d, "fold", REC_ALL, fold_filter, &rc->fold);
	}
	if (rc->mend)
		drain_add(d, "mend", REC_TYPE(PERF_RECORD_SAMPLE), mend_gate_filter, &rc->gate);
	if (attr->sample_type & PERF_SAMPLE_STACK_USER) {
		rc->trim.code = rc->leaf_code;
		drain_add(d, "trim", REC_TYPE(PERF_RECORD_SAMPLE), trim_filter, &rc->trim);
	}
	if (rc->fill_build_ids)
		drain_add(d, "build id", REC_TYPE(PERF_RECORD_MMAP2), fillbid_filter, &rc->bids);
	if (rc->keep)
		drain_add(d, "keep", REC_TYPE(PERF_RECORD_MMAP2), keep_filter, rc->keep);
	if (rc->hold)
		drain_add(d, "hold", REC_TYPE(PERF_RECORD_MMAP2), hold_filter, rc->hold);
	if (rc->carry)
		drain_add(d, "carry", REC_TYPE(PERF_RECORD_MMAP2) | REC_TYPE(PERF_RECORD_FORK) |
			  REC_TYPE(PERF_RECORD_COMM) | REC_TYPE(PERF_RECORD_EXIT), carry_filter,
			  rc->carry);
}

/*
 * What to add to a record's time (CLOCK_MONOTONIC, when the kernel took
 * use_clockid) for the wall clock: file times are on that. 0: unknown.
 */
static int64_t mono_to_real(const struct recorder *rc)
{
	struct timespec m, r;

	if (!rc->ev[0].attr.use_clockid || rc->ev[0].attr.clockid != CLOCK_MONOTONIC)
		return 0;
	clock_gettime(CLOCK_MONOTONIC, &m);
	clock_gettime(CLOCK_REALTIME, &r);
	return ((int64_t)r.tv_sec - m.tv_sec) * 1000000000 + (r.tv_nsec - m.tv_nsec);
}

/* The processes there before recording whose JIT files may be carried. */
static void carry_targets(struct recorder *rc)
{
	for (int i = 0; i < rc->o.nr_pids; i++)
		carry_process(rc->carry, rc->o.pids[i]);
	if (rc->system_wide) {
		DIR *d = opendir("/proc");
		struct dirent *e;

		while (d && (e = readdir(d)) != NULL) {
			char *end;
			long pid = strtol(e->d_name, &end, 10);

			if (!*end && pid > 0)
				carry_process(rc->carry, (int)pid);
		}
		if (d)
			closedir(d);
	}
}

static struct writer *new_writer(const struct recorder *rc)
{
	struct writer *w = writer_new(rc->out_fd, rc->o.level,
				      rc->rings[0].map_size > 256 * 1024 ? rc->rings[0].map_size
									 : 256 * 1024,
				      WRITER_BATCH + 2 * rc->rings[0].data_size);

	/* a level of our choosing follows the records' rate; -z N stays N, as perf's */
	if (w && !rc->o.level_given && writer_adapt(w, RECORD_ADAPT_MAX_LEVEL)) {
		writer_free(w);
		errno = EINVAL;
		return NULL;
	}
	if (w && !rc->o.level_given)
		writer_shed(w, rc->o.cpu_budget);
	if (w && rc->o.switch_output == SWITCH_SIZE)
		writer_settle_at(w, rc->o.switch_bytes);
	return w;
}

/*
 * --switch-output: end the file being written, whole (the JIT files of
 * its processes carried in it too), and begin the next with the header
 * and the processes and maps of now, so that each file is a profile of
 * its own. Past --switch-max-files, the oldest file goes. 0, or -1 after
 * a message.
 */
static int switch_file(struct recorder *rc)
{
	uint64_t samples, stores;
	int ret;

	if (pump_pass(rc, 1) < 0 || pump_idle(rc) < 0)
		return -1;
	/* the rings still emptied while the next file's head and processes are written */
	pump_hold(rc, 1);
	ret = carry_write_again(rc->carry, rc->w);
	if (!ret)
		ret = writer_end_frame(rc->w);
	if (ret)
		return rec_write_error(rc, ret);
	samples = writer_samples_out(rc->w);
	rc->done_samples += samples;
	rc->done_in += writer_bytes_in(rc->w);
	rc->done_out += writer_bytes_out(rc->w);
	rc->done_stored += writer_stored(rc->w, &stores);
	rc->done_stores += stores;
	writer_free(rc->w);
	rc->w = NULL;
	close(rc->out_fd);
	rc->out_fd = -1;
	rec_notice(rc, "wrote '%s' (%llu samples)", rc->out_name, (unsigned long long)samples);
	if (rec_open_switched(rc))
		return -1;
	rc->w = new_writer(rc);
	if (!rc->w) {
		fprintf(stderr, "prof: cannot set up the writer: %s\n", strerror(errno));
		return -1;
	}
	if (write_head(rc) || synthesize(rc, 1))
		return -1;
	pump_hold(rc, 0);
	while (rc->o.switch_max_files && rc->nfiles > rc->o.switch_max_files) {
		if (unlink(rc->files[0]) && errno != ENOENT)
			fprintf(stderr, "prof: cannot remove '%s' (--switch-max-files): %s\n",
				rc->files[0], strerror(errno));
		free(rc->files[0]);
		memmove(rc->files, rc->files + 1, --rc->nfiles * sizeof(*rc->files));
	}
	return 0;
}

/* Time for the next file of --switch-output. */
static int switch_due(struct recorder *rc)
{
	switch (rc->o.switch_output) {
	case SWITCH_SIGNAL:
		return rc->switch_asked;
	case SWITCH_TIME:
		return mono_s() - rc->file_start >= rc->o.switch_secs;
	case SWITCH_SIZE:
		/* the worker's count, once it has written what was handed to it */
		return !pump_idle(rc) && writer_bytes_out(rc->w) >= rc->o.switch_bytes;
	default:
		return 0;
	}
}

static int targets_alive(const struct recorder *rc)
{
	for (int i = 0; i < rc->o.nr_pids; i++)
		if (target_alive(0, rc->o.pids[i]))
			return 1;
	for (int i = 0; i < rc->o.nr_tids; i++)
		if (target_alive(0, rc->o.tids[i]))
			return 1;
	return 0;
}

static void reap(struct recorder *rc, int block)
{
	int status;

	if (!rc->launched || rc->child_done)
		return;
	if (waitpid(rc->launch.pid, &status, block ? 0 : WNOHANG) == rc->launch.pid &&
	    (WIFEXITED(status) || WIFSIGNALED(status))) {
		rc->child_done = 1;
		rc->child_status = status;
	}
}

/* The loop. Returns 0, or -1 after a message (write error). */
/* Signals prof leaves to their defaults: faults, job control, the unblockable. */
static int handled_elsewhere(int sig)
{
	switch (sig) {
	case SIGSEGV: case SIGBUS: case SIGFPE: case SIGILL: case SIGTRAP: case SIGSYS:
	case SIGABRT: case SIGTSTP: case SIGTTIN: case SIGTTOU: case SIGSTOP: case SIGKILL:
	case SIGPIPE: case SIGXFSZ:
		return 1;
	}
	return 0;
}

/* Signals whose default is to do nothing: passed on, but they stop nothing. */
static int harmless(int sig)
{
	return sig == SIGWINCH || sig == SIGCONT || sig == SIGURG || sig == SIGCHLD;
}

/* The poll's timeout (ms), no later than left seconds from now (0: at once, when past). */
static void cap_timeout(int *timeout, double left)
{
	if (left * 1000 < *timeout)
		*timeout = left > 0 ? (int)(left * 1000) + 1 : 0;
}

static int run(struct recorder *rc)
{
	size_t nfds = rc->nr_fds + 2 + (size_t)rc->nwake;
	struct pollfd *wake;
	struct pollfd *pfd = xcalloc(nfds, sizeof(*pfd));
	double end = rc->o.duration ? mono_s() + rc->o.duration : 0;
	double wake_muted = 0;	/* the wake rings unpolled until then (mono_s()) */
	double burst_at = 0;	/* the first of this 100 ms's wakes that found new code */
	double flush_at = 0;	/* with drain_ms: the next pass that writes out what it read */
	double pass_at = 0;	/* the next pass of the clock (mono_s()) */
	unsigned char *wbuf = rc->nwake ? xmalloc(rc->wake[0].data_size) : NULL;
	int stopping = 0, signals = 0, ret = 0, wake_on = rc->nwake > 0, burst = 0;

	pfd[0].fd = rc->sfd;
	pfd[0].events = POLLIN;
	for (size_t i = 0; i < rc->nr_fds; i++) {
		/* an overwrite ring is read at the end, not as it fills */
		pfd[i + 1].fd = rc->o.overwrite ? -1 : rc->fds[i];
		pfd[i + 1].events = POLLIN;
	}
	wake = pfd + rc->nr_fds + 1;
	for (int c = 0; c < rc->nwake; c++)
		wake[c].events = POLLIN;
	pfd[nfds - 1].fd = rc->ctl_fd;	/* -1 without --control: poll skips it */
	pfd[nfds - 1].events = POLLIN;
	while (!stopping) {
		/*
		 * A live reader's files are held while they are there: at each
		 * exec, from the wake rings (a hundred-odd a second at most),
		 * or by a pass every 50 ms without them. Else a pass each
		 * 250 ms; the agent's each drain_ms: its reader sends SIGURG,
		 * which only wakes the loop, when it wants the samples of a
		 * moment sooner (a scrape's end).
		 */
		int every = rc->hold && !wake_on ? 50 : rc->o.drain_ms > 0 ? rc->o.drain_ms : 250;
		int timeout = every, woke, other = 0;
		double now, due;

		if (end) {
			double left = end - mono_s();

			if (left <= 0)
				break;
			cap_timeout(&timeout, left);
		}
		if (rc->enable_at) {
			double left = rc->enable_at - mono_s();

			if (left <= 0) {
				rec_enable_all(rc, 1);	/* -D's delay is over */
				rc->enable_at = 0;
			} else {
				cap_timeout(&timeout, left);
			}
		}
		/* the next pass: the clock's, a flush's, a --switch-output=TIME's */
		due = pass_at;
		if (rc->o.drain_ms > 0 && flush_at && flush_at < due)
			due = flush_at;
		if (rc->o.switch_output == SWITCH_TIME && rc->file_start + rc->o.switch_secs < due)
			due = rc->file_start + rc->o.switch_secs;
		if (due)
			cap_timeout(&timeout, due - mono_s());
		if (wake_on) {
			double muted = wake_muted - mono_s();

			for (int c = 0; c < rc->nwake; c++)
				wake[c].fd = muted > 0 ? -1 : rc->wake[c].fd;
			if (muted > 0)
				cap_timeout(&timeout, muted);
		}
		if (poll(pfd, nfds, timeout) < 0 && errno != EINTR) {
			fprintf(stderr, "prof: poll: %s\n", strerror(errno));
			ret = -1;
			break;
		}
		woke = rec_wake_hold(rc, wake, wbuf, &wake_on);
		/* a wake per exec; from the tenth in 100 ms, a 10 ms rest after each */
		if (woke & WAKE_CODE) {
			now = mono_s();
			if (now - burst_at > 0.1) {
				burst_at = now;
				burst = 0;
			}
			if (++burst >= 10)
				wake_muted = now + 0.01;
		}
		/* An event whose task is gone reports POLLHUP for ever: stop polling it. */
		for (size_t i = 1; i + 1 < nfds; i++)
			if (pfd[i].revents & (POLLHUP | POLLERR))
				pfd[i].fd = -1;
		for (size_t i = 0; i <= rc->nr_fds; i++)
			other |= pfd[i].revents != 0;
		other |= pfd[nfds - 1].revents != 0;
		now = mono_s();
		/* a pass when due or for what came; not for the wake rings' code, held */
		if (!other && !(woke & WAKE_PASS) && now < due)
			continue;
		pass_at = now + every / 1000.0;
		if (rc->ctl_fd >= 0 && (pfd[nfds - 1].revents & POLLIN) && rec_control(rc))
			stopping = 1;
		if (pfd[0].revents & POLLIN) {
			struct signalfd_siginfo si;

			while (read(rc->sfd, &si, sizeof(si)) == sizeof(si)) {
				int ends = !harmless((int)si.ssi_signo);

				if (si.ssi_signo == SIGCHLD)
					continue;
				/* perf's --switch-output (signal): SIGUSR2 begins a new file */
				if (si.ssi_signo == SIGUSR2 && rc->o.switch_output == SWITCH_SIGNAL) {
					rc->switch_asked = 1;
					continue;
				}
				signals += ends;
				/*
				 * The terminal sends Ctrl-C to the whole process group, the
				 * command included; a signal sent to prof alone is passed on.
				 */
				if (rc->launched && !rc->child_done && si.ssi_code != SI_KERNEL)
					kill(rc->launch.pid, (int)si.ssi_signo);
				/*
				 * A command that ignores it (as prof was started ignoring
				 * it) would go on: stop now, and end it as below, with
				 * SIGTERM, as perf does.
				 */
				if (ends && (!rc->launched || !rc->profile_command || signals > 1 ||
					     sigismember(&rc->launch.ignored, (int)si.ssi_signo) == 1))
					stopping = 1;
			}
		}
		/*
		 * With drain_ms (the agent's), a pass before the clock's (a ring
		 * at its mark, a wake ring that lost records) leaves its records
		 * in the writer: the reader is woken at the clock or its poke.
		 */
		if (rc->o.drain_ms > 0) {
			rc->pass_keeps = !stopping && !(pfd[0].revents & POLLIN) && now < flush_at;
			if (!rc->pass_keeps)
				flush_at = now + rc->o.drain_ms / 1000.0;
		}
		if (pump_pass(rc, 0) < 0) {
			ret = -1;
			break;
		}
		if (!stopping && switch_due(rc)) {
			rc->switch_asked = 0;
			if (switch_file(rc)) {
				ret = -1;
				break;
			}
		}
		reap(rc, 0);
		if (rc->launched && rc->child_done)
			break;
		if ((rc->o.nr_pids || rc->o.nr_tids) && !targets_alive(rc))
			break;
	}
	free(pfd);
	free(wbuf);
	/* Stop the events, then take what they wrote before that. */
	for (size_t i = 0; i < rc->nr_fds; i++)
		ioctl(rc->fds[i], PERF_EVENT_IOC_DISABLE, 0);
	if (!ret && pump_pass(rc, 1) < 0)
		ret = -1;
	if (pump_stop(rc) < 0)
		ret = -1;
	if (rc->launched && !rc->child_done) {
		kill(rc->launch.pid, SIGTERM);
		rc->child_killed = 1;
		reap(rc, 1);
	}
	return ret;
}

static int exit_status(const struct recorder *rc)
{
	if (!rc->launched || rc->child_killed || !rc->child_done)
		return 0;
	if (WIFEXITED(rc->child_status))
		return WEXITSTATUS(rc->child_status);
	return 128 + WTERMSIG(rc->child_status);
}

static void recorder_release(struct recorder *rc)
{
	pump_drop(rc);	/* a failure's way out: the worker's passes thrown away */
	if (rc->ctl_fd >= 0)
		close(rc->ctl_fd);
	if (rc->ack_fd >= 0)
		close(rc->ack_fd);
	mapfile_bids_release(&rc->bids);
	keep_free(rc->keep);
	hold_free(rc->hold);
	rec_close_wake(rc);
	carry_free(rc->carry);
	for (int c = 0; rc->rings && c < rc->cpus.nr; c++)
		ring_release(&rc->rings[c]);
	for (int c = 0; rc->trings && c < rc->cpus.nr; c++)
		ring_release(&rc->trings[c]);
	free(rc->rings);
	free(rc->trings);
	free(rc->heads);
	codemap_release(&rc->code);
	mend_free(rc->mend);
	for (size_t i = 0; i < rc->nr_fds; i++)
		close(rc->fds[i]);
	free(rc->fds);
	for (size_t i = 0; i < rc->nr_ev; i++) {
		free(rc->ev[i].ids);
		free(rc->ev[i].slot);
		if (rc->ev[i].cgroup_fd > 0)
			close(rc->ev[i].cgroup_fd);
	}
	free(rc->ev);
	free(rc->threads);
	writer_free(rc->w);
	if (rc->out_fd >= 0)
		close(rc->out_fd);
	for (size_t i = 0; i < rc->nfiles; i++)
		free(rc->files[i]);
	free(rc->files);
	free(rc->out_path);
	if (rc->sfd >= 0)
		close(rc->sfd);
	cpulist_release(&rc->cpus);
	record_opts_release(&rc->o);
}

int record_main(struct record_opts *opts, int argc, char **argv)
{
	struct recorder rc = { .out_fd = -1, .sfd = -1, .ctl_fd = -1, .ack_fd = -1,
			       .launch = { .pid = 0, .go_fd = -1, .err_fd = -1 } };
	char *path = NULL;
	sigset_t mask;
	int ret, status = 1;

	rc.o = *opts;
	memset(opts, 0, sizeof(*opts));
	rc.argv = argv;
	rc.argc = argc;
	clock_gettime(CLOCK_MONOTONIC, &rc.start);
	rc.system_wide = rc.o.all_cpus || (rc.o.has_cpus && !rc.o.argv && !rc.o.nr_pids &&
					   !rc.o.nr_tids);
	if (rc.o.all_cpus && rc.o.argv && rc.o.has_cpus)
		rc.system_wide = 1;
	/* see evopen.c: the kernel's build ids break perf sessions beside a system-wide one */
	rc.o.kernel_build_ids = !rc.o.no_buildid_mmap && !rc.system_wide;
	rc.fill_build_ids = !rc.o.no_buildid_mmap;
	if (rc.o.has_cpus) {
		int off = cpulist_offline(&rc.o.cpus);

		if (off >= 0) {
			fprintf(stderr, "prof: -C: cpu %d is not online\n", off);
			goto out;
		}
		rc.cpus.nr = rc.o.cpus.nr;
		rc.cpus.cpus = xcalloc(rc.cpus.nr, sizeof(int));
		memcpy(rc.cpus.cpus, rc.o.cpus.cpus, rc.cpus.nr * sizeof(int));
	} else if ((ret = cpulist_online(&rc.cpus))) {
		fprintf(stderr, "prof: cannot read the online CPUs: %s\n", strerror(-ret));
		goto out;
	}
	if (rc.o.argv) {
		ret = launch_resolve(rc.o.argv[0], &path);
		if (ret) {
			if (ret == -ENOENT)
				fprintf(stderr, "prof: command not found: '%s'\n", rc.o.argv[0]);
			else
				fprintf(stderr, "prof: cannot run '%s': %s\n", rc.o.argv[0],
					strerror(-ret));
			status = ret == -ENOENT ? 127 : 126;
			goto out;
		}
	}

	/*
	 * Signals arrive through a signalfd in the poll set; the child restores
	 * them. Every signal that would end prof (SIGQUIT, SIGUSR1, real-time
	 * ones...) is taken there, so that prof stops cleanly with a summary
	 * and passes it on to the command, instead of dying and leaving the
	 * command running. Faults, job control and SIGKILL keep their ways;
	 * SIGPIPE and SIGXFSZ (a file size limit) become write errors.
	 */
	sigemptyset(&mask);
	sigemptyset(&rc.launch.ignored);
	for (int sig = 1; sig <= SIGRTMAX; sig++) {
		struct sigaction old;

		if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			sigaddset(&rc.launch.ignored, sig);
		if (!handled_elsewhere(sig))
			sigaddset(&mask, sig);	/* glibc's own two real-time signals refuse: fine */
	}
	sigprocmask(SIG_BLOCK, &mask, NULL);
	/*
	 * An ignored signal is dropped when sent, never pending, so the
	 * signalfd would not see it: prof started with '&' by a script ignores
	 * SIGINT, and kill -INT stopped nothing. Blocked now, so the default
	 * action never runs; the command is given back SIG_IGN (target.c).
	 */
	for (int sig = 1; sig <= SIGRTMAX; sig++)
		if (sigismember(&mask, sig) == 1 && sigismember(&rc.launch.ignored, sig) == 1)
			signal(sig, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	rc.sfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
	if (rc.sfd < 0) {
		fprintf(stderr, "prof: signalfd: %s\n", strerror(errno));
		goto out;
	}

	if (path) {
		ret = launch_start(&rc.launch, path, rc.o.argv, !strcmp(rc.o.output, "-"));
		{
			/* the name its exec will give it: the file's, 15 bytes at most */
			const char *base = strrchr(path, '/');

			snprintf(rc.launch_comm, sizeof(rc.launch_comm), "%s", base ? base + 1 : path);
		}
		if (ret) {
			fprintf(stderr, "prof: cannot start '%s': %s\n", rc.o.argv[0], strerror(-ret));
			goto out;
		}
		rc.launched = 1;
		rc.profile_command = !rc.system_wide && !rc.o.nr_pids && !rc.o.nr_tids;
	}
	if (rc.profile_command) {
		rc.threads = xcalloc(1, sizeof(int));
		rc.threads[0] = rc.launch.pid;
		rc.nr_threads = 1;
	} else if (rc.o.nr_tids) {
		rc.threads = xcalloc(rc.o.nr_tids, sizeof(int));
		memcpy(rc.threads, rc.o.tids, rc.o.nr_tids * sizeof(int));
		rc.nr_threads = rc.o.nr_tids;
	} else if (rc.system_wide) {
		rc.threads = xcalloc(1, sizeof(int));
		rc.threads[0] = -1;
		rc.nr_threads = 1;
	}
	if (rc.o.control && rec_control_open(&rc))
		goto abort;
	if (rec_open_events(&rc) || open_output(&rc))
		goto abort;
	rc.w = new_writer(&rc);
	if (!rc.w) {
		fprintf(stderr, "prof: cannot set up the writer: %s\n", strerror(errno));
		goto abort;
	}
	if (!rc.o.no_buildid_cache)
		rc.keep = keep_new();
	rc.hold = hold_new(rc.o.hold_dir);
	rec_open_wake(&rc);
	if (!rc.o.no_carry)
		rc.carry = carry_new(mono_to_real(&rc));
	/* the worker held while the head and the running processes are written; the rings emptied */
	if (pump_start(&rc) || write_head(&rc) || synthesize(&rc, 0))
		goto abort;
	carry_targets(&rc);
	if (rc.launched) {
		int e = launch_release(&rc.launch);

		if (e) {
			fprintf(stderr, "prof: cannot run '%s': %s\n", rc.o.argv[0], strerror(e));
			reap(&rc, 1);
			status = e == ENOENT ? 127 : 126;
			rc.launched = 0;
			goto out;
		}
	}
	drain_setup(&rc);
	pump_hold(&rc, 0);
	/* -D: the delay counts from the command's start (or the recording's) */
	if (rc.o.delay_ms > 0)
		rc.enable_at = mono_s() + (double)rc.o.delay_ms / 1000;
	ret = run(&rc);
	keep_finish(rc.keep);	/* the files being copied, copied */
	if (!ret && ((ret = carry_write(rc.carry, rc.w)) != 0 || (ret = writer_end_frame(rc.w)) != 0))
		ret = rec_write_error(&rc, ret);
	record_summary(&rc);
	status = ret ? 1 : exit_status(&rc);
	goto out;
abort:
	if (rc.launched)
		launch_abort(&rc.launch);
out:
	free(path);
	recorder_release(&rc);
	return status;
}
