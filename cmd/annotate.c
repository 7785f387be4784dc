// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `prof annotate [SYMBOL...]`: which line and which instruction of a hot
 * function its samples hit, as perf annotate shows them. The model counts
 * samples by address (profile_opts.addresses), report/model/annot.c
 * disassembles each function and puts them on its instructions and
 * source lines; this file picks the functions, reads their source and
 * writes text (perf's --stdio layout, with the source lines' shares) or
 * JSON.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "annot.h"
#include "annotate.h"
#include "cli.h"
#include "file.h"
#include "format.h"
#include "htab.h"
#include "pager.h"
#include "profile.h"
#include "utf8.h"
#include "viewopts.h"
#include "warn.h"
#include "xalloc.h"

struct annotate {
	const char *input;
	const char *output;
	int json;
	int show_nr;			/* -n: the samples beside the shares */
	int no_source;			/* --no-source: instructions only */
	int asm_raw;			/* --asm-raw: their bytes too */
	int full_paths;			/* -P: source files by their whole path */
	int stdio;			/* --stdio: no pager on a terminal */
	enum annot_syntax syntax;
	double percent_limit;		/* functions under this share of their event are left out */
	int has_limit;
	char **syms;			/* SYMBOL... and -s */
	size_t nsyms;
	struct view_args va;
};

enum { AN_STYLE, AN_LIMIT, AN_SYMBOL, AN_OUTPUT };

static int annotate_cb(struct opt_state *st, const struct opt *o, const char *arg)
{
	struct annotate *a = st->ctx;
	char *end;

	switch (o->val) {
	case AN_STYLE:
		if (!strcmp(arg, "intel"))
			a->syntax = ANNOT_INTEL;
		else if (!strcmp(arg, "att"))
			a->syntax = ANNOT_ATT;
		else
			return opt_error(st, "%s '%s': give intel or att", st->name, arg);
		return 0;
	case AN_LIMIT:
		errno = 0;
		a->percent_limit = strtod(arg, &end);
		if (errno || end == arg || *end || !(a->percent_limit >= 0) || a->percent_limit > 100)
			return opt_error(st, "--percent-limit: '%s' is not a share from 0 to 100", arg);
		a->has_limit = 1;
		return 0;
	case AN_SYMBOL:
		if (!arg[0])
			return opt_error(st, "%s: give a function's name", st->name);
		a->syms = xreallocarray(a->syms, a->nsyms + 1, sizeof(*a->syms));
		a->syms[a->nsyms++] = (char *)arg;
		return 0;
	case AN_OUTPUT:
		if (!arg[0])
			return opt_error(st, "--output: give a file name");
		a->output = arg;
		return 0;
	}
	return -1;
}

#define AN struct annotate

static const struct opt annotate_options[] = {
	OPT_STRING('i', "input", "FILE", AN, input,
		   "profile to read (default prof.data, - for stdin)"),
	OPT_CALL('s', "symbol", "NAME", annotate_cb, AN_SYMBOL,
		 "annotate this function (repeatable; or give names\n"
		 "after the options)"),
	OPT_CALL(0, "percent-limit", "P", annotate_cb, AN_LIMIT,
		 "without names: the functions holding P% or more\n"
		 "of their event's samples (default 1)"),
	OPT_SET(0, "json", AN, json, 1, "write JSON, not text"),
	OPT_SET('n', "show-nr-samples", AN, show_nr, 1, "show the samples beside the shares"),
	OPT_SET(0, "no-source", AN, no_source, 1, "instructions only, no source lines"),
	OPT_SET(0, "asm-raw", AN, asm_raw, 1, "show each instruction's bytes"),
	OPT_SET('P', "full-paths", AN, full_paths, 1, "name source files by their whole path"),
	OPT_CALL('M', "disassembler-style", "STYLE", annotate_cb, AN_STYLE,
		 "att (default, as objdump) or intel (x86)"),
	OPT_CALL('o', "output", "FILE", annotate_cb, AN_OUTPUT,
		 "write to FILE, not standard output"),
	OPT_TABLE(view_filter_options, AN, va),
	OPT_TABLE(view_name_options, AN, va),
	OPT_SET('q', "quiet", AN, va.quiet, 1, "no warnings about the input"),
	OPT_HELP(),
	/* perf's */
	OPT_SET(0, "stdio", struct annotate, stdio, 1,
		"text on standard output, even on a terminal\n"
		"(there it goes through a pager otherwise)"),
	OPT_PERF_NOOP(0, "stdio2"),
	OPT_PERF_NOOP('l', "print-line"),
	OPT_PERF(0, "tui", "prof annotate writes text (or --json); prof view shows the page"),
	OPT_PERF(0, "gtk", "prof annotate writes text (or --json); prof view shows the page"),
	OPT_PERF(0, "objdump", "prof annotate disassembles with objdump's own library (libopcodes)"),
	OPT_END(),
};

/* --- source files -------------------------------------------------------------- */

#define SOURCE_MAX	(64u << 20)	/* a source file bigger than this is not read */

struct source {
	const char *key;		/* the path as the line table gives it (interned) */
	const char *dir;		/* ... and its CU's directory (interned, or NULL) */
	uid_t owner;			/* the user whose program names it; (uid_t)-1 not known */
	char path[4096];		/* the path looked for: both, "." and ".." resolved */
	char *text;			/* NULL: not found */
	char **line;			/* line[i]: the start of line i + 1, in text */
	int nlines;
	char *why;			/* when not found: why, one line */
};

struct sources {
	const char *symfs;
	int strict;
	struct source *v;
	size_t n, cap;
};

/*
 * path with "." and ".." resolved as text (a line table's "/build/dir/../src/a.c":
 * the build directory need not be there), into buf.
 */
static void normalize(const char *path, char *buf, size_t size)
{
	size_t n = 0;
	const char *p = path;

	while (*p && n + 1 < size) {
		const char *e;
		size_t len;

		while (*p == '/')
			p++;
		e = strchrnul(p, '/');
		len = (size_t)(e - p);
		if (len == 1 && p[0] == '.') {
			/* nothing */
		} else if (len == 2 && p[0] == '.' && p[1] == '.') {
			while (n && buf[n - 1] != '/')
				n--;
			if (n)
				n--;
		} else if (len) {
			if (n + 1 + len + 1 > size)
				break;
			buf[n++] = '/';
			memcpy(buf + n, p, len);
			n += len;
		}
		p = e;
	}
	if (!n)
		buf[n++] = '/';
	buf[n] = '\0';
}

/*
 * path read as the user of the program whose line table names it
 * (owner; (uid_t)-1 not known) could: 0 and its bytes, or -1 (errno;
 * EACCES when that user could not read it: root shows another user
 * nothing more).
 */
static int read_as(const char *path, uid_t owner, char **text, size_t *len)
{
	int err;

	*text = file_read_as(path, owner, SOURCE_MAX + 1, len, &err);
	if (!*text) {
		errno = err == EFBIG ? EFBIG : err;
		return -1;
	}
	*text = xreallocarray(*text, *len + 1, 1);
	(*text)[*len] = '\0';
	return 0;
}

static struct source *source_get(struct sources *ss, const char *path, const char *dir, uid_t owner)
{
	char *norm;
	struct source *s;
	char buf[8192];
	size_t len = 0;
	int found = -1, err = ENOENT;

	for (size_t i = 0; i < ss->n; i++)
		if (ss->v[i].key == path && ss->v[i].dir == dir && ss->v[i].owner == owner)
			return &ss->v[i];
	ss->v = xgrow(ss->v, &ss->cap, ss->n + 1, sizeof(*ss->v));
	s = &ss->v[ss->n++];
	memset(s, 0, sizeof(*s));
	s->key = path;
	s->dir = dir;
	s->owner = owner;
	norm = s->path;
	if (path[0] != '/' && (!dir || dir[0] != '/')) {
		snprintf(s->path, sizeof(s->path), "%s", path);
		s->why = xstrdup("a path relative to where it was compiled, which is not known here");
		return s;
	}
	/* under --symfs first, then where it was compiled (not with --strict-symfs) */
	if (path[0] != '/') {
		snprintf(buf, sizeof(buf), "%s/%s", dir, path);
		normalize(buf, norm, sizeof(s->path));
	} else {
		normalize(path, norm, sizeof(s->path));
	}
	if (ss->symfs) {
		snprintf(buf, sizeof(buf), "%s%s", ss->symfs, norm);
		found = read_as(buf, owner, &s->text, &len);
		err = errno;
	}
	if (found && !ss->strict) {
		found = read_as(norm, owner, &s->text, &len);
		err = errno;
	}
	if (found) {
		if (err == EACCES && !geteuid() && owner == (uid_t)-1)
			snprintf(buf, sizeof(buf), "left out: not readable by all, and whose program "
				 "names it is not known");
		else if (err == EACCES && !geteuid())
			snprintf(buf, sizeof(buf), "left out: uid %u, whose program names it, could not "
				 "read it", (unsigned)owner);
		else
			snprintf(buf, sizeof(buf), "%s", strerror(err));
		s->why = xstrdup(buf);
		s->text = NULL;
		return s;
	}
	for (size_t i = 0; i <= len; i++)
		if (i == 0 || s->text[i - 1] == '\n') {
			if (i == len && i > 0)
				break;
			s->line = xreallocarray(s->line, (size_t)s->nlines + 1, sizeof(*s->line));
			s->line[s->nlines++] = s->text + i;
		}
	return s;
}

/* The user to read f's sources as: its file's owner ((uid_t)-1: not known, as for JIT code). */
static uid_t owner_of(const struct annot_func *f)
{
	return f->dso && !f->kernel ? dso_owner(f->dso) : (uid_t)-1;
}

/* Line n's text (without its newline) into *len; NULL when not there. */
static const char *source_line(const struct source *s, int n, size_t *len)
{
	const char *l, *e;

	if (!s || !s->text || n < 1 || n > s->nlines)
		return NULL;
	l = s->line[n - 1];
	e = strchr(l, '\n');
	*len = e ? (size_t)(e - l) : strlen(l);
	if (*len && l[*len - 1] == '\r')
		(*len)--;
	return l;
}

static void sources_release(struct sources *ss)
{
	for (size_t i = 0; i < ss->n; i++) {
		free(ss->v[i].text);
		free(ss->v[i].line);
		free(ss->v[i].why);
	}
	free(ss->v);
}

/* --- text ------------------------------------------------------------------------ */

static const char *short_file(const struct annotate *a, const char *f)
{
	const char *slash = strrchr(f, '/');

	return a->full_paths || !slash ? f : slash + 1;
}

/* Tabs to spaces (8 columns), so that a listing's columns hold. */
static void put_expanded(FILE *out, const char *s, size_t len)
{
	size_t col = 0;

	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\t') {
			do
				fputc(' ', out);
			while (++col % 8);
		} else {
			fputc(s[i], out);
			col++;
		}
	}
}

#define HOT_LINES	5	/* the hottest lines listed before the code, and marked in it */

static int is_hot(const struct annot_func *f, const char *file, int line)
{
	for (size_t i = 0; i < f->nlines && i < HOT_LINES; i++)
		if (f->lines[i].period && f->lines[i].file == file && f->lines[i].line == line)
			return 1;
	return 0;
}

static uint64_t line_period(const struct annot_func *f, const char *file, int line,
			    uint64_t *samples)
{
	for (size_t i = 0; i < f->nlines; i++)
		if (f->lines[i].file == file && f->lines[i].line == line) {
			*samples = f->lines[i].samples;
			return f->lines[i].period;
		}
	*samples = 0;
	return 0;
}

static void text_pct(FILE *out, const struct annotate *a, char mark, uint64_t period,
		     uint64_t samples, uint64_t whole, int blank)
{
	if (blank) {
		fprintf(out, a->show_nr ? "%18s" : "%9s", "");
		return;
	}
	fputc(mark, out);
	if (a->show_nr)
		fprintf(out, "%8" PRIu64 " ", samples);
	fprintf(out, "%8.2f", format_pct(period, whole));
}

/* The samples prof report's row of f's name counts: not those in code inlined into f */
static void reported(const struct annot_func *f, uint64_t *samples, uint64_t *period)
{
	if (f->inlined_in) {
		*samples = f->own_samples;
		*period = f->own_period;
	} else {
		*samples = f->samples - f->inl_samples;
		*period = f->period - f->inl_period;
	}
}

static int has_lines(const struct annot_func *f)
{
	for (size_t i = 0; i < f->ninsn; i++)
		if (f->insn[i].file)
			return 1;
	return 0;
}

static void text_function(FILE *out, const struct annotate *a, struct sources *ss,
			  const struct annot_func *f, const char *event, uint64_t event_period)
{
	const char *dso = f->dso ? dso_short_name(f->dso) : "?";
	const char *last_file = NULL;
	int last_line = -1;
	size_t width = 100;

	uint64_t rs, rp;

	fputc('\n', out);
	fputs(f->name, out);
	if (f->inlined_in)
		fprintf(out, " (inlined in %s)", f->inlined_in);
	fprintf(out, dso[0] == '[' ? "  %s  %s: %" PRIu64 " samples, %.2f%% of the event's\n"
		: "  [%s]  %s: %" PRIu64 " samples, %.2f%% of the event's\n", dso,
		event, f->samples, format_pct(f->period, event_period));
	reported(f, &rs, &rp);
	if (f->inlined_in && rs == f->samples)
		fprintf(out, "  all of them on prof report's row '%s (inlined in %s)'\n", f->name,
			f->inlined_in);
	else if (f->inlined_in)
		fprintf(out, "  prof report's row '%s (inlined in %s)' counts %" PRIu64 " of them "
			"(%.2f%%), where it is the innermost function; the other %" PRIu64 " are "
			"in functions inlined into it\n", f->name, f->inlined_in, rs,
			format_pct(rp, event_period), f->samples - rs);
	else if (f->inl_samples)
		fprintf(out, "  %" PRIu64 " of them (%.2f%%) are in functions inlined into it, "
			"which prof report lists under their own names: its row for %s counts "
			"%" PRIu64 " (%.2f%%)\n", f->inl_samples, format_pct(f->inl_period,
			event_period), f->name, rs, format_pct(rp, event_period));
	if (f->no_code) {
		fprintf(out, "  no listing: %s\n", f->no_code);
		return;
	}
	if (f->outside)
		fprintf(out, "  %" PRIu64 " samples at addresses that are no instruction of the "
			"listing\n", f->outside);
	if (f->cut)
		fprintf(out, "  the listing stops at %zu instructions; %" PRIu64 " bytes of the "
			"function are left out\n", f->ninsn, f->cut);
	/* the hottest lines first: perf annotate -l's summary */
	if (!a->no_source && f->nlines && f->lines[0].file) {
		fprintf(out, "  hottest lines:\n");
		for (size_t i = 0; i < f->nlines && i < HOT_LINES && f->lines[i].period; i++) {
			const struct annot_line *l = &f->lines[i];
			size_t len = 0;
			const char *t = l->file ? source_line(source_get(ss, l->file, l->comp_dir, owner_of(f)),
							      l->line, &len) : NULL;

			fprintf(out, "   ");
			text_pct(out, a, ' ', l->period, l->samples, f->period, 0);
			if (l->file)
				fprintf(out, "  %s:%d", short_file(a, l->file), l->line);
			else
				fprintf(out, "  (no line)");
			if (t) {
				while (len && (*t == ' ' || *t == '\t')) {
					t++;
					len--;
				}
				fprintf(out, "   ");
				put_expanded(out, t, len > 60 ? 60 : len);
			}
			fputc('\n', out);
		}
	}
	if (!a->no_source && f->ninsn && !has_lines(f))
		fprintf(out, "  no source lines: no line information of %s covers this code "
			"(no DWARF, or none for it, as for a PLT entry); the instructions "
			"alone follow\n", dso_short_name(f->dso));
	if (f->unnamed) {
		fprintf(out, "%s |  The %zu instructions of %s its samples hit (no symbol says "
			"where its functions begin)\n", a->show_nr ? "  Samples  Percent" : "  Percent",
			f->ninsn, dso_path(f->dso));
	} else {
		fprintf(out, "%s |  Source and disassembly of %s in %s, ", a->show_nr ?
			"  Samples  Percent" : "  Percent", f->name, dso_path(f->dso));
		if (f->inlined_in)
			fprintf(out, "inlined in %s ", f->inlined_in);
		fprintf(out, "at 0x%" PRIx64 ", %" PRIu64 " bytes\n", f->where.vaddr,
			f->where.size);
	}
	for (size_t i = 0; i < width; i++)
		fputc(i == (a->show_nr ? 19u : 10u) ? '+' : '-', out);
	fputc('\n', out);
	for (size_t i = 0; i < f->ninsn; i++) {
		const struct annot_insn *in = &f->insn[i];

		/* an inlined function's code in pieces: where one ends */
		if (i && in->vaddr != f->insn[i - 1].vaddr + f->insn[i - 1].nbytes) {
			text_pct(out, a, ' ', 0, 0, 0, 1);
			fprintf(out, " :   ...\n");
			last_file = NULL;
			last_line = -1;
		}
		if (!a->no_source && in->file && (in->file != last_file || in->line != last_line)) {
			const struct source *src = source_get(ss, in->file, in->comp_dir, owner_of(f));
			uint64_t ls, lp = line_period(f, in->file, in->line, &ls);
			size_t len = 0;
			const char *t = source_line(src, in->line, &len);

			if (in->file != last_file) {
				text_pct(out, a, ' ', 0, 0, 0, 1);
				fprintf(out, " :  %s", src->path);
				if (!src->text)
					fprintf(out, "  (source not shown: %s)", src->why);
				fputc('\n', out);
			}
			text_pct(out, a, is_hot(f, in->file, in->line) ? '*' : ' ', lp, ls, f->period,
				 0);
			fprintf(out, " : %5d  ", in->line);
			if (t)
				put_expanded(out, t, len);
			fputc('\n', out);
			last_file = in->file;
			last_line = in->line;
		}
		text_pct(out, a, ' ', in->period, in->samples, f->period, !in->samples);
		fprintf(out, " :   %8" PRIx64 ":  ", in->vaddr);
		if (a->asm_raw) {
			for (unsigned k = 0; k < 10; k++)
				fprintf(out, k < in->nbytes ? "%02x " : "   ", in->bytes[k]);
		}
		fputs(in->text, out);
		if (in->branch && in->target_name[0])
			fprintf(out, "  <%s>", in->target_name);
		fputc('\n', out);
	}
}

/* --- JSON ----------------------------------------------------------------------- */

static void json_str(FILE *out, const char *s)
{
	if (!s) {
		fputs("null", out);
		return;
	}
	utf8_put_json(out, s, strlen(s));
}

static void json_function(FILE *out, const struct annotate *a, struct sources *ss,
			  const struct annot_func *f, uint64_t event_period, int first)
{
	const unsigned char *id = NULL;
	size_t nid = f->dso ? dso_build_id(f->dso, &id) : 0;

	fputs(first ? "\n    {" : ",\n    {", out);
	fputs("\"name\": ", out);
	json_str(out, f->name);
	fputs(", \"dso\": ", out);
	json_str(out, f->dso ? dso_path(f->dso) : NULL);
	fputs(", \"build_id\": ", out);
	if (nid) {
		fputc('"', out);
		for (size_t i = 0; i < nid; i++)
			fprintf(out, "%02x", id[i]);
		fputc('"', out);
	} else {
		fputs("null", out);
	}
	uint64_t rs, rp;

	fprintf(out, ", \"samples\": %" PRIu64 ", \"period\": %" PRIu64 ", \"percent\": %.4f",
		f->samples, f->period, format_pct(f->period, event_period));
	fputs(", \"inlined_in\": ", out);
	json_str(out, f->inlined_in);
	reported(f, &rs, &rp);
	fprintf(out, ", \"report_samples\": %" PRIu64 ", \"report_period\": %" PRIu64
		", \"report_percent\": %.4f", rs, rp, format_pct(rp, event_period));
	fputs(", \"no_code\": ", out);
	json_str(out, f->no_code);
	if (f->no_code) {
		fputs("}", out);
		return;
	}
	fprintf(out, ", \"address\": \"0x%" PRIx64 "\", \"size\": %" PRIu64
		", \"outside_samples\": %" PRIu64 ", \"bytes_cut\": %" PRIu64, f->where.vaddr,
		f->where.size, f->outside, f->cut);
	fputs(",\n     \"lines\": [", out);
	for (size_t i = 0; i < f->nlines; i++) {
		const struct annot_line *l = &f->lines[i];
		const struct source *src = l->file && !a->no_source ?
					   source_get(ss, l->file, l->comp_dir, owner_of(f)) : NULL;
		size_t len = 0;
		const char *t = source_line(src, l->line, &len);

		fprintf(out, "%s\n      {\"file\": ", i ? "," : "");
		json_str(out, src ? src->path : l->file);
		fprintf(out, ", \"line\": %d, \"samples\": %" PRIu64 ", \"period\": %" PRIu64
			", \"percent\": %.4f, \"text\": ", l->line, l->samples, l->period,
			format_pct(l->period, f->period));
		if (t)
			utf8_put_json(out, t, len);
		else
			fputs("null", out);
		fputs("}", out);
	}
	fputs("],\n     \"instructions\": [", out);
	for (size_t i = 0; i < f->ninsn; i++) {
		const struct annot_insn *in = &f->insn[i];

		fprintf(out, "%s\n      {\"address\": \"0x%" PRIx64 "\", \"bytes\": \"", i ? "," : "",
			in->vaddr);
		for (unsigned k = 0; k < in->nbytes; k++)
			fprintf(out, "%02x", in->bytes[k]);
		fputs("\", \"text\": ", out);
		json_str(out, in->text);
		fprintf(out, ", \"samples\": %" PRIu64 ", \"period\": %" PRIu64 ", \"percent\": %.4f",
			in->samples, in->period, format_pct(in->period, f->period));
		fputs(", \"file\": ", out);
		json_str(out, in->file);
		fprintf(out, ", \"line\": %d", in->line);
		if (in->inl_n) {
			fputs(", \"inlined\": [", out);
			for (uint32_t k = 0; k < in->inl_n; k++) {
				if (k)
					fputs(", ", out);
				json_str(out, f->inl_names[in->inl_at + k]);
			}
			fputc(']', out);
		}
		if (in->branch) {
			fprintf(out, ", \"target\": \"0x%" PRIx64 "\", \"target_name\": ", in->target);
			json_str(out, in->target_name[0] ? in->target_name : NULL);
		}
		fputs("}", out);
	}
	fputs("]}", out);
}

/* --- the command ------------------------------------------------------------------ */

static void usage_out(FILE *out)
{
	fputs("usage: prof annotate [-i FILE] [options] [SYMBOL...]\n\n", out);
	opt_usage(out, annotate_options);
}

static int wanted(const struct annotate *a, const struct annot_func *f, uint64_t event_period)
{
	if (!a->nsyms)
		return format_pct(f->period, event_period) >= a->percent_limit && f->period;
	for (size_t i = 0; i < a->nsyms; i++)
		if (!strcmp(a->syms[i], f->name))
			return 1;
	return 0;
}

static void show_function(FILE *out, const struct annotate *a, struct sources *ss,
			  const struct annot_func *f, const char *event, uint64_t total,
			  size_t *shown)
{
	if (a->json)
		json_function(out, a, ss, f, total, !*shown);
	else
		text_function(out, a, ss, f, event, total);
	(*shown)++;
}

/* Annotate event e's functions; how many were listed. */
static size_t annotate_event(FILE *out, const struct annotate *a, struct sources *ss,
			     struct profile_event *e, int *first_json, size_t *found)
{
	size_t nc, nf = 0, shown = 0;
	const struct addr_count *c = addrs_sorted(e->addrs, &nc);
	uint64_t un_s = 0, un_p = 0, total;
	struct annot_func *f = annot_functions(c, nc, &nf, &un_s, &un_p);

	total = e->addrs->period;
	if (a->json) {
		fprintf(out, "%s\n  {\"event\": ", *first_json ? "" : ",");
		json_str(out, e->ev->name);
		fprintf(out, ", \"period\": %" PRIu64 ", \"unnamed_samples\": %" PRIu64
			", \"functions\": [", total, un_s);
		*first_json = 0;
	}
	if (!a->json && !a->nsyms && un_s && format_pct(un_p, total) >= a->percent_limit)
		fprintf(out, "\n%" PRIu64 " samples of %s (%.2f%%) hit no file: JIT code without "
			"its perf map or jitdump, or another machine's kernel (prof report --sort "
			"dso says which)\n", un_s, e->ev->name, format_pct(un_p, total));
	for (size_t i = 0; i < nf; i++) {
		if (wanted(a, &f[i], total)) {
			(*found)++;
			annot_disassemble(&f[i], c, nc, a->syntax);
			show_function(out, a, ss, &f[i], e->ev->name, total, &shown);
		}
		/* a name inlined in f[i]: its code there, a listing of its own */
		for (size_t k = 0; k < a->nsyms; k++) {
			struct annot_func g = f[i];

			if (!strcmp(a->syms[k], f[i].name) ||
			    !annot_inlined_hit(&f[i], c, nc, a->syms[k]))
				continue;
			(*found)++;
			g.insn = NULL;
			g.lines = NULL;
			g.inl_names = NULL;
			g.ninsn = g.nlines = g.ninl_names = 0;
			g.inl_samples = g.inl_period = 0;
			g.outside = g.cut = 0;
			g.no_code = NULL;
			if (!annot_disassemble(&g, c, nc, a->syntax) && !g.no_code)
				annot_focus(&g, a->syms[k]);
			show_function(out, a, ss, &g, e->ev->name, total, &shown);
			free(g.insn);
			free(g.lines);
			free(g.inl_names);
		}
	}
	if (a->json)
		fputs("]}", out);
	annot_free_list(f, nf);
	return shown;
}

int cmd_annotate(int argc, char **argv)
{
	struct annotate a = { .input = "prof.data", .percent_limit = 1.0 };
	struct profile_opts po;
	struct profile *p = NULL;
	struct sources ss = { 0 };
	char err[512], why[1024], *out_tmp = NULL;
	int first, ret, status = 1, first_json = 1, paged = 0;
	size_t found = 0;
	FILE *out = stdout, *text = NULL;

	view_args_init(&a.va, "annotate");
	ret = opt_parse(annotate_options, &a, 0, argc, argv, &first, err, sizeof(err));
	if (ret == 1) {
		usage_out(stdout);
		view_args_release(&a.va);
		free(a.syms);
		return 0;
	}
	if (!ret && a.has_limit && (a.nsyms || first < argc)) {
		snprintf(err, sizeof(err), "--percent-limit picks functions when none is named; "
			 "drop it or the names");
		ret = -1;
	}
	if (ret) {
		view_args_release(&a.va);
		free(a.syms);
		return opt_say("annotate", ret, err);
	}
	for (int i = first; i < argc; i++) {
		a.syms = xreallocarray(a.syms, a.nsyms + 1, sizeof(*a.syms));
		a.syms[a.nsyms++] = argv[i];
	}
	view_args_done(&a.va);
	a.va.so.srcline = 1;
	view_profile_opts(&a.va, a.input, &po);
	po.flat = 0;
	po.addresses = 1;
	po.chains = 1;		/* time off the CPU goes to its first frame outside the kernel */
	if (profile_load(&po, &p, why, sizeof(why))) {
		fprintf(stderr, "prof: %s\n", why);
		goto out;
	}
	if (!a.va.quiet)
		input_warnings(a.input, p->rd, p->session, 0, 0, NULL, "annotating");
	if (a.output) {
		out = cli_create_output(a.output, &out_tmp);
		if (!out) {
			out = stdout;
			goto out;
		}
	} else if (!a.stdio) {
		paged = pager_start();
	}
	text = utf8_filter(out);
	if (!text) {
		fprintf(stderr, "prof: cannot write: %s\n", strerror(errno));
		goto out;
	}
	setvbuf(text, NULL, _IOFBF, 1 << 16);
	ss.symfs = symbols_symfs(p->sym);
	ss.strict = a.va.so.strict_symfs;
	if (a.json)
		fputs("{\"events\": [", text);
	for (size_t i = 0; i < p->nev; i++)
		if (p->ev[i].addrs && p->ev[i].addrs->n)
			annotate_event(text, &a, &ss, &p->ev[i], &first_json, &found);
	if (a.json)
		fputs("\n]}\n", text);
	status = 0;
	if (fclose(text)) {
		fprintf(stderr, "prof: cannot write: %s\n", strerror(errno));
		status = 1;
	}
	text = NULL;
	/* the pager first: what follows on stderr must not draw over it */
	if (paged && fflush(stdout) == 0)
		pager_end();
	if (!a.va.quiet)
		symbols_warnings_print(p->sym);
	if (!status && !found) {
		if (a.nsyms)
			fprintf(stderr, "prof: annotate: no samples in %s%s in '%s'; prof report "
				"names the sampled functions\n", a.syms[0], a.nsyms > 1 ? " or the "
				"others named" : "", a.input);
		else
			fprintf(stderr, "prof: annotate: no function holds %g%% of its event's samples "
				"in '%s'; give --percent-limit 0\n", a.percent_limit, a.input);
		status = 1;
	}
	if (out != stdout) {
		if (fclose(out) && !status) {
			fprintf(stderr, "prof: cannot write '%s': %s\n", a.output, strerror(errno));
			status = 1;
		}
	} else if ((fflush(stdout) || ferror(stdout)) && !paged) {
		fprintf(stderr, "prof: cannot write: %s\n", strerror(errno ? errno : EIO));
		status = 1;
	}
	/* what goes wrong writing to a pager is its user quitting it: not ours to say */
	pager_end();
	out = stdout;
out:
	if (text)
		fclose(text);
	if (out != stdout)
		fclose(out);
	if (out_tmp || a.output)
		status = cli_commit_output(out_tmp, a.output, status);
	free(out_tmp);
	sources_release(&ss);
	profile_free(p);
	view_args_release(&a.va);
	free(a.syms);
	return status;
}
