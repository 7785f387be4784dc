/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Libraries opened when a command first needs them, not at every start of
 * prof: libcurl (agent pushes), libmicrohttpd (agent and view serve),
 * capstone (annotate). Linked, they and what they need (gnutls, krb5,
 * ldap, ...) cost every run of prof 7 ms of the dynamic loader's CPU: a
 * sixth of a small report.
 *
 * A user keeps the functions in a struct of function pointers, in the
 * order of a table of their names, and fills it with dynlib_open().
 */
#ifndef PROF_DYNLIB_H
#define PROF_DYNLIB_H

#include <stddef.h>

/*
 * Open soname once (later calls give the first answer), and look up
 * names[0..n) into the n function pointers at fns. 0, or -1 and a line
 * for the user in err: what is missing and which package has it (pkg).
 * Safe from several threads.
 */
int dynlib_open(const char *soname, const char *pkg, const char *const *names, void *fns,
		size_t n, char *err, size_t errlen);

/*
 * Whether $DEBUGINFOD_URLS names servers to ask (set, not empty), as
 * libdebuginfod reads it. Until it does, libdebuginfod is not loaded at
 * all, by prof or by libdw: dynlib.c's dlopen() refuses it.
 */
int dynlib_debuginfod_wanted(void);

#endif
