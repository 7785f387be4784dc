// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc synthesis. The records are laid out as the kernel lays out its own
 * (struct layouts in include/uapi/linux/perf_event.h), with the sample_id
 * trailer of the tracking event and time 0, so that readers order them
 * before every record the kernel wrote.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse.h"
#include "pdata.h"
#include "keep.h"
#include "mapfile.h"
#include "cgroup.h"
#include "codemap.h"
#include "mend.h"
#include "synth.h"
#include "writer.h"
#include "xalloc.h"

#define REC_MAX 8192

struct rec {
	uint64_t buf[REC_MAX / 8];
	size_t len;
};

static void put(struct rec *r, const void *p, size_t n)
{
	memcpy((unsigned char *)r->buf + r->len, p, n);
	r->len += n;
}

/* A NUL-terminated string padded with NULs to 8 bytes. */
static void put_str(struct rec *r, const char *s, size_t max)
{
	size_t n = strnlen(s, max - 1);
	size_t padded = (n + 8) & ~(size_t)7;

	memset((unsigned char *)r->buf + r->len, 0, padded);
	memcpy((unsigned char *)r->buf + r->len, s, n);
	r->len += padded;
}

static int finish(struct synth *s, struct rec *r, uint32_t type, int pid, int tid,
		  uint16_t misc)
{
	uint64_t st = s->attr->sample_type, zero = 0;
	struct perf_event_header h;
	uint32_t pt[2] = { (uint32_t)pid, (uint32_t)tid };

	if (s->attr->sample_id_all) {
		if (st & PERF_SAMPLE_TID)
			put(r, pt, 8);
		if (st & PERF_SAMPLE_TIME)
			put(r, &zero, 8);
		if (st & PERF_SAMPLE_ID)
			put(r, &s->id, 8);
		if (st & PERF_SAMPLE_STREAM_ID)
			put(r, &s->id, 8);
		if (st & PERF_SAMPLE_CPU)
			put(r, &zero, 8);
		if (st & PERF_SAMPLE_IDENTIFIER)
			put(r, &s->id, 8);
	}
	h.type = type;
	h.misc = misc;
	h.size = (uint16_t)r->len;
	memcpy(r->buf, &h, sizeof(h));
	s->records++;
	/* the recorder's followers of maps see what a drain would show them */
	if (s->code)
		codemap_record(s->code, (const unsigned char *)r->buf, r->len);
	if (s->mend)
		mend_record(s->mend, (const unsigned char *)r->buf, r->len);
	return writer_records(s->w, r->buf, r->len);
}

static int synth_comm(struct synth *s, int pid, int tid)
{
	char path[64], comm[32] = "";
	struct rec r = { .len = sizeof(struct perf_event_header) };
	uint32_t pt[2] = { (uint32_t)pid, (uint32_t)tid };
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", pid, tid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	put(&r, pt, 8);
	put_str(&r, comm, 17);
	return finish(s, &r, PERF_RECORD_COMM, pid, tid, PERF_RECORD_MISC_USER);
}

int synth_comm_as(struct synth *s, int pid, const char *comm)
{
	struct rec r = { .len = sizeof(struct perf_event_header) };
	uint32_t pt[2] = { (uint32_t)pid, (uint32_t)pid };

	put(&r, pt, 8);
	put_str(&r, comm, 16);
	return finish(s, &r, PERF_RECORD_COMM, pid, pid, PERF_RECORD_MISC_USER);
}

static int synth_fork(struct synth *s, int pid, int tid)
{
	struct rec r = { .len = sizeof(struct perf_event_header) };
	uint32_t v[4] = { (uint32_t)pid, (uint32_t)pid, (uint32_t)tid, (uint32_t)pid };
	uint64_t time = 0;

	put(&r, v, sizeof(v));
	put(&r, &time, 8);
	return finish(s, &r, PERF_RECORD_FORK, pid, tid, PERF_RECORD_MISC_USER);
}

static int synth_maps(struct synth *s, int pid)
{
	char path[64], line[PATH_MAX + 256];
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (!ret && fgets(line, sizeof(line), f)) {
		uint64_t start, end, pgoff, ino, gen = 0, v64[3];
		unsigned maj, min;
		char perms[8];
		int name_at = 0;
		const char *name;
		uint32_t v32[2], prot, flags;
		struct rec r = { .len = sizeof(struct perf_event_header) };
		const struct mapfile_bid *bid;
		struct mapfile_bid vdso;
		uint16_t misc = PERF_RECORD_MISC_USER;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %x:%x %" SCNu64 " %n",
			   &start, &end, perms, &pgoff, &maj, &min, &ino, &name_at) < 7)
			continue;
		if (perms[2] != 'x' && !s->data)
			continue;
		line[strcspn(line, "\n")] = '\0';
		name = name_at ? line + name_at : "";
		if (!*name)
			name = "//anon";
		prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
		       (perms[2] == 'x' ? PROT_EXEC : 0);
		if (perms[2] != 'x')
			misc |= PERF_RECORD_MISC_MMAP_DATA;	/* as the kernel marks mmap_data's */
		flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
		v32[0] = (uint32_t)pid;
		v32[1] = (uint32_t)pid;
		put(&r, v32, 8);
		v64[0] = start;
		v64[1] = end - start;
		v64[2] = pgoff;
		put(&r, v64, sizeof(v64));
		/* the very file mapped, even when its path now names another */
		bid = ino && perms[2] == 'x' ? mapfile_bid_of(s->bids, pid, start, end, name, maj, min,
							      ino, gen) : NULL;
		if (!bid && perms[2] == 'x' && mapfile_bid_vdso(name, strlen(name), start, &vdso))
			bid = &vdso;	/* no file: this kernel's vDSO */
		if (bid && bid->len)
			keep_mapping(s->keep, pid, start, end - start, name, strlen(name), bid->id,
				     bid->len);
		if (bid && bid->len) {
			unsigned char b[24];	/* the place of maj..gen */

			mapfile_bid_put(bid, b);
			put(&r, b, sizeof(b));
			misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
		} else {
			v32[0] = maj;
			v32[1] = min;
			put(&r, v32, 8);
			put(&r, &ino, 8);
			put(&r, &gen, 8);
		}
		v32[0] = prot;
		v32[1] = flags;
		put(&r, v32, 8);
		put_str(&r, name, PATH_MAX);
		ret = finish(s, &r, PERF_RECORD_MMAP2, pid, pid, misc);
	}
	fclose(f);
	return ret;
}

/*
 * The NAMESPACES record of thread tid: the device and inode of each of its
 * namespaces, in the kernel's order (NET_NS_INDEX ... CGROUP_NS_INDEX of
 * linux/perf_event.h), 0 where /proc does not show one. Nothing unless
 * --namespaces.
 */
static int synth_ns(struct synth *s, int pid, int tid)
{
	struct rec r = { .len = sizeof(struct perf_event_header) };
	uint32_t pt[2] = { (uint32_t)pid, (uint32_t)tid };
	uint64_t nr = PDATA_NS_NR;

	if (!s->namespaces)
		return 0;
	put(&r, pt, 8);
	put(&r, &nr, 8);
	for (size_t i = 0; i < nr; i++) {
		char path[64];
		struct stat st;
		uint64_t di[2] = { 0, 0 };

		snprintf(path, sizeof(path), "/proc/%d/task/%d/ns/%s", pid, tid, pdata_ns_names[i]);
		if (!stat(path, &st)) {
			di[0] = (uint64_t)st.st_dev;
			di[1] = (uint64_t)st.st_ino;
		}
		put(&r, di, 16);
	}
	return finish(s, &r, PERF_RECORD_NAMESPACES, pid, tid, 0);
}

int synth_process(struct synth *s, int pid, int tid)
{
	char path[64];
	DIR *d;
	struct dirent *de;
	int ret = 0;

	/*
	 * A thread's FORK before its COMM, as the kernel orders them: a
	 * reader gives a forked thread its parent's name, which would
	 * overwrite the thread's own (-t TID read ":TID").
	 */
	if (tid > 0) {
		if (tid != pid)
			ret = synth_fork(s, pid, tid);
		if (!ret)
			ret = synth_comm(s, pid, tid);
		if (!ret)
			ret = synth_ns(s, pid, tid);
		return ret ? ret : synth_maps(s, pid);
	}
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return 0;
	/* The leader first: readers learn the process from its COMM. */
	ret = synth_comm(s, pid, pid);
	if (!ret)
		ret = synth_ns(s, pid, pid);
	while (!ret && (de = readdir(d))) {
		uint64_t t;

		if (parse_u64(de->d_name, 1, INT_MAX, &t) || (int)t == pid)
			continue;
		ret = synth_fork(s, pid, (int)t);
		if (!ret)
			ret = synth_comm(s, pid, (int)t);
		if (!ret)
			ret = synth_ns(s, pid, (int)t);
	}
	closedir(d);
	if (!ret)
		ret = synth_maps(s, pid);
	if (s->tick)
		s->tick(s->tick_ctx);
	return ret;
}

/* The CGROUP records of the directories under root/rel, and of it. */
static int synth_cgroup_dir(struct synth *s, const char *root, char *rel, size_t cap, int depth)
{
	char path[PATH_MAX];
	uint64_t id;
	DIR *d;
	struct dirent *e;
	size_t n = strlen(rel);
	int ret = 0;

	if ((size_t)snprintf(path, sizeof(path), "%s%s", root, rel) >= sizeof(path))
		return 0;
	if (!cgroup_id(path, &id)) {
		struct rec r = { .len = sizeof(struct perf_event_header) };

		put(&r, &id, 8);
		put_str(&r, n ? rel : "/", PATH_MAX);
		ret = finish(s, &r, PERF_RECORD_CGROUP, 0, 0, 0);
	}
	if (ret || depth > 64 || !(d = opendir(path)))
		return ret;
	while (!ret && (e = readdir(d))) {
		if (e->d_type != DT_DIR || e->d_name[0] == '.' || n + 1 + strlen(e->d_name) >= cap)
			continue;
		snprintf(rel + n, cap - n, "/%s", e->d_name);
		ret = synth_cgroup_dir(s, root, rel, cap, depth + 1);
		rel[n] = '\0';
	}
	closedir(d);
	return ret;
}

int synth_cgroups(struct synth *s)
{
	char root[PATH_MAX], rel[PATH_MAX] = "";

	if (cgroup2_root(root, sizeof(root)))
		return 0;	/* no cgroup2: the samples' ids name nothing */
	return synth_cgroup_dir(s, root, rel, sizeof(rel), 0);
}

int synth_kernel(struct synth *s)
{
	char line[256], name[128], type;
	struct rec r = { .len = sizeof(struct perf_event_header) };
	uint64_t start = 0, v64[3];
	uint32_t v32[2] = { UINT32_MAX, 0 };	/* pid -1: the kernel's map */
	FILE *f = fopen("/proc/kallsyms", "re");

	if (!f)
		return 0;
	/* _text is within the first lines; reading all 100k+ would cost 60 ms. */
	for (int i = 0; i < 64 && fgets(line, sizeof(line), f); i++) {
		if (sscanf(line, "%" SCNx64 " %c %127s", &v64[0], &type, name) == 3 &&
		    !strcmp(name, "_text")) {
			start = v64[0];
			break;
		}
	}
	fclose(f);
	if (!start)	/* not found, or hidden by kptr_restrict */
		return 0;
	put(&r, v32, 8);
	v64[0] = start;
	v64[1] = UINT64_MAX - start;	/* to the top: modules resolve from kallsyms too */
	v64[2] = start;
	put(&r, v64, sizeof(v64));
	put_str(&r, "[kernel.kallsyms]_text", 64);
	return finish(s, &r, PERF_RECORD_MMAP, -1, 0, PERF_RECORD_MISC_KERNEL);
}

int synth_all(struct synth *s)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int ret = 0;

	if (!d)
		return 0;
	while (!ret && (de = readdir(d))) {
		uint64_t pid;

		if (!parse_u64(de->d_name, 1, INT_MAX, &pid))
			ret = synth_process(s, (int)pid, 0);
	}
	closedir(d);
	return ret;
}

/* The parent of pid, from /proc/PID/stat (after the command's name, which may hold ')'); 0 if gone. */
static int parent_of(int pid)
{
	char path[64], buf[512], *p;
	int ppid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) != NULL &&
	    sscanf(p + 1, " %*c %d", &ppid) != 1)
		ppid = 0;
	fclose(f);
	return ppid;
}

int synth_descendants(struct synth *s, const int *roots, int n)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int (*pp)[2] = NULL, ret = 0;
	size_t np = 0, cap = 0;
	char *in;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		uint64_t pid;

		if (parse_u64(de->d_name, 1, INT_MAX, &pid))
			continue;
		if (np == cap) {
			cap = cap ? 2 * cap : 256;
			pp = xreallocarray(pp, cap, sizeof(*pp));
		}
		pp[np][0] = (int)pid;
		pp[np++][1] = parent_of((int)pid);
	}
	closedir(d);
	/* in[i]: pp[i] descends from a root; passes until nothing changes (depth) */
	in = xcalloc(np ? np : 1, 1);
	for (int changed = 1; changed; ) {
		changed = 0;
		for (size_t i = 0; i < np; i++) {
			int up = 0;

			if (in[i])
				continue;
			for (int r = 0; r < n && !up; r++)
				up = pp[i][1] == roots[r];
			for (size_t j = 0; j < np && !up; j++)
				up = in[j] && pp[j][0] == pp[i][1];
			if (up) {
				in[i] = 1;
				changed = 1;
			}
		}
	}
	for (size_t i = 0; i < np && !ret; i++) {
		int root = 0;

		for (int r = 0; r < n; r++)
			root |= pp[i][0] == roots[r];
		if (in[i] && !root)
			ret = synth_process(s, pp[i][0], 0);
	}
	free(in);
	free(pp);
	return ret;
}
