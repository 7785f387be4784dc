// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --format html: the profile as one self-contained page (page.html,
 * page.css and page.js, built into prof as html-page.c): a flame graph
 * and icicle, call trees top-down and bottom-up, the function list, a
 * timeline per thread, a source view, with every script, style and datum
 * inline, so that the file opens offline and reads the same anywhere.
 *
 * The data is what tsamples_full collects, as the Firefox Profiler keeps
 * it: per event a table of frames, the stacks as a prefix table over them
 * (a stack is a frame on the stack of its caller, callers first), and
 * per thread its samples as columns (stack, time, weight, CPU, leaf
 * line, parallelism). It is one blob: a little-endian u32 length, that
 * many bytes of JSON (strings, libraries, events, threads, sources),
 * then the columns as LEB128 varints (times as zigzag deltas), the whole
 * deflated (zlib) and written as base64 in the page, which inflates it
 * with the browser's DecompressionStream. The order of the columns is
 * page.js's readBlob(): the two are changed together.
 *
 * Source files the samples' lines are in are embedded where readable at
 * export time: the hottest first, each at most SOURCE_MAX bytes, all at
 * most SOURCES_MAX; the page says why a file is not there.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "file.h"
#include "format.h"
#include "annot.h"
#include "base64.h"
#include "htab.h"
#include "json.h"
#include "session.h"
#include "module.h"
#include "tsamples.h"
#include "u64map.h"
#include "xalloc.h"

#define SOURCE_MAX (1u << 20)
#define SOURCES_MAX (8u << 20)

/* The page, from page.html, page.css and page.js (html-page.c, made by embed.awk). */
extern const char html_page_html[], html_page_css[], html_page_js[];

/* Frame kinds as page.js reads them. */
enum { KIND_K = 1, KIND_I = 2, KIND_N = 4 };

/* --- a byte buffer of varints ------------------------------------------------ */

struct buf {
	unsigned char *b;
	size_t n, cap;
};

static void put_uv(struct buf *b, uint64_t v)
{
	if (b->n + 10 > b->cap)
		b->b = xgrow(b->b, &b->cap, b->n + 10, 1);
	while (v >= 0x80) {
		b->b[b->n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	b->b[b->n++] = (unsigned char)v;
}

/* A signed value, zigzag: 0, -1, 1, -2 as 0, 1, 2, 3. */
static void put_sv(struct buf *b, int64_t v)
{
	put_uv(b, v < 0 ? ~((uint64_t)v << 1) : (uint64_t)v << 1);
}

/* --- strings, each once ------------------------------------------------------ */

struct strs {
	const char **s;
	size_t n, cap;
	struct htab tab;
};

static uint32_t str_id(struct strs *t, const char *s)
{
	struct htab_probe p;
	uint32_t i;

	if (!s)
		s = "";
	htab_probe(&t->tab, htab_hash_bytes(s, strlen(s)), &p);
	while (htab_next(&t->tab, &p, &i))
		if (!strcmp(t->s[i], s))
			return i;
	t->s = xgrow(t->s, &t->cap, t->n + 1, sizeof(*t->s));
	t->s[t->n] = s;
	htab_put(&t->tab, &p, (uint32_t)t->n);
	return (uint32_t)t->n++;
}

/* d's library number + 1 in l; 0 for none. */
static uint32_t lib_id(struct ts_libs *l, const struct dso *d)
{
	return d ? ts_libs_id(l, d) + 1 : 0;
}

/* --- sources --------------------------------------------------------------------- */

struct src {
	const char *file;
	uint64_t weight;	/* of the samples whose leaf is in it */
	uid_t owner[4];		/* the users (not root, not us) whose programs' line tables name it */
	int nowner;
};

/*
 * Note that a program of uid's ((uid_t)-1: not known) names s's file
 * (root's and ours need no note).
 */
static void src_owner(struct src *s, uid_t uid)
{
	if (uid == 0 || uid == geteuid())
		return;
	for (int i = 0; i < s->nowner; i++)
		if (s->owner[i] == uid)
			return;
	if (s->nowner < 4)
		s->owner[s->nowner++] = uid;
	else
		s->owner[3] = (uid_t)-2;	/* more than we keep: read for none of them */
}

/*
 * Whether every user but the first whose program names s's file could
 * read it (the first is read as: read_source()): prof, run by root on
 * another user's profile, shows that user nothing more (a line table may
 * name /etc/shadow).
 */
static int src_allowed(const struct src *s)
{
	for (int i = 1; i < s->nowner; i++)
		if (s->owner[i] == (uid_t)-2 || !file_readable_by(s->file, s->owner[i]))
			return 0;
	return 1;
}

static int src_cmp(const void *a, const void *b)
{
	const struct src *x = a, *y = b;

	if (x->weight != y->weight)
		return x->weight < y->weight ? 1 : -1;
	return strcmp(x->file, y->file);
}

/*
 * path's text, malloc'd (*n bytes), or NULL with why: what is not a
 * regular file (opened without blocking: a FIFO cannot hang the export),
 * is larger than max, or holds a NUL (not text) is not read.
 */
static char *read_source(const char *path, uid_t as, size_t max, size_t *n, const char **why)
{
	char *text;
	int err;

	if (!strncmp(path, "/proc/", 6) || !strncmp(path, "/sys/", 5) || !strncmp(path, "/dev/", 5)) {
		*why = "not a source file";
		return NULL;
	}
	/* file_read_regular() refuses a file of max bytes or more: max + 1 */
	text = file_read_as(path, as, max + 1, n, &err);
	if (!text) {
		*why = err == EACCES && !geteuid()	? "left out: the user of the program that names it "
							  "could not read it"
		       : err == ENOENT			? "not found at export time"
		       : err == EFBIG			? "too large to embed"
		       : err == EISDIR || err == ENODEV ? "not a regular file"
							: "not readable at export time";
		return NULL;
	}
	if (memchr(text, 0, *n)) {
		free(text);
		*why = "not text";
		return NULL;
	}
	text = xreallocarray(text, *n + 1, 1);
	text[*n] = '\0';
	return text;
}

/* The source files of c's lines, the most sampled first, as "sources" entries. */
static void put_sources(struct tsamples *const *c, size_t n, struct strs *st, FILE *j)
{
	struct src *s = NULL;
	size_t ns = 0, cap = 0, total = 0;
	struct u64map at;

	u64map_init(&at);
	for (size_t e = 0; e < n; e++) {
		uint32_t *fidx = xcalloc(c[e]->nline + 1, sizeof(*fidx));

		for (size_t i = 1; i < c[e]->nline; i++) {
			const char *file = c[e]->line[i].file;
			uint64_t key = (uint64_t)(uintptr_t)file;
			uint32_t k;

			if (!u64map_get(&at, key, &k)) {
				s = xgrow(s, &cap, ns + 1, sizeof(*s));
				s[ns].file = file;
				s[ns].weight = 0;
				s[ns].nowner = 0;
				k = (uint32_t)ns++;
				u64map_add(&at, key, k);
			}
			fidx[i] = k;
			src_owner(&s[k], c[e]->line[i].owner);
		}
		for (size_t t = 0; t < c[e]->nthread; t++) {
			const struct ts_thread *th = &c[e]->thread[t];

			for (size_t i = 0; i < th->n; i++)
				if (th->line[i])
					s[fidx[th->line[i]]].weight += th->weight[i];
		}
		free(fidx);
	}
	u64map_release(&at);
	if (ns)
		qsort(s, ns, sizeof(*s), src_cmp);
	fputs(",\n\"sources\":[", j);
	for (size_t i = 0; i < ns; i++) {
		const char *why = "over the page's budget for sources";
		size_t len = 0;
		char *text = NULL;

		if (!src_allowed(&s[i]))
			why = "left out: the user of the program that names it could not read it";
		else if (total < SOURCES_MAX)
			text = read_source(s[i].file, s[i].nowner ? s[i].owner[0] : geteuid(),
					   SOURCE_MAX < SOURCES_MAX - total ? SOURCE_MAX :
					   SOURCES_MAX - total, &len, &why);

		fprintf(j, "%s{\"file\":%" PRIu32 ",", i ? ",\n" : "", str_id(st, s[i].file));
		if (text) {
			total += len;
			fputs("\"text\":", j);
			json_put_string(j, text);
			free(text);
		} else {
			fputs("\"why\":", j);
			json_put_string(j, why);
		}
		putc('}', j);
	}
	putc(']', j);
	free(s);
}

/* --- disassembly ------------------------------------------------------------------ */

/*
 * The hottest functions' code, disassembled (annot.c, as prof annotate
 * shows it), as "listings" entries: the page puts the samples it shows on
 * their instructions, so that its filters apply. At most LISTINGS_MAX
 * functions and about LISTING_INSNS instructions in all.
 */
#define LISTINGS_MAX 40
#define LISTING_INSNS 100000

static void put_listings(struct tsamples *const *c, size_t n, struct strs *st,
			 struct ts_libs *libs, FILE *j)
{
	struct addr_count *all = NULL;
	size_t na = 0, cap = 0, nf = 0, total = 0, shown = 0;
	uint64_t un_s = 0, un_p = 0;
	struct annot_func *f;

	for (size_t e = 0; e < n; e++)
		for (size_t i = 0; c[e]->leaves && i < c[e]->leaves->n; i++) {
			all = xgrow(all, &cap, na + 1, sizeof(*all));
			all[na++] = c[e]->leaves->a[i];
		}
	f = annot_functions(all, na, &nf, &un_s, &un_p);
	fputs(",\n\"listings\":[", j);
	for (size_t i = 0; i < nf && shown < LISTINGS_MAX && total < LISTING_INSNS; i++) {
		if (f[i].kernel || dso_is_jit(f[i].dso))
			continue;
		annot_disassemble(&f[i], all, na, ANNOT_ATT);
		fprintf(j, "%s{\"lib\":%" PRIu32 ",\"name\":%" PRIu32, shown++ ? ",\n" : "",
			lib_id(libs, f[i].dso), str_id(st, f[i].name));
		if (f[i].no_code || !f[i].ninsn) {
			fputs(",\"why\":", j);
			json_put_string(j, f[i].no_code ? f[i].no_code : "no instruction decoded");
			putc('}', j);
			continue;
		}
		fprintf(j, ",\"off\":%" PRIu64 ",\"vaddr\":%" PRIu64 ",\"insn\":[", f[i].where.off,
			f[i].where.vaddr);
		for (size_t k = 0; k < f[i].ninsn; k++) {
			const struct annot_insn *in = &f[i].insn[k];
			char text[400];

			if (in->branch && in->target_name[0])
				snprintf(text, sizeof(text), "%s <%s>", in->text, in->target_name);
			else
				snprintf(text, sizeof(text), "%s", in->text);
			fprintf(j, "%s[%" PRIu64 ",", k ? "," : "", in->off - f[i].where.off);
			json_put_string(j, text);
			fprintf(j, ",%" PRIu32 ",%d]", in->file ? str_id(st, in->file) + 1 : 0,
				in->file ? in->line : 0);
		}
		fputs("]}", j);
		total += f[i].ninsn;
	}
	putc(']', j);
	annot_free_list(f, nf);
	free(all);
}

/* --- the blob ------------------------------------------------------------------- */

static unsigned page_kind(unsigned flags)
{
	return (flags & FRAME_KERNEL ? KIND_K : 0) | (flags & FRAME_INLINED ? KIND_I : 0) |
	       (flags & FRAME_NONAME ? KIND_N : 0);
}

/* The event's tables and its threads' columns, in page.js's order. */
static void put_event(const struct tsamples *c, const struct ts_thread *const *th, size_t nth,
		      int with_par, uint64_t origin, struct strs *st, struct ts_libs *libs,
		      struct buf *b, FILE *j)
{
	size_t ninsn = c->leaves ? c->leaves->n + 1 : 1;

	fputs("{\"name\":", j);
	json_put_string(j, c->ev->name);
	fprintf(j, ",\"ns\":%s,\"interval\":%s,\"nframe\":%zu,\"nnode\":%zu,\"nline\":%zu,"
		"\"ninsn\":%zu,\"threads\":[",
		tsamples_in_ns(c) ? "true" : "false", format_time_event(c->ev) ? "true" : "false",
		c->nframe, c->nnode, c->nline, ninsn);
	for (size_t i = 0; i < c->nframe; i++)
		put_uv(b, str_id(st, c->frame[i].name));
	for (size_t i = 0; i < c->nframe; i++)
		put_uv(b, page_kind(c->frame[i].flags));
	for (size_t i = 0; i < c->nframe; i++)
		put_uv(b, lib_id(libs, c->frame[i].dso));
	for (size_t i = 0; i < c->nnode; i++)
		put_uv(b, c->node[i].parent);
	for (size_t i = 0; i < c->nnode; i++)
		put_uv(b, c->node[i].frame);
	for (size_t i = 0; i < c->nline; i++)
		put_uv(b, i ? str_id(st, c->line[i].file) : 0);
	for (size_t i = 0; i < c->nline; i++)
		put_uv(b, i ? (uint64_t)c->line[i].line : 0);
	/* the instructions samples hit: their file's library and offset (kernel code: none) */
	for (size_t i = 0; i < ninsn; i++)
		put_uv(b, i && !c->leaves->a[i - 1].kernel ? lib_id(libs, c->leaves->a[i - 1].dso) : 0);
	for (size_t i = 0; i < ninsn; i++)
		put_uv(b, i && !c->leaves->a[i - 1].kernel ? c->leaves->a[i - 1].addr : 0);
	for (size_t k = 0; k < nth; k++) {
		const struct ts_thread *t = th[k];
		uint64_t last = origin;

		fprintf(j, "%s{\"pid\":%d,\"tid\":%d,\"comm\":%" PRIu32 ",\"n\":%zu,\"total\":%" PRIu64 "}",
			k ? ",\n" : "", t->pid, t->tid, str_id(st, t->comm ? t->comm : "?"), t->n,
			t->total);
		for (size_t i = 0; i < t->n; i++)
			put_uv(b, t->stack[i]);
		for (size_t i = 0; i < t->n; i++) {
			put_sv(b, (int64_t)(t->time[i] - last));
			last = t->time[i];
		}
		for (size_t i = 0; i < t->n; i++)
			put_uv(b, t->weight[i]);
		for (size_t i = 0; i < t->n; i++)
			put_uv(b, t->cpu[i]);
		for (size_t i = 0; i < t->n; i++)
			put_uv(b, t->line[i]);
		for (size_t i = 0; i < t->n; i++)
			put_uv(b, t->insn[i]);
		for (size_t i = 0; with_par && i < t->n; i++)
			put_uv(b, t->par[i]);
	}
	fputs("]}", j);
}

static void put_key(FILE *j, const char *key, const char *v)
{
	fprintf(j, ",\"%s\":", key);
	if (v)
		json_put_string(j, v);
	else
		fputs("null", j);
}

/* The strings, last: the JSON's "strings" array, and the JSON closed. */
static void put_strings(const struct strs *st, FILE *j)
{
	fputs(",\n\"strings\":[", j);
	for (size_t i = 0; i < st->n; i++) {
		if (i)
			fputs(i % 16 ? "," : ",\n", j);
		json_put_string(j, st->s[i]);
	}
	fputs("]}\n", j);
}

/* The blob: a little-endian u32 length, the JSON, then the columns (NULL: none). */
static void blob_join(struct buf *out, const char *json, size_t jlen, const struct buf *cols)
{
	size_t nc = cols ? cols->n : 0;

	out->cap = out->n = 4 + jlen + nc;
	out->b = xmalloc(out->cap);
	for (int i = 0; i < 4; i++)
		out->b[i] = (unsigned char)((uint64_t)jlen >> (8 * i));
	memcpy(out->b + 4, json, jlen);
	if (nc)
		memcpy(out->b + 4 + jlen, cols->b, nc);
}

/* The JSON and the columns, as one buffer: u32 length, JSON, columns. */
static int make_blob(const struct profile *p, const struct format_view *v, struct buf *out)
{
	size_t n;
	struct tsamples **c = tsamples_of(p, &n);
	struct strs st = { 0 };
	struct ts_libs libs;
	struct buf cols = { 0 };
	char *json = NULL;
	size_t jlen = 0;
	FILE *j = open_memstream(&json, &jlen);
	uint64_t origin = p->session ? session_first_time(p->session) : 0;
	int with_par = !p->latency && p->session && session_records_switches(p->session);

	if (!j) {
		free(c);
		return -errno;
	}
	htab_init(&st.tab);
	ts_libs_init(&libs);
	fputs("{\"prof\":\"" PACKAGE_VERSION "\",\"format\":1", j);
	if (tsamples_say_thinned(c, n, "the page")) {
		unsigned most = 1;

		for (size_t e = 0; e < n; e++)
			most = c[e]->stride > most ? c[e]->stride : most;
		fprintf(j, ",\"thinned\":%u", most);
	}
	put_key(j, "input", p->input);
	put_key(j, "cmdline", p->info.cmdline);
	put_key(j, "host", p->info.hostname);
	put_key(j, "release", p->info.osrelease);
	put_key(j, "arch", p->info.arch);
	fprintf(j, ",\"lost\":%" PRIu64 ",\"samples\":%" PRIu64 ",\"latency\":%s,\"parallelism\":%s",
		p->info.lost, p->samples, p->latency ? "true" : "false", with_par ? "true" : "false");
	fputs(",\"keys\":[", j);
	for (int k = 0; k < v->ho->nkeys; k++)
		fprintf(j, "%s\"%s\"", k ? "," : "", v->key_names[v->ho->keys[k]]);
	fprintf(j, "],\"children\":%s,\"inverted\":%s,\n\"events\":[",
		v->ho->children ? "true" : "false", v->inverted ? "true" : "false");
	for (size_t e = 0; e < n; e++) {
		const struct ts_thread **th = tsamples_threads(c[e]);

		if (e)
			fputs(",\n", j);
		put_event(c[e], th, c[e]->nthread, with_par, origin, &st, &libs, &cols, j);
		free(th);
	}
	putc(']', j);
	put_listings(c, n, &st, &libs, j);
	fputs(",\n\"libs\":[", j);
	for (size_t i = 0; i < libs.n; i++) {
		const unsigned char *id;
		size_t nid = dso_build_id(libs.dso[i], &id);

		fputs(i ? ",\n{\"name\":" : "{\"name\":", j);
		json_put_string(j, dso_short_name(libs.dso[i]));
		fputs(",\"path\":", j);
		json_put_string(j, dso_path(libs.dso[i]));
		fputs(",\"buildid\":\"", j);
		for (size_t k = 0; k < nid; k++)
			fprintf(j, "%02x", id[k]);
		fputs("\"}", j);
	}
	putc(']', j);
	put_sources(c, n, &st, j);
	put_strings(&st, j);
	free(c);
	free(st.s);
	htab_release(&st.tab);
	ts_libs_release(&libs);
	if (fclose(j)) {
		free(json);
		free(cols.b);
		return -EIO;
	}
	blob_join(out, json, jlen, &cols);
	free(json);
	free(cols.b);
	return jlen > UINT32_MAX ? -EFBIG : 0;
}

/* --- the page ------------------------------------------------------------------ */

/* page.html with its markers filled in, in their order: the style, the data, the script. */
static int put_page(FILE *out, const unsigned char *z, size_t nz)
{
	static const char *const marks[] = { "/*@CSS@*/", "<!--@DATA@-->", "//@JS@" };
	const char *at = html_page_html;

	for (int m = 0; m < 3; m++) {
		const char *hit = strstr(at, marks[m]);

		if (!hit)
			return -EINVAL;	/* page.html lost a marker: a build defect */
		fwrite(at, 1, (size_t)(hit - at), out);
		if (m == 0)
			fputs(html_page_css, out);
		else if (m == 1)
			base64_write(z, nz, 76, out);
		else
			fputs(html_page_js, out);
		at = hit + strlen(marks[m]);
	}
	fputs(at, out);
	return 0;
}

/* raw deflated into the page, written to out; raw freed. */
static int put_blob(struct buf *raw, FILE *out)
{
	uLongf nz = compressBound((uLong)raw->n);
	unsigned char *z = xmalloc(nz);
	int ret;

	/* level 1: the columns are repetitive, and more effort buys little for its time */
	if (compress2(z, &nz, raw->b, (uLong)raw->n, 1) != Z_OK) {
		free(z);
		free(raw->b);
		return -ENOMEM;
	}
	free(raw->b);
	ret = put_page(out, z, nz);
	free(z);
	return ret ? ret : ferror(out) ? -EIO : 0;
}

static int write_html(const struct profile *p, const struct format_view *v, FILE *out)
{
	struct buf raw = { 0 };
	int ret = make_blob(p, v, &raw);

	if (ret) {
		free(raw.b);
		return ret;
	}
	return put_blob(&raw, out);
}

/* --- a diff ------------------------------------------------------------------------ */

/* -1 shrank, 1 grew, 0 within noise. */
static int change_of(const struct diff_value *x)
{
	return !x->significant ? 0 : x->delta > 0 ? 1 : -1;
}

struct dtree {
	struct strs *st;
	FILE *cols[9];		/* parent, name, kind, v0, v1, pct0, pct1, delta, change */
	long n;
};

/* A column's next value: an integer, or (dec) points to four decimals. */
static void put_num(FILE *f, long n, int dec, double v)
{
	if (n)
		putc(',', f);
	if (n % 32 == 31)
		putc('\n', f);
	if (dec)
		fprintf(f, "%.4f", v);
	else
		fprintf(f, "%.0f", v);
}

/* The merged tree from x down in pre-order, as columns; parent is the node's parent's index. */
static void dtree_put(struct dtree *t, const struct diff *d, const struct format_view *v,
		      const struct diff_node *x, long parent, int depth)
{
	long me = t->n++;
	struct diff_node *kids;
	size_t n;

	put_num(t->cols[0], me, 0, (double)parent);
	put_num(t->cols[1], me, 0, (double)str_id(t->st, x->name ? x->name : "all"));
	put_num(t->cols[2], me, 0, (double)page_kind(x->flags));
	put_num(t->cols[3], me, 0, (double)x->d.v[0]);
	put_num(t->cols[4], me, 0, (double)x->d.v[1]);
	put_num(t->cols[5], me, 1, x->d.pct[0]);
	put_num(t->cols[6], me, 1, x->d.pct[1]);
	put_num(t->cols[7], me, 1, x->d.delta);
	put_num(t->cols[8], me, 0, (double)change_of(&x->d));
	if (depth >= 4096)
		return;
	n = diff_children(d, x->at[0], x->at[1], &kids);
	for (size_t i = 0; i < n; i++)
		if (kids[i].d.v[0] || kids[i].d.v[1])
			dtree_put(t, d, v, &kids[i], me, depth + 1);
	free(kids);
}

static void put_side(FILE *j, const struct diff_side *x, const struct format_view *v, int s)
{
	fprintf(j, "{\"inputs\":[");
	for (size_t i = 0; i < v->ninputs[s]; i++) {
		if (i)
			putc(',', j);
		json_put_string(j, v->inputs[s][i]);
	}
	fprintf(j, "],\"samples\":%" PRIu64 ",\"total\":%" PRIu64 ",\"seconds\":%.6f,\"lost\":%" PRIu64 "}",
		x->samples, x->total, x->seconds, x->lost);
}

static int write_html_diff(const struct diff *d, const struct format_view *v, FILE *out)
{
	static const char *const names[9] = { "parent", "name", "kind", "v0", "v1", "pct0", "pct1",
					      "delta", "change" };
	struct strs st = { 0 };
	struct dtree t = { .st = &st };
	char *json = NULL, *col[9] = { 0 };
	size_t jlen = 0, clen[9];
	FILE *j = open_memstream(&json, &jlen);
	struct buf raw = { 0 };
	size_t over = 0, nnames = 0, cap_names = 0;
	char **names_made = NULL;

	if (!j)
		return -errno;
	htab_init(&st.tab);
	fputs("{\"prof\":\"" PACKAGE_VERSION "\",\"format\":1,\"diff\":true,\"base\":", j);
	put_side(j, &d->side[0], v, 0);
	fputs(",\"new\":", j);
	put_side(j, &d->side[1], v, 1);
	put_key(j, "event", d->event);
	fprintf(j, ",\"ns\":%s,\"abs\":%s,\"level\":%g,\"min_delta\":%g,\"dispersion\":%g,"
		"\"compared\":%zu,\"tested\":%zu,\"nodes_tested\":%zu",
		evkind_ns(d->event, d->event_config) ? "true" : "false", d->abs ? "true" : "false",
		d->level, d->min_delta, d->dispersion, d->compared, d->tested, d->nodes_tested);
	fputs(",\"keys\":[", j);
	for (int k = 0; k < v->ho->nkeys; k++)
		fprintf(j, "%s\"%s\"", k ? "," : "", v->key_names[v->ho->keys[k]]);
	fputs("],\n\"entries\":[", j);
	for (size_t i = 0, k = 0; i < d->n; i++) {
		const struct diff_entry *e = &d->e[i];
		char *name;

		if (!format_diff_shown(v, &e->d, 0) || !diff_selected(v, e))
			continue;
		/* kept until the strings are written: st holds the pointer */
		name = diff_entry_name(v, e);
		names_made = xgrow(names_made, &cap_names, nnames + 1, sizeof(*names_made));
		names_made[nnames++] = name;
		fprintf(j, "%s{\"name\":%" PRIu32, k++ ? ",\n" : "", str_id(&st, name));
		if (e->inl_in)
			fprintf(j, ",\"in\":%" PRIu32, str_id(&st, e->inl_in));
		fprintf(j, ",\"kind\":%u,\"v\":[%" PRIu64 ",%" PRIu64 "],\"pct\":[%.4f,%.4f],"
			"\"delta\":%.4f,\"p\":%.3g,\"change\":%d,\"trips\":%s}",
			e->text[HIST_SYM] ? page_kind(e->flags) : 0, e->d.v[0], e->d.v[1], e->d.pct[0],
			e->d.pct[1], e->d.delta, e->d.p, change_of(&e->d),
			v->gate && format_diff_trips(v, e) ? "true" : "false");
		over += v->gate && format_diff_trips(v, e);
	}
	fputs("]", j);
	if (v->gate)
		fprintf(j, ",\"gate\":{\"above\":%g,\"over\":%zu}", v->fail_above, over);
	if (d->side[0].tree) {
		struct diff_node root = diff_root(d);

		for (int c = 0; c < 9; c++)
			t.cols[c] = open_memstream(&col[c], &clen[c]);
		for (int c = 0; c < 9; c++)
			if (!t.cols[c]) {
				fclose(j);
				free(json);
				return -ENOMEM;
			}
		dtree_put(&t, d, v, &root, -1, 0);
		fputs(",\n\"tree\":{", j);
		for (int c = 0; c < 9; c++) {
			fclose(t.cols[c]);
			fprintf(j, "%s\"%s\":[%s]", c ? ",\n" : "", names[c], col[c]);
			free(col[c]);
		}
		putc('}', j);
	}
	put_strings(&st, j);
	for (size_t i = 0; i < nnames; i++)
		free(names_made[i]);
	free(names_made);
	if (fclose(j)) {
		free(json);
		free(st.s);
		htab_release(&st.tab);
		return -EIO;
	}
	blob_join(&raw, json, jlen, NULL);
	free(json);
	free(st.s);
	htab_release(&st.tab);
	return put_blob(&raw, out);
}

const struct format format_html = {
	.name = "html",
	.help = "one self-contained interactive page: flame graph, call trees, timeline, source",
	.needs = FORMAT_CHAINS | FORMAT_ORDERED | FORMAT_SRCLINE,
	.collector = &tsamples_full,
	.write = write_html,
	.diff_help = "the page in differential mode: both flame graphs, grew and shrank beyond noise, the gate",
	.diff_needs = FORMAT_STACKS,
	.write_diff = write_html_diff,
};
