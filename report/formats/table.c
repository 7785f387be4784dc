// SPDX-License-Identifier: GPL-2.0-or-later
/* The text format's flat view. See table.h. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "xalloc.h"

static const char *const key_titles[HIST_NKEYS] = {
	"Command", "Pid", "Tid", "Shared Object", "Symbol", "Source", "CPU", "Parallelism",
	"Data Object", "Data Symbol", "Cgroup", "Memory access", "TLB access", "Snoop", "Locked",
	"Blocked", "Local Weight", "Weight", "Local INSTR Latency", "cgroup id (dev/inode)",
	"Data Physical Address", "Data Page Size", "Code Page Size",
	"Source Shared Object", "Source Symbol", "Target Shared Object", "Target Symbol",
	"Basic Block Cycles", "Branch Mispredicted", "Transaction",
};

/*
 * A key's text in format_key_pieces()' pieces, without making it: a flat
 * view of many thousand rows measures each text once and writes it once,
 * and formatting and freeing every one twice was most of the cost of
 * writing it.
 */
static int key_pieces(const struct table_row *r, enum hist_key k, const char *p[5])
{
	return format_key_pieces(k, r->text[k], r->flags, r->inl_in, p);
}

static size_t key_len(const struct table_row *r, enum hist_key k)
{
	const char *p[5];
	int n = key_pieces(r, k, p);
	size_t len = 0;

	for (int i = 0; i < n; i++)
		len += strlen(p[i]);
	return len;
}

/*
 * "  " and the key's text, padded with spaces to w bytes (as "  %-*s"),
 * onto the line being made in *buf (*len of *cap used): one write a row.
 */
static void put_key(char **buf, size_t *len, size_t *cap, const struct table_row *r,
		    enum hist_key k, int w)
{
	const char *p[5];
	int n = key_pieces(r, k, p);
	size_t l[5], need = 2, at;

	for (int i = 0; i < n; i++)
		need += l[i] = strlen(p[i]);
	if ((int)need - 2 < w)
		need = (size_t)w + 2;
	*buf = xgrow(*buf, cap, *len + need, 1);
	at = *len;
	(*buf)[at++] = ' ';
	(*buf)[at++] = ' ';
	for (int i = 0; i < n; i++) {
		memcpy(*buf + at, p[i], l[i]);
		at += l[i];
	}
	memset(*buf + at, ' ', *len + need - at);
	*len += need;
}

void layout_table(const struct table *t, FILE *out)
{
	const struct hist_opts *ho = t->v->ho;
	int w[HIST_NKEYS] = { 0 }, nk = ho->nkeys;
	struct table_row r;
	char *line = NULL;
	size_t cap = 0;

	for (size_t i = 0; i < t->n; i++) {
		if (!t->row(t, i, &r))
			continue;
		for (int k = 0; k < nk; k++) {
			int len = (int)key_len(&r, ho->keys[k]);

			if (len > w[k])
				w[k] = len;
		}
	}
	for (int k = 0; k < nk; k++)
		if ((int)strlen(key_titles[ho->keys[k]]) > w[k])
			w[k] = (int)strlen(key_titles[ho->keys[k]]);
	fputs(t->titles, out);
	for (int k = 0; k < nk; k++)
		fprintf(out, "  %-*s", k + 1 < nk ? w[k] : 0, key_titles[ho->keys[k]]);
	if (t->rule) {
		fprintf(out, "\n%s", t->rule);
		for (int k = 0; k < nk; k++) {
			fputs("  ", out);
			for (int j = 0; j < w[k]; j++)
				putc('.', out);
		}
	}
	fputs("\n#\n", out);
	for (size_t i = 0; i < t->n; i++) {
		size_t len = 0;

		if (!t->row(t, i, &r))
			continue;
		t->values(t, i, out);
		for (int k = 0; k < nk; k++)
			put_key(&line, &len, &cap, &r, ho->keys[k], k + 1 < nk ? w[k] : 0);
		line = xgrow(line, &cap, len + 1, 1);
		line[len++] = '\n';
		fwrite(line, 1, len, out);
		if (t->under)
			t->under(t, i, out);
	}
	free(line);
}

