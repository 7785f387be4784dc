/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A map from arrays of u64 (a key of any length: a stack's locations, a
 * function's name and file) to a value, each entry made once: what a
 * format that numbers things as it first meets them (pprof's strings,
 * functions, locations, samples) keeps its tables with. Zero-initialized.
 */
#ifndef PROF_UMAP_H
#define PROF_UMAP_H

#include <stddef.h>
#include <stdint.h>

#include "htab.h"

struct ukey {
	size_t off, len;	/* in keys */
	uint64_t val;
};

struct umap {
	uint64_t *keys;
	size_t nkeys, cap_keys;
	struct ukey *ents;	/* the htab's items */
	size_t n, cap;
	struct htab t;
};

/* The entry of key w[0..n), or NULL with *p where it would go. */
struct ukey *umap_probe(struct umap *m, const uint64_t *w, size_t n, struct htab_probe *p);
/* The entry of key w[0..n), made with val when new (*made set). */
struct ukey *umap_get(struct umap *m, const uint64_t *w, size_t n, uint64_t val, int *made);
void umap_release(struct umap *m);

#endif
