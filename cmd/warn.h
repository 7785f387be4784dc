/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The warnings about a profile's input that every command reading one gives. */
#ifndef PROF_REPORT_WARN_H
#define PROF_REPORT_WARN_H

#include <stdint.h>

struct reader;
struct session;
struct symbols;

/*
 * Once the input is read, one line each on standard error for what was
 * passed over: a truncated end, compressed records that did not
 * decompress, records that could not be used (session_skipped() of ss;
 * without a session, nskip of them, the first at offset first, for
 * reason why), records ordered without rounds. verb says what the
 * command does with the rest ("reporting", "showing").
 */
void input_warnings(const char *input, const struct reader *rd, const struct session *ss,
		    uint64_t nskip, uint64_t first, const char *why, const char *verb);

/* The symbolizer's warnings, one line each; past 20 of them, one line counts the rest. */
void symbols_warnings_print(const struct symbols *sym);

#endif
