// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A sample into frames: its addresses walked (the call chain, the
 * frameless callers -g's leaf repair puts back, the user stack unwound
 * with --call-graph dwarf), each handed to the resolver (resolve.h) with
 * the process and the time; and, for callers that only add up, samples
 * whose file is still being opened put aside to be delivered at the end.
 * On the delivery thread.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "pdata.h"
#include "session.h"
#include "xalloc.h"

#include "session-int.h"

/* --- samples ------------------------------------------------------------ */

/*
 * A sample's weight: its period, or, where the samples carry none (-c
 * without PERF_SAMPLE_PERIOD), the event's fixed one, as perf reads it
 * (evsel__parse_sample() starts from attr.sample_period); 1 where neither.
 */
static uint64_t sample_period_of(const struct evdesc *e, const struct sample *smp)
{
	if (smp->present & PERF_SAMPLE_PERIOD)
		return smp->period;
	return !e->attr.freq && e->attr.sample_period ? e->attr.sample_period : 1;
}

/* Whether user address a of pr can be code: in a mapping of it, or JIT code its runtime named. */
static int code_address(struct session *s, const struct proc *pr, uint64_t a)
{
	struct rawf r;

	if (maps_find(&pr->maps, a))
		return 1;
	/* JIT code runs in anonymous mappings, which MMAP records name; or a runtime's map names it */
	resolver_locate(s->res, pr, a, 0, 1, &r);
	return r.jit != NULL;
}

/*
 * Call fn for each address of a sample, innermost first: the call chain
 * (kernel and user parts, context markers followed), then the user frames
 * unwound from a stack copy, or the sampled ip when that gives nothing or
 * chains are not wanted. Stops at fn's -1.
 */
static int each_address(struct session *s, const struct evdesc *e, const struct sample *smp,
			int kernel,
			int (*fn)(struct session *s, void *arg, uint64_t a, int kernel, int caller),
			void *arg)
{
	int n = 0, got = 0;
	const struct proc *pr = s->cur_pr;
	/* the chain's return addresses are checked against the process's maps, where it has some */
	int check = pr && pr->maps.nr;

	s->repaired = 0;
	s->put_back = 0;
	s->cut = 0;
	if (smp->nr_chain && !s->leaf_only) {
		int ctx_kernel = kernel, first = 1, first_user = 0, user_n = 0;

		for (uint64_t i = 0; i < smp->nr_chain && got < MAX_FRAMES; i++) {
			uint64_t a = smp->chain[i];

			if (a >= PERF_CONTEXT_MAX) {
				ctx_kernel = a == PERF_CONTEXT_KERNEL || a == PERF_CONTEXT_GUEST_KERNEL;
				first_user = a == PERF_CONTEXT_USER;
				continue;
			}
			/*
			 * A return address in the first 64 KiB is where the kernel's
			 * walk of frame pointers ran off the stack (an outermost
			 * frame's 0, a frameless function's data: curl's 0x1000),
			 * never code: Linux maps nothing below vm.mmap_min_addr, 65536
			 * by default on x86 (32768 on arm64), and no program is linked
			 * there.
			 */
			if (!ctx_kernel && !first && a < 0x10000)
				continue;
			/*
			 * A return address in no mapping of the process is where the
			 * kernel's walk of frame pointers went through a function
			 * built without them (lua -O2, xz): the saved rbp it followed
			 * was data, and everything from here on is garbage
			 * (0x64904f6a09002404 is not even a user address). The chain
			 * ends here; the sample says so (rsample.cut). The first user
			 * address is the interrupted pc: no return address, kept.
			 */
			if (!ctx_kernel && user_n++ && check && !code_address(s, pr, a)) {
				s->cut = 1;
				break;
			}
			n = fn(s, arg, a, ctx_kernel, !first);
			if (n < 0)
				return -1;
			got = n;
			first = 0;
			if (first_user) {
				/* frameless functions' callers, which the chain skips: from the stack */
				uint64_t ras[8], next = i + 1 < smp->nr_chain ? smp->chain[i + 1] : 0;
				int k = resolver_leaf_returns(s->res, s->cur_pr, e, smp, a, ras, 8);

				first_user = 0;
				for (int j = 0; j < k && ras[j] != next; j++) {
					n = fn(s, arg, ras[j], 0, 1);
					if (n < 0)
						return -1;
					got = n;
					s->put_back = 1;
				}
			}
		}
		/* here, or by the recorder: then the callers are in the chain */
		s->repaired = s->put_back || (s->mended && got > 1);
	}
	s->ustop_frame = -1;
	if (s->nupcs && !s->leaf_only) {
		for (int i = 0; i < s->nupcs; i++) {
			if (i == s->ustop.at)
				s->ustop_frame = got;
			/* the interrupted pcs are no return addresses; the rest are */
			s->cur_fp = (s->upcs_fl[i] & UNWIND_FP) != 0;
			n = fn(s, arg, s->upcs[i], 0, !(s->upcs_fl[i] & UNWIND_EXACT));
			s->cur_fp = 0;
			if (n < 0)
				return -1;
			got = n;
		}
	}
	if (got == 0)
		n = fn(s, arg, smp->ip, kernel, 0);
	return n;
}

struct build {
	const struct proc *pr;
	int n, nowait;
};

static int build_one(struct session *s, void *arg, uint64_t a, int kernel, int caller)
{
	struct build *b = arg;
	int n = resolver_frames(s->res, s->frames, b->n, b->pr, a, kernel, caller, b->nowait);

	for (int i = b->n; s->cur_fp && i < n; i++)
		s->frames[i].by_fp = 1;
	b->n = n;
	return n;
}

static int park_one(struct session *s, void *arg, uint64_t a, int kernel, int caller)
{
	const struct proc *pr = arg;

	if (s->npraw == s->praw_cap) {
		s->praw_cap = s->praw_cap ? 2 * s->praw_cap : 4096;
		s->praw = xreallocarray(s->praw, s->praw_cap, sizeof(*s->praw));
	}
	resolver_locate(s->res, pr, a, kernel, caller, &s->praw[s->npraw]);
	s->praw[s->npraw++].by_fp = (unsigned)s->cur_fp;
	return (int)(s->npraw - s->pk[s->npk].first);
}

/* Put a sample aside until its files are open, its addresses placed now. */
static void park(struct session *s, const struct evdesc *e, const struct sample *smp,
		 const struct proc *pr, const char *comm, int kernel, uint32_t parallelism)
{
	struct parked *p;

	if (s->npk == s->pk_cap) {
		s->pk_cap = s->pk_cap ? 2 * s->pk_cap : 256;
		s->pk = xreallocarray(s->pk, s->pk_cap, sizeof(*s->pk));
	}
	p = &s->pk[s->npk];
	p->ev = e;
	p->pid = smp->pid;
	p->tid = smp->tid;
	p->cpu = smp->cpu;
	p->time = smp->time;
	p->period = sample_period_of(e, smp);
	p->comm = comm;
	p->exe = pr ? pr->exe : NULL;
	p->parallelism = parallelism;
	p->first = s->npraw;
	s->cur_pr = pr;
	each_address(s, e, smp, kernel, park_one, (void *)pr);
	p->repaired = s->repaired;
	p->cut = s->cut;
	p->n = s->npraw - p->first;
	p->unwind_end = s->nupcs ? s->ustop.end : 0;
	p->unwind_at = s->ustop_frame;	/* praw entries are one an address */
	s->npk++;
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

/* each_address()'s fn while summing: the address placed, its words in s->swork; -1 in JIT code */
static int sum_one(struct session *s, void *arg, uint64_t a, int kernel, int caller)
{
	const struct proc *pr = arg;
	struct rawf r;

	if (s->nswork == 2 * MAX_FRAMES)
		return MAX_FRAMES;
	resolver_locate(s->res, pr, a, kernel, caller, &r);
	/*
	 * JIT code is named by tables that change in time, and go: at once.
	 * An address in none (jitc alone) is named the same at any time.
	 */
	if (r.jit)
		return -1;
	s->swork[s->nswork++] = (uint64_t)(uintptr_t)r.dso | (kernel ? SUM_KERNEL : 0) |
				(caller ? SUM_CALLER : 0) | (s->cur_fp ? SUM_FP : 0);
	s->swork[s->nswork++] = r.a;
	return (int)(s->nswork / 2);
}

static int sums_deliver(struct session *s);

#define SUM_PUT_BACK 1u
#define SUM_MENDED 2u
#define SUM_CUT 4u

/* The two words of raw frame j of sum m. */
static const uint64_t *sum_frame(const struct session *s, const struct stacksum *m, uint32_t j)
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
 * Add pending sample p (sum_add()'s) to its sum. 0, or the callback's
 * non-zero when the sums were full and handed on.
 */
static int sum_settle(struct session *s, struct sumpend *p)
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
static int sum_settle_older(struct session *s)
{
	int ret = sum_settle(s, &s->pend[s->pend0]);

	s->pend0 = (s->pend0 + 1) % SUM_PEND;
	s->npend--;
	return ret;
}

/* Add the samples still pending to their sums, the oldest first. */
static int sums_settle(struct session *s)
{
	int ret = 0;

	while (s->npend && !ret)
		ret = sum_settle_older(s);
	s->npend = 0;
	return ret;
}

/*
 * Sum sample rs, whose frames each_address() placed in s->swork. A sum
 * is found in two reads that miss, an index's slot and then the sum,
 * which waited were a fifth of a system-wide flat report: so a sample's
 * slot is fetched now, its sum (the slot read) SUM_PEND / 2 samples
 * later, and the sample is added SUM_PEND samples later, each fetch
 * under the work of decoding and placing SUM_PEND / 2 samples.
 * 0, or the callback's non-zero when the sums were full and handed on.
 */
static int sum_add(struct session *s, const struct rsample *rs)
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
		.unwind_at = (int16_t)rs->unwind_at,	/* -1 to MAX_FRAMES */
		.unwind_end = (uint8_t)rs->unwind_end,	/* UNWIND_END_* */
		/* the recorder's mending counts only in a chain (each_address()) */
		.bits = (uint8_t)((s->put_back ? SUM_PUT_BACK : 0) |
				  (s->mended && !s->leaf_only ? SUM_MENDED : 0) |
				  (s->cut ? SUM_CUT : 0)),
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
static int sum_order(const struct session *s, const struct stacksum *x,
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
	const struct session *s = arg;
	const struct sumkey *x = a, *y = b;

	if (x->k2 != y->k2)
		return x->k2 < y->k2 ? -1 : 1;
	return sum_order(s, &s->sums[x->i], &s->sums[y->i]);
}

/* The rank of command c among the sums being ordered: in the order they were first summed. */
static uint64_t comm_rank(struct session *s, const char *c)
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
static void sums_sort(struct session *s)
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
static int sums_deliver(struct session *s)
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
		/* as each_address() says of the frames: the recorder's callers count when there are two */
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

void ss_sums_mark_live(struct session *s)
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

/* --- samples put aside ------------------------------------------------------ */

/* Resolve and deliver the parked samples, waiting for their files, then the sums. */
int ss_unpark(struct session *s)
{
	int ret = 0;

	for (size_t i = 0; i < s->npk && !ret; i++) {
		const struct parked *p = &s->pk[i];
		struct rsample rs;
		int n = 0;

		rs.unwind_at = -1;
		for (size_t j = 0; j < p->n; j++) {
			if ((int)j == p->unwind_at)
				rs.unwind_at = n;
			n = resolver_raw_frames(s->res, s->frames, n, &s->praw[p->first + j]);
		}
		rs.ev = p->ev;
		rs.pid = p->pid;
		rs.tid = p->tid;
		rs.cpu = p->cpu;
		rs.time = rs.first = p->time;
		rs.count = 1;
		rs.period = p->period;
		rs.comm = p->comm;
		rs.exe = p->exe;
		rs.parallelism = p->parallelism;
		rs.repaired = p->repaired;
		rs.cut = p->cut;
		rs.nframes = n;
		rs.frames = s->frames;
		rs.unwind_end = p->unwind_end;
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

/*
 * A decoded sample of event e (or one made of it: an off-CPU interval),
 * resolved and handed to the callback. pseudo: a sample with no stack,
 * whose one frame is named so.
 */
int ss_sample_go(struct session *s, const struct evdesc *e, const struct sample *sp,
		 int kernel, const char *pseudo)
{
	struct sample smp = *sp;
	struct rsample rs;
	struct build b;
	struct thread *t;

	if (!s->have_first) {
		s->first_time = smp.time;
		s->have_first = 1;
	}
	s->now = smp.time;
	resolver_at(s->res, smp.time);
	/* Processes live as long as the session; a thread until a FORK reuses its tid. */
	if (!s->last_proc || s->last_proc->pid != (int)smp.pid)
		s->last_proc = ss_itab_get(&s->procs, (int)smp.pid);
	b.pr = s->last_proc;
	b.n = 0;
	b.nowait = s->unordered && s->npk < PARK_MAX && s->npraw < PRAW_MAX;
	t = s->last_thread;
	if (!t || t->tid != (int)smp.tid) {
		struct thread **slot = &s->tmemo[smp.tid & (TMEMO - 1)];

		t = *slot;
		if (!t || t->tid != (int)smp.tid)
			t = *slot = ss_get_thread(s, (int)smp.pid, (int)smp.tid);
		s->last_thread = t;
	}
	rs.ev = e;
	rs.pid = smp.pid;
	rs.tid = smp.tid;
	rs.cpu = smp.cpu;
	rs.time = rs.first = smp.time;
	rs.count = 1;
	rs.period = sample_period_of(e, &smp);
	rs.comm = t->comm;
	rs.exe = b.pr ? b.pr->exe : NULL;
	rs.parallelism = 1;
	if (s->has_switches && !pseudo && !(e->attr.config == ~0ULL && e->attr.type == PERF_TYPE_SOFTWARE)) {
		/* a thread sampled is on a CPU, whatever record said so first */
		ss_set_on_cpu(s, t, 1);
		rs.parallelism = (uint32_t)ss_get_proc(s, t->pid)->running;
		if (!rs.parallelism)
			rs.parallelism = 1;
	}
	rs.nframes = 0;
	rs.frames = NULL;
	rs.unwind_end = 0;
	rs.unwind_at = -1;
	rs.repaired = 0;
	rs.cut = 0;
	if (s->filter && !s->filter(s->ctx, &rs))
		return 0;
	if (pseudo) {
		struct rframe *f = &s->frames[0];

		memset(f, 0, sizeof(*f));
		f->name = pseudo;
		rs.nframes = 1;
		rs.frames = s->frames;
		return s->fn(s->ctx, &rs);
	}
	s->nupcs = s->leaf_only ? 0 : resolver_unwind(s->res, b.pr, e, &smp, s->upcs, s->upcs_fl,
						      MAX_FRAMES, &s->ustop);
	s->cur_pr = b.pr;
	if (s->sum) {
		/* added up now, named once a sum (session_sum()) */
		s->nswork = 0;
		if (each_address(s, e, &smp, kernel, sum_one, (void *)b.pr) >= 0) {
			rs.unwind_end = s->nupcs ? s->ustop.end : 0;
			rs.unwind_at = s->ustop_frame;	/* as a raw frame's index */
			return sum_add(s, &rs);
		}
	}
	if (each_address(s, e, &smp, kernel, build_one, &b) < 0) {
		park(s, e, &smp, b.pr, t->comm, kernel, rs.parallelism);
		return 0;
	}
	rs.nframes = b.n;
	rs.frames = s->frames;
	rs.unwind_end = s->nupcs ? s->ustop.end : 0;
	rs.unwind_at = s->ustop_frame < b.n ? s->ustop_frame : -1;
	rs.repaired = s->repaired;
	rs.cut = s->cut;
	return s->fn(s->ctx, &rs);
}

int ss_deliver_sample(struct session *s, const struct evdesc *e,
		      const struct perf_event_header *h, uint64_t foff)
{
	struct sample smp;
	int ret;

	if (decode_sample(&e->attr, h, &smp))
		return ss_skip(&s->skd, foff, "malformed SAMPLE record");
	if (ss_is_switch_event(e) && (smp.present & PERF_SAMPLE_TID)) {
		/* where the thread is as it switches out: the stack of its wait */
		struct thread *t = ss_get_thread(s, (int)smp.pid, (int)smp.tid);

		if (!ss_cs_keep(s, t, h)) {
			t->cs_ev = e;
			t->cs_time = smp.time;
		}
	}
	s->mended = (h->misc & PDATA_MISC_SAMPLE_MENDED) != 0;
	/* a guest's addresses name nothing of the host's: its kernel, the VMM's maps */
	resolver_guest(s->res, ss_is_guest_mode(h->misc));
	ret = ss_sample_go(s, e, &smp, ss_is_kernel_mode(h->misc), NULL);
	resolver_guest(s->res, 0);
	s->mended = 0;
	if (!ret && ss_is_switch_event(e) && (h->misc & PDATA_MISC_SAMPLE_SWITCH_OUT)) {
		/* prof record folded the thread's SWITCH out record into it */
		struct kevent k;

		memset(&k, 0, sizeof(k));
		k.type = PERF_RECORD_SWITCH;
		k.switch_out = 1;
		k.preempt = (h->misc & PDATA_MISC_SAMPLE_PREEMPT) != 0;
		ret = ss_do_switch(s, &k, &smp);
	}
	return ret;
}
