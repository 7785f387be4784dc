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
static uint32_t **put_frames(struct tsamples *const *c, size_t n, FILE *out)
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
	return map;
}

static void put_thread(const struct tsamples *c, const struct ts_thread *t, const uint32_t *map,
		       uint32_t *path, FILE *out)
{
	int nsec = tsamples_in_ns(c);
	char name[512];

	snprintf(name, sizeof(name), "%s %d/%d (%s)", t->comm ? t->comm : "?", t->pid, t->tid,
		 c->ev->name);
	fputs("{\"type\":\"sampled\",\"name\":", out);
	json_put_string(out, name);
	fprintf(out, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%" PRIu64 ",\n\"samples\":[",
		nsec ? "nanoseconds" : "none", t->total);
	for (size_t i = 0; i < t->n; i++) {
		size_t depth = 0;

		for (uint32_t at = t->stack[i]; at; at = c->node[at].parent)
			path[depth++] = c->node[at].frame;
		fputs(i ? ",[" : "[", out);
		while (depth--)
			fprintf(out, "%" PRIu32 "%s", map[path[depth]], depth ? "," : "");
		putc(']', out);
		if (i % 32 == 31)
			putc('\n', out);
	}
	fputs("],\n\"weights\":[", out);
	for (size_t i = 0; i < t->n; i++)
		fprintf(out, "%s%" PRIu64 "%s", i ? "," : "", t->weight[i], i % 32 == 31 ? "\n" : "");
	fputs("]}", out);
}

static int write_speedscope(const struct profile *p, const struct format_view *v, FILE *out)
{
	size_t n, profiles = 0;
	struct tsamples **c = tsamples_of(p, &n);
	uint32_t **map;

	(void)v;
	tsamples_say_thinned(c, n, "the speedscope file");
	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n", out);
	fputs("\"exporter\":\"prof " PACKAGE_VERSION "\",\"name\":", out);
	json_put_string(out, p->input);
	/* the first event's busiest thread: threads are sorted so, and it comes first */
	fputs(",\"activeProfileIndex\":0,\n", out);
	map = put_frames(c, n, out);
	fputs("\"profiles\":[", out);
	for (size_t e = 0; e < n; e++) {
		const struct ts_thread **t = tsamples_threads(c[e]);
		uint32_t *path = xreallocarray(NULL, c[e]->nnode, sizeof(*path));

		for (size_t i = 0; i < c[e]->nthread; i++) {
			if (profiles++)
				fputs(",\n", out);
			put_thread(c[e], t[i], map[e], path, out);
		}
		free(path);
		free(t);
		free(map[e]);
	}
	fputs("]}\n", out);
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
