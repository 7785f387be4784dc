// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stacks stage (stacks.h): samples held as raw frames, summed or
 * parked, and named when they are handed on.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "htab.h"
#include "machine.h"
#include "resolve.h"
#include "stacks.h"
#include "xalloc.h"

/* Parked samples, and their frames, at most; past that, a sample waits for its file. */
#define PARK_MAX 65536
#define PRAW_MAX (1u << 20)

/*
 * A sample whose file is still being opened, put aside with its frames
 * placed in the maps of its time.
 */
struct parked {
	/* the sample whole, but its frames: a field added to it is parked with it */
	struct rsample rs;
	size_t first, n;	/* its frames: praw[first .. first + n) */
	int unwind_at;		/* as in struct rsample, from first */
};

/* Samples summed by what names them: 72 bytes. */
struct stacksum {
	uint64_t leaf[2];	/* the first raw frame's words */
	const struct evdesc *ev;
	const char *comm;
	uint64_t count, period;
	uint32_t n;		/* raw frames: leaf, then swords[first .. first + 2(n - 1)) */
	uint32_t first;
	uint32_t pid, tid, cpu;	/* 0 unless the keys ask for them */
	int16_t unwind_at;	/* as in struct rsample, a raw frame's index */
	uint8_t unwind_end;	/* as in struct rsample */
	uint8_t bits;		/* SUM_PUT_BACK, SUM_MENDED, SUM_CUT */
};

/* A sample summed, not yet added to its sum */
struct sumpend {
	struct stacksum key;	/* count 1, the sample's period */
	uint64_t hash, time;
	const uint64_t *rest;	/* its frames past the leaf: in a swbuf */
	size_t nrest;
};

/*
 * Samples summed and not yet added, at most (2 or more): a sample's index
 * slot is fetched as it comes, its sum SUM_PEND / 2 samples later, and it
 * is added SUM_PEND samples later (stacks_sum_add()).
 */
#define SUM_PEND 4

/* A sum's place in the order sums are delivered in */
struct sumkey {
	uint64_t k;	/* the command's rank, then the sampled address */
	uint32_t k2;	/* the outermost frame's address, low half */
	uint32_t i;	/* the sum */
};

struct stacks {
	struct resolver *res;
	session_sample_fn fn;
	void *ctx;
	struct rframe frames[MAX_FRAMES];	/* of the sample being handed on */
	/* parked samples, and their frames */
	struct parked *pk;
	size_t npk, pk_cap;
	struct rawf *praw;
	size_t npraw, praw_cap;
	const struct proc *pr;	/* of the sample being summed or parked */
	/* sums */
	unsigned sum_keys;
	struct stacksum *sums;
	size_t nsums, sums_cap;
	uint64_t *swords;	/* their frames, two words each */
	size_t nswords, swords_cap;
	struct htab sumtab;
	uint64_t sum_first, sum_last;	/* the times of the samples summed since the last delivery */
	uint64_t *swork;	/* the frames of the sample being summed: one of swbuf */
	size_t nswork;
	unsigned swi;		/* swork's swbuf */
	uint64_t swbuf[SUM_PEND + 1][2 * MAX_FRAMES];
	/* the last samples summed, not yet added: pend0 the oldest */
	struct sumpend pend[SUM_PEND];
	unsigned npend, pend0;
	struct sumkey *skeys, *skeys2;	/* the order sums are delivered in, and a sort's scratch */
	size_t skeys_cap;
	const char **scomms;	/* the commands of the sums being ordered, by rank */
	size_t nscomms, scomms_cap;
	struct htab scommtab;
};

struct stacks *stacks_new(struct resolver *res, session_sample_fn fn, void *ctx)
{
	struct stacks *st = xcalloc(1, sizeof(*st));

	st->res = res;
	st->fn = fn;
	st->ctx = ctx;
	st->swork = st->swbuf[0];
	return st;
}

void stacks_free(struct stacks *st)
{
	if (!st)
		return;
	free(st->pk);
	free(st->praw);
	free(st->sums);
	htab_release(&st->sumtab);
	free(st->swords);
	free(st->skeys);
	free(st->skeys2);
	free(st->scomms);
	htab_release(&st->scommtab);
	free(st);
}

void stacks_keys(struct stacks *st, unsigned keys)
{
	st->sum_keys = keys;
}

int stacks_held(const struct stacks *st)
{
	return st->npk || st->nsums || st->npend;
}

/* --- parked ------------------------------------------------------------- */

int stacks_can_park(const struct stacks *st)
{
	return st->npk < PARK_MAX && st->npraw < PRAW_MAX;
}

void stacks_park_begin(struct stacks *st, const struct rsample *rs, const struct proc *pr)
{
	struct parked *p;

	if (st->npk == st->pk_cap) {
		st->pk_cap = st->pk_cap ? 2 * st->pk_cap : 256;
		st->pk = xreallocarray(st->pk, st->pk_cap, sizeof(*st->pk));
	}
	p = &st->pk[st->npk];
	p->rs = *rs;
	p->rs.frames = NULL;
	p->rs.nframes = 0;
	p->first = st->npraw;
	st->pr = pr;
}

int stacks_park_frame(void *arg, uint64_t a, int kernel, int caller, int by_fp)
{
	struct stacks *st = arg;

	if (st->npraw == st->praw_cap) {
		st->praw_cap = st->praw_cap ? 2 * st->praw_cap : 4096;
		st->praw = xreallocarray(st->praw, st->praw_cap, sizeof(*st->praw));
	}
	resolver_locate(st->res, st->pr, a, kernel, caller, &st->praw[st->npraw]);
	st->praw[st->npraw++].by_fp = (unsigned)by_fp;
	return (int)(st->npraw - st->pk[st->npk].first);
}

void stacks_park_end(struct stacks *st, const struct walk_marks *mk)
{
	struct parked *p = &st->pk[st->npk++];

	p->rs.repaired = mk->repaired;
	p->rs.cut = mk->cut;
	p->n = st->npraw - p->first;
	p->rs.unwind_end = mk->unwind_end;
	p->unwind_at = mk->unwind_at;	/* praw entries are one an address */
}

/* --- sums (session_sum()) --------------------------------------------------- */

/*
 * A sum's frames are words, two a frame: the dso with the frame's flags
 * in its low bits (a dso is aligned to 8), and the address in it.
 */
#define SUM_KERNEL 1u
#define SUM_CALLER 2u
#define SUM_FP 4u
/*
 * The bytes of sums and frames held before they are handed on: of a
 * 520K-sample system-wide -g file, 8 MiB is a third of the distinct
 * stacks, which costs 3% more CPU than holding them all and 23 MB less
 * memory.
 */
#define SUM_BYTES_MAX ((size_t)8 << 20)

void stacks_sum_begin(struct stacks *s, const struct proc *pr)
{
	s->pr = pr;
	s->nswork = 0;
}

/* A walk's fn while summing: the address placed, its words in s->swork; -1 in JIT code */
int stacks_sum_frame(void *arg, uint64_t a, int kernel, int caller, int by_fp)
{
	struct stacks *s = arg;
	struct rawf r;

	if (s->nswork == 2 * MAX_FRAMES)
		return MAX_FRAMES;
	resolver_locate(s->res, s->pr, a, kernel, caller, &r);
	/*
	 * JIT code is named by tables that change in time, and go: at once.
	 * An address in none (jitc alone) is named the same at any time.
	 */
	if (r.jit)
		return -1;
	s->swork[s->nswork++] = (uint64_t)(uintptr_t)r.dso | (kernel ? SUM_KERNEL : 0) |
				(caller ? SUM_CALLER : 0) | (by_fp ? SUM_FP : 0);
	s->swork[s->nswork++] = r.a;
	return (int)(s->nswork / 2);
}

static int sums_deliver(struct stacks *s);

#define SUM_PUT_BACK 1u
#define SUM_MENDED 2u
#define SUM_CUT 4u

/* The two words of raw frame j of sum m. */
static const uint64_t *sum_frame(const struct stacks *s, const struct stacksum *m, uint32_t j)
{
	return j ? s->swords + m->first + 2 * (size_t)(j - 1) : m->leaf;
}

/* The dso of the frame of words w (sum_one()'s). */
static struct dso *sum_dso(const uint64_t *w)
{
	return (struct dso *)(uintptr_t)(w[0] & ~(uint64_t)7);
}

/*
 * The raw frame of words w, into *r. Filled in place: a struct returned
 * and copied was read whole right after its flags were stored as a byte,
 * a stalled store-forward for each frame of each sum.
 */
static void sum_rawf(const uint64_t *w, struct rawf *r)
{
	uint64_t w0 = w[0];

	r->dso = sum_dso(w);
	r->a = w[1];
	r->kernel = (w0 & SUM_KERNEL) != 0;
	r->caller = (w0 & SUM_CALLER) != 0;
	r->by_fp = (w0 & SUM_FP) != 0;
}

/*
 * The hash of a sum's key: its fields as stored, then the words of its
 * frames past the leaf.
 */
static uint64_t sum_hash(const struct stacksum *m, const uint64_t *rest, size_t nrest)
{
	uint64_t h[6] = {
		(uint64_t)(uintptr_t)m->ev ^ (uint64_t)(uintptr_t)m->comm << 16,
		(uint64_t)m->pid << 32 | m->tid, (uint64_t)m->cpu << 32 | m->n,
		(uint64_t)m->unwind_end << 32 | (uint32_t)(int32_t)m->unwind_at << 8 | m->bits,
		m->leaf[0], m->leaf[1],
	};

	return htab_hash_words(h, 6) ^ (nrest ? htab_hash_words(rest, nrest) : 0);
}

/*
 * Add pending sample p (stacks_sum_add()'s) to its sum. 0, or the callback's
 * non-zero when the sums were full and handed on.
 */
static int sum_settle(struct stacks *s, struct sumpend *p)
{
	const struct stacksum *k = &p->key;
	const uint64_t *rest = p->rest;
	size_t nrest = p->nrest;
	struct htab_probe pr;
	struct stacksum *m;
	uint32_t i;

	if (!s->nsums || p->time < s->sum_first)
		s->sum_first = p->time;
	if (!s->nsums || p->time > s->sum_last)
		s->sum_last = p->time;
	htab_probe(&s->sumtab, p->hash, &pr);
	while (htab_next(&s->sumtab, &pr, &i)) {
		m = &s->sums[i];
		if (m->leaf[1] == k->leaf[1] && m->leaf[0] == k->leaf[0] && m->n == k->n &&
		    m->comm == k->comm && m->ev == k->ev && m->pid == k->pid && m->tid == k->tid &&
		    m->cpu == k->cpu && m->bits == k->bits && m->unwind_end == k->unwind_end &&
		    m->unwind_at == k->unwind_at &&
		    (!nrest || !memcmp(s->swords + m->first, rest, nrest * sizeof(*rest)))) {
			m->count++;
			m->period += k->period;
			return 0;
		}
	}
	s->sums = xgrow(s->sums, &s->sums_cap, s->nsums + 1, sizeof(*s->sums));
	m = &s->sums[s->nsums];
	*m = *k;
	m->first = (uint32_t)s->nswords;
	if (nrest) {
		s->swords = xgrow(s->swords, &s->swords_cap, s->nswords + nrest, sizeof(*s->swords));
		memcpy(s->swords + s->nswords, rest, nrest * sizeof(*rest));
		s->nswords += nrest;
	}
	htab_put(&s->sumtab, &pr, (uint32_t)s->nsums++);
	/* memory in pieces: past the bound, what is summed goes on now (sums add up) */
	return s->nsums * sizeof(*s->sums) + s->nswords * sizeof(*s->swords) > SUM_BYTES_MAX
	       ? sums_deliver(s) : 0;
}

/* Add the oldest pending sample to its sum: sum_settle()'s answer. */
static int sum_settle_older(struct stacks *s)
{
	int ret = sum_settle(s, &s->pend[s->pend0]);

	s->pend0 = (s->pend0 + 1) % SUM_PEND;
	s->npend--;
	return ret;
}

/* Add the samples still pending to their sums, the oldest first. */
static int sums_settle(struct stacks *s)
{
	int ret = 0;

	while (s->npend && !ret)
		ret = sum_settle_older(s);
	s->npend = 0;
	return ret;
}

/*
 * Sum sample rs, whose frames a walk placed in s->swork. A sum
 * is found in two reads that miss, an index's slot and then the sum,
 * which waited were a fifth of a system-wide flat report: so a sample's
 * slot is fetched now, its sum (the slot read) SUM_PEND / 2 samples
 * later, and the sample is added SUM_PEND samples later, each fetch
 * under the work of decoding and placing SUM_PEND / 2 samples.
 * 0, or the callback's non-zero when the sums were full and handed on.
 */
int stacks_sum_add(struct stacks *s, const struct rsample *rs, const struct walk_marks *mk,
		   int mended)
{
	uint32_t n = (uint32_t)(s->nswork / 2);
	struct sumpend *p;
	struct htab_probe pr;
	uint32_t i;
	int ret = 0;

	if (s->npend == SUM_PEND)
		ret = sum_settle_older(s);
	if (s->npend >= SUM_PEND / 2) {
		/* the one SUM_PEND / 2 before: its slot is in, its sum fetched */
		p = &s->pend[(s->pend0 + s->npend - SUM_PEND / 2) % SUM_PEND];
		htab_probe(&s->sumtab, p->hash, &pr);
		if (htab_next(&s->sumtab, &pr, &i))
			__builtin_prefetch(&s->sums[i]);
	}
	p = &s->pend[(s->pend0 + s->npend) % SUM_PEND];
	p->key = (struct stacksum){
		/* the leaf's words in the sum itself: a flat view's compare touches nothing else */
		.leaf = { n ? s->swork[0] : 0, n ? s->swork[1] : 0 },
		.ev = rs->ev, .comm = rs->comm, .n = n, .count = 1, .period = rs->period,
		.pid = s->sum_keys & (SESSION_SUM_PID | SESSION_SUM_TID) ? rs->pid : 0,
		.tid = s->sum_keys & SESSION_SUM_TID ? rs->tid : 0,
		.cpu = s->sum_keys & SESSION_SUM_CPU ? rs->cpu : 0,
		.unwind_at = (int16_t)mk->unwind_at,	/* -1 to MAX_FRAMES */
		.unwind_end = (uint8_t)mk->unwind_end,	/* UNWIND_END_* */
		.bits = (uint8_t)((mk->put_back ? SUM_PUT_BACK : 0) | (mended ? SUM_MENDED : 0) |
				  (mk->cut ? SUM_CUT : 0)),
	};
	p->rest = s->swork + 2;
	p->nrest = n ? s->nswork - 2 : 0;
	p->hash = sum_hash(&p->key, p->rest, p->nrest);
	p->time = rs->time;
	s->npend++;
	htab_probe(&s->sumtab, p->hash, &pr);
	if (s->sumtab.n)
		__builtin_prefetch(&s->sumtab.slots[pr.i]);
	/* the next sample's frames in a buffer no pending sample holds */
	s->swi = (s->swi + 1) % (SUM_PEND + 1);
	s->swork = s->swbuf[s->swi];
	return ret;
}

/*
 * The order sums go out in: by command, sampled address, then from the
 * outermost frame in, so that stacks that share their callers follow
 * each other and the trees' path memo (ctree.c) finds their nodes.
 * What sums_sort()'s keys do not tell apart is compared here.
 */
static int sum_order(const struct stacks *s, const struct stacksum *x,
		     const struct stacksum *y)
{
	uint32_t i, j;

	if (x->comm != y->comm)
		return (uintptr_t)x->comm < (uintptr_t)y->comm ? -1 : 1;
	if (x->leaf[1] != y->leaf[1])
		return x->leaf[1] < y->leaf[1] ? -1 : 1;
	if (x->leaf[0] != y->leaf[0])
		return x->leaf[0] < y->leaf[0] ? -1 : 1;
	for (i = x->n, j = y->n; i > 1 && j > 1; i--, j--) {
		const uint64_t *p = sum_frame(s, x, i - 1), *q = sum_frame(s, y, j - 1);

		if (p[0] != q[0])
			return p[0] < q[0] ? -1 : 1;
		if (p[1] != q[1])
			return p[1] < q[1] ? -1 : 1;
	}
	return x->n < y->n ? -1 : x->n > y->n;
}

/* Within a run of one key: the outermost frames' low halves, then sum_order(). */
static int sumkey_order(const void *a, const void *b, void *arg)
{
	const struct stacks *s = arg;
	const struct sumkey *x = a, *y = b;

	if (x->k2 != y->k2)
		return x->k2 < y->k2 ? -1 : 1;
	return sum_order(s, &s->sums[x->i], &s->sums[y->i]);
}

/* The rank of command c among the sums being ordered: in the order they were first summed. */
static uint64_t comm_rank(struct stacks *s, const char *c)
{
	uint64_t hash = htab_mix((uint64_t)(uintptr_t)c);
	struct htab_probe p;
	uint32_t i;

	htab_probe(&s->scommtab, hash, &p);
	while (htab_next(&s->scommtab, &p, &i))
		if (s->scomms[i] == c)
			return i;
	s->scomms = xgrow(s->scomms, &s->scomms_cap, s->nscomms + 1, sizeof(*s->scomms));
	s->scomms[s->nscomms] = c;
	htab_put(&s->scommtab, &p, (uint32_t)s->nscomms);
	return s->nscomms++;
}

#define SUMKEY_ADDR_BITS 52

/*
 * The sums in the order they go out (sum_order()'s in all that matters:
 * a command's sums together, of one sampled address together, those
 * sorted from the outermost frame in), as keys: the command's rank and
 * the address in one word, sorted a byte a pass (the passes where every
 * key has the same byte skipped), then each run of one word by the
 * outermost frame and sum_order(). Sorting indices with sum_order()
 * alone read two scattered sums a compare: 9% of a -g caller report.
 */
static void sums_sort(struct stacks *s)
{
	size_t n = s->nsums, cnt[8][256];
	struct sumkey *a, *b, *t;

	s->skeys = xgrow(s->skeys, &s->skeys_cap, n, sizeof(*s->skeys));
	s->skeys2 = xreallocarray(s->skeys2, s->skeys_cap, sizeof(*s->skeys2));
	a = s->skeys;
	b = s->skeys2;
	s->nscomms = 0;
	htab_clear(&s->scommtab);
	memset(cnt, 0, sizeof(cnt));
	for (size_t i = 0; i < n; i++) {
		const struct stacksum *m = &s->sums[i];
		uint64_t r = comm_rank(s, m->comm), top = (uint64_t)1 << (64 - SUMKEY_ADDR_BITS);

		/* past 4095 commands the rank is shared: the run's sort tells them apart */
		a[i].k = (r < top ? r : top - 1) << SUMKEY_ADDR_BITS |
			 (m->leaf[1] & (((uint64_t)1 << SUMKEY_ADDR_BITS) - 1));
		a[i].k2 = m->n > 1 ? (uint32_t)sum_frame(s, m, m->n - 1)[1] : 0;
		a[i].i = (uint32_t)i;
		for (int d = 0; d < 8; d++)
			cnt[d][a[i].k >> (8 * d) & 0xff]++;
	}
	for (int d = 0; d < 8 && n; d++) {
		size_t at = 0, c;

		if (cnt[d][a[0].k >> (8 * d) & 0xff] == n)
			continue;	/* one byte for all: the pass would keep the order */
		for (int v = 0; v < 256; v++) {
			c = cnt[d][v];
			cnt[d][v] = at;
			at += c;
		}
		for (size_t i = 0; i < n; i++)
			b[cnt[d][a[i].k >> (8 * d) & 0xff]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && a[j].k == a[i].k; j++)
			;
		if (j - i > 1)
			qsort_r(a + i, j - i, sizeof(*a), sumkey_order, s);
	}
	s->skeys = a;
	s->skeys2 = b;
}

/* How far ahead sums_deliver() fetches the sums it reaches */
#define SUM_AHEAD 8

/*
 * Resolve each sum's frames once and hand it on; the sums start again
 * empty. A sum's time and first are those of all the samples summed
 * since the last delivery: what a caller makes of them is the span.
 */
static int sums_deliver(struct stacks *s)
{
	int ret = 0;

	sums_sort(s);
	for (size_t i = 0; i < s->nsums && !ret; i++) {
		const struct stacksum *m = &s->sums[s->skeys[i].i];
		struct rsample rs;
		struct rawf r;
		int n = 0;

		/*
		 * In this order the sums are scattered: fetch ahead, a sum and
		 * (once it is in) its frames (reading them where they fell was
		 * two thirds of this loop's own time)
		 */
		if (i + SUM_AHEAD < s->nsums)
			__builtin_prefetch(&s->sums[s->skeys[i + SUM_AHEAD].i]);
		if (i + SUM_AHEAD / 2 < s->nsums) {
			const struct stacksum *a = &s->sums[s->skeys[i + SUM_AHEAD / 2].i];

			if (a->n > 1)
				__builtin_prefetch(s->swords + a->first);
		}
		memset(&rs, 0, sizeof(rs));
		memset(&r, 0, sizeof(r));
		rs.unwind_at = -1;
		for (uint32_t j = 0; j < m->n; j++) {
			sum_rawf(sum_frame(s, m, j), &r);
			if ((int)j == m->unwind_at)
				rs.unwind_at = n;	/* the raw frame's index, as a frame's */
			n = resolver_raw_frames(s->res, s->frames, n, &r);
		}
		rs.ev = m->ev;
		rs.pid = m->pid;
		rs.tid = m->tid;
		rs.cpu = m->cpu;
		rs.time = s->sum_last;
		rs.first = s->sum_first;
		rs.count = m->count;
		rs.period = m->period;
		rs.comm = m->comm;
		rs.parallelism = 1;
		/* as the walk says of the frames: the recorder's callers count when there are two */
		rs.repaired = (m->bits & SUM_PUT_BACK) || ((m->bits & SUM_MENDED) && n > 1);
		rs.cut = (m->bits & SUM_CUT) != 0;
		rs.unwind_end = m->unwind_end;
		if (rs.unwind_at >= n)
			rs.unwind_at = -1;
		rs.nframes = n;
		rs.frames = s->frames;
		ret = s->fn(s->ctx, &rs);
	}
	s->nsums = 0;
	s->nswords = 0;
	htab_clear(&s->sumtab);
	return ret;
}

static void sums_mark_live(struct stacks *s)
{
	for (size_t i = 0; i < s->nsums; i++)
		for (uint32_t j = 0; j < s->sums[i].n; j++)
			dso_mark_live(sum_dso(sum_frame(s, &s->sums[i], j)));
	for (size_t i = 0; i < s->npend; i++) {
		const struct sumpend *p = &s->pend[(s->pend0 + i) % SUM_PEND];

		if (p->key.n)
			dso_mark_live(sum_dso(p->key.leaf));
		for (size_t j = 0; j < p->nrest; j += 2)
			dso_mark_live(sum_dso(p->rest + j));
	}
}

/* --- handing on ---------------------------------------------------------- */

/* Resolve and deliver the parked samples, waiting for their files, then the sums. */
int stacks_release(struct stacks *s)
{
	int ret = 0;

	for (size_t i = 0; i < s->npk && !ret; i++) {
		const struct parked *p = &s->pk[i];
		struct rsample rs = p->rs;
		int n = 0;

		rs.unwind_at = -1;
		for (size_t j = 0; j < p->n; j++) {
			if ((int)j == p->unwind_at)
				rs.unwind_at = n;
			n = resolver_raw_frames(s->res, s->frames, n, &s->praw[p->first + j]);
		}
		rs.first = rs.time;
		rs.count = 1;
		rs.nframes = n;
		rs.frames = s->frames;
		if (rs.unwind_at >= n)
			rs.unwind_at = -1;
		ret = s->fn(s->ctx, &rs);
	}
	s->npk = 0;
	s->npraw = 0;
	if (!ret)
		ret = sums_settle(s);
	if (!ret && s->nsums)
		ret = sums_deliver(s);
	return ret;
}

void stacks_mark_live(struct stacks *s)
{
	for (size_t i = 0; i < s->npraw; i++)
		dso_mark_live(s->praw[i].dso);
	for (size_t i = 0; i < s->npk; i++)
		dso_mark_live((struct dso *)s->pk[i].rs.exe);
	sums_mark_live(s);
}
