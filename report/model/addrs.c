// SPDX-License-Identifier: GPL-2.0-or-later
/* Samples by address: see addrs.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "addrs.h"
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

void addrs_add(struct addrs *t, const struct rsample *s)
{
	const struct rframe *f, *fn;
	uint64_t key[2];
	struct htab_probe p;
	struct addr_count *c = NULL;
	uint32_t i;

	if (!s->nframes)
		return;
	f = &s->frames[0];
	/* the function the instruction is in: past the frames inlined at it */
	fn = f;
	for (int k = 1; fn->inlined && k < s->nframes && s->frames[k].addr == f->addr &&
			s->frames[k].dso == f->dso; k++)
		fn = &s->frames[k];
	key[0] = (uint64_t)(uintptr_t)f->dso;
	key[1] = f->addr;
	htab_probe(&t->index, htab_hash_words(key, 2), &p);
	while (htab_next(&t->index, &p, &i))
		if (t->a[i].dso == f->dso && t->a[i].addr == f->addr) {
			c = &t->a[i];
			break;
		}
	if (!c) {
		t->a = xgrow(t->a, &t->cap, t->n + 1, sizeof(*t->a));
		c = &t->a[t->n];
		memset(c, 0, sizeof(*c));
		c->dso = f->dso;
		c->addr = f->addr;
		c->func = fn->inlined ? NULL : fn->name;
		c->sym_offset = fn->inlined ? 0 : fn->sym_offset;
		c->kernel = f->kernel;
		htab_put(&t->index, &p, (uint32_t)t->n++);
	}
	c->samples++;
	c->period += s->period;
}

static int by_place(const void *pa, const void *pb)
{
	const struct addr_count *a = pa, *b = pb;

	if (a->dso != b->dso)
		return (uintptr_t)a->dso < (uintptr_t)b->dso ? -1 : 1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

const struct addr_count *addrs_sorted(struct addrs *t, size_t *n)
{
	/* sorted in place: the index is made again from the new order */
	qsort(t->a, t->n, sizeof(*t->a), by_place);
	htab_clear(&t->index);
	for (size_t i = 0; i < t->n; i++) {
		struct htab_probe p;
		uint64_t key[2] = { (uint64_t)(uintptr_t)t->a[i].dso, t->a[i].addr };

		uint32_t j;

		htab_probe(&t->index, htab_hash_words(key, 2), &p);
		while (htab_next(&t->index, &p, &j))
			;
		htab_put(&t->index, &p, (uint32_t)i);
	}
	*n = t->n;
	return t->a;
}
