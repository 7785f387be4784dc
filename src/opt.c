// SPDX-License-Identifier: GPL-2.0-or-later
/* Command-line options read by table, and their --help written from it: see opt.h. */
#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"
#include "utf8.h"
#include "xalloc.h"

/* The column --help's texts begin at. */
#define HELP_COLUMN 30

void opt_one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

int opt_error(struct opt_state *st, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->err, st->errlen, fmt, ap);
	va_end(ap);
	opt_one_line(st->err);
	return -1;
}

int opt_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	opt_one_line(err);
	return -1;
}

int opt_noop(struct opt_state *st, const struct opt *o, const char *arg)
{
	(void)st;
	(void)o;
	(void)arg;
	return 0;
}

int opt_peek_number(const char *word)
{
	return word[0] >= '0' && word[0] <= '9';
}

int opt_say(const char *cmd, int ret, const char *err)
{
	if (ret >= 0)
		return ret;
	fprintf(stderr, "prof: %s; see 'prof %s --help'\n", err, cmd);
	return EXIT_USAGE;
}

/* A row found, and the context its fields are in. */
struct found {
	const struct opt *o;
	char *base;
	int n;		/* prefix matches */
	const struct opt *other;	/* a second prefix match, for the message */
};

/* The row whose short name is c. */
static int find_short(const struct opt *t, char *base, char c, struct found *f)
{
	for (; t->kind != OPT_KIND_END; t++) {
		if (t->kind == OPT_KIND_TABLE) {
			if (find_short(t->sub, base + t->off, c, f))
				return 1;
		} else if (t->short_name == c) {
			f->o = t;
			f->base = base;
			return 1;
		}
	}
	return 0;
}

/*
 * The row called name (len bytes): an exact match, else an unambiguous
 * prefix of a row shown in --help (perf's hidden spellings match only
 * whole). f->n counts the prefix matches.
 */
static int find_long(const struct opt *t, char *base, const char *name, size_t len,
		     struct found *f, int exact)
{
	for (; t->kind != OPT_KIND_END; t++) {
		if (t->kind == OPT_KIND_TABLE) {
			if (find_long(t->sub, base + t->off, name, len, f, exact))
				return 1;
			continue;
		}
		if (!t->long_name || strncmp(t->long_name, name, len))
			continue;
		if (exact && !t->long_name[len]) {
			f->o = t;
			f->base = base;
			return 1;
		}
		if (!exact && !(t->flags & OPT_HIDDEN)) {
			if (f->n++ == 0) {
				f->o = t;
				f->base = base;
			} else if (!f->other) {
				f->other = t;
			}
		}
	}
	return 0;
}

static int apply(const struct found *f, const char *name, const char *arg, char *err,
		 size_t errlen)
{
	const struct opt *o = f->o;
	struct opt_state st = { f->base, name, err, errlen };

	switch (o->kind) {
	case OPT_KIND_SET:
		*(int *)(void *)(f->base + o->off) = o->val;
		return 0;
	case OPT_KIND_STRING:
		*(const char **)(void *)(f->base + o->off) = arg;
		return 0;
	case OPT_KIND_CALL:
		return o->fn(&st, o, arg);
	case OPT_KIND_PERF:
		snprintf(err, errlen, "%s: %s", name, o->help);
		return -1;
	case OPT_KIND_HELP:
		return 1;
	default:
		snprintf(err, errlen, "option '%s' is not usable", name);
		return -1;
	}
}

/* The next word is the value of an optional one when the row's peek takes it. */
static int takes_next(const struct opt *o, int i, int argc, char **argv)
{
	if (!(o->flags & OPT_OPTIONAL))
		return i + 1 < argc;
	return o->peek && i + 1 < argc && o->peek(argv[i + 1]);
}

static int long_option(const struct opt *table, void *ctx, int *i, int argc, char **argv,
		       char *err, size_t errlen)
{
	const char *a = argv[*i] + 2, *eq = strchr(a, '='), *arg = NULL;
	size_t len = eq ? (size_t)(eq - a) : strlen(a);
	struct found f = { NULL, NULL, 0, NULL };
	char name[128];

	if (!find_long(table, ctx, a, len, &f, 1)) {
		find_long(table, ctx, a, len, &f, 0);
		if (f.n > 1) {
			snprintf(err, errlen, "option '--%.*s' is ambiguous: --%s or --%s", (int)len,
				 a, f.o->long_name, f.other->long_name);
			return -1;
		}
		if (!f.n) {
			snprintf(err, errlen, "unknown option '--%.*s'", (int)len, a);
			return -1;
		}
	}
	snprintf(name, sizeof(name), "--%s", f.o->long_name);
	if (eq) {
		if (!(f.o->flags & OPT_VALUE)) {
			snprintf(err, errlen, "option '%s' takes no value", name);
			return -1;
		}
		arg = eq + 1;
	} else if ((f.o->flags & OPT_VALUE) && takes_next(f.o, *i, argc, argv)) {
		arg = argv[++*i];
	} else if ((f.o->flags & OPT_VALUE) && !(f.o->flags & OPT_OPTIONAL)) {
		snprintf(err, errlen, "option '%s' needs a value", name);
		return -1;
	}
	return apply(&f, name, arg, err, errlen);
}

static int short_options(const struct opt *table, void *ctx, int *i, int argc, char **argv,
			 char *err, size_t errlen)
{
	for (const char *p = argv[*i] + 1; *p; p++) {
		struct found f = { NULL, NULL, 0, NULL };
		const char *arg = NULL;
		char name[3] = { '-', *p, '\0' };
		int ret;

		if (!find_short(table, ctx, *p, &f)) {
			if ((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f)
				snprintf(err, errlen, "unknown option '-%c'", *p);
			else
				snprintf(err, errlen, "unknown option '%s'", argv[*i]);
			return -1;
		}
		if (f.o->flags & OPT_VALUE) {
			if (p[1]) {
				arg = p + 1;
			} else if (takes_next(f.o, *i, argc, argv)) {
				arg = argv[++*i];
			} else if (!(f.o->flags & OPT_OPTIONAL)) {
				snprintf(err, errlen, "option '%s' needs a value", name);
				return -1;
			}
		}
		ret = apply(&f, name, arg, err, errlen);
		if (ret || arg)
			return ret;
	}
	return 0;
}

/*
 * A reason quotes what it refuses, which may hold anything: one line of
 * valid UTF-8 with no control character ('?' for each), in place.
 */
static void printable(char *err, size_t errlen)
{
	char *fixed = utf8_fix(err);
	size_t k = 0;

	for (const char *p = fixed; *p && k + 1 < errlen;) {
		int len = utf8_len(p);
		int c1 = len == 2 && (unsigned char)p[0] == 0xc2 && (unsigned char)p[1] < 0xa0;

		if ((unsigned char)*p < 0x20 || *p == 0x7f || c1) {
			err[k++] = '?';	/* C0, DEL and C1 */
		} else {
			if (k + (size_t)len >= errlen)
				break;
			memcpy(err + k, p, (size_t)len);
			k += (size_t)len;
		}
		p += len;
	}
	err[k] = '\0';
	free(fixed);
}

int opt_parse(const struct opt *table, void *ctx, unsigned flags, int argc, char **argv,
	      int *first, char *err, size_t errlen)
{
	char **words = xcalloc((size_t)argc + 1, sizeof(*words));
	int n = 0, i, ret = 0;

	for (i = 1; i < argc && !ret; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (a[0] != '-' || !a[1]) {
			if (flags & OPT_STOP_AT_WORD)
				break;
			words[n++] = argv[i];
			continue;
		}
		if (a[1] == '-')
			ret = long_option(table, ctx, &i, argc, argv, err, errlen);
		else
			ret = short_options(table, ctx, &i, argc, argv, err, errlen);
	}
	if (!ret) {
		/* the words, then what followed "--" or the first of them, at the end in order */
		for (; i < argc; i++)
			words[n++] = argv[i];
		if (n && (flags & OPT_NO_WORDS)) {
			snprintf(err, errlen, "unexpected argument '%s'", words[0]);
			ret = -1;
		}
	}
	if (!ret) {
		memcpy(argv + argc - n, words, (size_t)n * sizeof(*words));
		*first = argc - n;
	}
	if (ret < 0)
		printable(err, errlen);
	free(words);
	return ret;
}

static void usage_rows(FILE *out, const struct opt *t)
{
	for (; t->kind != OPT_KIND_END; t++) {
		char left[128];
		int len;

		if (t->kind == OPT_KIND_TABLE) {
			usage_rows(out, t->sub);
			continue;
		}
		if ((t->flags & OPT_HIDDEN) || !t->help)
			continue;
		len = snprintf(left, sizeof(left), "  %c%c%s%s%s%s%s%s%s",
			       t->short_name ? '-' : ' ', t->short_name ? t->short_name : ' ',
			       t->short_name && t->long_name ? ", " : "  ",
			       t->long_name ? "--" : "", t->long_name ? t->long_name : "",
			       !t->argh ? "" : (t->flags & OPT_OPTIONAL) ? "[=" : " ",
			       t->argh ? t->argh : "",
			       t->argh && (t->flags & OPT_OPTIONAL) ? "]" : "", "");
		fputs(left, out);
		for (const char *h = t->help; *h;) {
			size_t l = strcspn(h, "\n");

			if (len >= HELP_COLUMN - 1) {
				fputc('\n', out);
				len = 0;
			}
			fprintf(out, "%*s%.*s\n", HELP_COLUMN - len, "", (int)l, h);
			len = 0;
			h += l;
			if (*h)
				h++;
		}
	}
}

void opt_usage(FILE *out, const struct opt *table)
{
	usage_rows(out, table);
}
