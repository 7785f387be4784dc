/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Numbers as printf spells them, without its cost: a report writes a few
 * per row, and glibc's conversion of a double was a tenth of the
 * instructions of a flat report.
 */
#ifndef PROF_NUMFMT_H
#define PROF_NUMFMT_H

#include <stddef.h>

/*
 * v as printf's "%*.2f" spells it with width w, into buf of len bytes
 * (NUMFMT_LEN is room for any percentage at any width up to 32): its
 * length, as snprintf's.
 */
#define NUMFMT_LEN 48
int numfmt_fixed2(char *buf, size_t len, int w, double v);

#endif
