/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The functions of a Go program from its own table, .gopclntab, which Go
 * keeps in every binary, stripped or not (the runtime needs it for its
 * tracebacks): what `go tool nm` and pprof read where ELF has no symbols.
 */
#ifndef PROF_REPORT_GOSYM_H
#define PROF_REPORT_GOSYM_H

#include <stddef.h>
#include <stdint.h>

struct gofunc {
	uint64_t start, end;	/* the function's addresses (link time), end exclusive */
	const char *name;	/* NUL-terminated, inside the table given */
};

/*
 * Read the table tab (len bytes, as in the file) of the formats of Go
 * 1.2 to 1.23 (magic 0xfffffffb, 0xfffffffa, 0xfffffff0, 0xfffffff1),
 * little-endian, 4- or 8-byte pointers; text is the address of the
 * binary's .text, which Go 1.18 and later count from (0: the table's own
 * word for it, which a position-independent binary leaves unrelocated).
 * Returns the number of functions
 * and a malloc'ed array of them, sorted by address, in *out (the caller
 * frees it); 0 and *out NULL when tab is no such table or is damaged. A
 * name that does not end inside tab is left out with its function.
 */
size_t gosym_read(const unsigned char *tab, size_t len, uint64_t text, struct gofunc **out);

#endif
