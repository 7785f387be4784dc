// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A small JSON writer: the report's output is a tree of objects, arrays,
 * strings and numbers, which a library would not make shorter. Names come
 * from binaries and may be any bytes: strings are escaped, and bytes that
 * are not UTF-8 become U+FFFD, so that the output always parses.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include "json.h"
#include "utf8.h"
#include "xalloc.h"

void json_begin(struct json *j, FILE *out)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
	j->first[0] = 1;
}

static void put_string(FILE *out, const char *v)
{
	const unsigned char *s = (const unsigned char *)v;

	putc('"', out);
	while (*s) {
		int n = utf8_len((const char *)s);

		if (*s == '"' || *s == '\\') {
			putc('\\', out);
			putc(*s++, out);
		} else if (*s < 0x20) {
			fprintf(out, "\\u%04x", *s++);
		} else if (n == 0) {
			fputs("\\ufffd", out);
			s++;
		} else {
			fwrite(s, 1, (size_t)n, out);
			s += n;
		}
	}
	putc('"', out);
}

/* The separator and key before a value. */
static void lead(struct json *j, const char *key)
{
	if (!j->first[j->depth])
		putc(',', j->out);
	j->first[j->depth] = 0;
	putc('\n', j->out);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->out);
	if (key) {
		put_string(j->out, key);
		fputs(": ", j->out);
	}
}

static void open_with(struct json *j, const char *key, int c)
{
	if (j->depth)
		lead(j, key);
	putc(c, j->out);
	/* Deeper is cut off: the report nests five levels, see json.h. */
	if (j->depth + 1 < (int)sizeof(j->first))
		j->depth++;
	j->first[j->depth] = 1;
	j->close[j->depth] = c == '{' ? '}' : ']';
}

void json_object(struct json *j, const char *key)
{
	open_with(j, key, '{');
}

void json_array(struct json *j, const char *key)
{
	open_with(j, key, '[');
}

void json_end(struct json *j)
{
	int empty = j->first[j->depth];
	char c = j->close[j->depth];

	j->depth--;
	if (!empty) {
		putc('\n', j->out);
		for (int i = 0; i < j->depth; i++)
			fputs("  ", j->out);
	}
	putc(c, j->out);
	if (!j->depth)
		putc('\n', j->out);
}

void json_string(struct json *j, const char *key, const char *v)
{
	lead(j, key);
	if (v)
		put_string(j->out, v);
	else
		fputs("null", j->out);
}

void json_u64(struct json *j, const char *key, uint64_t v)
{
	lead(j, key);
	fprintf(j->out, "%" PRIu64, v);
}

void json_double(struct json *j, const char *key, double v)
{
	lead(j, key);
	if (isfinite(v))
		fprintf(j->out, "%.4f", v);
	else
		fputs("null", j->out);
}

void json_bool(struct json *j, const char *key, int v)
{
	lead(j, key);
	fputs(v ? "true" : "false", j->out);
}

static const char *const kinds[] = { "root", "user", "kernel", "inlined", "unknown" };

/*
 * One object per node, in pre-order (a parent before its children, the
 * root first), each naming its parent's index: the nesting stays at three
 * levels however deep the stacks, so that every JSON reader takes it (jq
 * 1.6 refuses 256 levels, Python's json 1000).
 */
void json_stacks(struct json *j, const char *key, const struct stacks *st, size_t id)
{
	/* index[node] = its place in the array; nodes are numbered from 1 */
	size_t count = 0, cap = stacks_count(st) + 2;
	size_t *index = xcalloc(cap, sizeof(*index));

	json_array(j, key);
	for (size_t at = id; at;) {
		const struct stacks_node *n = stacks_node(st, at);

		if (at < cap)
			index[at] = count;
		json_object(j, NULL);
		json_string(j, "name", n->name);
		json_string(j, "kind", kinds[n->kind]);
		if (at == id)
			json_string(j, "parent", NULL);
		else
			json_u64(j, "parent", n->parent < cap ? index[n->parent] : 0);
		json_u64(j, "samples", n->samples);
		json_u64(j, "self_samples", n->self_samples);
		json_u64(j, "period", n->period);
		json_u64(j, "self_period", n->self_period);
		json_end(j);
		count++;
		/* the next in pre-order: the first child, else the next sibling up the tree */
		if (n->first_child) {
			at = n->first_child;
			continue;
		}
		while (at && at != id && !stacks_node(st, at)->next_sibling)
			at = stacks_node(st, at)->parent;
		at = at && at != id ? stacks_node(st, at)->next_sibling : 0;
	}
	free(index);
	json_end(j);
}
