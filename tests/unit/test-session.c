// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The session on records made here: samples come out resolved against the
 * maps of their own time, in time order across rounds, and, with
 * session_unordered(), a sample put aside while its file's DWARF loads
 * still resolves in the maps it was taken in, not in later ones; kernel
 * frames of a profile whose kernel map disagrees with kallsyms (another
 * boot) are [unknown], never wrong names.
 *   test-session [WORKLOADS_DIR]   (else $WORKLOADS, else tests/workloads)
 */
#include "config.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "pdata.h"
#include "session.h"
#include "symbols.h"
#include "tap.h"

#define LIBC "/usr/lib/x86_64-linux-gnu/libc.so.6"
#define BASE 0x7f0000000000ULL

struct seen {
	int n;
	int bad_ev;		/* samples whose event is not the first one's */
	uint64_t time[16];
	char dso[16][64];
	char name[16][64];
	int unknown[16];
};

static int on_sample(void *ctx, const struct rsample *s)
{
	struct seen *v = ctx;

	if (s->ev->index != 0 || strcmp(s->ev->name, "cpu-clock"))
		v->bad_ev++;
	if (v->n < 16) {
		v->time[v->n] = s->time;
		snprintf(v->dso[v->n], sizeof(v->dso[0]), "%s",
			 s->nframes && s->frames[0].dso ? dso_short_name(s->frames[0].dso) : "-");
		snprintf(v->name[v->n], sizeof(v->name[0]), "%s",
			 s->nframes && s->frames[0].name ? s->frames[0].name : "-");
		v->unknown[v->n] = s->nframes && s->frames[0].dso && dso_unknown(s->frames[0].dso);
	}
	v->n++;
	return 0;
}

static unsigned char buf[4096];

static void feed(struct session *s, const void *rec)
{
	struct reader_record r = { .hdr = rec, .offset = 0, .compressed = 0 };
	int ret = session_record(s, &r);

	if (ret)
		printf("# session_record: %d\n", ret);
}

/*
 * One event: IP, TID, TIME, PERIOD (and IDENTIFIER first, when it has a
 * sample id, for files of many events; id 0: none); other records carry
 * TID and TIME.
 */
static void attr_id(struct session *s, uint64_t id, uint64_t config)
{
	struct perf_event_header *h = (void *)buf;
	struct perf_event_attr *a = (void *)(h + 1);

	memset(buf, 0, sizeof(buf));
	h->type = PDATA_HEADER_ATTR;
	h->size = (uint16_t)(sizeof(*h) + sizeof(*a) + (id ? 8 : 0));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = config;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	if (id)
		a->sample_type |= PERF_SAMPLE_IDENTIFIER;
	a->sample_id_all = 1;
	memcpy(a + 1, &id, id ? 8 : 0);
	feed(s, buf);
}

static void attr(struct session *s)
{
	attr_id(s, 0, PERF_COUNT_SW_CPU_CLOCK);
}

static void mmap2(struct session *s, uint64_t time, const char *path)
{
	struct perf_event_header *h = (void *)buf;
	unsigned char *p = (unsigned char *)(h + 1);
	uint32_t pt[2] = { 100, 100 };
	uint64_t v[3] = { BASE, 0x100000, 0 };
	size_t len = (strlen(path) + 8) & ~(size_t)7;
	uint32_t prot = 5, flags = 2;

	memset(buf, 0, sizeof(buf));
	h->type = PERF_RECORD_MMAP2;
	memcpy(p, pt, 8);
	memcpy(p + 8, v, 24);
	memcpy(p + 56, &prot, 4);
	memcpy(p + 60, &flags, 4);
	memcpy(p + 64, path, strlen(path));
	p += 64 + len;
	memcpy(p, pt, 8);		/* sample_id: TID, TIME */
	memcpy(p + 8, &time, 8);
	h->size = (uint16_t)(p + 16 - buf);
	feed(s, buf);
}

/* The kernel's map as perf and prof record it: pgoff is where _text was. */
static void kernel_mmap(struct session *s, uint64_t text)
{
	struct perf_event_header *h = (void *)buf;
	unsigned char *p = (unsigned char *)(h + 1);
	uint32_t pt[2] = { UINT32_MAX, 0 };
	uint64_t v[3] = { text, 0x1000000, text }, time = 1;
	const char *name = "[kernel.kallsyms]_text";

	memset(buf, 0, sizeof(buf));
	h->type = PERF_RECORD_MMAP;
	h->misc = PERF_RECORD_MISC_KERNEL;
	memcpy(p, pt, 8);
	memcpy(p + 8, v, 24);
	memcpy(p + 32, name, strlen(name));
	p += 32 + 24;
	memcpy(p, pt, 8);
	memcpy(p + 8, &time, 8);
	h->size = (uint16_t)(p + 16 - buf);
	feed(s, buf);
}

/* A sample of thread tid of process 100, of the event of attr_id(s, id, ...) (id 0: the only one). */
static void sample_tid(struct session *s, uint64_t time, uint64_t ip, int kernel, uint64_t id,
		       uint32_t tid)
{
	struct perf_event_header *h = (void *)buf;
	uint64_t *w = (uint64_t *)(h + 1);
	uint32_t pt[2] = { 100, tid };
	int n = 0;

	memset(buf, 0, sizeof(buf));
	h->type = PERF_RECORD_SAMPLE;
	h->misc = kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	if (id)
		w[n++] = id;
	w[n++] = ip;
	memcpy(&w[n++], pt, 8);
	w[n++] = time;
	w[n++] = 1;
	h->size = (uint16_t)(sizeof(*h) + 8 * n);
	feed(s, buf);
}

static void sample_of(struct session *s, uint64_t time, uint64_t ip, int kernel, uint64_t id)
{
	sample_tid(s, time, ip, kernel, id, 100);
}

static void ksample(struct session *s, uint64_t time, uint64_t ip, int kernel)
{
	sample_of(s, time, ip, kernel, 0);
}

static void sample(struct session *s, uint64_t time, uint64_t ip)
{
	ksample(s, time, ip, 0);
}

static void round_end(struct session *s)
{
	struct perf_event_header h = { PDATA_FINISHED_ROUND, 0, sizeof(h) };

	feed(s, &h);
}

/*
 * libc mapped, a sample in it, then the same range mapped over by another
 * file and a sample there: each must name the file mapped at its time.
 */
static void run(const char *other, int unordered)
{
	/* Inline frames want DWARF: libc6-dbg's makes libc a file the loader opens. */
	struct symbols_opts o = { .inline_frames = 1 };
	struct symbols *sym = symbols_new(&o);
	struct seen v = { 0 };
	struct session *s = session_new(sym, on_sample, &v);
	const char *base = strrchr(other, '/') + 1;

	session_unordered(s, unordered);
	attr(s);
	mmap2(s, 10, LIBC);
	sample(s, 30, BASE + 0x30000);	/* out of order within the round */
	sample(s, 20, BASE + 0x28000);
	round_end(s);
	mmap2(s, 40, other);
	round_end(s);
	sample(s, 50, BASE + 0x1000);
	round_end(s);
	ok(session_finish(s) == 0, "%s: the session ends well",
	   unordered ? "unordered" : "ordered");
	ok(v.n == 3, "%s: 3 samples delivered (%d)", unordered ? "unordered" : "ordered", v.n);
	if (v.n == 3) {
		int libc = 0, other_seen = 0;

		for (int i = 0; i < 3; i++) {
			if (v.time[i] < 40)
				libc += !strcmp(v.dso[i], "libc.so.6");
			else
				other_seen += !strcmp(v.dso[i], base);
		}
		ok(libc == 2, "%s: the samples before the new map are in libc.so.6 (%s, %s)",
		   unordered ? "unordered" : "ordered", v.dso[0], v.dso[1]);
		ok(other_seen == 1, "%s: the sample after it is in %s",
		   unordered ? "unordered" : "ordered", base);
		if (unordered)
			printf("# the libc samples were %sput aside (libc's DWARF %s)\n",
			       v.time[0] == 50 ? "" : "not ",
			       v.time[0] == 50 ? "loaded in the loader thread" : "was quick");
		else
			ok(v.time[0] == 20 && v.time[1] == 30 && v.time[2] == 50,
			   "ordered: in time order (%" PRIu64 ", %" PRIu64 ", %" PRIu64 ")",
			   v.time[0], v.time[1], v.time[2]);
		ok(session_first_time(s) == 20, "%s: the first time is 20 (%" PRIu64 ")",
		   unordered ? "unordered" : "ordered", session_first_time(s));
	}
	session_free(s);
	symbols_free(sym);
}

/*
 * Samples put aside while libc's DWARF loads, then many more events (the
 * event table grows and moves): the parked samples must still name their
 * own event when they come out (this was a use-after-free).
 */
static void run_attr_after_park(void)
{
	struct symbols_opts o = { .inline_frames = 1 };
	struct symbols *sym = symbols_new(&o);
	struct seen v = { 0 };
	struct session *s = session_new(sym, on_sample, &v);

	session_unordered(s, 1);
	attr_id(s, 1, PERF_COUNT_SW_CPU_CLOCK);
	mmap2(s, 10, LIBC);
	for (int i = 0; i < 8; i++)
		sample_of(s, 20 + (uint64_t)i, BASE + 0x28000 + 0x100 * (uint64_t)i, 0, 1);
	round_end(s);
	round_end(s);
	for (uint64_t id = 2; id < 200; id++)
		attr_id(s, id, PERF_COUNT_SW_TASK_CLOCK);
	sample_of(s, 100, BASE + 0x28000, 0, 1);
	sample_of(s, 101, BASE + 0x28000, 0, 150);
	round_end(s);
	ok(session_finish(s) == 0, "attrs after parked samples: the session ends well");
	ok(v.n == 10 && v.bad_ev == 1,
	   "attrs after parked samples: 10 samples, 9 of the first event (%d, %d others)", v.n,
	   v.bad_ev);
	ok(session_evtab(s)->nr == 199, "199 events (%zu)", session_evtab(s)->nr);
	session_free(s);
	symbols_free(sym);
}

/* What session_sum() hands on: sums, by the file of their frame. */
struct sums {
	int calls;
	uint64_t count[8], period[8], first[8], last[8];
	uint32_t tid[8];
	char dso[8][64], name[8][64];
};

static int on_sum(void *ctx, const struct rsample *s)
{
	struct sums *v = ctx;
	int i = v->calls++;

	if (i < 8) {
		v->count[i] = s->count;
		v->period[i] = s->period;
		v->first[i] = s->first;
		v->last[i] = s->time;
		v->tid[i] = s->tid;
		snprintf(v->dso[i], sizeof(v->dso[0]), "%s",
			 s->nframes && s->frames[0].dso ? dso_short_name(s->frames[0].dso) : "-");
		snprintf(v->name[i], sizeof(v->name[0]), "%s",
			 s->nframes && s->frames[0].name ? s->frames[0].name : "-");
	}
	return 0;
}

/* The sum of dso's (libc.so.6 or the other file's base name), or -1. */
static int sum_of(const struct sums *v, const char *dso)
{
	for (int i = 0; i < v->calls && i < 8; i++)
		if (!strcmp(v->dso[i], dso))
			return i;
	return -1;
}

/*
 * Sums (session_sum()): three samples at one libc address are one sum
 * of 3, named once, with the span of the samples summed; the same
 * address after another file is mapped over it is another sum, of that
 * file: samples are placed in the maps of their time, though named
 * later. With the tid key, two threads' samples at one address are two
 * sums. session_sync() hands them on.
 */
static void run_sums(const char *other)
{
	const char *base = strrchr(other, '/') + 1;

	for (int bytid = 0; bytid < 2; bytid++) {
		struct symbols_opts o = { .inline_frames = 1 };
		struct symbols *sym = symbols_new(&o);
		struct sums v = { 0 };
		struct session *s = session_new(sym, on_sum, &v);
		const char *how = bytid ? "sums by tid" : "sums";
		int l, x, synced;

		session_unordered(s, 1);
		session_leaf_only(s, 1);
		session_sum(s, 1, bytid ? SESSION_SUM_TID : 0);
		attr(s);
		mmap2(s, 10, LIBC);
		sample(s, 30, BASE + 0x28000);
		sample(s, 20, BASE + 0x28000);
		sample(s, 25, BASE + 0x28000);
		round_end(s);
		mmap2(s, 40, other);
		round_end(s);
		sample(s, 50, BASE + 0x28000);
		sample(s, 60, BASE + 0x28000);
		round_end(s);
		round_end(s);	/* a round hands on what came before the one before it */
		synced = session_sync(s);
		ok(synced == 0 && v.calls == 2, "%s: two sums at the sync (%d)", how, v.calls);
		l = sum_of(&v, "libc.so.6");
		x = sum_of(&v, base);
		/* a sum's times are the span of what the delivery summed: 20 to 60 */
		ok(l >= 0 && v.count[l] == 3 && v.period[l] == 3 && v.first[l] == 20 &&
		   v.last[l] == 60 && strcmp(v.name[l], "-"),
		   "%s: libc's is 3 samples, period 3, in the span 20 to 60, named (%s)", how,
		   l >= 0 ? v.name[l] : "none");
		ok(x >= 0 && v.count[x] == 2 && v.first[x] == 20 && v.last[x] == 60,
		   "%s: the same address in %s, mapped over it later, is a sum of its own", how,
		   base);
		/* after the sync: two more of thread 100, one of thread 101 */
		sample(s, 70, BASE + 0x28000);
		sample_tid(s, 71, BASE + 0x28000, 0, 0, 101);
		sample(s, 72, BASE + 0x28000);
		round_end(s);
		ok(session_finish(s) == 0, "%s: the session ends well", how);
		if (bytid)
			ok(v.calls == 4 && v.count[2] + v.count[3] == 3 &&
			   v.tid[2] + v.tid[3] == 201 && (v.count[2] == 1) == (v.tid[2] == 101),
			   "%s: after the sync, threads 100 and 101 are a sum each (%d calls)", how,
			   v.calls);
		else
			ok(v.calls >= 3 && v.count[2] + (v.calls > 3 ? v.count[3] : 0) == 3 &&
			   v.tid[2] == 0 && (v.calls == 3 || v.tid[3] == 0),
			   "%s: after the sync, the three are new sums, of no tid (%d calls)", how,
			   v.calls);
		session_free(s);
		symbols_free(sym);
	}
}

/* A kernel function's address and _text's, from this machine's kallsyms. */
static int kernel_addrs(uint64_t *text, uint64_t *fn, char *name, size_t len)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512], sym[256], type;
	unsigned long long a;

	*text = *fn = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && (!*text || !*fn)) {
		if (sscanf(line, "%llx %c %255s", &a, &type, sym) != 3 || !a)
			continue;
		if (!strcmp(sym, "_text"))
			*text = a;
		else if (!*fn && *text && type == 'T' && !strcmp(sym, "schedule")) {
			*fn = a;
			snprintf(name, len, "%s", sym);
		}
	}
	fclose(f);
	return *text && *fn ? 0 : -1;
}

/* The same kernel sample under a kernel map of this boot, then of another. */
static void run_kernel(void)
{
	uint64_t text, fn;
	char name[256];

	if (kernel_addrs(&text, &fn, name, sizeof(name))) {
		printf("ok %d # SKIP kallsyms has no _text and schedule, or hides them\n", ++tap_n);
		return;
	}
	for (int moved = 0; moved < 2; moved++) {
		struct symbols *sym = symbols_new(NULL);
		struct seen v = { 0 };
		struct session *s = session_new(sym, on_sample, &v);
		const char *const *w;
		int nw = 0;

		session_unordered(s, 1);
		attr(s);
		kernel_mmap(s, moved ? text + 0x2000000 : text);
		ksample(s, 5, fn + 4, 1);
		round_end(s);
		session_finish(s);
		for (w = symbols_warnings(sym, &(size_t){ 0 }); *w; w++)
			nw++;
		if (!moved)
			ok(v.n == 1 && !strcmp(v.name[0], name) && !v.unknown[0] && nw == 0,
			   "kernel of this boot: %s, no warning (%s, %d warnings)", name,
			   v.name[0], nw);
		else
			ok(v.n == 1 && !strcmp(v.name[0], "-") && v.unknown[0] && nw == 1 &&
			   strstr(symbols_warnings(sym, &(size_t){ 0 })[0], "another address"),
			   "kernel of another boot: [unknown], one warning (%s, %d: %s)",
			   v.name[0], nw, nw ? symbols_warnings(sym, &(size_t){ 0 })[0] : "");
		session_free(s);
		symbols_free(sym);
	}
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : getenv("WORKLOADS");
	char other[PATH_MAX];

	snprintf(other, sizeof(other), "%s/shape", dir ? dir : "tests/workloads");
	if (access(LIBC, R_OK) || access(other, R_OK)) {
		printf("1..0 # SKIP no %s or no %s\n", LIBC, other);
		return 0;
	}
	run(other, 0);
	run(other, 1);
	run_attr_after_park();
	run_sums(other);
	run_kernel();
	return tap_done();
}
