// SPDX-License-Identifier: GPL-2.0-or-later
/* Samples by address: see addrs.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "addrs.h"
#include "evkind.h"
#include "xalloc.h"

struct addrs *addrs_new(void)
{
	struct addrs *t = xcalloc(1, sizeof(*t));

	htab_init(&t->index);
	return t;
}

void addrs_free(struct addrs *t)
{
	if (!t)
		return;
	htab_release(&t->index);
	free(t->a);
	free(t);
}

/* Count at frames[k] of s, its address less back (a return address put on its call): its index. */
static size_t add_at(struct addrs *t, const struct rsample *s, int k, uint64_t back)
{
	const struct rframe *f = &s->frames[k], *fn;
	uint64_t key[2];
	struct htab_probe p;
	struct addr_count *c = NULL;
	uint32_t i;

	/* the function the instruction is in: past the frames inlined at it */
	fn = f;
	for (int j = k + 1; fn->inlined && j < s->nframes && s->frames[j].addr == f->addr &&
			s->frames[j].dso == f->dso; j++)
		fn = &s->frames[j];
	if (f->addr < back)
		back = 0;
	key[0] = (uint64_t)(uintptr_t)f->dso;
	key[1] = f->addr - back;
	htab_probe(&t->index, htab_hash_words(key, 2), &p);
	while (htab_next(&t->index, &p, &i))
		if (t->a[i].dso == f->dso && t->a[i].addr == f->addr - back) {
			c = &t->a[i];
			break;
		}
	if (!c) {
		t->a = xgrow(t->a, &t->cap, t->n + 1, sizeof(*t->a));
		c = &t->a[t->n];
		memset(c, 0, sizeof(*c));
		c->dso = f->dso;
		c->addr = f->addr - back;
		c->func = fn->inlined ? NULL : fn->name;
		c->sym_offset = fn->inlined || fn->sym_offset < back ? 0 : fn->sym_offset - back;
		c->kernel = f->kernel;
		htab_put(&t->index, &p, (uint32_t)t->n++);
	}
	c->samples++;
	c->period += s->period;
	return (size_t)(c - t->a);
}

size_t addrs_add_leaf(struct addrs *t, const struct rsample *s)
{
	if (!s->nframes)
		return 0;
	t->samples++;
	t->period += s->period;
	return add_at(t, s, 0, 0) + 1;
}

void addrs_add(struct addrs *t, const struct rsample *s)
{
	if (!s->nframes)
		return;
	t->samples++;
	t->period += s->period;
	/*
	 * Time off the CPU is the program's where it waited: at each of its
	 * frames outside the kernel, a return address (the instruction after
	 * the call or syscall) put back on the instruction that made it, each
	 * function once, so that a function's lines hold the time it waited
	 * in what it called, and the caller's own line says which call.
	 */
	if (s->ev && evkind_time(s->ev->name, s->ev->attr.config)) {
		const char *seen[16];
		int nseen = 0, any = 0;

		for (int k = 0; k < s->nframes; k++) {
			const struct rframe *f = &s->frames[k];
			int dup = 0;

			if (f->kernel || f->inlined)
				continue;
			for (int j = 0; j < nseen && f->name; j++)
				dup |= seen[j] == f->name;
			if (dup)
				continue;
			if (f->name && nseen < 16)
				seen[nseen++] = f->name;
			/* inlined frames at f's address come before it: start there */
			{
				int first = k;

				while (first > 0 && s->frames[first - 1].inlined &&
				       s->frames[first - 1].addr == f->addr)
					first--;
				add_at(t, s, first, k > 0 ? 1 : 0);
			}
			any = 1;
		}
		if (any)
			return;
	}
	add_at(t, s, 0, 0);
}

static int by_place(const void *pa, const void *pb)
{
	const struct addr_count *a = pa, *b = pb;

	if (a->dso != b->dso)
		return (uintptr_t)a->dso < (uintptr_t)b->dso ? -1 : 1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static uint64_t place_hash(const void *ctx, size_t i)
{
	const struct addr_count *c = &((const struct addrs *)ctx)->a[i];
	uint64_t key[2] = { (uint64_t)(uintptr_t)c->dso, c->addr };

	return htab_hash_words(key, 2);
}

const struct addr_count *addrs_sorted(struct addrs *t, size_t *n)
{
	/* sorted in place: the index is made again from the new order */
	qsort(t->a, t->n, sizeof(*t->a), by_place);
	htab_reindex(&t->index, t->n, place_hash, t);
	*n = t->n;
	return t->a;
}
