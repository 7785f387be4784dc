/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Command-line options as a table per command, in the manner of git's
 * parse-options: each row names an option, where its value goes, and its
 * line of --help. One parser reads every command's argv from its table,
 * and one printer writes the usage from the same rows, so that the two
 * cannot disagree. A table may join another (OPT_TABLE: the view options
 * that report, diff and script share), whose fields live in a struct
 * inside the command's.
 *
 * Rows flagged OPT_HIDDEN are the spellings of perf's fingers: accepted
 * with perf's meaning, or refused with one line naming what prof does
 * instead (OPT_PERF). They stay out of --help; the man pages list them.
 */
#ifndef PROF_OPT_H
#define PROF_OPT_H

#include <stddef.h>
#include <stdio.h>

#define EXIT_USAGE 64

struct opt;

/* What a callback sees: the context of its table, and where to say what is wrong. */
struct opt_state {
	void *ctx;		/* the command's struct, or the joined table's part of it */
	const char *name;	/* the option as typed: "-s", "--sort" */
	char *err;
	size_t errlen;
};

/*
 * A row's value arrived (NULL: an optional one did not). 0, or -1 after
 * opt_error().
 */
typedef int (*opt_fn)(struct opt_state *st, const struct opt *o, const char *arg);

enum opt_kind {
	OPT_KIND_END,
	OPT_KIND_SET,		/* int field = val */
	OPT_KIND_STRING,	/* const char * field = the value */
	OPT_KIND_CALL,		/* fn(st, o, value) */
	OPT_KIND_TABLE,		/* sub's rows, their fields from field's offset */
	OPT_KIND_PERF,		/* refused: help says what prof does instead */
	OPT_KIND_HELP,		/* -h, --help */
};

enum {
	OPT_VALUE = 1,		/* takes a value: --x V, --x=V, -xV, -x V */
	OPT_OPTIONAL = 2,	/* a value only as --x=V or -xV, or the next word where peek() takes it */
	OPT_HIDDEN = 4,		/* not in --help */
};

struct opt {
	enum opt_kind kind;
	char short_name;	/* 0: none */
	const char *long_name;	/* NULL: none */
	const char *argh;	/* the value's name in --help ("FILE") */
	unsigned flags;
	const char *help;	/* --help's text, lines split by \n; PERF: the refusal */
	size_t off;		/* SET, STRING: the field; TABLE: its context */
	int val;		/* SET: the value; CALL: for fn */
	opt_fn fn;
	int (*peek)(const char *word);	/* OPT_OPTIONAL: 1 when the next word is the value */
	const struct opt *sub;	/* TABLE */
};

#define OPT_END() { .kind = OPT_KIND_END }
#define OPT_SET(s, l, type, field, v, h) \
	{ .kind = OPT_KIND_SET, .short_name = (s), .long_name = (l), \
	  .off = offsetof(type, field), .val = (v), .help = (h) }
#define OPT_STRING(s, l, a, type, field, h) \
	{ .kind = OPT_KIND_STRING, .short_name = (s), .long_name = (l), .argh = (a), \
	  .flags = OPT_VALUE, .off = offsetof(type, field), .help = (h) }
#define OPT_CALL(s, l, a, f, v, h) \
	{ .kind = OPT_KIND_CALL, .short_name = (s), .long_name = (l), .argh = (a), \
	  .flags = OPT_VALUE, .fn = (f), .val = (v), .help = (h) }
#define OPT_CALL_FLAG(s, l, f, v, h) \
	{ .kind = OPT_KIND_CALL, .short_name = (s), .long_name = (l), .fn = (f), .val = (v), \
	  .help = (h) }
#define OPT_CALL_OPT(s, l, a, f, v, pk, h) \
	{ .kind = OPT_KIND_CALL, .short_name = (s), .long_name = (l), .argh = (a), \
	  .flags = OPT_VALUE | OPT_OPTIONAL, .fn = (f), .val = (v), .peek = (pk), .help = (h) }
#define OPT_TABLE(t, type, field) \
	{ .kind = OPT_KIND_TABLE, .sub = (t), .off = offsetof(type, field) }
/* Another table's rows, their fields in the same struct. */
#define OPT_JOIN(t) { .kind = OPT_KIND_TABLE, .sub = (t) }
#define OPT_HELP() \
	{ .kind = OPT_KIND_HELP, .short_name = 'h', .long_name = "help", .help = "this help" }

/*
 * perf's spellings, hidden rows. _V: with a value. NOOP: accepted, nothing
 * to do (what perf's option asks is what prof always does). PERF: refused,
 * why says what prof does instead.
 */
#define OPT_PERF_SET(s, l, type, field, v) \
	{ .kind = OPT_KIND_SET, .short_name = (s), .long_name = (l), .flags = OPT_HIDDEN, \
	  .off = offsetof(type, field), .val = (v) }
#define OPT_PERF_CALL(s, l, f, v) \
	{ .kind = OPT_KIND_CALL, .short_name = (s), .long_name = (l), .flags = OPT_HIDDEN, \
	  .fn = (f), .val = (v) }
#define OPT_PERF_CALL_V(s, l, f, v) \
	{ .kind = OPT_KIND_CALL, .short_name = (s), .long_name = (l), \
	  .flags = OPT_HIDDEN | OPT_VALUE, .fn = (f), .val = (v) }
#define OPT_PERF_CALL_OPT(s, l, f, v, pk) \
	{ .kind = OPT_KIND_CALL, .short_name = (s), .long_name = (l), \
	  .flags = OPT_HIDDEN | OPT_VALUE | OPT_OPTIONAL, .fn = (f), .val = (v), .peek = (pk) }
#define OPT_PERF_NOOP(s, l) \
	{ .kind = OPT_KIND_CALL, .short_name = (s), .long_name = (l), .flags = OPT_HIDDEN, \
	  .fn = opt_noop }
#define OPT_PERF_NOOP_V(s, l) \
	{ .kind = OPT_KIND_CALL, .short_name = (s), .long_name = (l), \
	  .flags = OPT_HIDDEN | OPT_VALUE, .fn = opt_noop }
#define OPT_PERF(s, l, why) \
	{ .kind = OPT_KIND_PERF, .short_name = (s), .long_name = (l), .flags = OPT_HIDDEN, \
	  .help = (why) }

enum {
	OPT_PERMUTE = 0,	/* options and words in any order (report, diff) */
	OPT_STOP_AT_WORD = 1,	/* the first word ends the options (record's command) */
	OPT_NO_WORDS = 2,	/* a word is an error: "unexpected argument" */
};

/*
 * Parse argv[1..argc-1] by table, into ctx. The words that are not
 * options are moved, in order, to argv[*first..argc-1]. Returns 0, 1 when
 * --help was asked (nothing printed), or -1 with a one-line reason in err
 * (no "prof: ", no hint to --help).
 */
int opt_parse(const struct opt *table, void *ctx, unsigned flags, int argc, char **argv,
	      int *first, char *err, size_t errlen);

/* The rows' lines of --help, the text beginning at column 30. */
void opt_usage(FILE *out, const struct opt *table);

/* For callbacks: the reason into st->err; returns -1. */
int opt_error(struct opt_state *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A one-line reason into err (errlen bytes), for checks outside a parse: returns -1. */
int opt_fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A reason made one line: a control byte an argument brought in (a newline) is '?'. */
void opt_one_line(char *s);

/* A callback that takes its option and does nothing. */
int opt_noop(struct opt_state *st, const struct opt *o, const char *arg);

/* A peek: the word is a number (starts with a digit). */
int opt_peek_number(const char *word);

/*
 * The usual ending of a command's parse: on -1, "prof: REASON; see 'prof
 * CMD --help'" on stderr. Returns EXIT_USAGE for -1, else ret.
 */
int opt_say(const char *cmd, int ret, const char *err);

#endif
