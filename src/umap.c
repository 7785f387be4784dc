// SPDX-License-Identifier: GPL-2.0-or-later
/* A map from arrays of u64 to values. See umap.h. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "umap.h"
#include "xalloc.h"

struct ukey *umap_probe(struct umap *m, const uint64_t *w, size_t n, struct htab_probe *p)
{
	uint32_t j;

	htab_probe(&m->t, htab_hash_words(w, n) ^ n, p);
	while (htab_next(&m->t, p, &j)) {
		struct ukey *e = &m->ents[j];

		if (e->len == n && !memcmp(m->keys + e->off, w, n * sizeof(*w)))
			return e;
	}
	return NULL;
}

/* The entry of key w[0..n), made with val when new (*made set). */
struct ukey *umap_get(struct umap *m, const uint64_t *w, size_t n, uint64_t val, int *made)
{
	struct htab_probe p;
	struct ukey *e = umap_probe(m, w, n, &p);

	*made = 0;
	if (e)
		return e;
	if (m->nkeys + n > m->cap_keys) {
		m->cap_keys = (m->cap_keys + n) * 2;
		m->keys = xreallocarray(m->keys, m->cap_keys, sizeof(*m->keys));
	}
	memcpy(m->keys + m->nkeys, w, n * sizeof(*w));
	if (m->n == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 16;	/* small: a pprof per event */
		m->ents = xreallocarray(m->ents, m->cap, sizeof(*m->ents));
	}
	m->ents[m->n].off = m->nkeys;
	m->ents[m->n].len = n;
	m->ents[m->n].val = val;
	m->nkeys += n;
	htab_put(&m->t, &p, (uint32_t)m->n++);
	*made = 1;
	return &m->ents[m->n - 1];
}

void umap_release(struct umap *m)
{
	free(m->keys);
	free(m->ents);
	htab_release(&m->t);
}
