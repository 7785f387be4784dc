/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JSON output: a writer that keeps the text valid (escapes, UTF-8, commas)
 * and the report as doc/prof-report.schema.json describes it.
 */
#ifndef PROF_REPORT_JSON_H
#define PROF_REPORT_JSON_H

#include <stdint.h>
#include <stdio.h>

#include "ctree.h"

struct json {
	FILE *out;
	int depth;
	/* per open object or array: nothing written in it yet; its closing bracket.
	 * The report nests five levels at most: the tree is a flat node table. */
	unsigned char first[16];
	char close[16];
};

void json_begin(struct json *j, FILE *out);
void json_object(struct json *j, const char *key);	/* key NULL inside an array */
void json_array(struct json *j, const char *key);
void json_end(struct json *j);				/* closes the last object or array */
void json_string(struct json *j, const char *key, const char *v);	/* v NULL: null */
void json_u64(struct json *j, const char *key, uint64_t v);
void json_double(struct json *j, const char *key, double v);
void json_bool(struct json *j, const char *key, int v);
/* v as a JSON string, quoted and escaped (control bytes as \u00XX, bad UTF-8 as U+FFFD). */
void json_put_string(FILE *out, const char *v);
/* A small number to three significant digits (1e-12, 0.0316): a p-value. */
void json_prob(struct json *j, const char *key, double v);

/*
 * The stack tree from node id down, as an array of nodes {"name", "kind",
 * "parent", "samples", ...} in pre-order, "parent" the index of the
 * parent's node (null for the first, node id).
 */
void json_stacks(struct json *j, const char *key, const struct ctree *st, size_t id);

#endif
