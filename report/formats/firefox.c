// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format firefox: the profile as the Firefox Profiler's processed
 * profile (https://profiler.firefox.com), version 66, as samply writes it
 * (fxprof-processed-profile): the profiler's own upgraders bring it to
 * whatever version it reads today. The types are those of
 * src/types/profile.ts in firefox-devtools/profiler at version 66; the
 * shape follows samply's integration snapshots.
 *
 * The tables are shared by every thread (profile.shared): strings, a
 * stack table of prefixes (prefixOffset: a stack's distance back to its
 * caller's), a frame per address (its address relative to its library's
 * first segment, its source line, its depth among the functions inlined
 * there, its native symbol: the function's start and size, for the
 * profiler's assembly view), a function per name and library (its source
 * file, for the source view), a resource per library carrying its build
 * id.
 *
 * One thread per event and thread of the profile, grouped by pid into
 * processes, living from its FORK (or first sample) to its EXIT (or the
 * end), its samples in time order: a stack, a time delta in milliseconds,
 * a weight (milliseconds, "tracing-ms", for the clocks and off-CPU time,
 * else the period as a count of samples) and for the clocks the CPU time
 * in microseconds (threadCPUDelta: the profiler's CPU graph and
 * per-thread CPU). meta.startTime is the wall clock of the first sample
 * (the file's CLOCK_DATA; else its modification time less the profile's
 * span). Off-CPU and preempted intervals are also interval markers on
 * their thread. Every name is resolved here ("symbolicated").
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "format.h"
#include "json.h"
#include "module.h"
#include "objfile.h"
#include "strpool.h"
#include "tsamples.h"
#include "u64map.h"
#include "xalloc.h"

/* The categories, by index: every frame's and stack's, subcategory 0 ("Other"). */
enum { CAT_OTHER, CAT_USER, CAT_KERNEL, CAT_OFFCPU };

static const char *const categories =
	"[{\"name\":\"Other\",\"color\":\"grey\",\"subcategories\":[\"Other\"]},"
	"{\"name\":\"User\",\"color\":\"yellow\",\"subcategories\":[\"Other\"]},"
	"{\"name\":\"Kernel\",\"color\":\"orange\",\"subcategories\":[\"Other\"]},"
	"{\"name\":\"Off-CPU\",\"color\":\"blue\",\"subcategories\":[\"Other\"]}]";

static void put_hex(const unsigned char *b, size_t n, FILE *out)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%02X", b[i]);
}

/*
 * A library as the profiler names it: its build id as the code id, and
 * as breakpad's debug id (the first 16 bytes as a GUID, its first three
 * fields little-endian, then the age 0), as samply and dump_syms write
 * them for ELF files.
 */
static void put_lib(const struct dso *d, const char *arch, FILE *out)
{
	const unsigned char *id;
	size_t n = dso_build_id(d, &id);
	const char *path = dso_path(d), *name = dso_short_name(d);

	fputs("{\"arch\":", out);
	json_put_string(out, arch ? arch : "");
	fputs(",\"name\":", out);
	json_put_string(out, name);
	fputs(",\"path\":", out);
	json_put_string(out, path);
	fputs(",\"debugName\":", out);
	json_put_string(out, name);
	fputs(",\"debugPath\":", out);
	json_put_string(out, path);
	fputs(",\"breakpadId\":\"", out);
	if (n >= 16) {
		static const int order[16] = { 3, 2, 1, 0, 5, 4, 7, 6, 8, 9, 10, 11, 12, 13, 14, 15 };

		for (int i = 0; i < 16; i++)
			fprintf(out, "%02X", id[order[i]]);
		putc('0', out);
	}
	fputs("\",\"codeId\":", out);
	if (n) {
		putc('"', out);
		put_hex(id, n, out);
		putc('"', out);
	} else {
		fputs("null", out);
	}
	putc('}', out);
}

static int category_of(const struct ts_frame *f)
{
	return f->flags & FRAME_NONAME ? CAT_OTHER : f->flags & FRAME_KERNEL ? CAT_KERNEL : CAT_USER;
}

/* --- the shared tables ---------------------------------------------------------- */

#define NONE	UINT32_MAX	/* a null in a column of indexes */

struct shared {
	struct strpool *pool;		/* every string, interned once */
	struct u64map sidx;		/* string index by interned pointer */
	const char **str;
	size_t nstr, cap_str;
	struct ts_libs libs;		/* resource i is library i */
	/* funcTable: by (name, resource) */
	struct htab ftab;
	uint32_t *fname, *fres, *fsrc;
	size_t nfunc, cap_func;
	/* sources: by file name string */
	struct u64map srcidx;
	uint32_t *srcname;
	size_t nsrc, cap_src;
	/* nativeSymbols: by (library, start) */
	struct htab ntab;
	uint32_t *nlib, *nname;
	uint64_t *naddr, *nsize;
	size_t nnat, cap_nat;
	/* frameTable, of every event's frames in turn */
	int64_t *faddr;
	uint32_t *ffunc, *fnat, *fline, *fdepth, *fcat;
	size_t nframe, cap_frame;
	/* stackTable, of every event's nodes in turn */
	uint32_t *sframe, *soff;
	size_t nstack, cap_stack;
};

static uint32_t str_of(struct shared *t, const char *s)
{
	const char *in = strpool_intern(t->pool, s ? s : "");
	uint32_t i;

	if (u64map_get(&t->sidx, (uint64_t)(uintptr_t)in, &i))
		return i;
	t->str = xgrow(t->str, &t->cap_str, t->nstr + 1, sizeof(*t->str));
	t->str[t->nstr] = in;
	u64map_add(&t->sidx, (uint64_t)(uintptr_t)in, (uint32_t)t->nstr);
	return (uint32_t)t->nstr++;
}

static uint32_t source_of(struct shared *t, const char *file)
{
	uint32_t name = str_of(t, file), i;

	if (u64map_get(&t->srcidx, name, &i))
		return i;
	t->srcname = xgrow(t->srcname, &t->cap_src, t->nsrc + 1, sizeof(*t->srcname));
	t->srcname[t->nsrc] = name;
	u64map_add(&t->srcidx, name, (uint32_t)t->nsrc);
	return (uint32_t)t->nsrc++;
}

static uint32_t func_of(struct shared *t, const char *name, uint32_t res, const char *file)
{
	uint32_t sname = str_of(t, name), i;
	uint64_t w[2] = { sname, res };
	struct htab_probe p;

	htab_probe(&t->ftab, htab_hash_words(w, 2), &p);
	while (htab_next(&t->ftab, &p, &i))
		if (t->fname[i] == sname && t->fres[i] == res) {
			if (t->fsrc[i] == NONE && file)
				t->fsrc[i] = source_of(t, file);
			return i;
		}
	if (t->nfunc == t->cap_func) {
		t->cap_func = t->cap_func ? 2 * t->cap_func : 256;
		t->fname = xreallocarray(t->fname, t->cap_func, sizeof(*t->fname));
		t->fres = xreallocarray(t->fres, t->cap_func, sizeof(*t->fres));
		t->fsrc = xreallocarray(t->fsrc, t->cap_func, sizeof(*t->fsrc));
	}
	t->fname[t->nfunc] = sname;
	t->fres[t->nfunc] = res;
	t->fsrc[t->nfunc] = file ? source_of(t, file) : NONE;
	htab_put(&t->ftab, &p, (uint32_t)t->nfunc);
	return (uint32_t)t->nfunc++;
}

/*
 * The address the profiler and samply give a frame: relative to the
 * library's first segment (samply_object::relative_address_base), from
 * off, its offset in the file. 1, or 0 when the file is not here.
 */
static int relative_address(const struct dso *d, uint64_t off, uint64_t *rel)
{
	const struct objfile *o = d ? dso_file(d) : NULL;
	uint64_t vaddr;

	if (!o || !objfile_vaddr(o, off, &vaddr, NULL))
		return 0;
	*rel = vaddr - o->load[0].p_vaddr;
	return 1;
}

/* The native symbol of the function a frame is in: its start and size, for the assembly view. */
static uint32_t native_of(struct shared *t, const struct ts_frame *f, uint32_t lib)
{
	uint64_t start, rel, w[2];
	struct dso_func df;
	struct htab_probe p;
	uint32_t i;

	if (!f->dso || (f->flags & (FRAME_NONAME | FRAME_KERNEL)) || f->sym_offset > f->addr)
		return NONE;
	start = f->addr - f->sym_offset;
	if (!relative_address(f->dso, start, &rel))
		return NONE;
	w[0] = lib;
	w[1] = rel;
	htab_probe(&t->ntab, htab_hash_words(w, 2), &p);
	while (htab_next(&t->ntab, &p, &i))
		if (t->nlib[i] == lib && t->naddr[i] == rel)
			return i;
	if (t->nnat == t->cap_nat) {
		t->cap_nat = t->cap_nat ? 2 * t->cap_nat : 256;
		t->nlib = xreallocarray(t->nlib, t->cap_nat, sizeof(*t->nlib));
		t->nname = xreallocarray(t->nname, t->cap_nat, sizeof(*t->nname));
		t->naddr = xreallocarray(t->naddr, t->cap_nat, sizeof(*t->naddr));
		t->nsize = xreallocarray(t->nsize, t->cap_nat, sizeof(*t->nsize));
	}
	t->nlib[t->nnat] = lib;
	t->naddr[t->nnat] = rel;
	t->nname[t->nnat] = str_of(t, f->name);
	t->nsize[t->nnat] = dso_function_at((struct dso *)f->dso, start, &df) ? df.size : 0;
	htab_put(&t->ntab, &p, (uint32_t)t->nnat);
	return (uint32_t)t->nnat++;
}

/* Event c's frames and stacks into the shared tables, from *fbase and *sbase on. */
static void add_event(struct shared *t, const struct tsamples *c, size_t *fbase, size_t *sbase)
{
	int offcpu = format_time_event(c->ev);

	*fbase = t->nframe;
	*sbase = t->nstack;
	t->faddr = xgrow(t->faddr, &t->cap_frame, t->nframe + c->nframe, sizeof(*t->faddr));
	t->ffunc = xreallocarray(t->ffunc, t->cap_frame, sizeof(*t->ffunc));
	t->fnat = xreallocarray(t->fnat, t->cap_frame, sizeof(*t->fnat));
	t->fline = xreallocarray(t->fline, t->cap_frame, sizeof(*t->fline));
	t->fdepth = xreallocarray(t->fdepth, t->cap_frame, sizeof(*t->fdepth));
	t->fcat = xreallocarray(t->fcat, t->cap_frame, sizeof(*t->fcat));
	for (size_t i = 0; i < c->nframe; i++) {
		const struct ts_frame *f = &c->frame[i];
		uint32_t lib = f->dso ? ts_libs_id(&t->libs, f->dso) : NONE;
		uint64_t rel;
		size_t k = t->nframe++;

		t->faddr[k] = !(f->flags & (FRAME_KERNEL | FRAME_NONAME)) &&
			      relative_address(f->dso, f->addr, &rel) ? (int64_t)rel : -1;
		t->ffunc[k] = func_of(t, f->name, lib, f->file);
		t->fnat[k] = f->depth ? NONE : native_of(t, f, lib);
		t->fline[k] = f->file && f->line > 0 ? (uint32_t)f->line : NONE;
		t->fdepth[k] = f->depth;
		t->fcat[k] = (uint32_t)(offcpu ? CAT_OFFCPU : category_of(f));
	}
	/* nodes 1..: a node's caller was made before it; 0 is the root, no stack */
	t->sframe = xgrow(t->sframe, &t->cap_stack, t->nstack + c->nnode, sizeof(*t->sframe));
	t->soff = xreallocarray(t->soff, t->cap_stack, sizeof(*t->soff));
	for (size_t n = 1; n < c->nnode; n++) {
		const struct ts_node *nd = &c->node[n];
		size_t k = t->nstack++;

		t->sframe[k] = (uint32_t)(*fbase + nd->frame);
		t->soff[k] = nd->parent ? (uint32_t)(n - nd->parent) : 0;
		/* an inlined frame's native symbol: its caller's at the same address */
		if (c->frame[nd->frame].depth && nd->parent)
			t->fnat[*fbase + nd->frame] =
				t->fnat[*fbase + c->node[nd->parent].frame];
	}
}

static void put_col_u32(FILE *out, const char *key, const uint32_t *v, size_t n)
{
	fprintf(out, "\"%s\":[", key);
	for (size_t i = 0; i < n; i++) {
		if (i)
			putc(',', out);
		if (v[i] == NONE)
			fputs("null", out);
		else
			fprintf(out, "%" PRIu32, v[i]);
		if (i % 32 == 31)
			putc('\n', out);
	}
	fputs("],", out);
}

static void put_col_u64(FILE *out, const char *key, const uint64_t *v, size_t n)
{
	fprintf(out, "\"%s\":[", key);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%" PRIu64 "%s", i ? "," : "", v[i], i % 32 == 31 ? "\n" : "");
	fputs("],", out);
}

/* n copies of a JSON value, as a column. */
static void put_same(const char *key, const char *value, size_t n, FILE *out)
{
	fprintf(out, "\"%s\":[", key);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s%s", i ? "," : "", value, i % 64 == 63 ? "\n" : "");
	fputs("],", out);
}

/* The shared tables; the libraries' names become strings here, before the strings are written. */
static void put_shared(struct shared *t, FILE *out)
{
	fputs("\"shared\":{\n\"stackTable\":{", out);
	put_col_u32(out, "frame", t->sframe, t->nstack);
	put_col_u32(out, "prefixOffset", t->soff, t->nstack);
	fprintf(out, "\"length\":%zu},\n\"frameTable\":{\"address\":[", t->nstack);
	for (size_t i = 0; i < t->nframe; i++)
		fprintf(out, "%s%" PRId64 "%s", i ? "," : "", t->faddr[i], i % 32 == 31 ? "\n" : "");
	fputs("],", out);
	put_col_u32(out, "inlineDepth", t->fdepth, t->nframe);
	put_col_u32(out, "category", t->fcat, t->nframe);
	put_same("subcategory", "0", t->nframe, out);
	put_col_u32(out, "func", t->ffunc, t->nframe);
	put_col_u32(out, "nativeSymbol", t->fnat, t->nframe);
	put_same("innerWindowID", "0", t->nframe, out);
	put_col_u32(out, "line", t->fline, t->nframe);
	put_same("column", "null", t->nframe, out);
	put_same("originalLocation", "null", t->nframe, out);
	fprintf(out, "\"length\":%zu},\n\"funcTable\":{", t->nframe);
	put_col_u32(out, "name", t->fname, t->nfunc);
	put_same("isJS", "false", t->nfunc, out);
	put_same("relevantForJS", "false", t->nfunc, out);
	put_col_u32(out, "resource", t->fres, t->nfunc);
	put_col_u32(out, "source", t->fsrc, t->nfunc);
	put_same("lineNumber", "null", t->nfunc, out);
	put_same("columnNumber", "null", t->nfunc, out);
	put_same("originalLocation", "null", t->nfunc, out);
	fprintf(out, "\"length\":%zu},\n\"resourceTable\":{\"lib\":[", t->nfunc);
	for (size_t i = 0; i < t->libs.n; i++)
		fprintf(out, "%s%zu", i ? "," : "", i);
	fputs("],\"name\":[", out);
	for (size_t i = 0; i < t->libs.n; i++)
		fprintf(out, "%s%" PRIu32, i ? "," : "",
			str_of(t, dso_short_name(t->libs.dso[i])));
	fputs("],", out);
	put_same("host", "null", t->libs.n, out);
	put_same("type", "1", t->libs.n, out);
	fprintf(out, "\"length\":%zu},\n\"nativeSymbols\":{", t->libs.n);
	put_col_u32(out, "libIndex", t->nlib, t->nnat);
	put_col_u64(out, "address", t->naddr, t->nnat);
	put_col_u32(out, "name", t->nname, t->nnat);
	put_col_u64(out, "functionSize", t->nsize, t->nnat);
	fprintf(out, "\"length\":%zu},\n\"sources\":{", t->nnat);
	put_same("id", "null", t->nsrc, out);
	put_col_u32(out, "filename", t->srcname, t->nsrc);
	put_same("startLine", "1", t->nsrc, out);
	put_same("startColumn", "1", t->nsrc, out);
	put_same("sourceMapURL", "null", t->nsrc, out);
	put_same("content", "null", t->nsrc, out);
	fprintf(out, "\"length\":%zu},\n", t->nsrc);
	fputs("\"sourceLocationTable\":{\"source\":[],\"line\":[],\"column\":[],\"length\":0},\n"
	      "\"stringArray\":[", out);
	for (size_t i = 0; i < t->nstr; i++) {
		if (i)
			fputs(i % 16 ? "," : ",\n", out);
		json_put_string(out, t->str[i]);
	}
	fputs("]}", out);
}

/* Milliseconds, from nanoseconds, to the nanosecond. */
static void put_ms(uint64_t ns, FILE *out)
{
	fprintf(out, "%" PRIu64 ".%06" PRIu64, ns / 1000000, ns % 1000000);
}

/* A time in ms from base that may be before it (a thread's FORK before the first sample) */
static void put_ms_from(uint64_t t, uint64_t base, FILE *out)
{
	if (t >= base) {
		put_ms(t - base, out);
	} else {
		putc('-', out);
		put_ms(base - t, out);
	}
}

/* --- threads -------------------------------------------------------------------- */

/* A thread's life: from its FORK (when during the profile) or its first sample, to its EXIT or null. */
struct life {
	uint64_t start, end;	/* end 0: it did not end in the profile */
};

static struct life life_of(const struct profile *p, const struct tsamples *c,
			   const struct ts_thread *t)
{
	struct life l = { t->time[0], 0 };
	uint64_t start, end, last = t->time[t->n - 1];

	if (format_time_event(c->ev))
		last += t->weight[t->n - 1];
	if (profile_task_times(p, t->pid, t->tid, &start, &end)) {
		if (start && start <= t->time[0])
			l.start = start;
		if (end && end >= last)
			l.end = end;
	}
	return l;
}

/* Each process's name and life: its main thread's (pid == tid), the first event's that has it. */
struct procs {
	const struct ts_thread **main;
	struct life *life;
	struct u64map index;	/* by pid */
	size_t n;
};

static void procs_init(struct procs *pr, const struct profile *p, struct tsamples *const *c,
		       size_t n)
{
	size_t all = 0;

	u64map_init(&pr->index);
	for (size_t e = 0; e < n; e++)
		all += c[e]->nthread;
	pr->main = xcalloc(all + 1, sizeof(*pr->main));
	pr->life = xcalloc(all + 1, sizeof(*pr->life));
	pr->n = 0;
	for (size_t e = 0; e < n; e++)
		for (size_t i = 0; i < c[e]->nthread; i++) {
			const struct ts_thread *t = &c[e]->thread[i];
			struct life l = life_of(p, c[e], t);
			uint32_t k;

			if (!u64map_get(&pr->index, (uint64_t)(unsigned)t->pid, &k)) {
				k = (uint32_t)pr->n++;
				u64map_add(&pr->index, (uint64_t)(unsigned)t->pid, k);
				pr->life[k] = l;
			}
			/* the process: from its first thread's start to its main thread's end */
			if (l.start < pr->life[k].start)
				pr->life[k].start = l.start;
			if (t->pid == t->tid && !pr->main[k]) {
				pr->main[k] = t;
				pr->life[k].end = l.end;
			}
		}
}

static void procs_release(struct procs *pr)
{
	free(pr->main);
	free(pr->life);
	u64map_release(&pr->index);
}

static void put_thread(const struct profile *p, uint64_t base, const struct tsamples *c,
		       const struct ts_thread *t, const struct procs *pr, int first_event,
		       size_t sbase, uint32_t marker_name, FILE *out)
{
	int ns = tsamples_in_ns(c);
	int offcpu = format_time_event(c->ev), clock = evkind_clock(c->ev->name);
	struct life l = life_of(p, c, t);
	uint32_t k = 0;
	const char *process = NULL;
	char name[512];

	if (u64map_get(&pr->index, (uint64_t)(unsigned)t->pid, &k) && pr->main[k])
		process = pr->main[k]->comm;
	if (first_event)
		snprintf(name, sizeof(name), "%s", t->comm ? t->comm : "?");
	else
		snprintf(name, sizeof(name), "%s [%s]", t->comm ? t->comm : "?", c->ev->name);
	fputs("{\"processType\":\"default\",\"processStartupTime\":", out);
	put_ms_from(pr->life[k].start, base, out);
	fputs(",\"processShutdownTime\":", out);
	if (pr->life[k].end)
		put_ms_from(pr->life[k].end, base, out);
	else
		fputs("null", out);
	fputs(",\"registerTime\":", out);
	put_ms_from(l.start, base, out);
	fputs(",\"unregisterTime\":", out);
	if (l.end)
		put_ms_from(l.end, base, out);
	else
		fputs("null", out);
	fputs(",\"pausedRanges\":[],\"showMarkersInTimeline\":false,\"name\":", out);
	json_put_string(out, name);
	fputs(",\"processName\":", out);
	json_put_string(out, process ? process : name);
	fprintf(out, ",\"isMainThread\":%s,\"pid\":\"%d\",\"tid\":\"%d\",\n",
		t->pid == t->tid && first_event ? "true" : "false", t->pid, t->tid);

	/* samples: stack, time deltas, weight, CPU deltas (the clocks: their period) */
	fputs("\"samples\":{\"stack\":[", out);
	for (size_t i = 0; i < t->n; i++)
		fprintf(out, "%s%zu%s", i ? "," : "", sbase + t->stack[i] - 1, i % 32 == 31 ? "\n" : "");
	fputs("],\"timeDeltas\":[", out);
	for (size_t i = 0; i < t->n; i++) {
		if (i)
			putc(',', out);
		put_ms_from(t->time[i], i ? t->time[i - 1] : base, out);
		if (i % 32 == 31)
			putc('\n', out);
	}
	fputs("],\"weight\":[", out);
	for (size_t i = 0; i < t->n; i++) {
		if (i)
			putc(',', out);
		if (ns)
			put_ms(t->weight[i], out);
		else
			fprintf(out, "%" PRIu64, t->weight[i]);
		if (i % 32 == 31)
			putc('\n', out);
	}
	fputs("],", out);
	if (clock || offcpu) {
		fputs("\"threadCPUDelta\":[", out);
		for (size_t i = 0; i < t->n; i++) {
			uint64_t us = clock ? t->weight[i] / 1000 : 0;

			fprintf(out, "%s%" PRIu64 "%s", i ? "," : "", us, i % 32 == 31 ? "\n" : "");
		}
		fputs("],", out);
	}
	fprintf(out, "\"weightType\":\"%s\",\"length\":%zu},\n", ns ? "tracing-ms" : "samples",
		t->n);

	/* markers: off-CPU time as intervals */
	fputs("\"markers\":{", out);
	if (offcpu) {
		char num[24];

		snprintf(num, sizeof(num), "%" PRIu32, marker_name);
		put_same("data", "null", t->n, out);
		put_same("name", num, t->n, out);
		fputs("\"startTime\":[", out);
		for (size_t i = 0; i < t->n; i++) {
			if (i)
				putc(',', out);
			put_ms_from(t->time[i], base, out);
		}
		fputs("],\"endTime\":[", out);
		for (size_t i = 0; i < t->n; i++) {
			if (i)
				putc(',', out);
			put_ms_from(t->time[i] + t->weight[i], base, out);
		}
		fputs("],", out);
		put_same("phase", "1", t->n, out);
		snprintf(num, sizeof(num), "%d", CAT_OFFCPU);
		put_same("category", num, t->n, out);
		fprintf(out, "\"length\":%zu}}", t->n);
	} else {
		fputs("\"data\":[],\"name\":[],\"startTime\":[],\"endTime\":[],\"phase\":[],"
		      "\"category\":[],\"length\":0}}", out);
	}
}

/* The sampling interval of e, in milliseconds: its period, or one over its frequency. */
static double interval_ms(const struct evdesc *e)
{
	if (e->attr.freq && e->attr.sample_freq)
		return 1000.0 / (double)e->attr.sample_freq;
	if (!e->attr.freq && e->attr.sample_period &&
	    evkind_clock(e->name))
		return (double)e->attr.sample_period / 1e6;
	return 1;
}

/*
 * The wall clock of base, in ms since 1970: from the file's CLOCK_DATA,
 * else its modification time less the profile's span; 0 when neither.
 */
static double start_ms(const struct profile *p, uint64_t base, uint64_t span)
{
	struct stat st;

	if (p->info.tod_ns && p->info.clock_ns)
		return ((double)p->info.tod_ns - ((double)p->info.clock_ns - (double)base)) / 1e6;
	if (p->input && strcmp(p->input, "-") && !stat(p->input, &st))
		return (double)st.st_mtim.tv_sec * 1e3 + (double)st.st_mtim.tv_nsec / 1e6 -
		       (double)span / 1e6;
	return 0;
}

static int write_firefox(const struct profile *p, const struct format_view *v, FILE *out)
{
	size_t n, threads = 0;
	struct tsamples **c = tsamples_of(p, &n);
	struct shared t = { 0 };
	struct procs pr;
	size_t *fbase, *sbase;
	uint32_t *mname;
	char buf[64];
	uint64_t base = UINT64_MAX, end = 0;
	int cpu = 0;

	(void)v;
	tsamples_say_thinned(c, n, "the Firefox Profiler's file");
	t.pool = strpool_new();
	u64map_init(&t.sidx);
	u64map_init(&t.srcidx);
	htab_init(&t.ftab);
	htab_init(&t.ntab);
	ts_libs_init(&t.libs);
	procs_init(&pr, p, c, n);
	/*
	 * Times from the earliest sample: an off-CPU interval is delivered as
	 * it ends, with the time it began, before samples delivered earlier.
	 */
	for (size_t e = 0; e < n; e++) {
		if (evkind_clock(c[e]->ev->name) || format_time_event(c[e]->ev))
			cpu = 1;
		for (size_t i = 0; i < c[e]->nthread; i++) {
			const struct ts_thread *th = &c[e]->thread[i];
			uint64_t last = th->time[th->n - 1] +
					(format_time_event(c[e]->ev) ? th->weight[th->n - 1] : 0);

			if (th->time[0] < base)
				base = th->time[0];
			if (last > end)
				end = last;
		}
	}
	if (!n)
		base = end = 0;
	fbase = xcalloc(n + 1, sizeof(*fbase));
	sbase = xcalloc(n + 1, sizeof(*sbase));
	mname = xcalloc(n + 1, sizeof(*mname));
	for (size_t e = 0; e < n; e++) {
		add_event(&t, c[e], &fbase[e], &sbase[e]);
		mname[e] = str_of(&t, c[e]->ev->name);
	}

	fputs("{\"meta\":{", out);
	snprintf(buf, sizeof(buf), "%.6f", n ? interval_ms(c[0]->ev) : 1.0);
	fprintf(out, "\"interval\":%s,\"startTime\":%.3f,\"profilingStartTime\":0,"
		"\"profilingEndTime\":", buf, start_ms(p, base, end - base));
	put_ms(end - base, out);
	fputs(",\"processType\":0,\"product\":", out);
	json_put_string(out, p->info.cmdline ? p->info.cmdline : p->input);
	fputs(",\"importedFrom\":\"prof " PACKAGE_VERSION "\",\"stackwalk\":1,\"version\":24,"
	      "\"preprocessedProfileVersion\":66,\"symbolicated\":true,\"markerSchema\":[],"
	      "\"usesOnlyOneStackType\":true,\"sourceCodeIsNotOnSearchfox\":true,"
	      "\"debug\":false,\"pausedRanges\":[],"
	      "\"extensions\":{\"id\":[],\"name\":[],\"baseURL\":[],\"length\":0},"
	      "\"platform\":\"X11\",\"oscpu\":", out);
	snprintf(buf, sizeof(buf), "Linux %s", p->info.osrelease ? p->info.osrelease : "");
	json_put_string(out, buf);
	fputs(",\"abi\":", out);
	json_put_string(out, p->info.arch ? p->info.arch : "");
	if (cpu)
		fputs(",\"sampleUnits\":{\"time\":\"ms\",\"eventDelay\":\"ms\","
		      "\"threadCPUDelta\":\"\\u00b5s\"}", out);
	fprintf(out, ",\"keepProfileThreadOrder\":true,\"categories\":%s},\n", categories);
	fputs("\"pages\":[],\"profilerOverhead\":[],\"threads\":[\n", out);
	for (size_t e = 0; e < n; e++) {
		const struct ts_thread **th = tsamples_threads(c[e]);

		for (size_t i = 0; i < c[e]->nthread; i++) {
			if (threads++)
				fputs(",\n", out);
			put_thread(p, base, c[e], th[i], &pr, e == 0, sbase[e], mname[e], out);
		}
		free(th);
	}
	fputs("],\n\"libs\":[", out);
	for (size_t i = 0; i < t.libs.n; i++) {
		if (i)
			fputs(",\n", out);
		put_lib(t.libs.dso[i], p->info.arch, out);
	}
	fputs("],\n", out);
	put_shared(&t, out);
	fputs("}\n", out);

	free(fbase);
	free(sbase);
	free(mname);
	procs_release(&pr);
	free(t.str);
	u64map_release(&t.sidx);
	u64map_release(&t.srcidx);
	htab_release(&t.ftab);
	htab_release(&t.ntab);
	free(t.fname);
	free(t.fres);
	free(t.fsrc);
	free(t.srcname);
	free(t.nlib);
	free(t.nname);
	free(t.naddr);
	free(t.nsize);
	free(t.faddr);
	free(t.ffunc);
	free(t.fnat);
	free(t.fline);
	free(t.fdepth);
	free(t.fcat);
	free(t.sframe);
	free(t.soff);
	ts_libs_release(&t.libs);
	strpool_free(t.pool);
	free(c);
	return ferror(out) ? -EIO : 0;
}

const struct format format_firefox = {
	.name = "firefox",
	.help = "each thread's samples in time order, for the Firefox Profiler",
	.needs = FORMAT_CHAINS | FORMAT_ORDERED | FORMAT_SRCLINE | FORMAT_TASKS,
	.collector = &tsamples_addr,
	.write = write_firefox,
};
