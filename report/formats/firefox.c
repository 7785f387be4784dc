// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format firefox: the profile as the Firefox Profiler's processed
 * profile (https://profiler.firefox.com), version 48: the profiler's own
 * upgraders bring it to whatever version it reads today (56 shares the
 * strings, 60 the tables, 66 and 70 reshape columns), as they do for
 * vernier's and Lean's files of that version. The types are those of
 * src/types/profile.js in firefox-devtools/profiler at version 48.
 *
 * One thread per event and thread of the profile, grouped by pid into
 * processes, its samples in time order: a stack (a prefix table of
 * frames, each its own function, in a resource per object whose library
 * carries its build id), a time in milliseconds from the first sample,
 * and a weight: milliseconds ("tracing-ms") for the clocks and off-CPU
 * time, else the period as a count of samples. Off-CPU and preempted
 * intervals are also interval markers on their thread, so the timeline
 * shows when a thread waited. Every name is resolved here
 * ("symbolicated"): the file reads the same on any machine.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "json.h"
#include "symbols.h"
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

/*
 * A thread's own tables: what of the event's stacks, frames and libraries
 * its samples use, each numbered in the thread as first met. The maps
 * from the event's numbers are stamped with the thread they are valid
 * for, so that no thread pays for clearing what another used.
 */
struct local {
	uint32_t serial;	/* the thread's */
	uint32_t *nstamp, *nidx;	/* by event node */
	uint32_t *fstamp, *fidx;	/* by event frame */
	uint32_t *lstamp, *lidx;	/* by library */
	size_t lcap;
	uint32_t *nodes, *frames, *libs;	/* the thread's stacks, frames, resources */
	int32_t *fres;		/* by the thread's frame: its resource, or -1 */
	size_t nstack, nframe, nres;
};

static uint32_t local_frame(struct local *l, const struct tsamples *c, struct ts_libs *libs,
			    uint32_t f)
{
	const struct dso *d = c->frame[f].dso;

	if (l->fstamp[f] == l->serial)
		return l->fidx[f];
	l->fstamp[f] = l->serial;
	l->fidx[f] = (uint32_t)l->nframe;
	l->fres[l->nframe] = -1;
	l->frames[l->nframe++] = f;
	if (d) {
		uint32_t lib = ts_libs_id(libs, d);

		if (lib >= l->lcap) {
			size_t cap = l->lcap;

			l->lcap = 2 * (lib + 1);
			l->lstamp = xreallocarray(l->lstamp, l->lcap, sizeof(*l->lstamp));
			l->lidx = xreallocarray(l->lidx, l->lcap, sizeof(*l->lidx));
			l->libs = xreallocarray(l->libs, l->lcap, sizeof(*l->libs));
			memset(l->lstamp + cap, 0, (l->lcap - cap) * sizeof(*l->lstamp));
		}
		if (l->lstamp[lib] != l->serial) {
			l->lstamp[lib] = l->serial;
			l->lidx[lib] = (uint32_t)l->nres;
			l->libs[l->nres++] = lib;
		}
		l->fres[l->nframe - 1] = (int32_t)l->lidx[lib];
	}
	return l->fidx[f];
}

/* The thread's stack of node at; its callers' first, so that a prefix comes before its stacks. */
static uint32_t local_stack(struct local *l, const struct tsamples *c, struct ts_libs *libs,
			    uint32_t at)
{
	uint32_t top = at;

	/* the unnumbered ones from at up, linked through nidx, then numbered from the top down */
	uint32_t chain = 0;

	while (at && l->nstamp[at] != l->serial) {
		l->nstamp[at] = l->serial;
		l->nidx[at] = chain;
		chain = at;
		at = c->node[at].parent;
	}
	while (chain) {
		uint32_t next = l->nidx[chain];

		local_frame(l, c, libs, c->node[chain].frame);
		l->nidx[chain] = (uint32_t)l->nstack;
		l->nodes[l->nstack++] = chain;
		chain = next;
	}
	return l->nidx[top];
}

static void put_u32s(const char *key, const uint32_t *v, size_t n, FILE *out)
{
	fprintf(out, "\"%s\":[", key);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%" PRIu32 "%s", i ? "," : "", v[i], i % 32 == 31 ? "\n" : "");
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

/* The column from, from + 1, ..., n of them. */
static void put_iota(const char *key, size_t from, size_t n, FILE *out)
{
	fprintf(out, "\"%s\":[", key);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%zu%s", i ? "," : "", from + i, i % 32 == 31 ? "\n" : "");
	fputs("],", out);
}

/* Milliseconds, from nanoseconds, to the nanosecond. */
static void put_ms(uint64_t ns, FILE *out)
{
	fprintf(out, "%" PRIu64 ".%06" PRIu64, ns / 1000000, ns % 1000000);
}

/*
 * A column of times in milliseconds: a[i] (+ b[i] where b is given) less
 * base; or, with ms 0, a's values as they are.
 */
static void put_times(const char *key, const uint64_t *a, const uint64_t *b, uint64_t base,
		      int ms, size_t n, FILE *out)
{
	fprintf(out, "\"%s\":[", key);
	for (size_t i = 0; i < n; i++) {
		if (i)
			putc(',', out);
		if (ms)
			put_ms(a[i] + (b ? b[i] : 0) - base, out);
		else
			fprintf(out, "%" PRIu64, a[i]);
		if (i % 32 == 31)
			putc('\n', out);
	}
	fputs("],", out);
}

static void put_thread(uint64_t base, const struct tsamples *c, const struct ts_thread *t,
		       const char *process, int first_event, struct local *l, struct ts_libs *libs,
		       FILE *out)
{
	uint32_t *stacks = xreallocarray(NULL, t->n + 1, sizeof(*stacks));
	int ns = tsamples_in_ns(c);
	int offcpu = format_time_event(c->ev);
	char name[512];
	size_t strings = 0;

	l->serial++;
	l->nstack = l->nframe = l->nres = 0;
	for (size_t i = 0; i < t->n; i++)
		stacks[i] = local_stack(l, c, libs, t->stack[i]);

	if (first_event)
		snprintf(name, sizeof(name), "%s", t->comm ? t->comm : "?");
	else
		snprintf(name, sizeof(name), "%s [%s]", t->comm ? t->comm : "?", c->ev->name);
	fputs("{\"processType\":\"default\",\"processStartupTime\":0,"
	      "\"processShutdownTime\":null,\"registerTime\":", out);
	put_ms(t->time[0] - base, out);
	fputs(",\"unregisterTime\":null,\"pausedRanges\":[],\"name\":", out);
	json_put_string(out, name);
	fputs(",\"processName\":", out);
	json_put_string(out, process ? process : name);
	fprintf(out, ",\"isMainThread\":%s,\"pid\":\"%d\",\"tid\":%d,\n",
		t->pid == t->tid && first_event ? "true" : "false", t->pid, t->tid);

	/* samples: stack, time, weight */
	fputs("\"samples\":{", out);
	put_u32s("stack", stacks, t->n, out);
	put_times("time", t->time, NULL, base, 1, t->n, out);
	put_times("weight", t->weight, NULL, 0, ns, t->n, out);
	fprintf(out, "\"weightType\":\"%s\",\"length\":%zu},\n", ns ? "tracing-ms" : "samples",
		t->n);

	/* markers: off-CPU time as intervals, named by the string after the functions' and resources' */
	fputs("\"markers\":{", out);
	if (offcpu) {
		char num[24];

		snprintf(num, sizeof(num), "%zu", l->nframe + l->nres);
		put_same("data", "null", t->n, out);
		put_same("name", num, t->n, out);
		put_times("startTime", t->time, NULL, base, 1, t->n, out);
		put_times("endTime", t->time, t->weight, base, 1, t->n, out);
		put_same("phase", "1", t->n, out);
		snprintf(num, sizeof(num), "%d", CAT_OFFCPU);
		put_same("category", num, t->n, out);
		fprintf(out, "\"length\":%zu},\n", t->n);
	} else {
		fputs("\"data\":[],\"name\":[],\"startTime\":[],\"endTime\":[],\"phase\":[],"
		      "\"category\":[],\"length\":0},\n", out);
	}

	/* stackTable: frame, category, subcategory, prefix */
	fputs("\"stackTable\":{\"frame\":[", out);
	for (size_t i = 0; i < l->nstack; i++)
		fprintf(out, "%s%" PRIu32, i ? "," : "", l->fidx[c->node[l->nodes[i]].frame]);
	fputs("],\"category\":[", out);
	for (size_t i = 0; i < l->nstack; i++)
		fprintf(out, "%s%d", i ? "," : "",
			offcpu ? CAT_OFFCPU : category_of(&c->frame[c->node[l->nodes[i]].frame]));
	fputs("],", out);
	put_same("subcategory", "0", l->nstack, out);
	fputs("\"prefix\":[", out);
	for (size_t i = 0; i < l->nstack; i++) {
		uint32_t parent = c->node[l->nodes[i]].parent;

		if (parent)
			fprintf(out, "%s%" PRIu32, i ? "," : "", l->nidx[parent]);
		else
			fputs(i ? ",null" : "null", out);
	}
	fprintf(out, "],\"length\":%zu},\n", l->nstack);

	/* frameTable: a function each, no address (the names are resolved) */
	fputs("\"frameTable\":{", out);
	put_same("address", "-1", l->nframe, out);
	put_same("inlineDepth", "0", l->nframe, out);
	fputs("\"category\":[", out);
	for (size_t i = 0; i < l->nframe; i++)
		fprintf(out, "%s%d", i ? "," : "",
			offcpu ? CAT_OFFCPU : category_of(&c->frame[l->frames[i]]));
	fputs("],", out);
	put_same("subcategory", "0", l->nframe, out);
	put_iota("func", 0, l->nframe, out);
	put_same("nativeSymbol", "null", l->nframe, out);
	put_same("innerWindowID", "null", l->nframe, out);
	put_same("implementation", "null", l->nframe, out);
	put_same("line", "null", l->nframe, out);
	put_same("column", "null", l->nframe, out);
	fprintf(out, "\"length\":%zu},\n", l->nframe);

	/* funcTable: named by strings 0 .. nframe - 1 */
	fputs("\"funcTable\":{", out);
	put_iota("name", 0, l->nframe, out);
	put_same("isJS", "false", l->nframe, out);
	put_same("relevantForJS", "false", l->nframe, out);
	fputs("\"resource\":[", out);
	for (size_t i = 0; i < l->nframe; i++)
		fprintf(out, "%s%" PRId32, i ? "," : "", l->fres[i]);
	fputs("],", out);
	put_same("fileName", "null", l->nframe, out);
	put_same("lineNumber", "null", l->nframe, out);
	put_same("columnNumber", "null", l->nframe, out);
	fprintf(out, "\"length\":%zu},\n", l->nframe);

	/* resourceTable: a library each (type 1), named by the strings after the functions' */
	fputs("\"resourceTable\":{", out);
	put_u32s("lib", l->libs, l->nres, out);
	put_iota("name", l->nframe, l->nres, out);
	put_same("host", "null", l->nres, out);
	put_same("type", "1", l->nres, out);
	fprintf(out, "\"length\":%zu},\n", l->nres);
	fputs("\"nativeSymbols\":{\"libIndex\":[],\"address\":[],\"name\":[],\"functionSize\":[],"
	      "\"length\":0},\n", out);

	/* stringArray: the functions', the resources', then the marker name */
	fputs("\"stringArray\":[", out);
	for (size_t i = 0; i < l->nframe; i++) {
		const struct ts_frame *f = &c->frame[l->frames[i]];

		if (strings++)
			putc(',', out);
		if (f->flags & FRAME_INLINED) {
			size_t len = strlen(f->name) + sizeof(" (inlined)");
			char *s = xmalloc(len);

			snprintf(s, len, "%s (inlined)", f->name);
			json_put_string(out, s);
			free(s);
		} else {
			json_put_string(out, f->name);
		}
		putc('\n', out);
	}
	for (size_t i = 0; i < l->nres; i++) {
		if (strings++)
			putc(',', out);
		json_put_string(out, dso_short_name(libs->dso[l->libs[i]]));
	}
	if (offcpu) {
		if (strings++)
			putc(',', out);
		json_put_string(out, c->ev->name);
	}
	fputs("]}", out);
	free(stacks);
}

/* Each process's name: its main thread's (pid == tid) comm, the first event's that has it. */
struct pnames {
	const char **comm;
	struct u64map index;	/* comm by pid */
};

static void pnames_init(struct pnames *pn, struct tsamples *const *c, size_t n)
{
	size_t all = 0, k = 0;

	u64map_init(&pn->index);
	for (size_t e = 0; e < n; e++)
		all += c[e]->nthread;
	pn->comm = xreallocarray(NULL, all + 1, sizeof(*pn->comm));
	for (size_t e = 0; e < n; e++)
		for (size_t i = 0; i < c[e]->nthread; i++) {
			const struct ts_thread *t = &c[e]->thread[i];

			if (t->pid == t->tid && u64map_add(&pn->index, (uint64_t)(unsigned)t->pid,
							   (uint32_t)k))
				pn->comm[k++] = t->comm;
		}
}

static const char *pnames_get(const struct pnames *pn, int pid)
{
	uint32_t k;

	return u64map_get(&pn->index, (uint64_t)(unsigned)pid, &k) ? pn->comm[k] : NULL;
}

/* The sampling interval of e, in milliseconds: its period, or one over its frequency. */
static double interval_ms(const struct evdesc *e)
{
	if (e->attr.freq && e->attr.sample_freq)
		return 1000.0 / (double)e->attr.sample_freq;
	if (!e->attr.freq && e->attr.sample_period &&
	    profile_clock_event(e->name))
		return (double)e->attr.sample_period / 1e6;
	return 1;
}

static int write_firefox(const struct profile *p, const struct format_view *v, FILE *out)
{
	size_t n, threads = 0;
	struct tsamples **c = tsamples_of(p, &n);
	struct ts_libs libs;
	struct local l = { 0 };
	struct pnames pn;
	char buf[64];
	uint64_t base = UINT64_MAX, end = 0;

	(void)v;
	ts_libs_init(&libs);
	pnames_init(&pn, c, n);
	/*
	 * Times from the earliest sample: an off-CPU interval is delivered as
	 * it ends, with the time it began, before samples delivered earlier.
	 */
	for (size_t e = 0; e < n; e++)
		for (size_t i = 0; i < c[e]->nthread; i++) {
			const struct ts_thread *t = &c[e]->thread[i];
			uint64_t last = t->time[t->n - 1] + (format_time_event(c[e]->ev) ? t->weight[t->n - 1] : 0);

			if (t->time[0] < base)
				base = t->time[0];
			if (last > end)
				end = last;
		}
	if (!n)
		base = end = 0;
	fputs("{\"meta\":{", out);
	snprintf(buf, sizeof(buf), "%.6f", n ? interval_ms(c[0]->ev) : 1.0);
	fprintf(out, "\"interval\":%s,\"startTime\":0,\"profilingStartTime\":0,"
		"\"profilingEndTime\":", buf);
	put_ms(end - base, out);
	fputs(",\"processType\":0,\"product\":", out);
	json_put_string(out, p->info.cmdline ? p->info.cmdline : p->input);
	fputs(",\"importedFrom\":\"prof " PACKAGE_VERSION "\",\"stackwalk\":1,\"version\":27,"
	      "\"preprocessedProfileVersion\":48,\"symbolicated\":true,\"markerSchema\":[],"
	      "\"platform\":\"X11\",\"oscpu\":", out);
	snprintf(buf, sizeof(buf), "Linux %s", p->info.osrelease ? p->info.osrelease : "");
	json_put_string(out, buf);
	fputs(",\"abi\":", out);
	json_put_string(out, p->info.arch ? p->info.arch : "");
	fprintf(out, ",\"keepProfileThreadOrder\":true,\"categories\":%s},\n", categories);
	fputs("\"pages\":[],\"threads\":[\n", out);
	for (size_t e = 0; e < n; e++) {
		const struct ts_thread **t = tsamples_threads(c[e]);

		l.nstamp = xcalloc(c[e]->nnode + 1, sizeof(*l.nstamp));
		l.nidx = xcalloc(c[e]->nnode + 1, sizeof(*l.nidx));
		l.nodes = xcalloc(c[e]->nnode + 1, sizeof(*l.nodes));
		l.fstamp = xcalloc(c[e]->nframe + 1, sizeof(*l.fstamp));
		l.fidx = xcalloc(c[e]->nframe + 1, sizeof(*l.fidx));
		l.frames = xcalloc(c[e]->nframe + 1, sizeof(*l.frames));
		l.fres = xcalloc(c[e]->nframe + 1, sizeof(*l.fres));
		for (size_t i = 0; i < c[e]->nthread; i++) {
			if (threads++)
				fputs(",\n", out);
			put_thread(base, c[e], t[i], pnames_get(&pn, t[i]->pid), e == 0, &l, &libs, out);
		}
		free(l.nstamp);
		free(l.nidx);
		free(l.nodes);
		free(l.fstamp);
		free(l.fidx);
		free(l.frames);
		free(l.fres);
		free(t);
	}
	fputs("],\n\"libs\":[", out);
	for (size_t i = 0; i < libs.n; i++) {
		if (i)
			fputs(",\n", out);
		put_lib(libs.dso[i], p->info.arch, out);
	}
	fputs("]}\n", out);
	free(l.lstamp);
	free(l.lidx);
	free(l.libs);
	ts_libs_release(&libs);
	free(pn.comm);
	u64map_release(&pn.index);
	free(c);
	return ferror(out) ? -EIO : 0;
}

const struct format format_firefox = {
	.name = "firefox",
	.help = "each thread's samples in time order, for the Firefox Profiler",
	.needs = FORMAT_CHAINS | FORMAT_ORDERED,
	.collector = &tsamples_each,
	.write = write_firefox,
};
