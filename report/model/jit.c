// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jit.h"
#include "jitdump.h"
#include "strpool.h"
#include "u64map.h"
#include "xalloc.h"

/*
 * How many functions before the one found by start a look-up checks for
 * one that still covers the address: entries overlap only where a
 * runtime reused addresses, a few deep at most. A crafted file that
 * nests thousands costs no more than this per look-up; past it, an
 * address may go unnamed.
 */
#define SCAN_BACK 256

struct jit_table {
	struct strpool *pool;
	struct jit_sym *s;
	size_t n, cap;
	uint64_t *maxend;	/* maxend[i]: the largest end of s[0..i], once sorted */
	int sorted;
	struct jit_line *lines;
	size_t nlines, lcap;
	struct u64map index;	/* jitdump code_index -> its load in ld */
	struct jit_load { const char *name; uint32_t lines, nlines; } *ld;
	size_t nld, ldcap;
	uint64_t bad;		/* skipped in the last jit_add_*() */
	char why[128];
};

struct jit_table *jit_new(struct strpool *pool)
{
	struct jit_table *t = xcalloc(1, sizeof(*t));

	t->pool = pool;
	u64map_init(&t->index);
	return t;
}

void jit_free(struct jit_table *t)
{
	if (!t)
		return;
	free(t->s);
	free(t->maxend);
	free(t->lines);
	free(t->ld);
	u64map_release(&t->index);
	free(t);
}

size_t jit_count(const struct jit_table *t)
{
	return t->n;
}

static void problem(struct jit_table *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void problem(struct jit_table *t, const char *fmt, ...)
{
	va_list ap;

	if (t->bad++)
		return;
	va_start(ap, fmt);
	vsnprintf(t->why, sizeof(t->why), fmt, ap);
	va_end(ap);
}

static struct jit_sym *add(struct jit_table *t, uint64_t start, uint64_t size, uint64_t time,
			   const char *name)
{
	struct jit_sym *j;

	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 8;
		t->s = xreallocarray(t->s, t->cap, sizeof(*t->s));
	}
	j = &t->s[t->n];
	j->start = start;
	/* a size of 0 names the one address; none runs past the top */
	j->end = size && start + size > start ? start + size : start + 1;
	j->time = time;
	j->seq = (uint32_t)t->n;
	j->lines = j->nlines = 0;
	j->name = name;
	t->n++;
	return j;
}

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
		: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A hex number at *p (an optional 0x), at most 16 digits; -1 when none. */
static int hexnum(const char **p, const char *end, uint64_t *out)
{
	const char *q = *p;
	uint64_t v = 0;
	int nd = 0;

	if (end - q > 2 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))
		q += 2;
	while (q < end && hexval((unsigned char)*q) >= 0) {
		if (++nd > 16)
			return -1;
		v = v << 4 | (uint64_t)hexval((unsigned char)*q++);
	}
	if (!nd)
		return -1;
	*p = q;
	*out = v;
	return 0;
}

uint64_t jit_add_perf_map(struct jit_table *t, const char *text, size_t len, const char **why)
{
	const char *p = text, *end = text + len;
	unsigned long long lineno = 0;

	t->bad = 0;
	*why = t->why;
	if (t->sorted) {
		problem(t, "it came after the table was in use");
		return t->bad;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *q = p, *eol;
		uint64_t start, size;

		eol = nl ? nl : end;
		lineno++;
		if (eol > q && eol[-1] == '\r')
			eol--;
		if (q == eol) {		/* an empty line */
			p = nl ? nl + 1 : end;
			continue;
		}
		if (hexnum(&q, eol, &start) || q == eol || (*q != ' ' && *q != '\t'))
			goto bad;
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		if (hexnum(&q, eol, &size) || q == eol || (*q != ' ' && *q != '\t'))
			goto bad;
		while (q < eol && (*q == ' ' || *q == '\t'))
			q++;
		if (q == eol)
			goto bad;
		add(t, start, size, 0, strpool_intern_text(t->pool, q, (size_t)(eol - q)));
		p = nl ? nl + 1 : end;
		continue;
bad:
		problem(t, "line %llu is not \"START SIZE NAME\" in hex", lineno);
		p = nl ? nl + 1 : end;
	}
	return t->bad;
}

/* Keep the entries of a DEBUG_INFO record for the CODE_LOAD that follows it. */
static void debug_info(struct jit_table *t, const struct jitdump_rec *r, uint64_t *code_addr,
		       size_t *first, size_t *n)
{
	struct jit_debug_info di;
	struct jit_debug_entry e;
	size_t off;

	*n = 0;
	*first = t->nlines;
	if (jitdump_debug_info(r, &di)) {
		problem(t, "a DEBUG_INFO record of %llu bytes is too short",
			(unsigned long long)r->size);
		return;
	}
	*code_addr = di.code_addr;
	off = di.off;
	/* nr_entry is the record's word: its bytes bound it, not the number */
	for (uint64_t i = 0; i < di.nr_entry; i++) {
		if (jitdump_debug_entry(r, &off, &e) != 1) {
			problem(t, "a DEBUG_INFO record runs past its end after %llu entries",
				(unsigned long long)i);
			break;
		}
		if (e.addr < di.code_addr)
			continue;	/* before its function: no line of it */
		if (t->nlines == t->lcap) {
			t->lcap = t->lcap ? 2 * t->lcap : 8;
			t->lines = xreallocarray(t->lines, t->lcap, sizeof(*t->lines));
		}
		t->lines[t->nlines].off = e.addr - di.code_addr;
		t->lines[t->nlines].line = e.line;
		t->lines[t->nlines].file = strpool_intern_text(t->pool, e.file, strlen(e.file));
		t->nlines++;
		(*n)++;
	}
}

static int by_off(const void *a, const void *b)
{
	const struct jit_line *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

uint64_t jit_add_jitdump(struct jit_table *t, const void *data, size_t len, const char **why_out)
{
	struct jitdump_header h;
	struct jitdump_rec r;
	const char *why;
	size_t off, dfirst = 0, dn = 0;
	uint64_t daddr = 0;
	int timeless;
	int ret;

	t->bad = 0;
	*why_out = t->why;
	if (t->sorted) {
		problem(t, "it came after the table was in use");
		return t->bad;
	}
	if (jitdump_header(data, len, &h, &why)) {
		problem(t, "%s", why);
		return t->bad;
	}
	timeless = (h.flags & 1) != 0;	/* JITDUMP_FLAGS_ARCH_TIMESTAMP: a TSC, say */
	off = h.size;
	while ((ret = jitdump_next(data, len, &off, &r, &why)) == 1) {
		uint64_t time = timeless ? 0 : r.timestamp;

		switch (r.id) {
		case JIT_CODE_LOAD: {
			struct jit_code_load cl;
			struct jit_sym *j;

			if (jitdump_code_load(&r, &cl)) {
				problem(t, "a CODE_LOAD record of %llu bytes is too short",
					(unsigned long long)r.size);
				break;
			}
			j = add(t, cl.vma, cl.code_size, time,
				strpool_intern_text(t->pool, cl.name, cl.name_len));
			if (dn && daddr == cl.code_addr) {
				j->lines = (uint32_t)dfirst;
				j->nlines = (uint32_t)dn;
				qsort(t->lines + dfirst, dn, sizeof(*t->lines), by_off);	/* dn > 0 */
			}
			dn = 0;
			if (t->nld == t->ldcap) {
				t->ldcap = t->ldcap ? 2 * t->ldcap : 8;
				t->ld = xreallocarray(t->ld, t->ldcap, sizeof(*t->ld));
			}
			t->ld[t->nld].name = j->name;
			t->ld[t->nld].lines = j->lines;
			t->ld[t->nld].nlines = j->nlines;
			/* a code index loaded twice: moves follow the first */
			if (u64map_add(&t->index, cl.code_index, (uint32_t)t->nld))
				t->nld++;
			break;
		}
		case JIT_CODE_MOVE: {
			struct jit_code_move cm;
			uint32_t i;
			struct jit_sym *j;

			if (jitdump_code_move(&r, &cm)) {
				problem(t, "a CODE_MOVE record of %llu bytes is too short",
					(unsigned long long)r.size);
				break;
			}
			if (!u64map_get(&t->index, cm.code_index, &i)) {
				problem(t, "a CODE_MOVE record of code index %llu that was never loaded",
					(unsigned long long)cm.code_index);
				break;
			}
			j = add(t, cm.vma, cm.code_size, time, t->ld[i].name);
			j->lines = t->ld[i].lines;
			j->nlines = t->ld[i].nlines;
			break;
		}
		case JIT_CODE_DEBUG_INFO:
			debug_info(t, &r, &daddr, &dfirst, &dn);
			break;
		default:
			/* CLOSE, UNWINDING_INFO (the frame pointer unwinds JIT code), newer kinds */
			break;
		}
	}
	if (ret < 0)
		problem(t, "%s", why);
	return t->bad;
}

static int by_start(const void *a, const void *b)
{
	const struct jit_sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void sort(struct jit_table *t)
{
	uint64_t m = 0;

	if (t->n)
		qsort(t->s, t->n, sizeof(*t->s), by_start);
	free(t->maxend);
	t->maxend = xreallocarray(NULL, t->n ? t->n : 1, sizeof(*t->maxend));
	for (size_t i = 0; i < t->n; i++) {
		t->s[i].lp = t->s[i].nlines ? t->lines + t->s[i].lines : NULL;
		if (t->s[i].end > m)
			m = t->s[i].end;
		t->maxend[i] = m;
	}
	t->sorted = 1;
}

/* Whether x was loaded later than y. */
static int later(const struct jit_sym *x, const struct jit_sym *y)
{
	return x->time != y->time ? x->time > y->time : x->seq > y->seq;
}

const struct jit_sym *jit_find(struct jit_table *t, uint64_t addr, uint64_t time)
{
	const struct jit_sym *best = NULL, *first = NULL;
	size_t lo = 0, hi, steps = 0;

	if (!t)
		return NULL;
	if (!t->sorted)
		sort(t);
	if (!t->n)
		return NULL;
	hi = t->n;
	while (lo < hi) {	/* the first with start > addr */
		size_t mid = lo + (hi - lo) / 2;

		if (t->s[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0 && t->maxend[i] > addr && steps++ < SCAN_BACK;) {
		const struct jit_sym *j = &t->s[i];

		if (addr >= j->end)
			continue;
		if (j->time <= time && (!best || later(j, best)))
			best = j;
		if (!first || later(first, j))
			first = j;
	}
	return best ? best : first;
}

const struct jit_line *jit_line(const struct jit_sym *j, uint64_t addr)
{
	const struct jit_line *l = j->lp;
	size_t lo = 0, hi;

	if (!l || addr < j->start)
		return NULL;
	hi = j->nlines;
	while (lo < hi) {	/* the first entry past addr */
		size_t mid = lo + (hi - lo) / 2;

		if (l[mid].off <= addr - j->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &l[lo - 1] : NULL;
}
