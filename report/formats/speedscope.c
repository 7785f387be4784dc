// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format speedscope: the profile as speedscope's file format
 * (https://www.speedscope.app/file-format-schema.json; the types are
 * src/lib/file-format-spec.ts in jlfwong/speedscope). One "sampled"
 * profile per event and thread, its samples in time order, each a stack
 * of indices into one shared frame table, root first, weighed by its
 * period: nanoseconds for the clocks and off-CPU time, else a count.
 * Names are resolved here, so the file reads the same on any machine.
 *
 * Consecutive samples of a thread with the same stack are one sample of
 * their summed weight, which is what speedscope makes of them anyway: its
 * time order view merges them the same way.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "htab.h"
#include "json.h"
#include "module.h"
#include "strpool.h"
#include "tsamples.h"
#include "xalloc.h"

/* --- the file ---------------------------------------------------------------- */

/*
 * The frames of every event as one table, each written once: an event's
 * frame i is map[e][i] in it. Names are compared as text: those of
 * frames with no symbol are each event's own.
 */
static uint32_t **put_frames(struct tsamples *const *c, size_t n, FILE *out, size_t *count)
{
	uint32_t **map = xcalloc(n + 1, sizeof(*map));
	const struct ts_frame **all = NULL;
	size_t nall = 0, cap = 0;
	struct htab tab;

	htab_init(&tab);
	fputs("\"shared\":{\"frames\":[", out);
	for (size_t e = 0; e < n; e++) {
		map[e] = xreallocarray(NULL, c[e]->nframe + 1, sizeof(**map));
		for (size_t i = 0; i < c[e]->nframe; i++) {
			const struct ts_frame *f = &c[e]->frame[i];
			uint64_t w[3] = { htab_hash_bytes(f->name, strlen(f->name)), f->flags,
					  (uint64_t)(uintptr_t)f->dso };
			struct htab_probe p;
			uint32_t j;
			int found = 0;

			htab_probe(&tab, htab_hash_words(w, 3), &p);
			while (!found && htab_next(&tab, &p, &j))
				found = all[j]->flags == f->flags && all[j]->dso == f->dso &&
					!strcmp(all[j]->name, f->name);
			if (found) {
				map[e][i] = j;
				continue;
			}
			all = xgrow(all, &cap, nall + 1, sizeof(*all));
			all[nall] = f;
			htab_put(&tab, &p, (uint32_t)nall);
			map[e][i] = (uint32_t)nall;
			fputs(nall++ ? ",\n{\"name\":" : "\n{\"name\":", out);
			if (f->flags & FRAME_INLINED) {
				size_t len = strlen(f->name) + sizeof(" (inlined)");
				char *name = xmalloc(len);

				snprintf(name, len, "%s (inlined)", f->name);
				json_put_string(out, name);
				free(name);
			} else {
				json_put_string(out, f->name);
			}
			if (f->dso) {
				fputs(",\"file\":", out);
				json_put_string(out, dso_path(f->dso));
			}
			putc('}', out);
		}
	}
	fputs("]},\n", out);
	free(all);
	htab_release(&tab);
	*count = nall;
	return map;
}

/*
 * One sampled profile: samples stack[0 .. n) (nodes of c) with their
 * weights, in time order, summing to total.
 */
static void put_profile(const struct tsamples *c, const char *name, const uint32_t *stack,
			const uint64_t *weight, size_t n, uint64_t total, const uint32_t *map,
			uint32_t *path, FILE *out)
{
	fputs("{\"type\":\"sampled\",\"name\":", out);
	json_put_string(out, name);
	fprintf(out, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%" PRIu64 ",\n\"samples\":[",
		tsamples_in_ns(c) ? "nanoseconds" : "none", total);
	for (size_t i = 0; i < n; i++) {
		size_t depth = 0;

		for (uint32_t at = stack[i]; at; at = c->node[at].parent)
			path[depth++] = c->node[at].frame;
		fputs(i ? ",[" : "[", out);
		while (depth--)
			fprintf(out, "%" PRIu32 "%s", map[path[depth]], depth ? "," : "");
		putc(']', out);
		if (i % 32 == 31)
			putc('\n', out);
	}
	fputs("],\n\"weights\":[", out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%" PRIu64 "%s", i ? "," : "", weight[i], i % 32 == 31 ? "\n" : "");
	fputs("]}", out);
}

static void put_thread(const struct tsamples *c, const struct ts_thread *t, const uint32_t *map,
		       uint32_t *path, FILE *out)
{
	char name[512];

	snprintf(name, sizeof(name), "%s %d/%d (%s)", t->comm ? t->comm : "?", t->pid, t->tid,
		 c->ev->name);
	put_profile(c, name, t->stack, t->weight, t->n, t->total, map, path, out);
}

/*
 * Past the threads speedscope opens quickly: the busiest each a profile
 * as ever, the rest one profile per command ("ls (412 threads)"), the
 * busiest commands first, and past those one of all the others. Every
 * sample is in some profile, each group's in time order, runs of one
 * stack merged again.
 *
 * Why: speedscope's importer copies the whole shared frame table into
 * each profile it reads (importSpeedscopeProfile in its
 * src/import/speedscope.ts: `frames.map(...)` per profile), so its cost is
 * profiles times frames: a whole host's 2,720 threads over 9,850 frames
 * took it 8 s and 570 MB of heap to open, nearly all of it that copy and
 * its garbage.
 */
#define SS_WORK ((size_t)4000000)	/* profiles x frames speedscope opens in about a second */
#define SS_MAX 256
#define SS_MIN 16

struct ss_sample {
	uint64_t time, weight;
	uint32_t stack;
};

static int ss_by_time(const void *a, const void *b)
{
	const struct ss_sample *x = a, *y = b;

	return x->time < y->time ? -1 : x->time > y->time;
}

struct ss_group {
	const char *comm;
	size_t id;		/* its place before the sort */
	size_t nthread;
	uint64_t total;
};

static int ss_by_total(const void *a, const void *b)
{
	const struct ss_group *x = a, *y = b;

	return x->total != y->total ? (x->total < y->total ? 1 : -1) : strcmp(x->comm, y->comm);
}

/* The threads t[i] of rank[i] in [lo, hi) as one profile called name. */
static void put_group(const struct tsamples *c, const struct ts_thread **t, size_t n,
		      const size_t *rank, size_t lo, size_t hi, const char *name,
		      const uint32_t *map, uint32_t *path, FILE *out)
{
	struct ss_sample *all = NULL;
	uint32_t *stack;
	uint64_t *weight, total = 0;
	size_t m = 0, cap = 0, k = 0;

	for (size_t i = 0; i < n; i++) {
		if (rank[i] < lo || rank[i] >= hi)
			continue;
		all = xgrow(all, &cap, m + t[i]->n, sizeof(*all));
		for (size_t j = 0; j < t[i]->n; j++)
			all[m++] = (struct ss_sample){ t[i]->time[j], t[i]->weight[j], t[i]->stack[j] };
		total += t[i]->total;
	}
	qsort(all, m, sizeof(*all), ss_by_time);
	stack = xreallocarray(NULL, m + 1, sizeof(*stack));
	weight = xreallocarray(NULL, m + 1, sizeof(*weight));
	for (size_t i = 0; i < m; i++) {
		if (k && stack[k - 1] == all[i].stack) {
			weight[k - 1] += all[i].weight;
			continue;
		}
		stack[k] = all[i].stack;
		weight[k++] = all[i].weight;
	}
	put_profile(c, name, stack, weight, k, total, map, path, out);
	free(all);
	free(stack);
	free(weight);
}

/*
 * Event c's threads t[0 .. n) (the busiest first), as at most max
 * profiles: the first of them is written after a comma when *profiles.
 * Returns the threads grouped.
 */
static size_t put_threads(const struct tsamples *c, const struct ts_thread **t, size_t n, size_t max,
			  const uint32_t *map, uint32_t *path, size_t *profiles, FILE *out)
{
	size_t alone = n <= max ? n : max / 2, ngroup = 0, cap = 0, kept, rest = 0;
	size_t *rank, *at;
	struct ss_group *g = NULL;
	char name[512];

	for (size_t i = 0; i < alone; i++) {
		fputs((*profiles)++ ? ",\n" : "", out);
		put_thread(c, t[i], map, path, out);
	}
	if (alone == n)
		return 0;
	/* each thread past those alone: its command's group */
	t += alone;
	n -= alone;
	rank = xreallocarray(NULL, n, sizeof(*rank));
	for (size_t i = 0; i < n; i++) {
		const char *comm = t[i]->comm ? t[i]->comm : "?";
		size_t j = 0;

		while (j < ngroup && strcmp(g[j].comm, comm))
			j++;
		if (j == ngroup) {
			g = xgrow(g, &cap, ngroup + 1, sizeof(*g));
			g[ngroup] = (struct ss_group){ comm, ngroup, 0, 0 };
			ngroup++;
		}
		g[j].nthread++;
		g[j].total += t[i]->total;
		rank[i] = j;
	}
	/* the heaviest first: a thread's rank is its group's place then */
	qsort(g, ngroup, sizeof(*g), ss_by_total);
	at = xreallocarray(NULL, ngroup, sizeof(*at));
	for (size_t j = 0; j < ngroup; j++)
		at[g[j].id] = j;
	for (size_t i = 0; i < n; i++)
		rank[i] = at[rank[i]];
	/* one profile for what is past the groups kept, when any is */
	kept = ngroup <= max - alone ? ngroup : max - alone - 1;
	for (size_t j = 0; j < ngroup; j++) {
		if (j < kept) {
			snprintf(name, sizeof(name), "%s (%zu threads) (%s)", g[j].comm, g[j].nthread,
				 c->ev->name);
			fputs((*profiles)++ ? ",\n" : "", out);
			put_group(c, t, n, rank, j, j + 1, name, map, path, out);
		} else {
			rest += g[j].nthread;
		}
	}
	if (kept < ngroup) {
		snprintf(name, sizeof(name), "other commands (%zu threads) (%s)", rest, c->ev->name);
		fputs((*profiles)++ ? ",\n" : "", out);
		put_group(c, t, n, rank, kept, ngroup, name, map, path, out);
	}
	free(at);
	free(rank);
	free(g);
	return n;
}

static int write_speedscope(const struct profile *p, const struct format_view *v, FILE *out)
{
	size_t n, profiles = 0, nframe = 0, max, grouped = 0, nthread = 0;
	struct tsamples **c = tsamples_of(p, &n);
	uint32_t **map;

	(void)v;
	tsamples_say_thinned(c, n, "the speedscope file");
	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n", out);
	fputs("\"exporter\":\"prof " PACKAGE_VERSION "\",\"name\":", out);
	json_put_string(out, p->input);
	/* the first event's busiest thread: threads are sorted so, and it comes first */
	fputs(",\"activeProfileIndex\":0,\n", out);
	map = put_frames(c, n, out, &nframe);
	/* profiles x frames within what speedscope opens quickly, shared by the events */
	max = SS_WORK / (nframe ? nframe : 1) / (n ? n : 1);
	max = max > SS_MAX ? SS_MAX : max < SS_MIN ? SS_MIN : max;
	fputs("\"profiles\":[", out);
	for (size_t e = 0; e < n; e++) {
		const struct ts_thread **t = tsamples_threads(c[e]);
		uint32_t *path = xreallocarray(NULL, c[e]->nnode, sizeof(*path));

		grouped += put_threads(c[e], t, c[e]->nthread, max, map[e], path, &profiles, out);
		nthread += c[e]->nthread;
		free(path);
		free(t);
		free(map[e]);
	}
	fputs("]}\n", out);
	if (grouped)
		fprintf(stderr, "prof: the speedscope file: %zu of %zu threads are in a profile per command "
			"(speedscope's importer costs its profiles times its %zu frames): the busiest are each "
			"their own, every sample is in the file; --pid or --tid gives those threads each theirs\n",
			grouped, nthread, nframe);
	free(map);
	free(c);
	return ferror(out) ? -EIO : 0;
}

const struct format format_speedscope = {
	.name = "speedscope",
	.help = "each thread's samples in time order, for speedscope",
	.needs = FORMAT_CHAINS | FORMAT_ORDERED,
	.collector = &tsamples_merged,
	.write = write_speedscope,
};
