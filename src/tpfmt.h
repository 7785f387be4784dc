/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Tracepoint formats, read from a profile's tracing data (the blob a
 * TRACING_DATA record carries: reader_tracing_data()), to show the raw
 * fields of tracepoint samples by name. Input is not trusted: every
 * offset and size is checked against the bytes there are.
 */
#ifndef PROF_TPFMT_H
#define PROF_TPFMT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct tpfmts;

/* The formats in tracing data; NULL when it holds none that could be read. */
struct tpfmts *tpfmts_parse(const unsigned char *data, size_t len);
void tpfmts_free(struct tpfmts *t);

/* "sched:sched_switch" for tracepoint id, NULL when unknown. */
const char *tpfmts_name(const struct tpfmts *t, uint64_t id);

/*
 * " field=value" for each field of the raw data of a sample of tracepoint
 * id but the common ones: strings as text (controls as '?'), integers in
 * decimal, other arrays in hex. 0, or -1 when id has no format here.
 */
int tpfmts_print(const struct tpfmts *t, uint64_t id, const unsigned char *raw, size_t len,
		 FILE *out);

#endif
