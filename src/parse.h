/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Strict parsing of numbers from the command line and from /proc. */
#ifndef PROF_PARSE_H
#define PROF_PARSE_H

#include <stdint.h>

/*
 * Parse all of s as an unsigned decimal integer in [min, max].
 * Returns 0, -EINVAL when s is not a number (empty, sign, junk after it),
 * or -ERANGE when it is outside [min, max].
 */
int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* Parse all of s as a finite, non-negative decimal (seconds). 0 or -EINVAL. */
int parse_seconds(const char *s, double *out);

/*
 * Parse "1,2,3" into a new array of positive ints (pids or tids).
 * Returns 0 and stores *out (the caller frees it) and *nr, or -EINVAL and
 * points *bad at the first item that is not a positive int.
 */
int parse_id_list(const char *s, int **out, int *nr, const char **bad);

#endif
