// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JIT code for the resolver: a process's perf map and jitdump, looked for
 * at first need, and the JIT tables a profile carries (type 65 records,
 * jitdump.h), read ahead of the records or where they stand, within a
 * budget.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "file.h"
#include "jitdump.h"
#include "pdata.h"
#include "reader.h"
#include "xalloc.h"

#include "resolve-int.h"

/* Forget a process's JIT code: it exec'd, or its pid is another process's now. */
void resolver_pjit_reset(struct pjit *j)
{
	if (j->own)
		jit_free(j->t);
	free(j->dump);
	memset(j, 0, sizeof(*j));
}

static void jit_warn(struct resolver *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void jit_warn(struct resolver *s, const char *fmt, ...)
{
	va_list ap;
	char buf[512];

	if (s->njwarn == JIT_WARN_MAX) {
		s->jmore++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	s->jwarn[s->njwarn++] = xstrdup(buf);
}

const char *const *resolver_jit_warnings(const struct resolver *s, size_t *more)
{
	*more = s->jmore;
	return (const char *const *)s->jwarn;
}

/* Forget every carried JIT file, whole or in parts, and what they cost. */
void rs_carried_reset(struct resolver *s)
{
	for (size_t i = 0; i < s->ncar; i++)
		jit_free(s->car[i].t);
	free(s->car);
	s->car = NULL;
	s->ncar = s->carcap = 0;
	for (size_t i = 0; i < s->npend; i++)
		free(s->pend[i].buf);
	free(s->pend);
	s->pend = NULL;
	s->npend = 0;
	htab_release(&s->cartab);
	htab_release(&s->cpidtab);
	s->car_used = 0;
	s->car_over = 0;
}

/* --- JIT code ------------------------------------------------------------ */

static uint64_t car_hash(int pid, uint64_t start)
{
	uint64_t w[2] = { (uint64_t)(unsigned)pid, start };

	return htab_hash_words(w, 2);
}

/* The carried table of (pid, start), made when new and make is set. */
static struct jit_table *carried_get(struct resolver *s, int pid, uint64_t start, int make)
{
	struct htab_probe p, pp;
	uint32_t i;

	htab_probe(&s->cartab, car_hash(pid, start), &p);
	while (htab_next(&s->cartab, &p, &i))
		if (s->car[i].pid == pid && s->car[i].start == start)
			return s->car[i].t;
	if (!make)
		return NULL;
	s->car = xgrow(s->car, &s->carcap, s->ncar + 1, sizeof(*s->car));
	s->car[s->ncar].pid = pid;
	s->car[s->ncar].start = start;
	s->car[s->ncar].t = jit_new(s->jpool);
	htab_put(&s->cartab, &p, (uint32_t)s->ncar);
	htab_probe(&s->cpidtab, (uint64_t)(unsigned)pid, &pp);
	while (htab_next(&s->cpidtab, &pp, &i))
		if (s->car[i].pid == pid)
			return s->car[s->ncar++].t;
	htab_put(&s->cpidtab, &pp, (uint32_t)s->ncar);
	return s->car[s->ncar++].t;
}

/* Whether the profile carries JIT code of any process of this pid. */
static int carried_pid(const struct resolver *s, int pid)
{
	struct htab_probe p;
	uint32_t i;

	htab_probe(&s->cpidtab, (uint64_t)(unsigned)pid, &p);
	while (htab_next(&s->cpidtab, &p, &i))
		if (s->car[i].pid == pid)
			return 1;
	return 0;
}

/* What a perf map or jitdump of what says, into t; a warning when some of it is bad. */
static void jit_fill(struct resolver *s, struct jit_table *t, uint32_t kind, const void *data,
		     size_t len, const char *what)
{
	const char *why;
	uint64_t bad = kind == PROF_EXT_PERF_MAP ? jit_add_perf_map(t, data, len, &why)
						 : jit_add_jitdump(t, data, len, &why);

	if (bad)
		jit_warn(s, "%s: %s%s; %" PRIu64 " part%s of it skipped, the rest used", what,
			 why, bad > 1 ? " (and more)" : "", bad, bad > 1 ? "s" : "");
}

/* At most this many carried files put together at once: prof writes one at a time. */
#define PEND_MAX 8

/* Charge n bytes of carried file to the budget: 0, or -1 when it is spent. */
static int car_charge(struct resolver *s, uint64_t n, const char *what)
{
	if (n > s->car_budget - s->car_used) {
		if (!s->car_over)
			jit_warn(s, "%s, with the JIT code carried before it, is more than a profile "
				 "of this size carries (%" PRIu64 " MiB): left out, and any after it",
				 what, s->car_budget >> 20);
		s->car_over = 1;
		return -1;
	}
	s->car_used += n;
	return 0;
}

void resolver_carried_budget(struct resolver *s, uint64_t file_size)
{
	uint64_t b = prof_ext_budget(file_size);

	if (b > s->car_budget)
		s->car_budget = b;
}

int resolver_carried(struct resolver *s, const struct perf_event_header *h)
{
	struct prof_ext x;
	const unsigned char *data;
	struct pending *pd = NULL;
	char what[96];

	if (!prof_ext_of(h, &x) || x.kind == PROF_EXT_TRAILER)
		return 0;	/* perf's old EVENT_TYPE record, or the trailer */
	if ((x.kind != PROF_EXT_PERF_MAP && x.kind != PROF_EXT_JITDUMP) ||
	    x.len > h->size - sizeof(*h) - sizeof(x) || x.offset > x.total ||
	    x.len > x.total - x.offset) {
		jit_warn(s, "a record of the JIT code the profile carries is damaged: skipped");
		return 0;
	}
	if (s->car_over)
		return 0;	/* more than the profile can carry: said once */
	data = (const unsigned char *)(h + 1) + sizeof(x);
	snprintf(what, sizeof(what), "the %s of pid %u the profile carries",
		 x.kind == PROF_EXT_PERF_MAP ? "perf map" : "jitdump", x.pid);
	for (size_t i = 0; i < s->npend; i++)
		if (s->pend[i].pid == (int)x.pid && s->pend[i].kind == x.kind &&
		    s->pend[i].start == x.start)
			pd = &s->pend[i];
	if (pd && (x.offset != pd->len || x.total != pd->total)) {
		jit_warn(s, "%s lacks a part: left out", what);
		free(pd->buf);
		*pd = s->pend[--s->npend];
		pd = NULL;
		if (x.offset)
			return 0;
	}
	if (!pd) {
		if (x.offset) {
			jit_warn(s, "%s lacks its first part: left out", what);
			return 0;
		}
		if (s->npend == PEND_MAX) {
			jit_warn(s, "%s is one of too many carried at once: left out", what);
			return 0;
		}
		if (car_charge(s, CARRIED_FILE_COST, what))
			return 0;
		s->pend = xreallocarray(s->pend, s->npend + 1, sizeof(*s->pend));
		pd = &s->pend[s->npend++];
		memset(pd, 0, sizeof(*pd));
		pd->pid = (int)x.pid;
		pd->kind = x.kind;
		pd->start = x.start;
		pd->total = x.total;
	}
	if (car_charge(s, x.len, what)) {
		free(pd->buf);
		*pd = s->pend[--s->npend];
		return 0;
	}
	/* grown by what the file holds, never by what a size field claims */
	pd->buf = xreallocarray(pd->buf, pd->len + x.len + 1, 1);
	memcpy(pd->buf + pd->len, data, x.len);
	pd->len += x.len;
	if (pd->len == pd->total) {
		jit_fill(s, carried_get(s, pd->pid, pd->start, 1), pd->kind, pd->buf, pd->len,
			 what);
		free(pd->buf);
		*pd = s->pend[--s->npend];
	}
	return 0;
}

void resolver_carried_done(struct resolver *s)
{
	for (size_t i = 0; i < s->npend; i++) {
		jit_warn(s, "the %s of pid %d the profile carries is cut short: left out",
			 s->pend[i].kind == PROF_EXT_PERF_MAP ? "perf map" : "jitdump",
			 s->pend[i].pid);
		free(s->pend[i].buf);
	}
	s->npend = 0;
	s->carried_read = 1;
}

static int carried_one(void *arg, const struct perf_event_header *h)
{
	return resolver_carried(arg, h);
}

void resolver_read_ahead(struct resolver *s, const char *path)
{
	struct stat st;
	int ret;

	if (strcmp(path, "-") && !stat(path, &st) && S_ISREG(st.st_mode))
		resolver_carried_budget(s, (uint64_t)st.st_size);
	ret = reader_read_ahead(path, PDATA_HEADER_EVENT_TYPE, carried_one, s);

	if (ret > 0) {
		resolver_carried_done(s);
	} else if (ret < 0) {
		/* read where they stand instead, from the start */
		rs_carried_reset(s);
		jit_warn(s, "the last record of '%s', which says where the JIT code it carries "
			 "is, points at no such records; reading them where they stand", path);
	}
}

/* A JIT runtime's file of pid's, read now (under --symfs as binaries are). */
static void jit_read(struct resolver *s, struct jit_table *t, uint32_t kind, const char *path,
		     int pid)
{
	char *where = symbols_locate(s->sym, path);
	size_t len;
	int err;
	void *data = file_read_regular(where, (size_t)1 << 32, &len, &err);
	struct jitdump_header h;
	const char *why;

	if (!data) {
		if (err != ENOENT || kind == PROF_EXT_JITDUMP)
			jit_warn(s, "cannot read %s: %s; its JIT code goes unnamed", where,
				 err == ENODEV ? "not a regular file" : strerror(err));
		free(where);
		return;
	}
	if (kind == PROF_EXT_JITDUMP && !jitdump_header(data, len, &h, &why) &&
	    h.pid != (uint32_t)pid)
		jit_warn(s, "%s is the jitdump of pid %u, not of pid %d: not used", where, h.pid,
			 pid);
	else
		jit_fill(s, t, kind, data, len, where);
	free(data);
	free(where);
}

/*
 * The pids of the perf maps in /tmp (under --symfs as binaries are), into
 * s->pmaps: listed 1; or -1 when the directory cannot be read.
 */
static void list_perf_maps(struct resolver *s)
{
	char *where = symbols_locate(s->sym, "/tmp/perf-0.map");
	char *slash = where ? strrchr(where, '/') : NULL;
	struct dirent *d;
	DIR *dir;

	s->listed = -1;
	if (!slash) {
		free(where);
		return;
	}
	*slash = '\0';
	dir = opendir(where[0] ? where : "/");
	free(where);
	if (!dir)
		return;
	while ((d = readdir(dir))) {
		char *end;
		unsigned long pid;

		if (strncmp(d->d_name, "perf-", 5) || d->d_name[5] < '0' || d->d_name[5] > '9')
			continue;
		pid = strtoul(d->d_name + 5, &end, 10);
		if (!strcmp(end, ".map") && pid <= UINT32_MAX)
			u64map_add(&s->pmaps, pid, 0);
	}
	closedir(dir);
	s->listed = 1;
}

/*
 * The JIT code of process pr, looked for at its first need: what the
 * profile carries of it; else, when the profile carries nothing (perf
 * wrote it, or prof was killed before the end), its perf map in /tmp
 * and its jitdump where it was mapped from, as perf reads them.
 */
struct pjit *rs_proc_jit(struct resolver *s, const struct proc *pr)
{
	struct pjit *j = pr->jit;
	char path[64];
	uint32_t none;

	if (j->tried)
		return j;
	j->tried = 1;
	snprintf(path, sizeof(path), "[JIT] tid %d", pr->pid);
	j->dso = symbols_dso(s->sym, path, NULL, 0);
	if (s->carried_read || carried_pid(s, pr->pid)) {
		/* a pid the profile carries nothing of for this process had none */
		j->t = carried_get(s, pr->pid, pr->start, 0);
		return j;
	}
	j->t = jit_new(s->jpool);
	j->own = 1;
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", pr->pid);
	if (!s->listed)
		list_perf_maps(s);
	if (s->listed < 0 || u64map_get(&s->pmaps, (uint32_t)pr->pid, &none))
		jit_read(s, j->t, PROF_EXT_PERF_MAP, path, pr->pid);
	if (j->dump)
		jit_read(s, j->t, PROF_EXT_JITDUMP, j->dump, pr->pid);
	return j;
}

/*
 * An address of pr in no file's map: JIT code when pr's runtime said so.
 * A caller's return address is looked up at the call, as files' are.
 */
void rs_jit_locate(struct resolver *s, const struct proc *pr, uint64_t addr, struct rawf *r)
{
	struct pjit *j = rs_proc_jit(s, pr);
	const struct jit_sym *js;

	if (!j->t)
		return;
	r->jitc = 1;
	js = jit_find(j->t, r->caller && addr ? addr - 1 : addr, s->now);
	if (js) {
		r->dso = j->dso;
		r->a = addr;
		r->jit = js;
	}
}

void resolver_jitdump_mapped(struct pjit *j, const char *path)
{
	free(j->dump);
	j->dump = xstrdup(path);
	if (j->tried && j->own) {	/* read again at the next need */
		jit_free(j->t);
		j->t = NULL;
		j->own = 0;
		j->tried = 0;
	}
}

int resolver_carried_read(const struct resolver *r)
{
	return r->carried_read;
}
